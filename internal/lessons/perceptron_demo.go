package lessons

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/render"
)

// PerceptronPath is where the perceptron lesson and its demo live;
// PresentPath shows the demo alone, large, for a lecture hall.
const (
	PerceptronPath = "/lessons/perceptron"
	PresentPath    = "/present/perceptron"
)

// PerceptronRun is a demo query with its data and the run up to the step
// it asks for: what both the page and the plot endpoints draw.
type PerceptronRun struct {
	Q       PerceptronQuery // Step resolved to the state shown
	Points  []Point
	Problem *perceptron.Problem
	States  []perceptron.State // states 0…Q.Step
	Final   bool               // the last state ends the run
}

// RunPerceptron builds the data q describes and runs the perceptron to
// q.Step (to the end of the run, at most MaxStep steps, for StepToEnd).
// A step past the end of the run shows the last state.
func RunPerceptron(q PerceptronQuery) (*PerceptronRun, error) {
	pts, err := q.Points()
	if err != nil {
		return nil, err
	}
	d := perceptron.Data{X: make([][]float64, len(pts)), Y: make([]int, len(pts))}
	for i, p := range pts {
		d.X[i], d.Y[i] = []float64{p.X1, p.X2}, p.Label
	}
	k := q.Step
	if k == StepToEnd {
		k = MaxStep
	}
	pr, states, err := perceptron.Trajectory(d, q.Params(), k)
	if err != nil {
		return nil, fmt.Errorf("data: %w", err)
	}
	q.Step = len(states) - 1
	last := states[len(states)-1]
	return &PerceptronRun{Q: q, Points: pts, Problem: pr, States: states, Final: last.Status.Done()}, nil
}

// Last returns the state shown.
func (r *PerceptronRun) Last() perceptron.State { return r.States[len(r.States)-1] }

// PlotOptions returns the plot size the query asks for.
func (r *PerceptronRun) PlotOptions() render.Options {
	return render.Options{Width: r.Q.W, Height: r.Q.H}
}

// PerceptronDemo is the view model of the demo panel.
type PerceptronDemo struct {
	Q       PerceptronQuery
	Binary  bool
	Classes []int // labels a click can add
	Plot    string
	History string
	// FrameJSON tells the page's script where the data area sits inside
	// the plot and where the points are, so a click maps to (x₁, x₂).
	FrameJSON string
	Step      StepView
	Bound     *BoundView
	Links     DemoLinks
	DataNames []string
	AtLimit   bool // the run goes on, but the demo shows no step past MaxStep
	MaxStep   int
}

// DemoLinks are the URLs of the demo's controls, each a complete state.
type DemoLinks struct {
	Page                            string // the path the controls lead to
	Self, Prev, Next, Reset, End    string
	SVG, PNG, CSV, HistorySVG, Data string
	Lesson, Present                 string // this state on the lesson page and in the presenter view
}

// StepView describes the state shown and the step that led to it.
type StepView struct {
	T, Epoch, Mistakes int
	UpdatesWord        string // "mistakes", or "updates" when the two differ (margin, several tasks)
	Status             string
	Done               bool
	TrainError         string
	Examined           string   // "point 3: x = (1, 1), y = +1", or "" at step 0
	Mistake            bool     // the step updated some model
	Lines              []string // the update written out with numbers
	Models             []ModelView
}

// ModelView is one task's classifier in the state shown.
type ModelView struct {
	Task     string // "+1 vs −1", "class 0 vs rest", …
	W, B     string
	Averaged string // "w̄ = …, b̄ = …" for the averaged variant
}

// BoundView reports Theorem 1.2.8's quantities next to the mistakes.
type BoundView struct {
	Separable       bool
	Gamma, C, Bound string
	Mistakes        int
	// MarginTerm is "2γ/η" written out for the margin perceptron, whose
	// bound is (C² + 2γ/η)/γ*²; empty for Algorithm 1.
	MarginTerm string
}

// NewPerceptronDemo renders the plots of r and builds the panel's view.
// page is the path its controls lead to: PerceptronPath or PresentPath.
func NewPerceptronDemo(r *PerceptronRun, page string) (*PerceptronDemo, error) {
	q := r.Q
	opt := r.PlotOptions()
	var plotBuf, histBuf bytes.Buffer
	frame, err := render.PerceptronSVGFrame(&plotBuf, r.Problem, r.States, opt)
	if err != nil {
		return nil, err
	}
	if err := render.PerceptronHistorySVG(&histBuf, r.Problem, r.States, render.Options{Width: 600, Height: 260}); err != nil {
		return nil, err
	}
	fj, err := json.Marshal(struct {
		Frame  render.Frame `json:"frame"`
		Points [][3]float64 `json:"points"`
	}{frame, pointTriples(r.Points)})
	if err != nil {
		return nil, err
	}
	d := &PerceptronDemo{
		Q:         q,
		Binary:    r.Problem.Binary(),
		Plot:      string(render.InlineSVG(plotBuf.Bytes())),
		History:   string(render.InlineSVG(histBuf.Bytes())),
		FrameJSON: string(fj),
		Step:      stepView(r),
		Links:     links(q, r.Final || q.Step >= MaxStep, page),
		AtLimit:   !r.Final && q.Step >= MaxStep,
		DataNames: DataNames(),
		MaxStep:   MaxStep,
	}
	d.Classes = []int{1, -1}
	if !d.Binary {
		d.Classes = r.Problem.Classes
	}
	if d.Binary {
		d.Bound = boundView(r)
	}
	return d, nil
}

func pointTriples(pts []Point) [][3]float64 {
	out := make([][3]float64, len(pts))
	for i, p := range pts {
		out[i] = [3]float64{p.X1, p.X2, float64(p.Label)}
	}
	return out
}

// URL returns the lesson page URL of q.
func (q PerceptronQuery) URL() string { return q.URLAt(PerceptronPath) }

// URLAt returns the URL of q on the page at path.
func (q PerceptronQuery) URLAt(path string) string { return withQuery(path, q.Encode()) }

func withQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}

func links(q PerceptronQuery, final bool, page string) DemoLinks {
	at := func(k int) string { c := q; c.Step = k; return c.URLAt(page) }
	l := DemoLinks{
		Page:  page,
		Self:  q.URLAt(page),
		Reset: at(0),
		Prev:  at(max(q.Step-1, 0)),
		Next:  at(min(q.Step+1, MaxStep)),
		End:   at(StepToEnd),
	}
	if final {
		l.Next, l.End = "", ""
	}
	if q.Step == 0 {
		l.Prev = ""
	}
	plot := q
	plot.Speed, plot.Class = 500, 1 // page-only fields stay out of plot URLs
	enc := plot.Encode()
	l.SVG = withQuery("/plots/perceptron.svg", enc)
	l.PNG = withQuery("/plots/perceptron.png", enc)
	l.HistorySVG = withQuery("/plots/perceptron-history.svg", enc)
	l.CSV = withQuery(PerceptronPath+"/data.csv", enc)
	l.Data = PerceptronPath + "/data"
	l.Lesson = q.URLAt(PerceptronPath) + "#demo"
	l.Present = q.URLAt(PresentPath)
	return l
}
