package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiredocs/quire/api"
)

// TestOrgCreationSetting: --org-creation, or QUIRE_ORG_CREATION, is read
// and checked before the server touches its data folder.
func TestOrgCreationSetting(t *testing.T) {
	stdout, _, err := runCLI(t, "serve", "-help")
	if err != nil || !strings.Contains(stdout, "-org-creation") || !strings.Contains(stdout, "QUIRE_ORG_CREATION") {
		t.Errorf("serve -help (%v) does not tell of --org-creation:\n%s", err, stdout)
	}

	for _, args := range [][]string{{"--org-creation", "admins"}, {"--org-creation=Anyone"}} {
		data := filepath.Join(t.TempDir(), "data")
		_, stderr, err := runCLI(t, append(append([]string{"serve"}, args...), "--data", data)...)
		if !errors.Is(err, errUsage) || !strings.Contains(stderr, "--org-creation (env QUIRE_ORG_CREATION): must be anyone, members or none") {
			t.Errorf("serve %v: err %v, stderr:\n%s", args, err, stderr)
		}
		if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("serve %v touched the data folder (stat: %v)", args, err)
		}
	}

	for env, want := range map[string]api.OrgCreation{"": api.OrgCreationAnyone, "members": api.OrgCreationMembers, "none": api.OrgCreationNone} {
		t.Setenv("QUIRE_ORG_CREATION", env)
		cfg := defaultConfig()
		if got, err := cfg.orgCreation(); got != want || err != nil {
			t.Errorf("QUIRE_ORG_CREATION=%q: %q, %v; want %q", env, got, err, want)
		}
	}
	t.Setenv("QUIRE_ORG_CREATION", "everyone")
	cfg := defaultConfig()
	if _, err := cfg.orgCreation(); err == nil {
		t.Error("QUIRE_ORG_CREATION=everyone is accepted")
	}
}
