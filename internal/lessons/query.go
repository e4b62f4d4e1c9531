package lessons

import (
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// Problems maps a query field to what is wrong with it. It is empty when
// the query is valid.
type Problems map[string]string

// Error lists the problems in field order, one per line.
func (p Problems) Error() string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", k, p[k])
	}
	return b.String()
}

// reader pulls typed, range-checked fields out of a query, recording a
// problem for each bad one and remembering which keys it read so that
// unknown keys can be reported.
type reader struct {
	q    url.Values
	seen map[string]bool
	p    Problems
}

func newReader(q url.Values) *reader {
	return &reader{q: q, seen: map[string]bool{}, p: Problems{}}
}

// raw returns the single value of key, or "" when absent.
func (r *reader) raw(key string) string {
	r.seen[key] = true
	v := r.q[key]
	if len(v) > 1 {
		r.p[key] = "given more than once; give it once"
	}
	if len(v) == 0 {
		return ""
	}
	return strings.TrimSpace(v[0])
}

func (r *reader) int(key string, def, lo, hi int) int {
	s := r.raw(key)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		r.p[key] = fmt.Sprintf("%q is not a whole number from %d to %d", s, lo, hi)
		return def
	}
	return v
}

// float reads a finite number in [lo, hi], or in (lo, hi] when openLo.
func (r *reader) float(key string, def, lo, hi float64, openLo bool) float64 {
	s := r.raw(key)
	if s == "" {
		return def
	}
	v, err := strconv.ParseFloat(s, 64)
	bad := err != nil || math.IsNaN(v) || v < lo || v > hi || (openLo && v == lo)
	if bad {
		lower := "from"
		if openLo {
			lower = "greater than"
		}
		r.p[key] = fmt.Sprintf("%q is not a number %s %g up to %g", s, lower, lo, hi)
		return def
	}
	return v
}

func (r *reader) choice(key, def string, allowed ...string) string {
	s := r.raw(key)
	if s == "" {
		return def
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	r.p[key] = fmt.Sprintf("%q is not one of %s", s, strings.Join(allowed, ", "))
	return def
}

// unknown records a problem for every key the reader never asked for.
func (r *reader) unknown() {
	for k := range r.q {
		if !r.seen[k] {
			known := make([]string, 0, len(r.seen))
			for s := range r.seen {
				known = append(known, s)
			}
			sort.Strings(known)
			r.p[k] = "unknown parameter; known ones are " + strings.Join(known, ", ")
		}
	}
}

// fmtNum writes the shortest decimal that parses back to v exactly, the
// form used in URLs and CSV so that values round-trip.
func fmtNum(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}
