package edit

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzInPlace: members and items slice out what encoding/json decodes as
// json.RawMessage, for any JSON, and never panic.
func FuzzInPlace(f *testing.F) {
	for _, s := range []string{
		`{"a": 1, "b" : [1, {"c": "d"}], "a": "x\u0041"}`,
		` [ 1 , "2" ,{"x":null}, [] ] `,
		`{"document": {"markdown": "# A\n"}, "files": [{"base64": "aGk="}]}`,
		"{\"\xff\": \"\xfe\"}",
		`{"a": 1,}`,
		`[1, 2`,
		`"x"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, list := members(b), items(b)
		var obj map[string]json.RawMessage
		if json.Unmarshal(b, &obj) == nil && obj != nil {
			got := map[string][]byte{}
			for _, m := range ms {
				got[m.name] = m.value
			}
			if len(got) != len(obj) {
				t.Fatalf("members %q, decoded %q", got, obj)
			}
			for k, v := range obj {
				if !bytes.Equal(got[k], v) {
					t.Fatalf("member %q: %q, decoded %q", k, got[k], v)
				}
			}
		}
		var arr []json.RawMessage
		if json.Unmarshal(b, &arr) == nil && arr != nil {
			if len(list) != len(arr) {
				t.Fatalf("items %q, decoded %q", list, arr)
			}
			for i := range arr {
				if !bytes.Equal(list[i], arr[i]) {
					t.Fatalf("item %d: %q, decoded %q", i, list[i], arr[i])
				}
			}
		}
	})
}
