package demo

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/textfmt"
)

// Edit is a change to a demo's points, asked for by a click or a form:
// op=add with px, py, pl (x₁, x₂, label), or op=remove with pi (the index
// of the point in the demo's data). On a demo without points, op=add sets
// its start point (DataSpec.Start) to (px, py) instead.
type Edit struct {
	Op    string
	Point Point
	Index int
}

// editParams declares the query keys of an Edit; they are not part of
// the state.
func editParams() []Param {
	coord := func(key string) Param { return Param{Key: key, Kind: KindFloat, Min: -MaxCoord, Max: MaxCoord} }
	return []Param{
		{Key: "op", Kind: KindChoice, Options: []Option{{"add", ""}, {"remove", ""}}},
		coord("px"), coord("py"), coord("pl"),
		{Key: "pi", Kind: KindInt, Min: 0, Max: MaxPoints - 1},
	}
}

// SplitEdit splits an edit off a query. ok is false when q has no op. The
// returned rest holds q without the edit keys.
func (d *Demo) SplitEdit(q url.Values) (e Edit, rest url.Values, ok bool, probs Problems) {
	rest = maps.Clone(q)
	probs = Problems{}
	given := map[string]string{}
	for _, p := range editParams() {
		delete(rest, p.Key)
		raw, has := single(q, p.Key, probs)
		if !has {
			continue
		}
		v, err := p.parse(raw)
		if err != nil {
			probs[p.Key] = err.Error()
			continue
		}
		given[p.Key] = v
	}
	if _, hasOp := q["op"]; !hasOp {
		for _, p := range editParams() {
			if _, has := q[p.Key]; has {
				return e, rest, false, Problems{p.Key: "belongs to an edit; give op=add or op=remove with it"}
			}
		}
		return e, rest, false, nil
	}
	num := func(key string) float64 { v, _ := strconv.ParseFloat(given[key], 64); return v }
	e = Edit{Op: given["op"], Point: Point{num("px"), num("py"), num("pl")}, Index: int(num("pi"))}
	_, px := given["px"]
	_, py := given["py"]
	_, pl := given["pl"]
	_, pi := given["pi"]
	switch {
	case len(probs) > 0:
	case e.Op == "":
		probs["op"] = "give op=add or op=remove"
	case e.Op == "add" && d.Data.Graph && !(px && pl):
		probs["op"] = "op=add needs px and pl (x and y)"
	case e.Op == "add" && d.HasPoints() && !d.Data.Graph && !(px && py && pl):
		probs["op"] = "op=add needs px, py and pl (x₁, x₂ and the label)"
	case e.Op == "add" && !d.Data.Graph && !(px && py):
		probs["op"] = "op=add needs px and py"
	case e.Op == "remove" && !pi:
		probs["op"] = "op=remove needs pi, the index of the point"
	case e.Op == "add" && d.HasPoints():
		if err := d.checkLabel(strings.TrimSpace(q.Get("pl")), e.Point.Y, nil); err != nil {
			probs["pl"] = err.Error()
		}
	}
	return e, rest, true, probs
}

// Apply returns s with e applied and the step reset to 0: the old steps
// belong to other data.
func (s State) Apply(e Edit) (State, error) {
	c := s.clone()
	c.Step = 0
	x1, x2 := round3(e.Point.X1), round3(e.Point.X2)
	switch {
	case !s.d.HasPoints() && e.Op == "add":
		var err error
		if c, err = c.With(s.d.Data.Start[0], FmtNum(x1)); err == nil {
			c, err = c.With(s.d.Data.Start[1], FmtNum(x2))
		}
		return c, err
	case !s.d.HasPoints():
		return s, errors.New("op: this demo has no points to remove")
	case e.Op == "add" && s.d.Data.Graph:
		// A click's y is a coordinate like x; x₂ does not exist.
		c.Add = append(c.Add, Point{x1, 0, round3(e.Point.Y)})
	case e.Op == "add":
		c.Add = append(c.Add, Point{x1, x2, e.Point.Y})
	default:
		return c.remove(e.Index)
	}
	_, err := c.Points()
	return c, err
}

// remove drops point k of s.Points(): an added point leaves Add, a data
// set point joins Del.
func (s State) remove(k int) (State, error) {
	pts, err := s.Points()
	if err != nil {
		return s, err
	}
	if k < 0 || k >= len(pts) {
		return s, fmt.Errorf("pi: there is no point %d; points are 0 to %d", k, len(pts)-1)
	}
	if len(pts) == 1 {
		return s, errors.New("pi: that is the last point; a demo needs at least one")
	}
	kept := len(pts) - len(s.Add) // points of the data set still in
	if k >= kept {
		s.Add = slices.Delete(s.Add, k-kept, k-kept+1)
		return s, nil
	}
	// Map k to the data set index: the k-th index not yet removed.
	for i := 0; ; i++ {
		if _, removed := slices.BinarySearch(s.Del, i); removed {
			continue
		}
		if k == 0 {
			s.Del = append(s.Del, i)
			slices.Sort(s.Del)
			return s, nil
		}
		k--
	}
}

func round3(v float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', 3, 64), 64)
	return f
}

// MaxCSV bounds the CSV a demo reads, in bytes: 500 points of long
// numbers fit with room to spare.
const MaxCSV = 1 << 20

// ParseCSV reads points as x1,x2,label lines (x,y for graph data), as
// the demo's labels allow.
// A UTF-8 byte-order mark (Excel's "CSV UTF-8") is dropped; a first line
// with no number in it is a header; any other bad line (a formula, a NUL,
// 1e999) is an error naming it, so no data is lost. Blank lines skip.
func (d *Demo) ParseCSV(r io.Reader) ([]Point, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxCSV))
	if b, err := br.Peek(3); err == nil && string(b) == "\uFEFF" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	var pts []Point
	for n := 1; ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			return nil, fmt.Errorf("line %d is not CSV; each line is %s", line, d.PointFormat())
		}
		if k := controlChar(rec); k >= 0 {
			return nil, fmt.Errorf("line %d has a control character (U+%04X); each line is %s", line, k, d.PointFormat())
		}
		pt, perr := d.parsePoint(strings.Join(rec, ","))
		if perr != nil {
			if n == 1 && isHeader(rec) {
				continue
			}
			return nil, fmt.Errorf("line %d: %v; each line is %s", line, perr, d.PointFormat())
		}
		if len(pts) == MaxPoints {
			return nil, fmt.Errorf("more than %d points; a demo takes at most %d", MaxPoints, MaxPoints)
		}
		pts = append(pts, pt)
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("no points found; each line is %s, e.g. %s", d.PointFormat(), d.csvExample())
	}
	return pts, nil
}

// controlChar returns a record's first control character (NUL…), or -1.
func controlChar(rec []string) rune {
	for _, f := range rec {
		for _, c := range f {
			if c < 0x20 && c != '\t' || c == 0x7f {
				return c
			}
		}
	}
	return -1
}

// isHeader reports whether a first line names columns: no field of it is
// a number (1,2,abc and 1e999,2,1 are bad points, not headers).
func isHeader(rec []string) bool {
	for _, f := range rec {
		if hasNumber(f) {
			return false
		}
	}
	return true
}

// hasNumber reports whether a field reads as a number, even one out of
// range (a column name such as x1 does not).
func hasNumber(f string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

func (d *Demo) csvExample() string {
	if d.Data.Graph {
		return "0.5,1.25"
	}
	return "0.5,1,-1"
}

// WriteCSV writes points with a header, in the form ParseCSV reads.
func (d *Demo) WriteCSV(w io.Writer, pts []Point) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(strings.Split(d.PointFormat(), ",")); err != nil {
		return err
	}
	for _, p := range pts {
		if err := cw.Write(d.fields(p)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Point is a labelled point of a demo's data. Y is a class (−1/+1 or
// 0…K−1) for classifiers and a real number for regression.
type Point struct {
	X1, X2 float64
	Y      float64
}

// PointSep separates points in the add parameter. Not ";": Go's query
// parser (like many others) drops any pair that contains one.
const PointSep = "~"

// parsePoints reads add=x1,x2,y~x1,x2,y~… (x,y~x,y~… for graph data).
func (d *Demo) parsePoints(raw string, probs Problems) []Point {
	items := strings.Split(raw, PointSep)
	if len(items) > MaxPoints {
		probs[KeyAdd] = fmt.Sprintf("%d points added; at most %d", len(items), MaxPoints)
		return nil
	}
	pts := make([]Point, 0, len(items))
	for k, item := range items {
		pt, err := d.parsePoint(item)
		if err != nil {
			probs[KeyAdd] = fmt.Sprintf("point %d %s: %v; write %s and separate points with %s", k+1, textfmt.Quote(item), err, d.PointFormat(), PointSep)
			return nil
		}
		pts = append(pts, pt)
	}
	return pts
}

// parsePoint reads "x1,x2,y", or "x,y" for graph data (x is X1).
func (d *Demo) parsePoint(s string) (Point, error) {
	f := strings.Split(strings.TrimSpace(s), ",")
	if d.Data.Graph {
		if len(f) != 2 {
			return Point{}, fmt.Errorf("has %d fields, want 2 (x,y)", len(f))
		}
		f = []string{f[0], "0", f[1]}
	}
	if len(f) != 3 {
		return Point{}, fmt.Errorf("has %d fields, want 3", len(f))
	}
	var v [3]float64
	for j := range v {
		x, err := strconv.ParseFloat(strings.TrimSpace(f[j]), 64)
		if j < 2 && (err != nil || math.IsNaN(x) || math.Abs(x) > MaxCoord) {
			return Point{}, fmt.Errorf("x%d %s is not a number within ±%g", j+1, textfmt.Quote(f[j]), MaxCoord)
		}
		v[j] = x
		if j == 2 {
			if err := d.checkLabel(strings.TrimSpace(f[j]), x, err); err != nil {
				return Point{}, err
			}
		}
	}
	return Point{v[0], v[1], v[2]}, nil
}

// checkLabel accepts what the demo's DataSpec allows.
func (d *Demo) checkLabel(raw string, y float64, err error) error {
	if d.Data.Labels == RealLabels {
		if err != nil || math.IsNaN(y) || math.Abs(y) > MaxCoord {
			return fmt.Errorf("y %s is not a number within ±%g", textfmt.Quote(raw), MaxCoord)
		}
		return nil
	}
	k, ierr := strconv.Atoi(raw)
	if ierr != nil || k < -1 || k >= d.Data.MaxClasses {
		return fmt.Errorf("label %s is not −1, +1 or a class 0…%d", textfmt.Quote(raw), d.Data.MaxClasses-1)
	}
	return nil
}

func (d *Demo) formatPoints(pts []Point) string {
	parts := make([]string, len(pts))
	for i, p := range pts {
		parts[i] = strings.Join(d.fields(p), ",")
	}
	return strings.Join(parts, PointSep)
}

// Points returns the demo's data: the chosen set minus the removed
// indices, plus the added points, in that order.
func (s State) Points() ([]Point, error) {
	if !s.d.HasPoints() {
		return nil, nil
	}
	var x [][]float64
	var y []float64
	if s.DataSet() != Custom {
		var err error
		if x, y, err = s.d.Data.Make(s); err != nil {
			return nil, err
		}
	}
	if n := len(s.Del); n > 0 && s.Del[n-1] >= len(x) {
		return nil, BadInput(keyDel, "point %d does not exist; the %s set has points 0 to %d", s.Del[n-1], s.DataSet(), len(x)-1)
	}
	pts := make([]Point, 0, len(x)-len(s.Del)+len(s.Add))
	for i, row := range x {
		if _, removed := slices.BinarySearch(s.Del, i); !removed {
			pts = append(pts, Point{row[0], row[1], y[i]})
		}
	}
	pts = append(pts, s.Add...)
	switch {
	case len(pts) == 0 && len(s.Del) > 0:
		return nil, BadInput(keyDel, "no points left; add at least one point or choose another data set")
	case len(pts) == 0:
		return nil, BadInput(KeyAdd, "no points; add at least one point or choose another data set")
	case len(pts) > MaxPoints:
		return nil, BadInput(KeyAdd, "%d points; a demo takes at most %d", len(pts), MaxPoints)
	}
	return pts, nil
}

// WithPoints returns s showing exactly pts, as a custom data set at step 0.
func (s State) WithPoints(pts []Point) State {
	c := s.clone()
	c.vals[KeyData], c.Add, c.Del, c.Step = Custom, pts, nil, 0
	c.normalize()
	return c
}

// Columns splits points into the X rows and labels an algorithm takes.
func Columns(pts []Point) (x [][]float64, y []float64) {
	x, y = make([][]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		x[i], y[i] = []float64{p.X1, p.X2}, p.Y
	}
	return x, y
}

// fields are a point's columns as URLs and CSV write them.
func (d *Demo) fields(p Point) []string {
	if d.Data.Graph {
		return []string{FmtNum(p.X1), FmtNum(p.Y)}
	}
	return []string{FmtNum(p.X1), FmtNum(p.X2), FmtNum(p.Y)}
}
