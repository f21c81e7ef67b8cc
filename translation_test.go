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

func TestCheckInstructions(t *testing.T) {
	t.Parallel()
	doc := `{ "object": "document", "data": {}, "nodes": [ {"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be brief. 1.50"}]}]} ] }`
	got, err := CheckInstructions("instructions", json.RawMessage(doc))
	want := `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be brief. 1.50"}]}]}]}`
	if err != nil || string(got) != want {
		t.Errorf("CheckInstructions = %s, %v; want %s", got, err, want)
	}
	for _, tt := range []struct {
		raw json.RawMessage
		msg string
	}{{nil, "instructions: is required"}, {json.RawMessage("null"), "instructions: is required"}, {json.RawMessage(`{"object":"x"}`), "instructions"}} {
		if _, err := CheckInstructions("instructions", tt.raw); !strings.Contains(errText(err), tt.msg) {
			t.Errorf("CheckInstructions(%s): %v, want %q", tt.raw, err, tt.msg)
		}
	}
}
