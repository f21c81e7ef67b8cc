package quire

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseWebhookEvents(t *testing.T) {
	got, err := ParseWebhookEvents("events", []string{"comment.posted", "*", "comment.posted"})
	if err != nil || !slices.Equal(got, []WebhookEvent{EventCommentPosted, EventAll}) {
		t.Errorf("got %v, %v", got, err)
	}
	for _, bad := range [][]string{nil, {}, {"ping"}, {"Comment.Posted"}, {"comment.posted", ""}} {
		if _, err := ParseWebhookEvents("events", bad); ErrorCode(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "events") {
			t.Errorf("%q: %v, want 400 naming events", bad, err)
		}
	}
	w := Webhook{Events: []WebhookEvent{EventMemberLeft}}
	if !w.Subscribes(EventMemberLeft) || w.Subscribes(EventMemberJoined) {
		t.Error("Subscribes")
	}
	w.Events = []WebhookEvent{EventAll}
	if !w.Subscribes(EventSitePublished) {
		t.Error("* should subscribe to everything")
	}
}

// FuzzCheckWebhookURL: whatever a client sends, the check does not panic,
// and what it accepts is an absolute https URL with a host (http too when
// allowed), within bounds.
func FuzzCheckWebhookURL(f *testing.F) {
	for _, s := range []string{"https://example.com/hook", "http://10.0.0.1:8080/x?y=1", "https://[::1]/", "https://a/b#c", "ftp://x", "//x", "https:x", "https://user:pw@h/"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, plain bool) {
		if CheckWebhookURL("url", s, plain) != nil {
			return
		}
		u, err := url.Parse(s)
		if err != nil || u.Host == "" || utf8.RuneCountInString(s) > MaxWebhookURLLen || !(u.Scheme == "https" || plain && u.Scheme == "http") {
			t.Fatalf("accepted %q (plain %t)", s, plain)
		}
	})
}
