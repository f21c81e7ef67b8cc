package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
	"github.com/quiredocs/quire/webhook"
)

// received is one request a test receiver took, its signature checked.
type received struct {
	Delivery, Event string
	Verified        bool
	Payload         payloadOut
}

type payloadOut struct {
	ID           string `json:"id"`
	Event        string `json:"event"`
	CreatedAt    string `json:"createdAt"`
	Organization struct {
		ID string `json:"id"`
	} `json:"organization"`
	Space *struct {
		ID string `json:"id"`
	} `json:"space"`
	Resource struct {
		Object        string `json:"object"`
		ID            string `json:"id"`
		Number        int    `json:"number"`
		Status        string `json:"status"`
		Subject       string `json:"subject"`
		ChangeRequest string `json:"changeRequest"`
		Comment       string `json:"comment"`
		Role          string `json:"role"`
	} `json:"resource"`
	Revision string `json:"revision"`
	Actor    *struct {
		ID string `json:"id"`
	} `json:"actor"`
}

// receiver is an httptest server that webhooks deliver to. answer decides
// each answer (200 when nil); what it took is kept in order.
type receiver struct {
	*httptest.Server
	secret string
	mu     sync.Mutex
	got    []received
	answer func(r received, n int) int // n counts the requests of this delivery's event id, from 1
	tries  map[string]int
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{tries: map[string]int{}}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		secret := rc.secret
		rc.mu.Unlock()
		got := received{Delivery: r.Header.Get(webhook.HeaderDelivery), Event: r.Header.Get(webhook.HeaderEvent),
			Verified: webhook.Verify(secret, r.Header.Get(webhook.HeaderSignature), r.Header.Get(webhook.HeaderTimestamp), body, time.Now(), 5*time.Minute) == nil}
		if err := json.Unmarshal(body, &got.Payload); err != nil {
			t.Errorf("payload %s: %v", body, err)
		}
		rc.mu.Lock()
		rc.tries[got.Payload.ID]++
		n, answer := rc.tries[got.Payload.ID], rc.answer
		rc.got = append(rc.got, got)
		rc.mu.Unlock()
		status := http.StatusOK
		if answer != nil {
			status = answer(got, n)
		}
		if status == 0 { // hang until the sender gives up
			<-r.Context().Done()
			return
		}
		w.WriteHeader(status)
		w.Write([]byte("thanks"))
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) received() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.got)
}

func (rc *receiver) setAnswer(f func(r received, n int) int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.answer = f
}

type webhookOut struct {
	ID             string   `json:"id"`
	Object         string   `json:"object"`
	URL            string   `json:"url"`
	Events         []string `json:"events"`
	Space          *string  `json:"space"`
	Active         bool     `json:"active"`
	DisabledReason string   `json:"disabledReason"`
	Secret         string   `json:"secret"`
	URLs           struct {
		Location string `json:"location"`
	} `json:"urls"`
}

type deliveryOut struct {
	ID         string `json:"id"`
	Event      string `json:"event"`
	EventID    string `json:"eventId"`
	Status     string `json:"status"`
	Redelivery bool   `json:"redelivery"`
	Attempts   int    `json:"attempts"`
	Error      string `json:"error"`
	Response   *struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	} `json:"response"`
	Payload payloadOut `json:"payload"`
}

func (e *env) webhooksPath(rest string) string { return "/v1/orgs/" + e.org + "/webhooks" + rest }

// createWebhook subscribes rc to events and keeps the secret for it.
func (e *env) createWebhook(t *testing.T, rc *receiver, body map[string]any) webhookOut {
	t.Helper()
	body["url"] = rc.URL
	var w webhookOut
	e.call(t, e.admin.token, "POST", e.webhooksPath(""), body).want(t, http.StatusCreated).Decode(t, &w)
	if !strings.HasPrefix(w.Secret, webhook.SecretPrefix) || !w.Active || w.Object != "webhook" {
		t.Fatalf("created %+v", w)
	}
	rc.mu.Lock()
	rc.secret = w.Secret
	rc.mu.Unlock()
	return w
}

func (e *env) deliveries(t *testing.T, hookID string) []deliveryOut {
	t.Helper()
	var list listOut[deliveryOut]
	e.call(t, e.admin.token, "GET", e.webhooksPath("/"+hookID+"/deliveries"), nil).want(t, http.StatusOK).Decode(t, &list)
	return list.Items
}

// deliverer is a worker over db whose waits are short, for tests.
func deliverer(db *store.DB) *jobs.Deliverer {
	return &jobs.Deliverer{DB: db, Sealer: &webhook.Sealer{DB: db}, Fetcher: outbound.Fetcher{AllowPrivate: true, Timeout: 2 * time.Second},
		FirstRetry: time.Millisecond, MaxRetryDelay: 5 * time.Millisecond, Poll: 5 * time.Millisecond}
}

// deliverUntil runs the worker until done holds of what rc received.
func deliverUntil(t *testing.T, d *jobs.Deliverer, rc *receiver, done func([]received) bool) []received {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := d.DeliverDue(t.Context()); err != nil {
			t.Fatalf("deliver: %v", err)
		}
		got := rc.received()
		if done(got) {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting; received %+v", got)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func count(n int) func([]received) bool { return func(r []received) bool { return len(r) >= n } }

// TestWebhookEvents: each kind of change reaches a subscribed receiver,
// signed, with a payload naming the event, organization, space, resource,
// revision and actor; a webhook limited to a space hears only that space.
func TestWebhookEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc, narrow := newReceiver(t), newReceiver(t)
	hook := e.createWebhook(t, rc, map[string]any{"events": []string{"*"}, "description": "everything"})
	spaceID, crPath := e.newChangeRequest(t) // change_request.opened
	other := e.crSpace(t)
	narrowHook := e.createWebhook(t, narrow, map[string]any{"events": []string{"change_request.opened", "comment.posted"}, "space": other})
	if narrowHook.Space == nil || *narrowHook.Space != other {
		t.Fatalf("space %v", narrowHook.Space)
	}
	// The secret is shown once.
	var again webhookOut
	e.call(t, e.admin.token, "GET", hook.URLs.Location[len(testPublicURL):], nil).want(t, http.StatusOK).Decode(t, &again)
	if again.Secret != "" || again.ID != hook.ID {
		t.Fatalf("GET shows %+v", again)
	}

	e.call(t, e.admin.token, "PATCH", crPath, map[string]any{"subject": "Better edits"}).want(t, http.StatusOK) // updated
	e.author(t, e.admin.token, crPath, insertPage("", "# Guide\n\nHello.")).want(t, http.StatusOK)
	rev := e.cmMerge(t, e.admin.token, crPath) // merged, space.content_updated
	closing := e.cmNewCR(t, e.admin.token, spaceID)
	e.call(t, e.admin.token, "PATCH", closing, map[string]any{"status": "archived"}).want(t, http.StatusOK) // opened, closed
	e.cmNewCR(t, e.admin.token, other)                                                                      // opened, to both
	c := e.postComment(t, e.admin.token, "/v1/spaces/"+spaceID+"/comments", map[string]any{"body": md("Nice.")})
	e.postComment(t, e.admin.token, "/v1/spaces/"+spaceID+"/comments/"+c.ID+"/replies", map[string]any{"body": md("Thanks.")})
	e.putComment(t, e.admin.token, "/v1/spaces/"+spaceID+"/comments/"+c.ID, map[string]any{"resolved": true})
	var site struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/sites", map[string]any{"title": "Docs", "spaces": []string{spaceID}}).want(t, http.StatusCreated).Decode(t, &site)
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org+"/sites/"+site.ID, map[string]any{"published": true}).want(t, http.StatusOK)
	e.call(t, e.admin.token, "PATCH", "/v1/orgs/"+e.org+"/sites/"+site.ID, map[string]any{"published": false}).want(t, http.StatusOK)
	joiner := e.addUser(t, "edit", "Jo Joiner")
	e.call(t, e.admin.token, "DELETE", e.membersPath("/"+joiner.id), nil).want(t, http.StatusNoContent)

	want := []string{
		"change_request.opened", "change_request.updated", "change_request.merged", "space.content_updated",
		"change_request.opened", "change_request.closed", "change_request.opened",
		"comment.posted", "comment.replied", "comment.resolved",
		"site.published", "site.unpublished", "member.joined", "member.left",
	}
	d := deliverer(e.db)
	got := deliverUntil(t, d, rc, count(len(want)))
	deliverUntil(t, d, narrow, count(1))
	var names []string
	byEvent := map[string]received{}
	for _, r := range got {
		names = append(names, r.Event)
		byEvent[r.Event] = r
		if !r.Verified || r.Payload.Event != r.Event || r.Payload.Organization.ID != e.org || r.Delivery == "" {
			t.Errorf("%s: %+v", r.Event, r)
		}
	}
	// One sender sends in the order the changes were made.
	if !slices.Equal(names, want) {
		t.Errorf("events\n got %v\nwant %v", names, want)
	}
	merged, content := byEvent["change_request.merged"].Payload, byEvent["space.content_updated"].Payload
	if merged.Resource.Object != "change-request" || merged.Resource.Status != "merged" || merged.Resource.Subject != "Better edits" ||
		merged.Space == nil || merged.Space.ID != spaceID || merged.Actor == nil || merged.Actor.ID != e.admin.id {
		t.Errorf("merged payload %+v", merged)
	}
	if content.Resource.Object != "space" || content.Resource.ID != spaceID || content.Revision != rev {
		t.Errorf("content payload %+v, want revision %s", content, rev)
	}
	if reply := byEvent["comment.replied"].Payload; reply.Resource.Comment != c.ID || reply.Resource.Object != "comment" {
		t.Errorf("reply payload %+v", reply)
	}
	if left := byEvent["member.left"].Payload; left.Resource.ID != joiner.id || left.Actor.ID != e.admin.id || left.Space != nil {
		t.Errorf("left payload %+v", left)
	}
	if joined := byEvent["member.joined"].Payload; joined.Resource.Role != "edit" || joined.Actor.ID != joiner.id {
		t.Errorf("joined payload %+v", joined)
	}
	// The space's webhook heard only its space's opening.
	if n := narrow.received(); len(n) != 1 || n[0].Event != "change_request.opened" || n[0].Payload.Space.ID != other || !n[0].Verified {
		t.Errorf("narrow webhook received %+v", n)
	}
	// The log tells each delivery's outcome.
	log := e.deliveries(t, hook.ID)
	if len(log) != len(want) || log[0].Event != "member.left" || log[0].Status != "delivered" || log[0].Attempts != 1 ||
		log[0].Response == nil || log[0].Response.Status != 200 || log[0].Response.Body != "thanks" {
		t.Errorf("log %+v", log)
	}
}

// TestWebhookRetries: a delivery answered 500, or not answered in time, is
// tried again until delivered; the log shows the last attempt's outcome;
// one failing past its retry window is given up.
func TestWebhookRetries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t)
	hook := e.createWebhook(t, rc, map[string]any{"events": []string{"change_request.opened", "change_request.updated"}})
	rc.setAnswer(func(r received, n int) int {
		switch {
		case r.Event == "change_request.opened" && n <= 2:
			return http.StatusInternalServerError
		case r.Event == "change_request.updated" && n == 1:
			return 0 // hang: the sender times out
		}
		return http.StatusOK
	})
	_, crPath := e.newChangeRequest(t)
	e.call(t, e.admin.token, "PATCH", crPath, map[string]any{"subject": "Again"}).want(t, http.StatusOK)
	d := deliverer(e.db)
	d.Fetcher.Timeout = 200 * time.Millisecond
	got := deliverUntil(t, d, rc, count(5))
	var names []string
	for _, r := range got {
		names = append(names, r.Event)
	}
	want := []string{"change_request.opened", "change_request.opened", "change_request.opened", "change_request.updated", "change_request.updated"}
	if !slices.Equal(names, want) {
		t.Errorf("attempts %v, want %v", names, want)
	}
	log := e.deliveries(t, hook.ID)
	if len(log) != 2 || log[0].Status != "delivered" || log[0].Attempts != 2 || log[1].Status != "delivered" || log[1].Attempts != 3 {
		t.Errorf("log %+v", log)
	}

	// Past its window a failing delivery is given up.
	rc.setAnswer(func(received, int) int { return http.StatusBadGateway })
	e.call(t, e.admin.token, "PATCH", crPath, map[string]any{"subject": "Once more"}).want(t, http.StatusOK)
	d.RetryFor = 30 * time.Millisecond
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := d.DeliverDue(t.Context()); err != nil {
			t.Fatal(err)
		}
		if log = e.deliveries(t, hook.ID); log[0].Status == "failed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not given up: %+v", log[0])
		}
		time.Sleep(2 * time.Millisecond)
	}
	if log[0].Response == nil || log[0].Response.Status != http.StatusBadGateway || !strings.Contains(log[0].Error, "502") || log[0].Attempts < 1 {
		t.Errorf("failed delivery %+v", log[0])
	}
}

// TestWebhookOrderPerResource: while a resource's event is being retried,
// its later events wait; another resource's do not.
func TestWebhookOrderPerResource(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t)
	e.createWebhook(t, rc, map[string]any{"events": []string{"*"}})
	var mu sync.Mutex
	failing := true
	rc.setAnswer(func(r received, _ int) int {
		mu.Lock()
		defer mu.Unlock()
		if failing && r.Event == "change_request.opened" && r.Payload.Resource.Subject == "First" {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	spaceID := e.crSpace(t)
	var first, second struct{ ID string }
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "First"}).want(t, http.StatusCreated).Decode(t, &first)
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Second"}).want(t, http.StatusCreated).Decode(t, &second)
	for _, s := range []string{"a", "b", "c"} {
		e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+spaceID+"/change-requests/"+first.ID, map[string]any{"subject": s}).want(t, http.StatusOK)
	}
	d := deliverer(e.db)
	// First's opening fails again and again; Second's opening goes through,
	// and none of First's updates is sent.
	got := deliverUntil(t, d, rc, func(r []received) bool {
		fails := 0
		for _, x := range r {
			if x.Payload.Resource.Subject == "First" {
				fails++
			}
		}
		return fails >= 3
	})
	for _, r := range got {
		if r.Payload.Resource.ID == first.ID && r.Event != "change_request.opened" {
			t.Fatalf("%s of the first request sent before its opening was delivered", r.Event)
		}
	}
	if !slices.ContainsFunc(got, func(r received) bool { return r.Payload.Resource.ID == second.ID }) {
		t.Errorf("the second request's opening waited for the first's")
	}
	mu.Lock()
	failing = false
	mu.Unlock()
	got = deliverUntil(t, d, rc, func(r []received) bool { return r[len(r)-1].Payload.Resource.Subject == "c" })
	var subjects []string
	for _, r := range got {
		if r.Payload.Resource.ID == first.ID {
			subjects = append(subjects, r.Payload.Resource.Subject)
		}
	}
	if subjects = slices.Compact(subjects); !slices.Equal(subjects, []string{"First", "a", "b", "c"}) {
		t.Errorf("the first request's events arrived as %v", subjects)
	}
}

// TestWebhookSurvivesRestart: deliveries queued by a server that stops
// before sending them are sent by the next one.
func TestWebhookSurvivesRestart(t *testing.T) {
	t.Parallel()
	url, dir := storetest.URL(t), t.TempDir()
	db, err := store.Open(t.Context(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	e := serverOn(t, db)
	e.initOrg(t)
	rc := newReceiver(t)
	e.createWebhook(t, rc, map[string]any{"events": []string{"change_request.opened"}})
	e.newChangeRequest(t)
	e.newChangeRequest(t)
	db.Close()

	db2, err := store.Open(t.Context(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	got := deliverUntil(t, deliverer(db2), rc, count(2))
	if len(got) != 2 || !got[0].Verified || !got[1].Verified || got[0].Payload.ID == got[1].Payload.ID {
		t.Errorf("after restart received %+v", got)
	}
}

// TestWebhookTwoServers: workers of two servers on one database, running
// at once, deliver each event once.
func TestWebhookTwoServers(t *testing.T) {
	t.Parallel()
	url, dir := storetest.URL(t), t.TempDir()
	db1, err := store.Open(t.Context(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db1.Close()
	db2, err := store.Open(t.Context(), url, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	e := serverOn(t, db1)
	e.initOrg(t)
	rc := newReceiver(t)
	e.createWebhook(t, rc, map[string]any{"events": []string{"*"}})
	spaceID := e.crSpace(t)
	const n = 30
	for i := range n {
		e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": string(rune('A' + i))}).want(t, http.StatusCreated)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	for _, db := range []*store.DB{db1, db2} {
		d := deliverer(db)
		d.Senders = 3
		wg.Go(func() { d.Run(ctx) })
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(rc.received()) < n && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // room for a duplicate to show
	cancel()
	wg.Wait()
	seen := map[string]int{}
	for _, r := range rc.received() {
		seen[r.Delivery]++
		if seen[r.Delivery] > 1 {
			t.Errorf("delivery %s sent twice", r.Delivery)
		}
	}
	if len(seen) != n {
		t.Errorf("%d deliveries, want %d", len(seen), n)
	}
}

// TestWebhookTurnedOff: a webhook that keeps failing is turned off with
// the reason, its pending deliveries given up and no new ones queued; PATCH
// active true turns it on again.
func TestWebhookTurnedOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t)
	hook := e.createWebhook(t, rc, map[string]any{"events": []string{"change_request.opened"}})
	rc.setAnswer(func(received, int) int { return http.StatusInternalServerError })
	spaceID := e.crSpace(t)
	e.cmNewCR(t, e.admin.token, spaceID)
	e.cmNewCR(t, e.admin.token, spaceID)
	d := deliverer(e.db)
	d.Disable = store.DisablePolicy{Failures: 4, After: 0}
	deliverUntil(t, d, rc, count(4))
	var got webhookOut
	e.call(t, e.admin.token, "GET", e.webhooksPath("/"+hook.ID), nil).want(t, http.StatusOK).Decode(t, &got)
	if got.Active || !strings.Contains(got.DisabledReason, "4 failed attempts") || !strings.Contains(got.DisabledReason, "500") {
		t.Fatalf("after failures: %+v", got)
	}
	for _, dl := range e.deliveries(t, hook.ID) {
		if dl.Status != "failed" {
			t.Errorf("delivery %+v", dl)
		}
	}
	e.cmNewCR(t, e.admin.token, spaceID)
	if n := len(e.deliveries(t, hook.ID)); n != 2 {
		t.Errorf("%d deliveries queued for a webhook turned off", n)
	}
	e.call(t, e.admin.token, "POST", e.webhooksPath("/"+hook.ID+"/test"), nil).wantError(t, http.StatusConflict, "turned off")

	rc.setAnswer(nil)
	got = webhookOut{}
	e.call(t, e.admin.token, "PATCH", e.webhooksPath("/"+hook.ID), map[string]any{"active": true}).want(t, http.StatusOK).Decode(t, &got)
	if !got.Active || got.DisabledReason != "" {
		t.Fatalf("turned on: %+v", got)
	}
	e.cmNewCR(t, e.admin.token, spaceID)
	before := len(rc.received())
	deliverUntil(t, d, rc, count(before+1))
}

// TestWebhookPingAndRedeliver: test sends a ping; redeliver sends a
// delivery again as a new one of the same event.
func TestWebhookPingAndRedeliver(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t)
	hook := e.createWebhook(t, rc, map[string]any{"events": []string{"member.joined"}})
	var ping deliveryOut
	res := e.call(t, e.admin.token, "POST", e.webhooksPath("/"+hook.ID+"/test"), nil).want(t, http.StatusAccepted)
	res.Decode(t, &ping)
	if ping.Event != "ping" || ping.Status != "pending" || ping.Payload.Actor.ID != e.admin.id || res.Header.Get("Location") == "" {
		t.Fatalf("ping %+v", ping)
	}
	d := deliverer(e.db)
	got := deliverUntil(t, d, rc, count(1))
	if got[0].Event != "ping" || !got[0].Verified || got[0].Delivery != ping.ID {
		t.Fatalf("received %+v", got[0])
	}
	var again deliveryOut
	e.call(t, e.admin.token, "POST", e.webhooksPath("/"+hook.ID+"/deliveries/"+ping.ID+"/redeliver"), nil).want(t, http.StatusAccepted).Decode(t, &again)
	if again.ID == ping.ID || again.EventID != ping.EventID || !again.Redelivery {
		t.Fatalf("redelivery %+v of %+v", again, ping)
	}
	got = deliverUntil(t, d, rc, count(2))
	if got[1].Delivery != again.ID || got[1].Payload.ID != got[0].Payload.ID {
		t.Errorf("redelivered %+v", got[1])
	}
	var one deliveryOut
	e.call(t, e.admin.token, "GET", e.webhooksPath("/"+hook.ID+"/deliveries/"+again.ID), nil).want(t, http.StatusOK).Decode(t, &one)
	if one.Status != "delivered" || one.Attempts != 1 {
		t.Errorf("redelivery after sending %+v", one)
	}
	e.call(t, e.admin.token, "POST", e.webhooksPath("/"+hook.ID+"/deliveries/nope/redeliver"), nil).wantError(t, http.StatusNotFound, "delivery")
}

// TestWebhookAPI: only organization admins manage webhooks (404 outside,
// 403 inside); bad input is 400 naming the field and changes nothing;
// https is required unless the operator allows private addresses.
func TestWebhookAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t)
	hook := e.createWebhook(t, rc, map[string]any{"events": []string{"comment.posted"}})
	editor, outsider := e.addUser(t, "edit", "Eddie Editor"), e.outsider(t)
	paths := []string{"", "/" + hook.ID, "/" + hook.ID + "/deliveries"}
	for _, p := range paths {
		e.call(t, outsider.token, "GET", e.webhooksPath(p), nil).wantError(t, http.StatusNotFound, "organization")
		e.call(t, editor.token, "GET", e.webhooksPath(p), nil).wantError(t, http.StatusForbidden, "admin")
	}
	e.call(t, editor.token, "DELETE", e.webhooksPath("/"+hook.ID), nil).wantError(t, http.StatusForbidden)
	e.call(t, editor.token, "POST", e.webhooksPath("/"+hook.ID+"/test"), nil).wantError(t, http.StatusForbidden)
	// Another organization's admin cannot reach it through their own.
	other := e.otherOrg(t)
	other.call(t, other.admin.token, "GET", other.webhooksPath("/"+hook.ID), nil).wantError(t, http.StatusNotFound, "webhook")

	foreignSpace := other.crSpace(t)
	for _, c := range []struct {
		body  map[string]any
		field string
	}{
		{map[string]any{"events": []string{"*"}}, "url"},
		{map[string]any{"url": rc.URL}, "events"},
		{map[string]any{"url": rc.URL, "events": []string{}}, "events"},
		{map[string]any{"url": rc.URL, "events": []string{"comment.posted", "page.eaten"}}, "events[1]"},
		{map[string]any{"url": "ftp://example.com/x", "events": []string{"*"}}, "url"},
		{map[string]any{"url": "/relative", "events": []string{"*"}}, "url"},
		{map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2100), "events": []string{"*"}}, "url"},
		{map[string]any{"url": rc.URL, "events": []string{"*"}, "space": foreignSpace}, "space"},
		{map[string]any{"url": rc.URL, "events": []string{"*"}, "description": strings.Repeat("d", 300)}, "description"},
		{map[string]any{"url": rc.URL, "events": "comment.posted"}, "events"},
	} {
		e.call(t, e.admin.token, "POST", e.webhooksPath(""), c.body).wantError(t, http.StatusBadRequest, c.field)
	}
	e.call(t, e.admin.token, "PATCH", e.webhooksPath("/"+hook.ID), map[string]any{"events": []string{"nope"}}).wantError(t, http.StatusBadRequest, "events[0]")
	e.call(t, e.admin.token, "PATCH", e.webhooksPath("/"+hook.ID), map[string]any{"url": nil}).wantError(t, http.StatusBadRequest, "url")
	e.call(t, e.admin.token, "PATCH", e.webhooksPath("/"+hook.ID), map[string]any{"active": "yes"}).wantError(t, http.StatusBadRequest, "active")
	var list listOut[webhookOut]
	e.call(t, e.admin.token, "GET", e.webhooksPath("?limit=1"), nil).want(t, http.StatusOK).Decode(t, &list)
	if list.Count != 1 || len(list.Items) != 1 || list.Items[0].Events[0] != "comment.posted" {
		t.Fatalf("list %+v", list)
	}

	// PATCH changes what is given; space null is every space again.
	spaceID := e.crSpace(t)
	var got webhookOut
	e.call(t, e.admin.token, "PATCH", e.webhooksPath("/"+hook.ID), map[string]any{"events": []string{"comment.posted", "comment.posted", "member.left"}, "space": spaceID}).
		want(t, http.StatusOK).Decode(t, &got)
	if !slices.Equal(got.Events, []string{"comment.posted", "member.left"}) || got.Space == nil || *got.Space != spaceID || got.URL != rc.URL {
		t.Errorf("patched %+v", got)
	}
	e.call(t, e.admin.token, "PATCH", e.webhooksPath("/"+hook.ID), map[string]any{"space": nil}).want(t, http.StatusOK).Decode(t, &got)
	if got.Space != nil {
		t.Errorf("space %v after null", *got.Space)
	}

	// Without the operator's leave, only https URLs.
	strict := api.New(e.db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: t.TempDir()}})
	se := &env{db: e.db, srv: strict, org: e.org, admin: e.admin}
	se.call(t, e.admin.token, "POST", e.webhooksPath(""), map[string]any{"url": rc.URL, "events": []string{"*"}}).wantError(t, http.StatusBadRequest, "url: must be an https URL")
	se.call(t, e.admin.token, "POST", e.webhooksPath(""), map[string]any{"url": "https://hooks.example.com/quire", "events": []string{"*"}}).want(t, http.StatusCreated)

	// At most 20 webhooks; the strict server made one.
	for range 18 {
		e.call(t, e.admin.token, "POST", e.webhooksPath(""), map[string]any{"url": rc.URL, "events": []string{"*"}}).want(t, http.StatusCreated)
	}
	e.call(t, e.admin.token, "POST", e.webhooksPath(""), map[string]any{"url": rc.URL, "events": []string{"*"}}).wantError(t, http.StatusConflict, "20 webhooks")

	e.call(t, e.admin.token, "DELETE", e.webhooksPath("/"+hook.ID), nil).want(t, http.StatusNoContent)
	e.call(t, e.admin.token, "GET", e.webhooksPath("/"+hook.ID), nil).wantError(t, http.StatusNotFound, "webhook")
	e.call(t, e.admin.token, "GET", e.webhooksPath("/"+hook.ID+"/deliveries"), nil).wantError(t, http.StatusNotFound, "webhook")
}
