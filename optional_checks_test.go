package quire

import "testing"

func TestOptionalChecks(t *testing.T) {
	absent, null := Optional[string]{}, Optional[string]{Set: true, Null: true}
	short, good := Optional[string]{Set: true, Value: "a"}, Optional[string]{Set: true, Value: "abc"}
	atLeast2 := func(v string) error { return CheckLen("f", v, 2, 10) }
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"len absent", CheckOptionalLen("f", absent, 2, 10), ""},
		{"len null", CheckOptionalLen("f", null, 2, 10), "f: must be a string"},
		{"len short", CheckOptionalLen("f", short, 2, 10), "f: must be 2 to 10 characters"},
		{"len good", CheckOptionalLen("f", good, 2, 10), ""},
		{"removable null", CheckRemovable(null, atLeast2), ""},
		{"removable short", CheckRemovable(short, atLeast2), "f: must be 2 to 10 characters"},
		{"bool null", CheckOptionalBool("b", Optional[bool]{Set: true, Null: true}), "b: must be a boolean"},
		{"bool given", CheckOptionalBool("b", Optional[bool]{Set: true, Value: true}), ""},
	} {
		if got := ""; tt.err != nil {
			got = ErrorMessage(tt.err)
			if got != tt.want {
				t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
			}
		} else if tt.want != "" {
			t.Errorf("%s: nil, want %q", tt.name, tt.want)
		}
	}
	if absent.Ptr() != nil || *null.Ptr() != "" || *good.Ptr() != "abc" {
		t.Error("Ptr: want nil when absent, zero when null, the value when given")
	}
}
