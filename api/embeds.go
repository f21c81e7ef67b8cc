package api

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/importer"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/wire"
)

// GET /v1/spaces/{spaceId}/embed?url=… (getEmbedByUrlInSpace): how a page
// of the space shows a URL embedded, for a reader of the space. An address
// of the app is titled as GET /v1/urls/embed titles it, for the caller, and
// never fetched; any other is fetched through outbound (no private
// addresses unless the operator allows them), within embedTimeout and
// importer.MaxEmbedPageBytes, and read by importer.ReadEmbed. What a fetch
// found is kept for embedTTL (a failure, answered as a plain link, for
// embedFailTTL) and shared by every caller: it was fetched with no one's
// credentials.

const (
	// embedTimeout bounds reading an embed: the page and its oEmbed answer.
	embedTimeout = 8 * time.Second
	embedTTL     = time.Hour
	embedFailTTL = 5 * time.Minute
)

// keptEmbed is an embed read, and until when it is kept.
type keptEmbed struct {
	embed wire.Embed
	until time.Time
}

func (s *Server) getEmbedInSpace(w http.ResponseWriter, r *http.Request) error {
	if _, _, err := s.space(r, quire.RoleRead); err != nil {
		return err
	}
	u, err := resolvableURL(query(r).Get("url"))
	if err != nil {
		return err
	}
	if e, ok, err := s.appEmbed(r, u); ok || err != nil {
		if err != nil {
			return err
		}
		return writeJSON(w, http.StatusOK, e)
	}
	return writeJSON(w, http.StatusOK, s.readEmbed(r.Context(), u))
}

// appEmbed is the embed of u when it is an address of the app: a link
// titled with what it shows when the caller of r may read that, else with
// u. ok is false for any other address.
func (s *Server) appEmbed(r *http.Request, u *url.URL) (_ wire.Embed, ok bool, _ error) {
	if _, ok := quire.LocateAppURL(u, s.appHost()); !ok {
		return wire.Embed{}, false, nil
	}
	title := u.String()
	if found, err := s.contentAt(r, u); err == nil {
		title = embedTitle(found, title)
	} else if code := quire.ErrorCode(err); code != quire.CodeNotFound && code != quire.CodeForbidden {
		return wire.Embed{}, true, err
	}
	return wire.Embed{Type: "link", Title: title, Site: u.Hostname()}, true, nil
}

// readEmbed is how to embed u as its page says, kept for a while.
func (s *Server) readEmbed(ctx context.Context, u *url.URL) wire.Embed {
	key, now := u.String(), s.db.Now()
	if k, ok := s.embeds.Get(key); ok && now.Before(k.until) {
		return k.embed
	}
	f := s.fetcher
	if f.Timeout == 0 || f.Timeout > embedTimeout {
		f.Timeout = embedTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, embedTimeout)
	defer cancel()
	e, err := importer.ReadEmbed(ctx, f, u)
	until := now.Add(embedTTL)
	if err != nil {
		// Only the host: a query may hold someone's secret.
		s.log.Info("embed: the page could not be read", "host", u.Host, "err", err)
		until = now.Add(embedFailTTL)
	}
	out := wire.Embed{Type: e.Type, Title: e.Title, Site: e.Site, Icon: e.Icon, HTML: e.HTML}
	s.embeds.Add(key, keptEmbed{out, until}, 128+len(key)+len(out.Title)+len(out.Site)+len(out.Icon)+len(out.HTML))
	return out
}

// newEmbeds is the cache of embeds read.
func newEmbeds() *lru.Cache[string, keptEmbed] { return lru.New[string, keptEmbed]("api.embeds") }
