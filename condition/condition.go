// Package condition compiles and evaluates the adaptive-content conditions
// of site sections, site spaces and pages: expressions in the expr language
// (github.com/expr-lang/expr) over what a published site knows of its
// visitor, such as
//
//	visitor.claims.plan == "enterprise" && visitor.claims.unsigned.beta == true
//
// The API checks that a condition compiles when it is set (Check); package
// site evaluates it for each visitor (Compile, then Program.Eval).
package condition

import (
	"maps"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"github.com/quiredocs/quire"
)

// MaxLen bounds a condition's length in characters, as the contract bounds
// the condition of a section or site space (string 1-1024;
// quire.CheckCondition).
const MaxLen = 1024

// memoryBudget bounds what one evaluation may allocate, in expr's units
// (roughly, elements of the arrays and strings it builds): conditions
// compare a few claims, and a range or repeat meant to stall the server
// stops with an error, which is false.
const memoryBudget = 100_000

// compileEnv declares the one variable a condition may name, visitor, whose
// claims are a map: any claim may be named, and a missing one is nil.
var compileEnv = map[string]any{"visitor": map[string]any{"claims": map[string]any{}}}

// Program is a compiled condition; it is safe for concurrent use.
type Program struct {
	p *vm.Program
}

// Compile compiles a condition: an expression that names only visitor and
// whose value may be a boolean. Errors are quire.CodeInvalid, about a field
// named "condition".
func Compile(src string) (*Program, error) {
	return compile("condition", src)
}

func compile(field, src string) (*Program, error) {
	if err := quire.CheckCondition(field, src); err != nil { // at most MaxLen characters
		return nil, err
	}
	p, err := expr.Compile(src, expr.Env(compileEnv), expr.AsBool(), expr.MaxNodes(500))
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n") // the first line names the problem and its place
		return nil, quire.Errorf(quire.CodeInvalid, "%s: does not compile as an expression over visitor.claims: %s", field, msg)
	}
	return &Program{p: p}, nil
}

// Check validates a condition set through the API: its length and that it
// compiles. Its error names field.
func Check(field, src string) error {
	_, err := compile(field, src)
	return err
}

// Env is the environment a condition runs in for a visitor with claims:
// {"visitor": {"claims": claims}}.
func Env(claims map[string]any) map[string]any {
	if claims == nil {
		claims = map[string]any{}
	}
	return map[string]any{"visitor": map[string]any{"claims": claims}}
}

// Eval runs the condition in env (see Env). A condition that fails, such as
// one reading a field of a missing claim, or whose value is not true, is
// false.
func (p *Program) Eval(env map[string]any) bool {
	machine := vm.VM{MemoryBudget: memoryBudget}
	out, err := machine.Run(p.p, env)
	if err != nil {
		return false
	}
	b, _ := out.(bool)
	return b
}

// EvalExpression compiles src against env and runs it, for a merge rule's
// custom expression over the reference's MergeRulesEvaluationContext
// (space, changeRequest, reviews, actor, as their wire JSON). It is true
// only when the value is true; an expression that does not compile or fails
// as it runs is an error, bounded as conditions are.
func EvalExpression(src string, env map[string]any) (bool, error) {
	p, err := expr.Compile(src, expr.Env(env), expr.AsBool(), expr.MaxNodes(500))
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return false, quire.Errorf(quire.CodeInvalid, "does not compile: %s", msg)
	}
	machine := vm.VM{MemoryBudget: memoryBudget}
	out, err := machine.Run(p, env)
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return false, quire.Errorf(quire.CodeInvalid, "fails: %s", msg)
	}
	b, _ := out.(bool)
	return b, nil
}

// VisitorEnv is the environment a condition runs in for a visitor of a
// published site: the claims of their verified token, with "unsigned"
// holding those they state themselves (empty when none). The unsigned
// never mix with the signed ones, so a visitor cannot pose as what a token
// says.
func VisitorEnv(signed, unsigned map[string]any) map[string]any {
	claims := make(map[string]any, len(signed)+1)
	maps.Copy(claims, signed)
	if unsigned == nil {
		unsigned = map[string]any{}
	}
	claims["unsigned"] = unsigned
	return Env(claims)
}

// Holds reports whether condition src holds in env (see VisitorEnv): always
// for "", never for one that does not compile or fails. It compiles src
// each time; package site keeps compiled conditions for its many visitors.
func Holds(src string, env map[string]any) bool {
	if src == "" {
		return true
	}
	p, err := Compile(src)
	return err == nil && p.Eval(env)
}
