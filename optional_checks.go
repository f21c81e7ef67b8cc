package quire

// The checks of PATCH fields that may be absent, null, or a value, for the
// request types' Validate methods.

// CheckOptionalLen checks a PATCH string field that may be absent but not
// null, of one line and min to max characters (CheckLen).
func CheckOptionalLen(field string, o Optional[string], min, max int) error {
	_, err := CheckOptional(field, o, func(v string) error { return CheckLen(field, v, min, max) })
	return err
}

// CheckRemovable checks a PATCH string field that a value sets and null
// removes: only a value is checked, with check.
func CheckRemovable(o Optional[string], check func(string) error) error {
	if !o.HasValue() {
		return nil
	}
	return check(o.Value)
}

// CheckOptionalBool checks a PATCH boolean field that may be absent but not
// null.
func CheckOptionalBool(field string, o Optional[bool]) error {
	if o.Set && o.Null {
		return Errorf(CodeInvalid, "%s: must be a boolean", field)
	}
	return nil
}

// Ptr is a validated PATCH field as an update takes it: nil when absent,
// and otherwise its value, the zero value for a null that removes.
func (o Optional[T]) Ptr() *T {
	if !o.Set {
		return nil
	}
	return &o.Value
}
