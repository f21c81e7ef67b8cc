package wire

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
)

// The checks below serve the Validate methods of request types: PATCH
// fields that may be absent, null, or a value, as the reference's update
// schemas take them.

// checkString checks a PATCH string field that may be absent but not null,
// of one line and min to max characters (quire.CheckLen).
func checkString(field string, o quire.Optional[string], min, max int) error {
	_, err := quire.CheckOptional(field, o, func(v string) error { return quire.CheckLen(field, v, min, max) })
	return err
}

// checkRemovable checks a PATCH string field that a value sets and null
// removes: only values are checked, with check.
func checkRemovable(o quire.Optional[string], check func(string) error) error {
	if !o.Set || o.Null {
		return nil
	}
	return check(o.Value)
}

// checkBool checks a PATCH boolean field that may be absent but not null.
func checkBool(field string, o quire.Optional[bool]) error {
	if o.Set && o.Null {
		return quire.Errorf(quire.CodeInvalid, "%s: must be a boolean", field)
	}
	return nil
}

// checkGiven checks an optional string field of a create body: absent or
// null is "" (its Value), a value must pass check.
func checkGiven(o quire.Optional[string], check func(string) error) error {
	if !o.HasValue() {
		return nil
	}
	return check(o.Value)
}

// setValue is a validated PATCH field as a store update takes it: nil when
// absent, and otherwise its value, the zero value for a null that removes.
func setValue[T any](o quire.Optional[T]) *T {
	if !o.Set {
		return nil
	}
	return &o.Value
}

func checkIcon(v string) error      { return quire.CheckLen("icon", v, 1, 50) }
func checkCondition(v string) error { return condition.Check("condition", v) }
