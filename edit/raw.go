package edit

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/quiredocs/quire/render"
)

// inPlace is a value a struct leaves undecoded, as json.RawMessage does,
// without copying it: decoding only marks it given, and its bytes are
// sliced from the JSON it is in (members, items). Documents and files are
// most of a batch, which json.RawMessage copied twice over.
type inPlace []byte

func (p *inPlace) UnmarshalJSON([]byte) error {
	*p = inPlace{}
	return nil
}

// member is a member of an object, its value a slice of the object.
type member struct {
	name  string
	value []byte
}

// members returns the members of object b in order; nil when b is no
// object.
func members(b []byte) []member {
	d := render.NewDecoder(bytes.NewBuffer(b)) // reads b in place
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '{' {
		return nil
	}
	ms := []member{}
	for d.PeekKind() == '"' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil
		}
		name := tok.String() // before the token is gone
		v, err := next(d, b)
		if err != nil {
			return nil
		}
		ms = append(ms, member{name, v})
	}
	return ms
}

// lastMember is the value encoding/json decodes into a struct's field name: the
// last member of that name, in any case; nil when none.
func lastMember(ms []member, name string) []byte {
	var v []byte
	for _, m := range ms {
		if strings.EqualFold(m.name, name) {
			v = m.value
		}
	}
	return v
}

// items returns the values of array b, slices of b; nil when b is no array.
func items(b []byte) [][]byte {
	d := render.NewDecoder(bytes.NewBuffer(b))
	if tok, err := d.ReadToken(); err != nil || tok.Kind() != '[' {
		return nil
	}
	out := [][]byte{}
	for d.PeekKind() != ']' {
		v, err := next(d, b)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// next skips d's next value, and returns it as a slice of b, what d reads.
func next(d *jsontext.Decoder, b []byte) ([]byte, error) {
	start := d.InputOffset()
	if err := d.SkipValue(); err != nil {
		return nil, err
	}
	return bytes.TrimLeft(b[start:d.InputOffset()], " \t\r\n:,"), nil
}

// decodeBase64 decodes a JSON string of base64 from its bytes, in place
// unless it holds an escape ("\/").
func decodeBase64(str []byte) ([]byte, error) {
	s := str[1 : len(str)-1]
	if bytes.IndexByte(s, '\\') >= 0 {
		var unquoted string
		if err := json.Unmarshal(str, &unquoted); err != nil {
			return nil, err
		}
		s = []byte(unquoted)
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
	n, err := base64.StdEncoding.Decode(out, s)
	return out[:n], err
}
