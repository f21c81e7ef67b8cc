package quire_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/quiredocs/quire"
)

func TestCheckUTF8(t *testing.T) {
	for body, want := range map[string]string{
		`{"title":"x"}`:                           "",
		"{\"title\":\"\xff\"}":                    "body: must be valid UTF-8 at offset 10",
		`{"title":"\ud800"}`:                      "body: must be valid UTF-8: half a surrogate pair at offset 10",
		`{"title":"\udc00x"}`:                     "body: must be valid UTF-8: half a surrogate pair at offset 10",
		`{"title":"\ud83d\u0041"}`:                "body: must be valid UTF-8: half a surrogate pair at offset 10",
		`{"title":"\\\ud800"}`:                    "body: must be valid UTF-8: half a surrogate pair at offset 12",
		`{"title":"\ud83d\ude00 \\ud800 \uFFFD"}`: "",
	} {
		err := quire.CheckUTF8([]byte(body))
		if want == "" && err != nil || want != "" && (quire.ErrorCode(err) != quire.CodeInvalid || quire.ErrorMessage(err) != want) {
			t.Errorf("CheckUTF8(%s) = %v, want %q", body, err, want)
		}
	}
}

// FuzzCheckUTF8 holds CheckUTF8 to jsontext's own reading of a valid JSON
// text (RFC 7493: UTF-8, and escapes that decode to code points): for JSON
// that encoding/json accepts, the two agree.
func FuzzCheckUTF8(f *testing.F) {
	for _, s := range []string{`"a"`, `"\ud800"`, `"\ud83d\ude00"`, `"\\ud800"`, "\"\xff\"", `["\udc00", "\\"]`, `{"\ud800\u":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		strict := jsontext.Value(data).IsValid(jsontext.AllowDuplicateNames(true))
		err := quire.CheckUTF8(data)
		if (err == nil) != strict {
			t.Fatalf("CheckUTF8(%q) = %v, but jsontext says valid = %v", data, err, strict)
		}
		if err == nil && !utf8.Valid(data) {
			t.Fatalf("CheckUTF8 let %q through", data)
		}
	})
}
