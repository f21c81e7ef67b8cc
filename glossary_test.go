package quire

import (
	"strings"
	"testing"
)

func TestCheckGlossaryTerms(t *testing.T) {
	for _, tc := range []struct {
		name  string
		terms map[string]string
		want  string // "" passes; else the message's start
	}{
		{"one term", map[string]string{"fr": "Espace"}, ""},
		{"several", map[string]string{"fr": "Espace", "de": "Bereich", "pt-br": "Espaço"}, ""},
		{"none", map[string]string{}, "t: must give the term"},
		{"not a language", map[string]string{"xx": "Espace"}, "t.xx: not a language"},
		{"first fault in sorted order", map[string]string{"zz": "a", "de": ""}, "t.de: must be 1 to 255"},
		{"blank", map[string]string{"fr": "   "}, "t.fr: must be 1 to 255"},
		{"too long", map[string]string{"fr": strings.Repeat("é", 256)}, "t.fr: must be 1 to 255"},
		{"longest", map[string]string{"fr": strings.Repeat("é", 255)}, ""},
		{"two lines", map[string]string{"fr": "a\nb"}, "t.fr: must be on one line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckGlossaryTerms("t", tc.terms)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckGlossaryTerms: %v", err)
				}
				return
			}
			if err == nil || ErrorCode(err) != CodeInvalid || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("CheckGlossaryTerms = %v, want %q…", err, tc.want)
			}
		})
	}
}
