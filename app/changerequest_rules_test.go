package app_test

import (
	"net/http"
	"testing"
)

// TestChangeRequestCustomMergeRule judges a custom merge rule in the app as
// the API does (authoring, on the API's shapes): its expression reads the
// request, the space's addresses and permissions, and the actor.
func TestChangeRequestCustomMergeRule(t *testing.T) {
	t.Parallel()
	w := newCRWorld(t)
	w.api(t, w.token, "PATCH", "/v1/spaces/"+w.space, map[string]any{"mergeRules": map[string]any{"type": "rules",
		"rules": []any{map[string]any{"rule": "custom", "message": "say Ship it",
			"expression": `changeRequest.subject == "Ship it" && space.permissions.merge && actor.id != "" && space.urls.location endsWith "/v1/spaces/" + space.id`}}}},
		http.StatusOK, nil)
	admin := w.signedIn(t, w.admin)

	a := admin.get(t, w.crPath)
	wantIn(t, "unmet", a.body, `id="unmet-rules"`, "custom: say Ship it")
	a = admin.post(t, w.crPath+"/merge", nil)
	wantStatus(t, "merge before the subject says so", a, http.StatusForbidden)
	wantIn(t, "refused", a.body, "Merge refused", "say Ship it")

	w.api(t, w.token, "PATCH", "/v1/spaces/"+w.space+"/change-requests/"+w.cr, map[string]any{"subject": "Ship it"}, http.StatusOK, nil)
	admin.get(t, w.crPath)
	a = admin.post(t, w.crPath+"/merge", nil)
	wantStatus(t, "merge once the rule is met", a, http.StatusSeeOther)
}
