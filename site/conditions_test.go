package site

import "testing"

func TestSees(t *testing.T) {
	conds := newConditions()
	beta := &Visitor{Claims: map[string]any{"beta": true}, Unsigned: map[string]any{"lang": "fr"}, conds: conds}
	beta.env = beta.buildEnv()
	for _, tc := range []struct {
		name string
		v    *Visitor
		cond string
		want bool
	}{
		{"no condition, nobody", nil, "", true},
		{"condition, nobody", nil, "true", false},
		{"member", &Visitor{Member: true}, "visitor.claims.beta", true},
		{"member, condition that does not compile", &Visitor{Member: true}, "nope ==", true},
		{"anonymous", &Visitor{}, "visitor.claims.beta", false},
		{"anonymous, negation of a missing claim", &Visitor{}, "visitor.claims.beta != true", true},
		{"signed claim", beta, "visitor.claims.beta", true},
		{"unsigned claim", beta, `visitor.claims.unsigned.lang == "fr"`, true},
		{"unsigned is not signed", beta, `visitor.claims.lang == "fr"`, false},
		{"does not compile", beta, "visitor.claims.beta ==", false},
		{"env built on the fly", &Visitor{Claims: map[string]any{"beta": true}}, "visitor.claims.beta", true},
	} {
		if got := tc.v.Sees(tc.cond); got != tc.want {
			t.Errorf("%s: Sees(%q) = %v, want %v", tc.name, tc.cond, got, tc.want)
		}
	}
	if p, ok := conds.programs.Get("visitor.claims.beta"); !ok || p.p == nil {
		t.Error("a condition was not kept compiled")
	}
	if p, ok := conds.programs.Get("visitor.claims.beta =="); !ok || p.p != nil {
		t.Error("a condition that does not compile was not remembered as such")
	}
}

func BenchmarkSees(b *testing.B) {
	v := &Visitor{Claims: map[string]any{"plan": "pro"}, conds: newConditions()}
	v.env = v.buildEnv()
	for b.Loop() {
		if !v.Sees(`visitor.claims.plan == "pro" && visitor.claims.unsigned.lang != "de"`) {
			b.Fatal("not seen")
		}
	}
}
