// Package demo is Margin's demo kit: what every demo gets from one
// declaration, and the Course that serves topics' lessons, prose and demos.
// The topics themselves live in internal/topics, one package each, each
// bringing a Topic (its catalogue entries, their prose and its demos);
// internal/course puts them together, one line per topic.
//
// # The demo kit
//
// A demo is declared once as a Spec: its URL parameters (Param: key,
// label, default, range or choices, form group, when it applies), its data
// (DataSpec), its extra figures and a Compute function that runs its
// stepper to the step asked for, under the request's context, and says
// what kind each of its errors is (errors.go: a refused key, valid input
// it cannot compute, or a bug). From that one declaration the kit parses
// and validates a URL (Demo.Parse, with a Problems entry naming the key and
// what is allowed), writes its canonical form (State.Encode: one state,
// one URL), builds the parameter forms (min, max and step come from the
// declaration), edits points (SplitEdit, State.Apply), reads and writes
// CSV, and builds the view model of the demo panel (NewView). The
// handlers in cmd/web only glue these together, one loop over the
// course's demos; nothing here speaks HTTP.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
)

// Limits every demo shares. They keep every page and plot cheap to
// compute; docs/urls.md lists them.
const (
	MaxPoints = 500   // points after adds and removals
	MaxStep   = 20000 // highest step a demo shows
	MaxCoord  = 1e6   // |x₁|, |x₂| (and a real label) of an added point
	MinPlotPx = 200   // plot width and height in pixels
	MaxPlotPx = 2000
	defaultPx = 600
	StepToEnd = -1 // Step value of "step=end": run until the run stops
)

// Labels is the kind of label a demo's points carry.
type Labels int

const (
	// NoLabels: the demo has no data points (a 2-D objective); a click on
	// the plot sets the two parameters DataSpec.Start names.
	NoLabels Labels = iota
	// ClassLabels: −1/+1 for two classes, or classes 0…MaxClasses−1.
	ClassLabels
	// RealLabels: a real-valued y, for regression.
	RealLabels
)

// DataSpec is what data a demo offers.
type DataSpec struct {
	Labels     Labels
	MaxClasses int      // with ClassLabels: labels 0…MaxClasses−1 (or ±1)
	Sets       []Option // built-in sets; the kit adds "custom" (only added points)
	Default    string   // the set shown when the URL names none
	// Make builds the built-in set s names (its size and seed are
	// parameters of s). It is not called for "custom".
	Make func(s State) (X [][]float64, Y []float64, err error)
	// Start names the two parameters a click sets when Labels is NoLabels.
	Start [2]string
	// Graph says the points are observations (x, y) of a function of one
	// input, plotted as y against x: a regression demo's data. A Point
	// holds x in X1 and y in Y (X2 is 0); URLs, CSV and forms write "x,y",
	// and a click at (x, y) on the plot adds that observation. Only with
	// RealLabels.
	Graph bool
}

// Input is what a demo's Compute is given: the validated state, its points,
// and the step to run to (StepToEnd already resolved to MaxStep).
type Input struct {
	State  State
	Points []Point
	Step   int
	// Figure, when set, is the only figure the request draws (PlotFigure,
	// HistoryFigure or a panel's name): a demo may leave out what it would
	// compute only for the others, such as the history's series. "" means
	// a page, which draws them all.
	Figure string
	// Cache is the course's store for results of pure computations that
	// outlive one request (a sweep, an exact optimum, a run's track):
	// Compute memoises through it (memoise, runTracked) and keeps no
	// state of its own. It is nil for a demo outside a course, which then
	// recomputes everything.
	Cache *Cache
}

// The names of the figures every demo has, wherever a figure is named
// (Input.Figure, Run.WriteFigure, the plot routes): the main plot, served
// at PlotPath, and the history chart, at PanelPath(HistoryFigure). No
// panel may take either name (NewCourse refuses it).
const (
	PlotFigure    = "plot"
	HistoryFigure = "history"
)

// Wants reports whether the request draws figure name.
func (in Input) Wants(name string) bool { return in.Figure == "" || in.Figure == name }

// Drawer draws a figure of one state at opt's size, as SVG or PNG. The
// main plot also reports its Frame, so a page can map clicks to data.
type Drawer func(w io.Writer, png bool, opt render.Options) (render.Frame, error)

// Result is a demo run at the step shown: what pages and plot URLs draw.
// Panel is computed only for pages.
type Result struct {
	Step    int  // the state shown: the step asked for, or the last one
	Done    bool // that state ends the run
	Plot    Drawer
	Panels  map[string]Drawer // further figures, by the names in Spec.Panels
	History *chart.History    // nil when the demo keeps none
	Panel   func() Panel
}

// Spec is everything a demo declares. The kit gives every demo its
// routes, controls, keys, forms, presenter view, CSV, plot URLs, history
// chart and partial swaps from it.
type Spec struct {
	ID     string // names the plot URLs: /plots/<ID>.svg
	Title  string
	Lesson string // slug of the lesson page that shows the demo
	Params []Param
	Data   DataSpec
	// Panels names the demo's extra figures, each served at
	// /plots/<ID>-<name>.svg and shown beside the main plot.
	Panels []string
	// PanelLabels name each of Panels for a reader, as a link to the
	// figure says: "KKT violation of each point".
	PanelLabels map[string]string
	// Static demos show one state, computed at once (a kernel check, a
	// Gram matrix and its eigenvalues): the kit offers them no step
	// controls, and a URL's step other than 0 is a problem to report.
	Static bool
	// Examples are named states worth seeing (and keeping): the course's
	// one loop draws each as a golden figure, seeds the URL fuzzer with it
	// and serves its pages in the server's tests, so a demo gets those
	// tests by declaring them. Names are short words ("step20"); the
	// goldens are testdata/<ID>_<name>_golden.svg.
	Examples []Example
	// Conventions state the model's loss, bias, scaling, labels, seed and
	// stopping rule beside the plot (conventions.go); Explain links the
	// step's explanation to the lesson section defining it (explain.go).
	Conventions *Conventions
	Explain     Explain
	// Predict, on a stepping demo, asks a question about the next step
	// (predict.go): predict=1 turns Step into it.
	Predict Predictor
	// StepWork, when set, is the nominal work (about nanoseconds of
	// ordinary arithmetic) of one step of the run state s makes on n
	// points. A comparison runs two runs, and charges them together
	// CompareWork: it shows at most CompareWork / (run a's StepWork + run
	// b's) steps (Comparison.MaxStep). nil: a step is cheap enough that
	// two runs of MaxStep steps fit the budget.
	StepWork func(s State, n int) int64
	// Compute runs the demo to in.Step. It passes ctx to every solver
	// that takes one and stops with an error wrapping ctx.Err() when ctx
	// ends. Its errors say what kind they are (errors.go): BadInput for a
	// refused value, Uncomputable for valid input it cannot compute; any
	// other error is a bug (a 500).
	Compute func(ctx context.Context, in Input) (Result, error)
}

// Example is a named state of a demo: Query is its URL query, canonical
// or not ("" is the default state).
type Example struct{ Name, Query string }

// Demo is a validated Spec with the parameters the kit adds to every
// demo. Build it with NewDemo.
type Demo struct {
	Spec
	params []Param // the demo's and the kit's, in form order
	index  map[string]int
	// Secondary demos are not the first of their lesson page, so their
	// page URLs say demo=<ID>.
	Secondary bool
	Cache     *Cache // the course's; nil outside a course
	// explainTitle is the heading of Explain.Section, from the prose.
	explainTitle string
}

// Kit parameter keys with special parsing, and the page-only keys.
const (
	KeyData = "data"
	KeyAdd  = "add"
	keyDel  = "del"
	KeyStep = "step"
	KeyDemo = "demo" // on a lesson page with several demos: whose state the URL holds
	Custom  = "custom"
)

// The view parameters the kit adds to every demo: the play speed, the
// class a click adds (demos with class labels; its Max is the demo's) and
// the plot size.
var (
	speedParam = Int{Key: "speed", Label: "speed", Doc: "ms per step when playing", Group: GroupView,
		Default: 500, Min: 20, Max: 5000, PageOnly: true, Hidden: true}
	classParam = Int{Key: "class", Label: "class", Doc: "class a click adds", Group: GroupView,
		Default: 1, Min: -1, PageOnly: true, Hidden: true}
	widthParam  = Int{Key: "w", Label: "w", Doc: "plot size in pixels", Group: GroupView, Default: defaultPx, Min: MinPlotPx, Max: MaxPlotPx, Hidden: true}
	heightParam = Int{Key: "h", Label: "h", Doc: "plot size in pixels", Group: GroupView, Default: defaultPx, Min: MinPlotPx, Max: MaxPlotPx, Hidden: true}
)

// NewDemo checks spec (unique keys, defaults that parse, a Run) and adds
// the kit's parameters: data (for demos with points), speed, class (for
// demos with class labels) and the plot size w, h. step, add and del are
// the kit's too and parsed apart.
func NewDemo(spec Spec) (*Demo, error) {
	if spec.ID == "" || spec.Compute == nil || spec.Lesson == "" {
		return nil, errors.New("demo: a demo needs an ID, a lesson and a Compute")
	}
	if spec.Data.Graph && spec.Data.Labels != RealLabels {
		return nil, fmt.Errorf("demo: demo %s: graph data need real labels", spec.ID)
	}
	d := &Demo{Spec: spec, index: map[string]int{}}
	if spec.Data.Labels != NoLabels {
		sets := append(slices.Clone(spec.Data.Sets), Option{Custom, "custom (only your points)"})
		d.params = append(d.params, Param{Key: KeyData, Label: "set", Doc: "data set (`custom`: only added points)",
			Kind: KindChoice, Group: GroupData, Default: spec.Data.Default, Options: sets})
	}
	d.params = append(d.params, spec.Params...)
	d.params = append(d.params, speedParam.Param())
	if spec.Data.Labels == ClassLabels {
		c := classParam
		c.Max, c.AllowedDoc = spec.Data.MaxClasses-1, fmt.Sprintf("a label: −1, +1 or 0–%d", spec.Data.MaxClasses-1)
		d.params = append(d.params, c.Param())
	}
	d.params = append(d.params, widthParam.Param(), heightParam.Param())
	d.params = append(d.params, figureParams()...)
	for i := range d.params {
		p := &d.params[i]
		if _, dup := d.index[p.Key]; dup || p.Key == KeyAdd || p.Key == keyDel || p.Key == KeyStep || p.Key == KeyDemo {
			return nil, fmt.Errorf("demo: demo %s declares parameter %q twice or takes a kit key", spec.ID, p.Key)
		}
		d.index[p.Key] = i
		if p.DefaultFrom == "" {
			if _, err := p.parse(p.Default); err != nil {
				return nil, fmt.Errorf("demo: demo %s: default of %s: %v", spec.ID, p.Key, err)
			}
		}
	}
	for _, p := range d.params {
		if _, ok := d.index[p.DefaultFrom]; p.DefaultFrom != "" && !ok {
			return nil, fmt.Errorf("demo: demo %s: %s takes its default from unknown %q", spec.ID, p.Key, p.DefaultFrom)
		}
	}
	return d, nil
}

// Params returns every parameter of the demo, the kit's included, in form
// order. The slice is the demo's own; do not modify it.
func (d *Demo) Params() []Param { return d.params }

// HasPoints reports whether the demo's data are points one can add.
func (d *Demo) HasPoints() bool { return d.Data.Labels != NoLabels }

// PointFormat is how URLs, CSV and messages write one of the demo's
// points: "x,y" for graph data, else "x1,x2,label".
func (d *Demo) PointFormat() string {
	if d.Data.Graph {
		return "x,y"
	}
	return "x1,x2,label"
}

// LessonPath is the lesson page that shows the demo.
func (d *Demo) LessonPath() string { return "/lessons/" + d.Lesson }

// PresentPath is the demo alone, large, for a lecture hall.
func (d *Demo) PresentPath() string { return "/present/" + d.ID }

// PlotPath is the standalone main plot; ext is "svg" or "png".
func (d *Demo) PlotPath(ext string) string { return "/plots/" + d.ID + "." + ext }

// PanelPath is the standalone figure name (HistoryFigure or one of Panels).
func (d *Demo) PanelPath(name string) string { return "/plots/" + d.ID + "-" + name + ".svg" }

// CSVPath downloads the demo's points; DataPath takes an upload.
func (d *Demo) CSVPath() string  { return "/demos/" + d.ID + "/data.csv" }
func (d *Demo) DataPath() string { return "/demos/" + d.ID + "/data" }
