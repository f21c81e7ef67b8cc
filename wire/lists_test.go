package wire_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/wire"
)

// TestListJSONAppend: the envelope appended by hand (comments) is byte for
// byte the one encoding/json writes for every other list.
func TestListJSONAppend(t *testing.T) {
	tests := []struct {
		name string
		list wire.List[int]
	}{
		{"empty", wire.List[int]{Items: []int{}}},
		{"nil items", wire.List[int]{}},
		{"one", wire.List[int]{Items: []int{7}, Count: 1}},
		{"next", wire.List[int]{Items: []int{1, 2, 3}, Count: 10, Next: &wire.Next{Page: "eyJrIjoiYSJ9_-"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.list
			if want.Items == nil { // AppendJSON writes [] for none, as ListOf makes them
				want.Items = []int{}
			}
			b, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			got := tt.list.AppendJSON(nil, func(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) })
			if diff := cmp.Diff(string(b), string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLinkListJSON: the embedded envelope comes first, stats after it.
func TestLinkListJSON(t *testing.T) {
	out := wire.LinkList{List: wire.List[wire.Link]{Items: []wire.Link{}, Count: 0, Next: &wire.Next{Page: "p"}}, Stats: wire.LinkStats{Total: 2}}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"items":[],"count":0,"next":{"page":"p"},"stats":{"total":2,"broken":{"total":0,"changeRequest":0}}}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
