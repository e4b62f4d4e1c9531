package lessons

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// Edit is a change to a demo's points, asked for by a click or a form:
// op=add with px, py, pl (x₁, x₂, label), or op=remove with pi (the index
// of the point in the demo's data).
type Edit struct {
	Op    string
	Point Point
	Index int
}

// editKeys are the query keys of an Edit; they are not part of the state.
var editKeys = []string{"op", "px", "py", "pl", "pi"}

// ParseEdit splits an edit off a query. ok is false when q has no op. The
// returned rest holds q without the edit keys.
func ParseEdit(q url.Values) (e Edit, rest url.Values, ok bool, probs Problems) {
	rest = url.Values{}
	for k, v := range q {
		if !slices.Contains(editKeys, k) {
			rest[k] = v
		}
	}
	if q.Get("op") == "" {
		return Edit{}, rest, false, nil
	}
	sub := url.Values{}
	for _, k := range editKeys {
		if v, has := q[k]; has {
			sub[k] = v
		}
	}
	r := newReader(sub)
	e.Op = r.choice("op", "", "add", "remove")
	switch e.Op {
	case "add":
		e.Point = Point{
			X1:    r.float("px", 0, -MaxCoord, MaxCoord, false),
			X2:    r.float("py", 0, -MaxCoord, MaxCoord, false),
			Label: r.int("pl", 1, -1, perceptron.MaxClasses-1),
		}
		if sub.Get("pl") == "" {
			r.p["pl"] = "give the label of the new point"
		}
	case "remove":
		e.Index = r.int("pi", 0, 0, MaxPoints-1)
	}
	r.unknown()
	return e, rest, true, r.p
}

// Apply returns q with e applied and the step reset to 0: the old steps
// belong to other data.
func (q PerceptronQuery) Apply(e Edit) (PerceptronQuery, error) {
	q.Step = 0
	q.Add = slices.Clone(q.Add)
	q.Del = slices.Clone(q.Del)
	switch e.Op {
	case "add":
		e.Point.X1, e.Point.X2 = round3(e.Point.X1), round3(e.Point.X2)
		q.Add = append(q.Add, e.Point)
	case "remove":
		return q.remove(e.Index)
	}
	if _, err := q.Points(); err != nil {
		return q, err
	}
	return q, nil
}

// remove drops point k of q.Points(): an added point leaves Add, a data
// set point joins Del.
func (q PerceptronQuery) remove(k int) (PerceptronQuery, error) {
	pts, err := q.Points()
	if err != nil {
		return q, err
	}
	if k < 0 || k >= len(pts) {
		return q, fmt.Errorf("pi: there is no point %d; points are 0 to %d", k, len(pts)-1)
	}
	if len(pts) == 1 {
		return q, errors.New("pi: that is the last point; a demo needs at least one")
	}
	kept := len(pts) - len(q.Add) // points of the data set still in
	if k >= kept {
		q.Add = slices.Delete(q.Add, k-kept, k-kept+1)
		return q, nil
	}
	// Map k to the data set index: the k-th index not yet removed.
	for i := 0; ; i++ {
		if slices.Contains(q.Del, i) {
			continue
		}
		if k == 0 {
			q.Del = append(q.Del, i)
			slices.Sort(q.Del)
			return q, nil
		}
		k--
	}
}

func round3(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 3, 64), 64)
	return f
}

// ParseCSV reads points as x1,x2,label lines. A first line that does not
// parse as numbers is taken as a header. Blank lines are skipped.
func ParseCSV(r io.Reader) ([]Point, error) {
	cr := csv.NewReader(io.LimitReader(r, 1<<20))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var pts []Point
	for line := 1; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		pt, perr := parsePoint(strings.Join(rec, ","))
		if perr != nil {
			if line == 1 && len(pts) == 0 {
				continue // a header such as x1,x2,label
			}
			return nil, fmt.Errorf("line %d: %v; each line is x1,x2,label", line, perr)
		}
		if len(pts) == MaxPoints {
			return nil, fmt.Errorf("more than %d points; a demo takes at most %d", MaxPoints, MaxPoints)
		}
		pts = append(pts, pt)
	}
	if len(pts) == 0 {
		return nil, errors.New("no points found; each line is x1,x2,label, e.g. 0.5,1,-1")
	}
	return pts, nil
}

// WriteCSV writes points with a header, in the form ParseCSV reads.
func WriteCSV(w io.Writer, pts []Point) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"x1", "x2", "label"}); err != nil {
		return err
	}
	for _, p := range pts {
		if err := cw.Write([]string{fmtNum(p.X1), fmtNum(p.X2), strconv.Itoa(p.Label)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WithPoints returns q showing exactly pts, as a custom data set at step 0.
func (q PerceptronQuery) WithPoints(pts []Point) PerceptronQuery {
	q.Data, q.Add, q.Del, q.Step = "custom", pts, nil, 0
	return q
}
