package quire

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckTranslationSettingsID(t *testing.T) {
	for v, ok := range map[string]bool{"main": true, "A_b-9": true, "": false, "a.b": false, "a b": false, "é": false,
		strings.Repeat("x", 100): true, strings.Repeat("x", 101): false} {
		if err := CheckTranslationSettingsID("id", v); (err == nil) != ok {
			t.Errorf("CheckTranslationSettingsID(%q) = %v, want accepted %v", v, err, ok)
		}
	}
}

func TestIsTranslationLanguage(t *testing.T) {
	for v, ok := range map[string]bool{"en": true, "pt-br": true, "zh-tw": true, "yue": true, "EN": false, "pt_BR": false, "": false} {
		if IsTranslationLanguage(v) != ok {
			t.Errorf("IsTranslationLanguage(%q) = %v", v, !ok)
		}
	}
}

// FuzzCheckDocument: any JSON value is accepted or refused with a 400 that
// names the instructions, never a panic, however deep.
func FuzzCheckDocument(f *testing.F) {
	for _, s := range []string{
		`{"object":"document","nodes":[]}`,
		`{"object":"document","data":{"schemaVersion":1},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"a","marks":[{"object":"mark","type":"bold"}]}]}]}]}`,
		`{"object":"document","nodes":[{"object":"text"}]}`,
		`null`, `[]`, `"doc"`, `{"object":"document","nodes":[{"object":"block","type":"p","nodes":[{"object":"inline","type":"link","nodes":[]}]}]}`,
		`{"object":"document","nodes":[` + strings.Repeat(`{"object":"block","type":"p","nodes":[`, 80) + strings.Repeat(`]}`, 80) + `]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		err := CheckDocument("instructions", v)
		if err != nil && (ErrorCode(err) != CodeInvalid || !strings.HasPrefix(ErrorMessage(err), "instructions")) {
			t.Fatalf("CheckDocument(%s): error %q (code %s)", s, err, ErrorCode(err))
		}
	})
}
