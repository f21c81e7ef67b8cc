package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestGitDeployKeyAPI: space admins get the space's deploy key (made on
// first request, the same after) and replace it; nobody else sees it. An
// ssh remote shows in git/info with its user and repository name.
func TestGitDeployKeyAPI(t *testing.T) {
	t.Parallel()
	e := newGitEnv(t)
	base := "/v1/spaces/" + e.space + "/git"
	editor, outsider := e.addUser(t, "edit", "Eddie Editor"), e.outsider(t)

	e.env.call(t, outsider.token, "GET", base+"/deploy-key", nil).want(t, http.StatusNotFound)
	e.env.call(t, editor.token, "GET", base+"/deploy-key", nil).want(t, http.StatusForbidden)
	e.env.call(t, editor.token, "POST", base+"/deploy-key", nil).want(t, http.StatusForbidden)
	first := e.env.call(t, e.admin.token, "GET", base+"/deploy-key", nil).want(t, http.StatusOK).JSON(t)
	key, _ := first["publicKey"].(string)
	if first["object"] != "git-deploy-key" || !strings.HasPrefix(key, "ssh-ed25519 ") || !strings.HasSuffix(key, " quire-space-"+e.space) ||
		!strings.HasPrefix(first["fingerprint"].(string), "SHA256:") || first["createdAt"] == nil {
		t.Errorf("deploy key = %v", first)
	}
	if strings.Contains(string(e.env.call(t, e.admin.token, "GET", base+"/deploy-key", nil).Body), "PRIVATE") {
		t.Error("the deploy key's answer shows its private half")
	}
	if again := e.env.call(t, e.admin.token, "GET", base+"/deploy-key", nil).want(t, http.StatusOK).JSON(t); again["publicKey"] != key {
		t.Errorf("deploy key changed between reads: %v, then %v", key, again["publicKey"])
	}
	rotated := e.env.call(t, e.admin.token, "POST", base+"/deploy-key", nil).want(t, http.StatusOK).JSON(t)
	if rotated["publicKey"] == key || !strings.HasPrefix(rotated["publicKey"].(string), "ssh-ed25519 ") {
		t.Errorf("rotated deploy key = %v, was %v", rotated["publicKey"], key)
	}
	if now := e.env.call(t, e.admin.token, "GET", base+"/deploy-key", nil).want(t, http.StatusOK).JSON(t); now["publicKey"] != rotated["publicKey"] {
		t.Errorf("deploy key after rotating = %v, want %v", now["publicKey"], rotated["publicKey"])
	}

	for url, want := range map[string][2]string{
		"ssh://git@gitlab.example.com:2222/acme/docs.git": {"ssh://git@gitlab.example.com:2222/acme/docs.git", "gitlab"},
		"git@github.com:acme/docs.git":                    {"git@github.com:acme/docs.git", "github"},
	} {
		e.call(t, e.admin.token, "POST", base+"/export", map[string]any{"url": url, "ref": "main", "commitMessage": "x"}).
			want(t, http.StatusNoContent)
		info := e.call(t, e.admin.token, "GET", base+"/info", nil).want(t, http.StatusOK).JSON(t)
		if info["url"] != want[0] || info["repoName"] != "acme/docs" || info["installationProvider"] != want[1] {
			t.Errorf("git/info of %s = url %v, repoName %v, provider %v", url, info["url"], info["repoName"], info["installationProvider"])
		}
	}
}
