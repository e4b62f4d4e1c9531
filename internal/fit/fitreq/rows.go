package fitreq

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// row reads row i of the matrix called name. It takes the row's bytes
// whole from the decoder (at most MaxBody of them) and reads its numbers
// itself, four times as fast as a token each; a row that is anything but
// a plain array of at most MaxD numbers in range goes through Vector,
// for the same error as the rest of the body.
func (t *Reader) row(name string, i int) ([]float64, error) {
	var raw json.RawMessage
	if err := t.dec.Decode(&raw); err != nil {
		return nil, t.fail(err)
	}
	if v, ok := plainRow(raw); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	slow := &Reader{dec: dec, fields: t.fields, what: t.what}
	return slow.Vector(fmt.Sprintf("%s[%d]", name, i), MaxD, "features")
}

// plainRow reads raw, valid JSON, as an array of at most MaxD numbers,
// each in float64's range and none underflowing to 0; ok is false for
// anything else.
func plainRow(raw []byte) (v []float64, ok bool) {
	i := 0
	ws := func() {
		for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
			i++
		}
	}
	ws()
	if i == len(raw) || raw[i] != '[' {
		return nil, false
	}
	i++
	ws()
	if i < len(raw) && raw[i] == ']' {
		return []float64{}, true
	}
	for {
		start := i
		for i < len(raw) && strings.IndexByte("+-.0123456789eE", raw[i]) >= 0 {
			i++
		}
		if i == start || len(v) == MaxD {
			return nil, false
		}
		f, err := strconv.ParseFloat(string(raw[start:i]), 64)
		if err != nil || f == 0 && underflows(raw[start:i]) {
			return nil, false
		}
		v = append(v, f)
		ws()
		if i == len(raw) {
			return nil, false
		}
		switch raw[i] {
		case ']':
			return v, true
		case ',':
			i++
			ws()
		default:
			return nil, false
		}
	}
}

// underflows reports whether the JSON number s has a nonzero digit before
// its exponent (so that reading it as 0 lost it).
func underflows(s []byte) bool {
	for _, c := range s {
		switch {
		case c == 'e' || c == 'E':
			return false
		case '1' <= c && c <= '9':
			return true
		}
	}
	return false
}
