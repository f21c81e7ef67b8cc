package site

import (
	"github.com/quiredocs/quire/condition"
	"github.com/quiredocs/quire/internal/lru"
)

// conditions caches compiled conditions by their text: a site evaluates the
// same few for every visitor and page.
type conditions struct {
	programs *lru.Cache[string, compiled]
}

// compiled is a condition compiled, or nil when it does not compile (set
// before the API checked them, or imported): such a condition hides what it
// guards.
type compiled struct{ p *condition.Program }

func newConditions() *conditions {
	return &conditions{programs: lru.New[string, compiled]("site.programs")}
}

// program returns the compiled src, nil when it does not compile; c may be
// nil, which compiles anew.
func (c *conditions) program(src string) *condition.Program {
	if c == nil {
		p, _ := condition.Compile(src)
		return p
	}
	if e, ok := c.programs.Get(src); ok {
		return e.p
	}
	p, _ := condition.Compile(src)
	c.programs.Add(src, compiled{p: p}, 1024+8*len(src))
	return p
}

// Sees reports whether the visitor sees what cond guards: always when
// there is no condition ("") and for members, else when the condition holds
// for the visitor's claims (see package condition). A condition that does
// not compile, or fails (as one reading a claim the visitor lacks), does
// not hold.
func (v *Visitor) Sees(cond string) bool {
	if cond == "" || (v != nil && v.Member) {
		return true
	}
	if v == nil {
		return false
	}
	p := v.conds.program(cond)
	if p == nil {
		return false
	}
	v.envOnce.Do(func() { v.env = v.buildEnv() }) // most pages ask no condition
	return p.Eval(v.env)
}
