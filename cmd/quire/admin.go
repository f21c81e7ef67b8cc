package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

const adminUsage = `Usage:
  quire admin init --org TITLE --email E --name N
  quire admin add-user --org ORG_ID --email E --name N --role ROLE
  quire admin token create --email E
  quire admin login-link --email E [--public-url URL]
  quire admin verify-domain --org ORG_ID --domain D [--remove]
  quire admin backup FILE
  quire admin restore FILE [--force]
  quire admin gc [--gc-grace DURATION]

Each takes --data DIR and --db URL like quire serve, and prints JSON.
`

func admin(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, adminUsage)
		return errUsage
	}
	switch {
	case args[0] == "init":
		return adminInit(ctx, args[1:], stdout, stderr)
	case args[0] == "add-user":
		return adminAddUser(ctx, args[1:], stdout, stderr)
	case args[0] == "login-link":
		return adminLoginLink(ctx, args[1:], stdout, stderr)
	case args[0] == "verify-domain":
		return adminVerifyDomain(ctx, args[1:], stdout, stderr)
	case args[0] == "backup":
		return adminBackup(ctx, args[1:], stdout, stderr)
	case args[0] == "restore":
		return adminRestore(ctx, args[1:], stdout, stderr)
	case args[0] == "gc":
		return adminGC(ctx, args[1:], stdout, stderr)
	case args[0] == "token" && len(args) > 1 && args[1] == "create":
		return adminTokenCreate(ctx, args[2:], stdout, stderr)
	case args[0] == "token":
		fmt.Fprintf(stderr, "quire admin token takes one command: create\n\n%s", adminUsage)
		return errUsage
	case args[0] == "help" || args[0] == "-h" || args[0] == "-help" || args[0] == "--help":
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	fmt.Fprintf(stderr, "unknown admin command %q\n\n%s", args[0], adminUsage)
	return errUsage
}

// required reports the first required flag left empty.
func required(fs *flag.FlagSet, names ...string) error {
	for _, name := range names {
		if fs.Lookup(name).Value.String() == "" {
			return usageError(fs, fmt.Errorf("--%s is required", name))
		}
	}
	return nil
}

// parseAdmin adds the store flags to fs, parses args as parse does and
// checks that the flags names are set.
func parseAdmin(fs *flag.FlagSet, cfg *Config, args []string, stdout io.Writer, names ...string) (helped bool, err error) {
	cfg.storeFlags(fs)
	if helped, err := parse(fs, args, stdout); helped || err != nil {
		return helped, err
	}
	return false, required(fs, names...)
}

func withStore(ctx context.Context, cfg Config, fn func(db *store.DB) (any, error), stdout io.Writer) error {
	db, err := store.Open(ctx, cfg.DB, cfg.Data)
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer db.Close()
	out, err := fn(db)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	return enc.Encode(out)
}

type idJSON struct {
	ID string `json:"id"`
}

func checkEmailName(email, name string) error {
	return quire.FirstError(quire.CheckEmail("--email", quire.NormalizeEmail(email)), quire.CheckLen("--name", name, 1, 100))
}

func adminInit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin init", "quire admin init --org TITLE --email E --name N [--data DIR] [--db URL]", stderr)
	org := fs.String("org", "", "title of the new organization")
	email := fs.String("email", "", "e-mail address of its admin")
	name := fs.String("name", "", "display name of its admin")
	if helped, err := parseAdmin(fs, &cfg, args, stdout, "org", "email", "name"); helped || err != nil {
		return err
	}
	if err := quire.FirstError(quire.CheckLen("--org", *org, 2, 255), checkEmailName(*email, *name)); err != nil {
		return usageError(fs, err)
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		b, err := db.InitOrganization(ctx, *org, *email, *name)
		if err != nil {
			return nil, err
		}
		return struct {
			Organization idJSON `json:"organization"`
			User         idJSON `json:"user"`
			Token        string `json:"token,omitempty"`
		}{idJSON{b.Organization.ID}, idJSON{b.User.ID}, b.Token}, nil
	}, stdout)
}

func adminAddUser(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin add-user", "quire admin add-user --org ORG_ID --email E --name N --role ROLE [--data DIR] [--db URL]", stderr)
	org := fs.String("org", "", "id of the organization")
	email := fs.String("email", "", "e-mail address of the user; an existing user is added, not duplicated")
	name := fs.String("name", "", "display name of a new user")
	roleName := fs.String("role", "", "admin, create, review, edit, comment, read, or guest")
	if helped, err := parseAdmin(fs, &cfg, args, stdout, "org", "email", "name", "role"); helped || err != nil {
		return err
	}
	role, ok := quire.ParseRole(*roleName)
	if *roleName == "guest" {
		role, ok = quire.RoleGuest, true // ParseRole knows only the six named roles
	}
	if !ok {
		return usageError(fs, fmt.Errorf("--role: must be admin, create, review, edit, comment, read or guest"))
	}
	if err := checkEmailName(*email, *name); err != nil {
		return usageError(fs, err)
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		b, err := db.AddUser(ctx, *org, *email, *name, role)
		if err != nil {
			return nil, err
		}
		// No token for an account that belongs to other organizations too:
		// it would work there (see store.Bootstrap).
		return struct {
			User  idJSON `json:"user"`
			Token string `json:"token,omitempty"`
		}{idJSON{b.User.ID}, b.Token}, nil
	}, stdout)
}

func adminTokenCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin token create", "quire admin token create --email E [--data DIR] [--db URL]", stderr)
	email := fs.String("email", "", "e-mail address of the user")
	if helped, err := parseAdmin(fs, &cfg, args, stdout, "email"); helped || err != nil {
		return err
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		token, err := db.CreateTokenForEmail(ctx, *email)
		if err != nil {
			return nil, err
		}
		return map[string]string{"token": token}, nil
	}, stdout)
}

// adminLoginLink prints a one-time link that signs the user in to the app:
// for servers without an identity provider. It works once, for
// store.LoginLinkTTL.
func adminLoginLink(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin login-link", "quire admin login-link --email E [--public-url URL] [--data DIR] [--db URL]", stderr)
	email := fs.String("email", "", "e-mail address of the user")
	fs.StringVar(&cfg.PublicURL, "public-url", cfg.PublicURL, "URL the server is reached at (env QUIRE_PUBLIC_URL)")
	if helped, err := parseAdmin(fs, &cfg, args, stdout, "email"); helped || err != nil {
		return err
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		token, expires, err := db.CreateLoginLink(ctx, *email)
		if err != nil {
			return nil, err
		}
		return map[string]string{
			"url":       cfg.publicURL() + "/signin/link?token=" + url.QueryEscape(token),
			"expiresAt": expires.UTC().Format(time.RFC3339),
		}, nil
	}, stdout)
}

// adminVerifyDomain records, on the operator's word, that an organization
// owns an e-mail domain, as its TXT record would prove (dnscheck): its
// identity providers then sign in addresses there. --remove forgets the
// domain, however it was proved.
func adminVerifyDomain(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := defaultConfig()
	fs := newFlagSet("admin verify-domain", "quire admin verify-domain --org ORG_ID --domain D [--remove] [--data DIR] [--db URL]", stderr)
	org := fs.String("org", "", "id of the organization")
	domain := fs.String("domain", "", "the e-mail domain it owns, such as example.com")
	remove := fs.Bool("remove", false, "forget the domain instead: the organization's identity providers no longer sign in addresses there")
	if helped, err := parseAdmin(fs, &cfg, args, stdout, "org", "domain"); helped || err != nil {
		return err
	}
	*domain = strings.ToLower(strings.TrimSpace(*domain))
	if err := quire.CheckEmailDomain("--domain", *domain); err != nil {
		return usageError(fs, err)
	}
	return withStore(ctx, cfg, func(db *store.DB) (any, error) {
		if *remove {
			if _, err := db.RemoveVerifiedEmailDomain(ctx, *org, *domain); err != nil {
				return nil, err
			}
		} else if err := db.VerifyEmailDomain(ctx, *org, *domain, store.VerifiedByOperator); err != nil {
			return nil, err
		}
		verified, err := db.VerifiedEmailDomains(ctx, *org)
		if err != nil {
			return nil, err
		}
		domains := []string{}
		for _, d := range verified {
			domains = append(domains, d.Domain)
		}
		return struct {
			Organization    idJSON   `json:"organization"`
			VerifiedDomains []string `json:"verifiedDomains"`
		}{idJSON{*org}, domains}, nil
	}, stdout)
}
