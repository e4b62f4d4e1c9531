package demo

import (
	"encoding/json"
	"io"
	"strconv"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
)

// Panel is what a demo says beside its plot about the state shown: the
// counters, the step written out with its numbers, the model, and notes.
type Panel struct {
	Counters []Counter
	Status   string
	Done     bool     // the run has stopped
	Bad      bool     // … and not by succeeding (a cycle, a limit)
	Start    string   // shown at step 0 instead of a step
	Examined string   // "Step 3 examines x₃ = (1, 0), y = +1."
	Changed  bool     // the step changed the model (a mistake, an update)
	Lines    []string // the step's arithmetic
	Model    []ModelLine
	Notes    []Note
	Tables   []Table // per-point numbers: slacks, probabilities
}

// Table is a small table of numbers beside the plot, such as each
// violating point's slack. A demo keeps it short (a few dozen rows) and
// says what it left out in More.
type Table struct {
	TestID  string
	Caption string
	Head    []string
	Rows    [][]string
	More    string // "and 12 more points", or ""
}

// Counter is one labelled number, such as the iteration t.
type Counter struct{ Label, Value, TestID string }

// ModelLine is one classifier or iterate: "class 0 vs rest: w = …, b = …".
type ModelLine struct {
	Prefix string
	Facts  []Fact
	Extra  string
}

// Fact is "Sym = Value".
type Fact struct{ Sym, Value, TestID string }

// Note is a paragraph under the counters: a bound, a warning, a limit.
type Note struct {
	TestID string
	Text   string
	Fine   string // small print after the text
	Alert  bool
	// Href and LinkText end the note with a link: to the lesson that
	// takes over where this demo stops.
	Href, LinkText string
}

// DemoView is the view model of a demo panel.
type DemoView struct {
	ID, Title string
	SectionID string // the demo's section, which the Anchor names
	PanelID   string // the element htmx swaps
	Page      string // the path the controls lead to
	// Anchor is "#" and the id of the demo's section on a lesson page, so
	// that a link or a form without JavaScript lands on the demo, not at
	// the top of a long page; "" in the presenter view, where the demo is
	// the page.
	Anchor  string
	Present bool // the presenter view
	Hall    bool // the figures are drawn in the hall type (ViewOptions.Hall)
	Static  bool // one state: no step controls
	Step    int
	Speed   int
	Plot    string // inline SVG
	// FrameJSON tells the page's script where the data area sits inside
	// the plot and where the points are, so a click maps to (x₁, x₂).
	FrameJSON string
	Click     string // "points", "graph", "start" or "" (clicks do nothing)
	History   string // inline SVG, or ""
	Panels    []Figure
	Panel     Panel
	Links     Links
	Forms     []Form
	Classes   []ClassChoice // labels a click or the add form can give
	Points    bool          // the demo has points to edit
	Real      bool          // labels are real numbers
	Graph     bool          // points are (x, y) observations: DataSpec.Graph
	AtLimit   bool
	MaxStep   int
	Hidden    func(except ...string) []Field
	// Embed is the embed view (EmbedPath): the demo alone, for another
	// site's iframe.
	Embed bool
	// Conventions state the model (Spec.Conventions); Explain links the
	// step's explanation to the lesson section defining it.
	Conventions []ConventionLine
	Explain     ExplainLink
	// Predict is predict-then-reveal (predict_view.go); nil for a demo
	// that asks no questions.
	Predict *PredictView
}

// Figure is an extra panel, inline, with its standalone URLs (URL the
// SVG, PNG the PNG) and the names their downloads take (File, PNGFile:
// State.FileName). Label names it for a reader: "KKT violation of each
// point".
type Figure struct{ Name, Label, SVG, URL, PNG, File, PNGFile string }

// ClassChoice is a label a click can add.
type ClassChoice struct {
	Value, Label string
	Checked      bool
}

// Links are the URLs of the demo's controls, each a complete state. On a
// lesson page the state links (Self to End, and Lesson) end with the demo's
// anchor, so that a step without JavaScript, a copied link or a reload
// lands on the demo; the figure and data URLs do not.
type Links struct {
	Self, Prev, Next, Reset, End    string
	SVG, PNG, CSV, HistorySVG, Data string
	HistoryPNG                      string
	// GIF animates the stretch of the run up to the state shown (steps
	// k−29…k, or 0…29 early on); "" for a static demo.
	GIF             string
	Lesson, Present string // this state on the lesson page and in the presenter view
	Embed           string // this state in the embed view (EmbedPath)
	Compare         string // this state as run a and b of a comparison, in the page's mode; "" if static
	// Files are the names the downloads take: the download attribute of
	// each link, and the Content-Disposition the server sends.
	Files Files
}

// Files are the download names of a view's links (State.FileName):
// "svm-soft-C1-step40.svg".
type Files struct{ SVG, PNG, CSV, HistorySVG, HistoryPNG, GIF string }

// ViewOptions say how NewViewWith draws a view's figures.
type ViewOptions struct {
	// Hall draws the plot, the history and the panels in the hall type,
	// for a lecture hall (render.Options.Hall and render.Target.Hall):
	// type and markers 1.3 times larger, no stroke under 2 px, pale
	// contours darkened. NewView sets it for the presenter view.
	Hall bool
}

// LessonPlotPx is the size a lesson page lays its plot out at: a 390 px
// phone shows it almost whole, so ticks stay at least 11 px there, and a
// wide screen shows it at up to 520 px (app.css). Downloads and the
// presenter view keep their own sizes.
const LessonPlotPx = 400

// NewView renders r's figures and builds its panel's view. page is the
// path its controls lead to: the lesson page or the presenter view, whose
// figures are drawn in the hall type (ViewOptions.Hall).
func NewView(r *Run, page string) (*DemoView, error) {
	return NewViewWith(r, page, ViewOptions{Hall: page == r.State.d.PresentPath()})
}

// NewViewWith is NewView with the figures drawn as o says.
func NewViewWith(r *Run, page string, o ViewOptions) (*DemoView, error) {
	d, s := r.State.d, r.State
	var frame render.Frame
	// to draws a figure inline: SVG, in the state's theme and o's type.
	to := func(w io.Writer) *render.Target {
		return &render.Target{W: w, Theme: themeParam.Get(s), Hall: o.Hall}
	}
	plotOpt := r.PlotOptions()
	plotOpt.Hall = o.Hall
	if page != d.PresentPath() {
		// A lesson page's plot is laid out at LessonPlotPx, so its type
		// reads on a phone, where it shows at about that width.
		plotOpt.Width, plotOpt.Height = LessonPlotPx, LessonPlotPx
	}
	plot, err := svgString(func(w io.Writer) (err error) {
		frame, err = r.Plot(to(w), false, plotOpt)
		return err
	})
	if err != nil {
		return nil, err
	}
	v := &DemoView{
		ID: d.ID, Title: d.Title, SectionID: d.SectionID(), PanelID: "panel-" + d.ID, Page: page, Anchor: d.anchorOn(page),
		Present: page == d.PresentPath(), Hall: o.Hall, Static: d.Static, Step: s.Step, Speed: speedParam.Get(s),
		Plot: plot, Panel: r.Panel(), Links: d.links(s, r.Done || s.Step >= MaxStep, page),
		Forms: d.Forms(s), Points: d.HasPoints(), Real: d.Data.Labels == RealLabels, Graph: d.Data.Graph,
		AtLimit: r.AtLimit(), MaxStep: MaxStep, Hidden: s.Hidden,
	}
	v.Conventions, v.Explain = d.ConventionLines(s, len(r.Points)), d.explainLink(page)
	if v.FrameJSON, err = frameJSON(frame, r.Points, d.Data.Graph); err != nil {
		return nil, err
	}
	switch {
	case d.Data.Graph:
		v.Click = "graph"
	case d.HasPoints():
		v.Click = "points"
	case d.Data.Start[0] != "":
		v.Click = "start"
	}
	if r.History != nil {
		if v.History, err = svgString(func(w io.Writer) error {
			return chart.HistorySVG(to(w), *r.History, render.Options{Width: 600, Height: 260, Hall: o.Hall})
		}); err != nil {
			return nil, err
		}
	}
	for _, name := range d.Panels {
		draw := r.Panels[name]
		if draw == nil {
			continue
		}
		svg, err := svgString(func(w io.Writer) error {
			_, err := draw(to(w), false, render.Options{Width: 600, Height: 300, Hall: o.Hall})
			return err
		})
		if err != nil {
			return nil, err
		}
		v.Panels = append(v.Panels, Figure{Name: name, Label: d.FigureLabel(name), SVG: svg,
			URL: WithQuery(d.FigurePath(name, "svg"), s.FigureQuery(false)), PNG: WithQuery(d.FigurePath(name, "png"), s.FigureQuery(true)),
			File: s.FileName(name, "svg"), PNGFile: s.FileName(name, "png")})
	}
	if s.Has(classParam.Key) {
		v.Classes = classChoices(d, r.Points, classParam.Get(s))
	}
	v.Embed = page == d.EmbedPath()
	v.Predict = predictView(r, page, frame)
	return v, nil
}

// frameJSON gives each point where the plot draws it first: (x₁, x₂),
// or (x, y) for graph data.
func frameJSON(f render.Frame, pts []Point, graph bool) (string, error) {
	tri := make([][3]float64, len(pts))
	for i, p := range pts {
		tri[i] = [3]float64{p.X1, p.X2, p.Y}
		if graph {
			tri[i][1] = p.Y
		}
	}
	b, err := json.Marshal(struct {
		Frame  render.Frame `json:"frame"`
		Points [][3]float64 `json:"points"`
	}{f, tri})
	return string(b), err
}

// classChoices offers ±1 while the data are two-class, else the classes
// present plus the next one, so a click can start a new class.
func classChoices(d *Demo, pts []Point, current int) []ClassChoice {
	if d.Data.Labels != ClassLabels {
		return nil
	}
	binary, top := true, -1
	for _, p := range pts {
		if p.Y != 1 && p.Y != -1 {
			binary = false
		}
		top = max(top, int(p.Y))
	}
	var out []ClassChoice
	add := func(c int, label string) {
		out = append(out, ClassChoice{strconv.Itoa(c), label, c == current})
	}
	if binary {
		add(1, "+1 (blue ●)")
		add(-1, "−1 (vermillion ■)")
		return out
	}
	for c := 0; c <= min(top+1, d.Data.MaxClasses-1); c++ {
		add(c, "class "+strconv.Itoa(c))
	}
	return out
}

// SectionID is the id of the demo's section on the page that shows it.
func (d *Demo) SectionID() string { return "demo-" + d.ID }

// Anchor is the fragment that names the demo's section on its lesson page.
func (d *Demo) Anchor() string { return "#" + d.SectionID() }

// anchorOn is the demo's anchor on the lesson page, "" on any other page.
func (d *Demo) anchorOn(page string) string {
	if page == d.LessonPath() {
		return d.Anchor()
	}
	return ""
}

func (d *Demo) links(s State, final bool, page string) Links {
	anchor := d.anchorOn(page)
	at := func(k int) string { return s.AtStep(k).URL(page) + anchor }
	l := Links{
		Self:  s.URL(page) + anchor,
		Reset: at(0),
		Prev:  at(max(s.Step-1, 0)),
		Next:  at(min(s.Step+1, MaxStep)),
		End:   at(StepToEnd),
	}
	if final {
		l.Next, l.End = "", ""
	}
	if s.Step == 0 {
		l.Prev = ""
	}
	svg, png := s.FigureQuery(false), s.FigureQuery(true)
	l.SVG = WithQuery(d.PlotPath("svg"), svg)
	l.PNG = WithQuery(d.PlotPath("png"), png)
	l.HistorySVG = WithQuery(d.PanelPath(HistoryFigure), svg)
	l.HistoryPNG = WithQuery(d.FigurePath(HistoryFigure, "png"), png)
	l.Files = Files{SVG: s.FileName(PlotFigure, "svg"), PNG: s.FileName(PlotFigure, "png"),
		HistorySVG: s.FileName(HistoryFigure, "svg"), HistoryPNG: s.FileName(HistoryFigure, "png")}
	if !d.Static {
		g := defaultGIF(s, final)
		l.GIF, l.Files.GIF = g.URL(), g.FileName()
	}
	if d.HasPoints() {
		l.CSV = WithQuery(d.CSVPath(), s.Encode(ForData))
		l.Data = d.DataPath()
		l.Files.CSV = s.FileName("", "csv")
	}
	l.Lesson = s.URL(d.LessonPath()) + d.Anchor()
	l.Present = s.URL(d.PresentPath())
	l.Embed = s.URL(d.EmbedPath())
	l.Compare = d.compareLink(s, page)
	return l
}

// FigureLabel names the demo's figure name for a reader, as a link to it
// says: "KKT violation of each point". A figure without a label keeps its
// name, which TestFigureLabels reports.
func (d *Demo) FigureLabel(name string) string {
	if l, ok := d.PanelLabels[name]; ok {
		return l
	}
	return name
}
