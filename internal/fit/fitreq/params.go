package fitreq

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Limits of the strict decoder on "params": an object or array in it has
// at most MaxParamEntries entries and nests at most MaxParamDepth deep, so
// that a 4 MiB body cannot make a map of a million names.
const (
	MaxParamEntries = 64
	MaxParamDepth   = 8
)

// StrictParams decodes params into dst, a pointer to a struct whose json
// tags name the parameters, as strictly as Decode reads a body: each name
// exactly (case-sensitive) and once, no null (leave a parameter out for
// its default), numbers within float64's range. known lists the
// parameters for messages.
func StrictParams(raw json.RawMessage, dst any, known string) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return nil // no "params" (Decode reads a null one as none)
	}
	names := jsonNames(reflect.TypeOf(dst).Elem())
	t := NewReader(bytes.NewReader(raw), "an object of parameters")
	t.what = `"params"`
	err := t.Object(func(key string) error {
		if !slices.Contains(names, key) {
			hint := ""
			for _, n := range names {
				if strings.EqualFold(n, key) {
					hint = fmt.Sprintf(`: names are case-sensitive, did you mean "%s"?`, n)
				}
			}
			return Badf(`"params" is not valid (unknown field %s%s); known parameters: %s`, Clip(key), hint, known)
		}
		tok, err := t.next()
		if err != nil {
			return err
		}
		var discard bytes.Buffer
		return t.capture(&discard, tok, "params."+key, 2)
	})
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return Badf(`"params" is not valid (%s); known parameters: %s`, ClipErr(err), known)
	}
	return nil
}

// Params reads the object field name and returns it as compact JSON,
// checked as the whole body is: names once each, no null, numbers in
// range, at most MaxParamEntries entries and MaxParamDepth levels.
func (t *Reader) Params(name string) (json.RawMessage, error) {
	tok, err := t.value(name, "an object of parameters, or leave it out for the defaults")
	if err != nil {
		return nil, err
	}
	if tok != json.Delim('{') {
		return nil, Badf(`"%s" is %s; give an object of parameters`, name, describe(tok))
	}
	var buf bytes.Buffer
	if err := t.capture(&buf, tok, name, 1); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// capture writes the value that starts with tok to buf, checking it.
func (t *Reader) capture(buf *bytes.Buffer, tok json.Token, path string, depth int) error {
	switch v := tok.(type) {
	case nil:
		return Badf(`"%s" is null; give a value, or leave the parameter out for its default`, path)
	case json.Number:
		if _, err := parseNumber(string(v), path); err != nil {
			return err
		}
		buf.WriteString(string(v))
	case string:
		b, _ := json.Marshal(v)
		buf.Write(b)
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case json.Delim:
		if depth > MaxParamDepth {
			return Badf(`"%s" nests more than %d levels deep`, path, MaxParamDepth)
		}
		obj := v == '{'
		buf.WriteByte(byte(v))
		seen := map[string]bool{}
		for i := 0; t.dec.More(); i++ {
			if i == MaxParamEntries {
				return Badf(`"%s" has more than %d entries`, path, MaxParamEntries)
			}
			if i > 0 {
				buf.WriteByte(',')
			}
			sub := fmt.Sprintf("%s[%d]", path, i)
			if obj {
				k, err := t.next()
				if err != nil {
					return err
				}
				key := k.(string)
				if seen[key] {
					return Badf(`"%s" has %s twice; give each name once`, path, Clip(key))
				}
				seen[key] = true
				b, _ := json.Marshal(key)
				buf.Write(b)
				buf.WriteByte(':')
				sub = path + "." + key
			}
			tok, err := t.next()
			if err != nil {
				return err
			}
			if err := t.capture(buf, tok, sub, depth+1); err != nil {
				return err
			}
		}
		end, err := t.next()
		if err != nil {
			return err
		}
		buf.WriteByte(byte(end.(json.Delim)))
	}
	return nil
}

// jsonNames lists the JSON names of the fields of struct type typ.
func jsonNames(typ reflect.Type) []string {
	var names []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			names = append(names, jsonNames(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}
