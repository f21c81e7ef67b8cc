package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/docs"
	"github.com/quiredocs/quire/store"
)

// demoMarker marks a data folder quire demo seeded: running it again serves
// the same content.
const demoMarker = ".quire-demo"

// The demo's people.
const (
	demoOwnerEmail    = "ada@demo.localhost"
	demoReviewerEmail = "grace@demo.localhost"
)

func demo(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	cfg.Data = "./quire-demo-data"
	if v := os.Getenv("QUIRE_DEMO_DATA"); v != "" {
		cfg.Data = v
	}
	fs := newFlagSet("demo", "quire demo [--addr HOST:PORT] [--data DIR] [--public-url URL]", stderr)
	fs.StringVar(&cfg.Addr, "addr", cfg.Addr, "address to listen on (env QUIRE_ADDR)")
	fs.StringVar(&cfg.Data, "data", cfg.Data, "data folder of the demo, kept apart from a real one (env QUIRE_DEMO_DATA)")
	fs.StringVar(&cfg.PublicURL, "public-url", cfg.PublicURL, "URL clients reach this server at; default http://ADDR (env QUIRE_PUBLIC_URL)")
	conns := limitFlags(fs)
	if helped, err := parse(fs, args, stdout); helped || err != nil {
		return err
	}
	cfg.DB = "" // always SQLite in its own folder
	if err := checkDemoFolder(cfg.Data); err != nil {
		return err
	}
	return serveStore(ctx, cfg, "anyone", conns, stdout, stderr, seedDemo)
}

// checkDemoFolder refuses a data folder that holds anything but a demo.
func checkDemoFolder(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, demoMarker)); err == nil {
		return nil
	}
	return fmt.Errorf("%s holds data that quire demo did not make: give the demo a folder of its own (--data)", dir)
}

// seedDemo fills an empty store with the demo (a store it seeded before is
// kept as it is) and prints where to look, with a fresh token and sign-in
// link.
func seedDemo(ctx context.Context, db *store.DB, blobs blob.Store, cfg Config, stdout io.Writer) error {
	b, err := db.InitIfEmpty(ctx, "Quire Demo", demoOwnerEmail, "Ada Lovelace")
	if err != nil {
		return err
	}
	var orgID, siteID string
	if b != nil {
		if orgID, siteID, err = fillDemo(ctx, db, blobs, b); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(cfg.Data, demoMarker), []byte(orgID+"\n"+siteID+"\n"), 0o600); err != nil {
			return err
		}
	} else {
		marker, err := os.ReadFile(filepath.Join(cfg.Data, demoMarker))
		if err != nil {
			return err
		}
		orgID, siteID, _ = strings.Cut(strings.TrimSpace(string(marker)), "\n")
	}
	owner, err := db.UserByEmail(ctx, demoOwnerEmail)
	if err != nil {
		return err
	}
	token, err := db.CreateLabeledToken(ctx, owner.ID, "quire demo")
	if err != nil {
		return err
	}
	link, _, err := db.CreateLoginLink(ctx, demoOwnerEmail)
	if err != nil {
		return err
	}
	base := cfg.publicURL()
	fmt.Fprintf(stdout, `Quire demo is serving (data in %s).

  App:      %s/o/%s
  Sign in:  %s/signin/link?token=%s  (once, within 15 minutes)
  Site:     %s/sites/%s/
  API:      %s/v1  with the token below

API token of Ada Lovelace, the organization's admin:

    %s

Try it:

    curl -H "Authorization: Bearer %s" %s/v1/orgs/%s/spaces

`, cfg.Data, base, orgID, base, url.QueryEscape(link), base, siteID, base, token, token, base, orgID)
	return nil
}

// fillDemo writes the demo's content into the organization b made: Quire's
// manual (docs/), imported as a space as any folder in GitBook's Git layout
// is, with an open change request under discussion, published as a site.
func fillDemo(ctx context.Context, db *store.DB, blobs blob.Store, b *store.Bootstrap) (orgID, siteID string, err error) {
	orgID = b.Organization.ID
	owner := b.User.ID
	reviewer, err := db.AddUser(ctx, orgID, demoReviewerEmail, "Grace Hopper", quire.RoleReview)
	if err != nil {
		return "", "", err
	}
	manual, err := docs.Files()
	if err != nil {
		return "", "", err
	}
	space, err := db.CreateSpace(ctx, orgID, store.NewSpace{Title: "Quire manual", Emoji: "📘"})
	if err != nil {
		return "", "", err
	}
	a := &authoring.Author{DB: db, Blobs: blobs}
	if _, err := a.ImportFolder(ctx, space, nil, owner, manual); err != nil {
		return "", "", fmt.Errorf("import the manual: %w", err)
	}
	if err := demoChangeRequest(ctx, db, space.ID, owner, reviewer.User.ID); err != nil {
		return "", "", err
	}
	site, err := db.CreateSite(ctx, orgID, store.NewSite{Type: quire.SiteBasic, Title: "Quire Docs", Visibility: quire.VisibilityPublic, SpaceIDs: []string{space.ID}})
	if err != nil {
		return "", "", err
	}
	published := true
	if _, err := db.UpdateSite(ctx, site.ID, store.SiteUpdate{Published: &published}); err != nil {
		return "", "", err
	}
	return orgID, site.ID, nil
}

// demoChangeRequest opens a change request on the first page of a space,
// with a discussion on it.
func demoChangeRequest(ctx context.Context, db *store.DB, spaceID, owner, reviewer string) error {
	c, err := db.CreateChangeRequest(ctx, spaceID, "Say where the data lives", owner)
	if err != nil {
		return err
	}
	_, err = db.EditChangeRequest(ctx, spaceID, c.ID, owner, func(now time.Time, t *content.Tree) (*content.Tree, error) {
		if len(t.Root) > 0 {
			p := t.Pages[t.Root[0]]
			p.Markdown += "\nEverything Quire keeps is in its data folder, `./quire-data` unless `--data` says otherwise.\n"
			p.UpdatedAt = now.UnixMicro()
		}
		return t, nil
	})
	if err != nil {
		return err
	}
	open := quire.StatusOpen
	if _, err := db.UpdateChangeRequest(ctx, spaceID, c.ID, store.ChangeRequestUpdate{Status: &open}); err != nil {
		return err
	}
	scope := store.CommentScope{SpaceID: spaceID, ChangeRequestID: c.ID}
	first, err := db.CreateComment(ctx, store.NewComment{CommentScope: scope, UserID: reviewer,
		Markdown: "Should this mention `--db` too? On PostgreSQL the data folder holds only the files."})
	if err != nil {
		return err
	}
	if _, err := db.CreateComment(ctx, store.NewComment{CommentScope: scope, UserID: owner, ParentID: first.ID,
		Markdown: "Good point: I'll add a sentence on PostgreSQL before merging."}); err != nil {
		return err
	}
	_, err = db.CreateComment(ctx, store.NewComment{CommentScope: scope, UserID: reviewer,
		Markdown: "Otherwise this reads well. Approving once that is in."})
	return err
}
