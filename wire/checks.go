package wire

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
)

// The checks below serve the Validate methods of request types: PATCH
// fields that may be absent, null, or a value, as the reference's update
// schemas take them (quire.CheckOptionalLen and its kin).

var (
	checkString    = quire.CheckOptionalLen
	checkRemovable = quire.CheckRemovable
	checkBool      = quire.CheckOptionalBool
)

// checkGiven checks an optional string field of a create body: absent or
// null is "" (its Value), a value must pass check.
func checkGiven(o quire.Optional[string], check func(string) error) error {
	if !o.HasValue() {
		return nil
	}
	return check(o.Value)
}

// setValue is a validated PATCH field as a store update takes it
// (quire.Optional.Ptr).
func setValue[T any](o quire.Optional[T]) *T { return o.Ptr() }

func checkIcon(v string) error      { return quire.CheckLen("icon", v, 1, 50) }
func checkCondition(v string) error { return condition.Check("condition", v) }
