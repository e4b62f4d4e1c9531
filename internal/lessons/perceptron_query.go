package lessons

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/algos/dataset"
	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// Limits on what a perceptron demo URL may ask for. They keep every page
// and plot cheap to compute; the README lists them.
const (
	MaxPoints  = 500   // points after adds and removals
	MaxStep    = 20000 // highest step a demo shows
	MaxEpochs  = 1000  // epoch budget of a demo run
	MaxEta     = 100.0 // learning rate η in (0, MaxEta]
	MaxGamma   = 10.0  // margin γ of the margin perceptron in [0, MaxGamma]
	MaxCoord   = 1e6   // |x₁|, |x₂| of an added point
	MinPlotPx  = 200   // plot width and height in pixels
	MaxPlotPx  = 2000
	defaultPx  = 600
	StepToEnd  = -1 // Step value of "step=end": run until the run stops
	maxSpeedMs = 5000
)

// Point is a labelled point of a demo's data.
type Point struct {
	X1, X2 float64
	Label  int
}

// PerceptronQuery is the whole state of a perceptron demo, as its URL
// carries it. The zero value is not valid; use ParsePerceptron.
type PerceptronQuery struct {
	Data    string  // data set: a dataset name or "custom"
	N       int     // points of a random data set
	Sep     float64 // margin of the "separable" set
	Seed    uint64  // seeds the random data set and the random order
	Add     []Point // points added to the data set
	Del     []int   // indices of data set points removed
	Order   perceptron.Order
	Variant string // "classic", "averaged" or "margin"
	Gamma   float64
	Eta     float64
	Multi   perceptron.Multiclass
	Epochs  int
	Step    int // StepToEnd, or 0…MaxStep
	Speed   int // milliseconds per step when playing
	Class   int // label a click adds
	W, H    int // plot size in pixels
}

// DataNames lists the data sets a demo offers: the built-in ones and
// "custom" (only the added points).
func DataNames() []string { return append(dataset.Names(), "custom") }

// ParsePerceptron validates a demo query. Every field has a default, so an
// empty query is the OR data set at step 0. Unknown keys are problems, so
// a mistyped permalink says so instead of silently showing something else.
func ParsePerceptron(q url.Values) (PerceptronQuery, Problems) {
	r := newReader(q)
	p := PerceptronQuery{
		Data:    r.choice("data", "or", DataNames()...),
		N:       r.int("n", 40, dataset.MinN, dataset.MaxN),
		Sep:     r.float("sep", 0.5, 0, 2, false),
		Seed:    uint64(r.int("seed", 1, 0, math.MaxInt32)),
		Variant: r.choice("variant", "classic", "classic", "averaged", "margin"),
		Gamma:   r.float("gamma", 1, 0, MaxGamma, false),
		Eta:     r.float("eta", 1, 0, MaxEta, true),
		Epochs:  r.int("epochs", MaxEpochs, 1, MaxEpochs),
		Speed:   r.int("speed", 500, 20, maxSpeedMs),
		Class:   r.int("class", 1, -1, perceptron.MaxClasses-1),
		W:       r.int("w", defaultPx, MinPlotPx, MaxPlotPx),
		H:       r.int("h", defaultPx, MinPlotPx, MaxPlotPx),
	}
	if r.choice("order", "cyclic", "cyclic", "random") == "random" {
		p.Order = perceptron.Random
	}
	if r.choice("multi", "ova", "ova", "ovo") == "ovo" {
		p.Multi = perceptron.OneVsOne
	}
	if s := r.raw("step"); s == "end" {
		p.Step = StepToEnd
	} else {
		p.Step = r.int("step", 0, 0, MaxStep)
	}
	p.Add = parsePoints(r)
	p.Del = parseDel(r)
	r.unknown()
	return p.normalize(), r.p
}

// normalize resets fields that the rest of the state makes meaningless
// (γ without the margin variant, n for a fixed set), so that equal states
// are equal values with one URL.
func (q PerceptronQuery) normalize() PerceptronQuery {
	if q.Variant != "margin" {
		q.Gamma = 1
	}
	if q.Data != "separable" {
		q.Sep = 0.5
	}
	switch q.Data {
	case "or", "and", "xor", "custom":
		q.N = 40
	}
	return q
}

// PointSep separates points in the add parameter. Not ";": Go's query
// parser (like many others) drops any pair that contains one.
const PointSep = "~"

// parsePoints reads add=x1,x2,label~x1,x2,label~….
func parsePoints(r *reader) []Point {
	s := r.raw("add")
	if s == "" {
		return nil
	}
	items := strings.Split(s, PointSep)
	if len(items) > MaxPoints {
		r.p["add"] = fmt.Sprintf("%d points added; at most %d", len(items), MaxPoints)
		return nil
	}
	pts := make([]Point, 0, len(items))
	for k, item := range items {
		pt, err := parsePoint(item)
		if err != nil {
			r.p["add"] = fmt.Sprintf("point %d %q: %v; write x1,x2,label and separate points with ~", k+1, item, err)
			return nil
		}
		pts = append(pts, pt)
	}
	return pts
}

// parsePoint reads "x1,x2,label".
func parsePoint(s string) (Point, error) {
	f := strings.Split(strings.TrimSpace(s), ",")
	if len(f) != 3 {
		return Point{}, fmt.Errorf("has %d fields, want 3", len(f))
	}
	var v [2]float64
	for j := range v {
		x, err := strconv.ParseFloat(strings.TrimSpace(f[j]), 64)
		if err != nil || math.IsNaN(x) || math.Abs(x) > MaxCoord {
			return Point{}, fmt.Errorf("x%d %q is not a number within ±%g", j+1, f[j], MaxCoord)
		}
		v[j] = x
	}
	label, err := strconv.Atoi(strings.TrimSpace(f[2]))
	if err != nil || label < -1 || label >= perceptron.MaxClasses {
		return Point{}, fmt.Errorf("label %q is not −1, +1 or a class 0…%d", f[2], perceptron.MaxClasses-1)
	}
	return Point{v[0], v[1], label}, nil
}

// parseDel reads del=i,j,….
func parseDel(r *reader) []int {
	s := r.raw("del")
	if s == "" {
		return nil
	}
	var del []int
	for _, f := range strings.Split(s, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || i < 0 || i >= MaxPoints {
			r.p["del"] = fmt.Sprintf("%q is not a point index from 0 to %d", f, MaxPoints-1)
			return nil
		}
		del = append(del, i)
	}
	return del
}

// Values encodes q as a query, leaving out fields at their defaults so
// that permalinks stay short. Keys come out sorted (url.Values.Encode), so
// one state has one URL.
func (q PerceptronQuery) Values() url.Values {
	v := url.Values{}
	set := func(key, val, def string) {
		if val != def {
			v.Set(key, val)
		}
	}
	set("data", q.Data, "or")
	if q.Data != "or" && q.Data != "and" && q.Data != "xor" && q.Data != "custom" {
		set("n", strconv.Itoa(q.N), "40")
	}
	if q.Data == "separable" {
		set("sep", fmtNum(q.Sep), "0.5")
	}
	set("seed", strconv.FormatUint(q.Seed, 10), "1")
	set("order", q.Order.String(), "cyclic")
	set("variant", q.Variant, "classic")
	if q.Variant == "margin" {
		set("gamma", fmtNum(q.Gamma), "1")
	}
	set("eta", fmtNum(q.Eta), "1")
	set("multi", q.Multi.String(), "ova")
	set("epochs", strconv.Itoa(q.Epochs), strconv.Itoa(MaxEpochs))
	if q.Step == StepToEnd {
		v.Set("step", "end")
	} else {
		set("step", strconv.Itoa(q.Step), "0")
	}
	set("speed", strconv.Itoa(q.Speed), "500")
	set("class", strconv.Itoa(q.Class), "1")
	set("w", strconv.Itoa(q.W), strconv.Itoa(defaultPx))
	set("h", strconv.Itoa(q.H), strconv.Itoa(defaultPx))
	if len(q.Add) > 0 {
		parts := make([]string, len(q.Add))
		for i, p := range q.Add {
			parts[i] = fmtNum(p.X1) + "," + fmtNum(p.X2) + "," + strconv.Itoa(p.Label)
		}
		v.Set("add", strings.Join(parts, PointSep))
	}
	if len(q.Del) > 0 {
		parts := make([]string, len(q.Del))
		for i, d := range q.Del {
			parts[i] = strconv.Itoa(d)
		}
		v.Set("del", strings.Join(parts, ","))
	}
	return v
}

// Encode returns the canonical query string of q. Commas stay unescaped
// (they are legal in a query) so that point lists stay readable.
func (q PerceptronQuery) Encode() string {
	return strings.ReplaceAll(q.Values().Encode(), "%2C", ",")
}

// Params returns the perceptron parameters q selects.
func (q PerceptronQuery) Params() perceptron.Params {
	p := perceptron.DefaultParams()
	p.Order, p.Seed, p.Eta, p.Multiclass, p.MaxEpochs = q.Order, q.Seed, q.Eta, q.Multi, q.Epochs
	switch q.Variant {
	case "averaged":
		p.Average = true
	case "margin":
		p.Margin = q.Gamma
	}
	return p
}

// Points returns the demo's data: the chosen set minus the removed
// indices, plus the added points, in that order.
func (q PerceptronQuery) Points() ([]Point, error) {
	var base dataset.Set
	if q.Data != "custom" {
		var err error
		base, err = dataset.New(dataset.Spec{Name: q.Data, N: q.N, Margin: q.Sep, Seed: q.Seed})
		if err != nil {
			return nil, err
		}
	}
	removed := map[int]bool{}
	for _, i := range q.Del {
		if i >= len(base.X) {
			return nil, fmt.Errorf("del: point %d does not exist; the %s set has points 0 to %d", i, q.Data, len(base.X)-1)
		}
		removed[i] = true
	}
	var pts []Point
	for i, x := range base.X {
		if !removed[i] {
			pts = append(pts, Point{x[0], x[1], base.Y[i]})
		}
	}
	pts = append(pts, q.Add...)
	switch {
	case len(pts) == 0:
		return nil, fmt.Errorf("no points left; add at least one point or choose another data set")
	case len(pts) > MaxPoints:
		return nil, fmt.Errorf("%d points; a demo takes at most %d", len(pts), MaxPoints)
	}
	return pts, nil
}

// Field is a query key and value, for the hidden inputs of a form.
type Field struct{ Key, Value string }

// Hidden returns q's non-default fields other than except and step, so a
// form that edits some fields carries the rest of the state along and
// starts again from step 0.
func (q PerceptronQuery) Hidden(except ...string) []Field {
	v := q.Values()
	v.Del("step")
	for _, k := range except {
		v.Del(k)
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]Field, len(keys))
	for i, k := range keys {
		out[i] = Field{k, v.Get(k)}
	}
	return out
}

// OrderName and MultiName are the query spellings of Order and Multi.
func (q PerceptronQuery) OrderName() string { return q.Order.String() }
func (q PerceptronQuery) MultiName() string { return q.Multi.String() }

// Num formats a parameter for an input's value.
func Num(v float64) string { return fmtNum(v) }
