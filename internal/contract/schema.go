package contract

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CheckSchema validates v against the reference schema
// components/schemas/<name>. v is anything encoding/json can marshal; it is
// validated as the JSON it marshals to, as a client would receive it.
func (ref *Reference) CheckSchema(name string, v any) error {
	schema, err := ref.schema([]string{"components", "schemas", name})
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("schema %s: %w", name, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("schema %s: %w", name, err)
	}
	if err := schema.Validate(inst); err != nil {
		return fmt.Errorf("does not match the reference schema %s: %v\nvalue: %s", name, err, truncate(b))
	}
	return nil
}
