package quire_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

func TestCheckMCPHeaders(t *testing.T) {
	t.Parallel()
	many := map[string]string{}
	for i := range quire.MaxMCPHeaders + 1 {
		many[strings.Repeat("x", i+1)] = "v"
	}
	for _, tc := range []struct {
		name    string
		headers map[string]string
		want    string // the error, "" for none
	}{
		{"none", nil, ""},
		{"a token", map[string]string{"Authorization": "Bearer t"}, ""},
		{"too many", many, "headers: must hold at most 32 headers"},
		{"a name with a colon", map[string]string{"X:Y": "v"}, `headers: "X:Y" is not a header name`},
		{"a name with a space", map[string]string{"X Y": "v"}, `headers: "X Y" is not a header name`},
		{"an empty name", map[string]string{"": "v"}, `headers: "" is not a header name`},
		{"an empty value", map[string]string{"X": ""}, "headers.X: must be 1 to 512 characters on one line"},
		{"a value of two lines", map[string]string{"X": "a\r\nb"}, "headers.X: must be 1 to 512 characters on one line"},
		{"a value too long", map[string]string{"X": strings.Repeat("v", 513)}, "headers.X: must be 1 to 512 characters on one line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := quire.CheckMCPHeaders("headers", tc.headers)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want || quire.ErrorCode(err) != quire.CodeInvalid) {
				t.Fatalf("CheckMCPHeaders = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestCheckMCPTransport(t *testing.T) {
	t.Parallel()
	for v, ok := range map[string]bool{"sse": true, "http": true, "": false, "ws": false} {
		if err := quire.CheckMCPTransport("transport", v); (err == nil) != ok {
			t.Errorf("CheckMCPTransport(%q) = %v", v, err)
		}
	}
}
