package fitreq

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// errTooBig is what the body's reader returns past MaxBody bytes.
var errTooBig = errors.New("body larger than MaxBody")

// limited reads at most MaxBody bytes and then fails with errTooBig, so
// the decoder stops there instead of reading (or holding) the rest.
type limited struct {
	r    io.Reader
	left int64
}

func (l *limited) Read(p []byte) (int, error) {
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, errTooBig
	}
	return n, err
}

// Reader decodes one JSON object strictly, a token at a time: field names
// match exactly (case-sensitive) and only once, null is refused wherever a
// value is expected, numbers that overflow a float64 or underflow to 0 are
// refused, and arrays are counted against their limit as they are read,
// so a refused body is never built in memory. Every error is a bad
// request naming the field and what is allowed.
type Reader struct {
	dec    *json.Decoder
	fields string // what the body should be, for messages
	what   string // what is read, for messages: "body" or `"params"`

	peeked  json.Token // a token Null read and did not use
	hasPeek bool
}

// NewReader reads r, at most MaxBody bytes of it; fields describes the
// expected object in messages, as `{"x", "y"}`.
func NewReader(r io.Reader, fields string) *Reader {
	dec := json.NewDecoder(&limited{r: r, left: MaxBody})
	dec.UseNumber()
	return &Reader{dec: dec, fields: fields, what: "body"}
}

// fail turns a decoder error into a bad request.
func (t *Reader) fail(err error) error {
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, errTooBig):
		return Badf("body is larger than %d bytes (4 MiB)", MaxBody)
	case errors.As(err, &syntax):
		return Badf("body is not the JSON object expected (%s); send %s", ClipErr(err), t.fields)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return Badf("body is not the JSON object expected (it ends early); send %s", t.fields)
	}
	return Badf("reading the body: %v", err)
}

func (t *Reader) next() (json.Token, error) {
	if t.hasPeek {
		t.hasPeek = false
		return t.peeked, nil
	}
	tok, err := t.dec.Token()
	if err != nil {
		return nil, t.fail(err)
	}
	return tok, nil
}

// describe names a token that is not what was expected.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	case string:
		return "the string " + Clip(v)
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return clipNumber(string(v))
	}
	return fmt.Sprint(tok)
}

func clipNumber(s string) string {
	if len(s) > 30 {
		return s[:30] + "…"
	}
	return s
}

// Object reads the whole body: one object, each of whose fields read
// handles by reading its value with the Reader's methods (returning
// UnknownField for a name it does not know), and nothing after it.
func (t *Reader) Object(read func(key string) error) error {
	tok, err := t.next()
	if err != nil {
		return err
	}
	if tok != json.Delim('{') {
		return Badf("body is not the JSON object expected (it is %s); send %s", describe(tok), t.fields)
	}
	seen := map[string]bool{}
	for t.dec.More() {
		tok, err := t.next()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // the decoder allows only a string here
		if seen[key] {
			return Badf("%s has the field %s twice; give each field once", t.what, Clip(key))
		}
		seen[key] = true
		if err := read(key); err != nil {
			return err
		}
	}
	if _, err := t.next(); err != nil { // '}'
		return err
	}
	if _, err := t.dec.Token(); err != io.EOF {
		if errors.Is(err, errTooBig) {
			return t.fail(err)
		}
		return Badf("body has data after the JSON object; send exactly one object")
	}
	return nil
}

// Null reads a null value and reports true, or leaves the next value
// unread and reports false.
func (t *Reader) Null() (bool, error) {
	tok, err := t.next()
	if err != nil || tok == nil {
		return tok == nil, err
	}
	t.peeked, t.hasPeek = tok, true
	return false, nil
}

// UnknownField is the error for a field the body does not have.
func (t *Reader) UnknownField(key string) error {
	return Badf("body is not the JSON object expected (unknown field %s%s); send %s", Clip(key), didYouMean(key, t.fields), t.fields)
}

// didYouMean suggests the field of list (a message's `{"a", "b"}`) that
// key matches but for case.
func didYouMean(key, list string) string {
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return strings.ContainsRune(`{}", `, r) }) {
		if strings.EqualFold(f, key) {
			return fmt.Sprintf(`: names are case-sensitive, did you mean "%s"?`, f)
		}
	}
	return ""
}

// value reads a token, refusing null with what to give instead.
func (t *Reader) value(name, want string) (json.Token, error) {
	tok, err := t.next()
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, Badf(`"%s" is null; give %s`, name, want)
	}
	return tok, nil
}

// String reads the string field name.
func (t *Reader) String(name string) (string, error) {
	tok, err := t.value(name, "a string")
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", Badf(`"%s" is %s; give a string`, name, describe(tok))
	}
	return s, nil
}

// Bool reads the boolean field name.
func (t *Reader) Bool(name string) (bool, error) {
	tok, err := t.value(name, "true or false")
	if err != nil {
		return false, err
	}
	b, ok := tok.(bool)
	if !ok {
		return false, Badf(`"%s" is %s; give true or false`, name, describe(tok))
	}
	return b, nil
}

// Float reads the number field name.
func (t *Reader) Float(name string) (float64, error) {
	tok, err := t.value(name, "a number")
	if err != nil {
		return 0, err
	}
	return number(tok, name)
}

// Int reads the integer field name (written without a fraction or
// exponent); allowed says what is allowed, for messages.
func (t *Reader) Int(name, allowed string) (int, error) {
	tok, err := t.value(name, allowed)
	if err != nil {
		return 0, err
	}
	n, ok := tok.(json.Number)
	if !ok {
		return 0, Badf(`"%s" is %s; give %s`, name, describe(tok), allowed)
	}
	i, err := strconv.Atoi(string(n))
	if err != nil {
		return 0, Badf(`"%s" is %s; give %s`, name, clipNumber(string(n)), allowed)
	}
	return i, nil
}

// number converts a token read for the field name to a float64.
func number(tok json.Token, name string) (float64, error) {
	n, ok := tok.(json.Number)
	if !ok {
		if tok == nil {
			return 0, Badf(`"%s" is null; give a finite number (JSON.stringify writes NaN and ±Infinity as null)`, name)
		}
		return 0, Badf(`"%s" is %s; give a number`, name, describe(tok))
	}
	return parseNumber(string(n), name)
}

// parseNumber reads a JSON number, refusing one beyond float64's range
// (which would read as ±Inf) and one so small that it reads as 0.
func parseNumber(s, name string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, Badf(`"%s" is %s, which is beyond the largest float64 (about 1.8e308); give a finite number`, name, clipNumber(s))
	}
	if f == 0 {
		mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
		if strings.ContainsAny(mantissa, "123456789") {
			return 0, Badf(`"%s" is %s, which underflows to 0 (the smallest float64 is about 4.9e-324); give 0 or a number of larger magnitude`, name, clipNumber(s))
		}
	}
	return f, nil
}

// open reads the '[' of the array field name.
func (t *Reader) open(name, want string) error {
	tok, err := t.value(name, want)
	if err != nil {
		return err
	}
	if tok != json.Delim('[') {
		return Badf(`"%s" is %s; give %s`, name, describe(tok), want)
	}
	return nil
}

// Vector reads the array of numbers called name, refusing it as soon as
// it has more than max entries (what names them in messages).
func (t *Reader) Vector(name string, max int, what string) ([]float64, error) {
	if err := t.open(name, "an array of numbers"); err != nil {
		return nil, err
	}
	var v []float64
	for t.dec.More() {
		if len(v) == max {
			return nil, Badf(`"%s" has more than %d %s; give at most %d`, name, max, what, max)
		}
		tok, err := t.next()
		if err != nil {
			return nil, err
		}
		f, err := number(tok, "") // named only on error: no Sprintf per number
		if err != nil {
			_, err = number(tok, fmt.Sprintf("%s[%d]", name, len(v)))
			return nil, err
		}
		v = append(v, f)
	}
	_, err := t.next() // ']'
	return v, err
}

// Matrix reads the array of rows of numbers called name, refusing it as
// soon as it has more than maxRows rows or a row more than MaxD numbers.
func (t *Reader) Matrix(name string, maxRows int) ([][]float64, error) {
	if err := t.open(name, "an array of rows of numbers"); err != nil {
		return nil, err
	}
	var rows [][]float64
	for t.dec.More() {
		if len(rows) == maxRows {
			return nil, Badf(`"%s" has more than %d rows; at most %d are allowed`, name, maxRows, maxRows)
		}
		row, err := t.row(name, len(rows))
		if err != nil {
			return nil, err
		}
		if row == nil {
			row = []float64{}
		}
		rows = append(rows, row)
	}
	_, err := t.next() // ']'
	return rows, err
}
