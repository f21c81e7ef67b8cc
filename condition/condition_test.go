package condition_test

import (
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // "" when it compiles, else a part of the message
	}{
		{src: `visitor.claims.plan == "enterprise"`},
		{src: `visitor.claims.unsigned.beta == true`},
		{src: `visitor.claims.isBeta`},
		{src: `"admin" in visitor.claims.roles`},
		{src: `visitor.claims.age >= 18 and visitor.claims.country in ["FR", "BE"]`},
		{src: `visitor.claims?.org?.name startsWith "Acme"`},
		{src: "", want: "condition: must be"},
		{src: strings.Repeat("x", condition.MaxLen+1), want: "condition: must be"},
		{src: `visitor.claims.plan ==`, want: "does not compile"},
		{src: `visiter.claims.plan == "pro"`, want: "unknown name visiter"},
		{src: `1 + 2`, want: "does not compile"},
		{src: `visitor.claims.a = 1`, want: "does not compile"},
	} {
		err := condition.Check("condition", tc.src)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("Check(%q) = %v, want nil", tc.src, err)
		case tc.want != "" && (quire.ErrorCode(err) != quire.CodeInvalid || !strings.Contains(quire.ErrorMessage(err), tc.want)):
			t.Errorf("Check(%q) = %v, want an invalid error with %q", tc.src, err, tc.want)
		case tc.want != "" && !strings.HasPrefix(quire.ErrorMessage(err), "condition: "):
			t.Errorf("Check(%q) = %v, want it to name the field", tc.src, err)
		}
	}
}

func TestEval(t *testing.T) {
	claims := map[string]any{
		"plan": "enterprise", "age": float64(30), "roles": []any{"admin", "dev"}, "isBeta": true,
		"unsigned": map[string]any{"lang": "fr", "beta": true},
	}
	for _, tc := range []struct {
		src    string
		claims map[string]any
		want   bool
	}{
		{`visitor.claims.plan == "enterprise"`, claims, true},
		{`visitor.claims.plan == "basic"`, claims, false},
		{`visitor.claims.isBeta`, claims, true},
		{`visitor.claims.age > 18 && "admin" in visitor.claims.roles`, claims, true},
		{`visitor.claims.unsigned.lang == "fr"`, claims, true},
		{`visitor.claims.unsigned.beta`, claims, true},
		// Missing claims: nil compares unequal, and reading through nil fails (false).
		{`visitor.claims.missing == "x"`, claims, false},
		{`visitor.claims.missing`, claims, false},
		{`visitor.claims.missing.deeper == "x"`, claims, false},
		{`visitor.claims.missing.deeper == "x"`, nil, false},
		{`visitor.claims.unsigned.lang == "fr"`, nil, false},
		{`visitor.claims.plan`, claims, false}, // not a boolean
		{`not (visitor.claims.plan == "basic")`, nil, true},
		// Bounded: what would allocate without end fails instead.
		{`len(repeat("x", 1000000)) > 0`, nil, false},
		{`all(1..10000000, {# > 0})`, nil, false},
		{`all(1..1000, {all(1..1000, {all(1..1000, {# > 0})})})`, nil, false},
	} {
		p, err := condition.Compile(tc.src)
		if err != nil {
			t.Errorf("Compile(%q): %v", tc.src, err)
			continue
		}
		start := time.Now()
		if got := p.Eval(condition.Env(tc.claims)); got != tc.want {
			t.Errorf("Eval(%q) = %v, want %v", tc.src, got, tc.want)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("Eval(%q) took %v", tc.src, d)
		}
	}
}

func TestVisitorEnvAndHolds(t *testing.T) {
	env := condition.VisitorEnv(map[string]any{"plan": "pro"}, map[string]any{"lang": "fr"})
	anonymous := condition.VisitorEnv(nil, nil)
	for _, tc := range []struct {
		name string
		env  map[string]any
		src  string
		want bool
	}{
		{"no condition", anonymous, "", true},
		{"signed claim", env, `visitor.claims.plan == "pro"`, true},
		{"unsigned claim", env, `visitor.claims.unsigned.lang == "fr"`, true},
		{"unsigned is not signed", env, `visitor.claims.lang == "fr"`, false},
		{"anonymous, a claim", anonymous, `visitor.claims.plan == "pro"`, false},
		{"anonymous, negation of an unsigned claim", anonymous, `visitor.claims.unsigned.beta != true`, true},
		{"does not compile", env, `visitor.claims.plan ==`, false},
	} {
		if got := condition.Holds(tc.src, tc.env); got != tc.want {
			t.Errorf("%s: Holds(%q) = %v, want %v", tc.name, tc.src, got, tc.want)
		}
	}
}
