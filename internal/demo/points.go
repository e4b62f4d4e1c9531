package demo

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/textfmt"
)

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
	if s.Str(KeyData) != Custom {
		var err error
		if x, y, err = s.d.Data.Make(s); err != nil {
			return nil, err
		}
	}
	if n := len(s.Del); n > 0 && s.Del[n-1] >= len(x) {
		return nil, BadInput(keyDel, "point %d does not exist; the %s set has points 0 to %d", s.Del[n-1], s.Str(KeyData), len(x)-1)
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
