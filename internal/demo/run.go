package demo

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/render/chart"
)

// Run is a demo state with its data and the run up to the step it shows:
// what both the page and the plot URLs draw.
type Run struct {
	State  State // Step resolved to the state shown
	Points []Point
	Result
	// Quiz is what a page in predict mode asks (predict_quiz.go); nil
	// for a figure and when predicting is off.
	Quiz *Quiz
}

// ExecuteFigure builds the data s describes and runs the demo to s.Step
// (to the end of the run, at most MaxStep steps, for StepToEnd), for a
// request that draws only the figure name ("" for all of them, as a page
// does; PlotFigure for the main plot, HistoryFigure, or one of Spec.Panels):
// a demo may then skip recording what that figure does not show (see
// Input.Figure). A step past the end of the run shows the last state.
//
// The work stops when ctx ends, with an error wrapping ctx.Err(). An
// error is of one of the kinds errors.go lists: a Compute error of none
// of them comes back as an *InternalError.
func (d *Demo) ExecuteFigure(ctx context.Context, s State, name string) (*Run, error) {
	if s.d != d {
		return nil, &InternalError{Demo: d.ID, Err: fmt.Errorf("state of demo %s given to demo %s", s.d.ID, d.ID), stack: debug.Stack()}
	}
	pts, err := s.Points()
	if err != nil {
		return nil, d.kindOf(s, err)
	}
	k := s.Step
	if k == StepToEnd {
		k = MaxStep
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := d.Compute(ctx, Input{State: s, Points: pts, Step: k, Figure: name, Cache: d.Cache})
	if err == nil && s.Step == StepToEnd && res.Step < k && res.History != nil {
		// A history samples its series by the step it is asked to reach;
		// draw it as the state's canonical URL (step=res.Step) does, so
		// one state has one set of bytes however it was reached.
		res, err = d.Compute(ctx, Input{State: s, Points: pts, Step: res.Step, Figure: name, Cache: d.Cache})
	}
	if err != nil {
		return nil, d.kindOf(s, err)
	}
	s.Step = res.Step
	if !res.Done && res.Step >= MaxStep && res.Panel != nil {
		res.Panel = atStepLimit(res.Panel)
	}
	r := &Run{State: s, Points: pts, Result: res}
	if name == "" && s.Predict.On {
		if r.Quiz, err = d.quiz(ctx, r); err != nil {
			return nil, d.kindOf(s, err)
		}
	}
	return r, nil
}

// StepLimitStatus is the status of a run the demo stops showing at
// MaxStep before it stops by itself: not "running", since nothing more
// happens on the page.
const StepLimitStatus = "step limit reached"

// atStepLimit gives a panel the status of a run cut off at MaxStep, for
// every demo alike: its own status there would still read "running".
func atStepLimit(panel func() Panel) func() Panel {
	return func() Panel {
		p := panel()
		if p.Status == "" || strings.Contains(p.Status, "running") {
			p.Status = StepLimitStatus
		}
		p.Done, p.Bad = true, true
		return p
	}
}

// AtLimit reports whether the run goes on past the last step a demo shows.
func (r *Run) AtLimit() bool { return !r.Done && r.State.Step >= MaxStep }

// PlotOptions returns the plot size the state asks for.
func (r *Run) PlotOptions() render.Options {
	return render.Options{Width: widthParam.Get(r.State), Height: heightParam.Get(r.State)}
}

// WriteFigure writes the figure name (PlotFigure for the main plot,
// HistoryFigure, or one of the demo's Panels) as SVG, or as PNG when png
// is set, in the state's theme and (for a PNG) scale. ok is false for a
// figure the demo does not have.
func (r *Run) WriteFigure(w io.Writer, name string, png bool) (ok bool, err error) {
	return r.WriteFigureContext(context.Background(), w, name, png)
}

// WriteFigureContext is WriteFigure for a request: a PNG stops
// rasterising and writing once ctx ends, with ctx's error (a PNG of
// 2000 × 2000 pixels is ~0.2 s of CPU, which a client that left should
// not buy; render.Target.Ctx). An SVG, a few milliseconds, is written
// whole.
func (r *Run) WriteFigureContext(ctx context.Context, w io.Writer, name string, png bool) (ok bool, err error) {
	f := render.SVG
	if png {
		f = render.PNG
	}
	return r.DrawFigure(&render.Target{W: w, Format: f, Ctx: ctx}, name)
}

// DrawFigure draws the figure name to t in t's format (SVG, PNG or a
// Raster frame), in the state's theme and, for pixels, its scale; t.Hall
// draws the hall type (render.Options.Hall). Every figure, the panels a
// demo writes with a chart's …SVG function included, comes out in t's
// format, since each figure writes through render.Figure, which reads the
// Target. ok is false for a figure the demo does not have.
func (r *Run) DrawFigure(t *render.Target, name string) (ok bool, err error) {
	t.Theme = themeParam.Get(r.State)
	t.Scale = 1
	if t.Format != render.SVG {
		t.Scale = scaleParam.Get(r.State)
	}
	opt := r.PlotOptions()
	opt.Hall = t.Hall
	png := t.Format != render.SVG
	switch {
	case name == PlotFigure:
		_, err = r.Plot(t, png, opt)
		return true, err
	case name == HistoryFigure:
		if r.History == nil {
			return false, nil
		}
		return true, chart.HistorySVG(t, *r.History, historyOptions(opt, r.State))
	}
	draw, has := r.Panels[name]
	if !has {
		return false, nil
	}
	_, err = draw(t, png, opt)
	return true, err
}

// Figures lists the names of the figures a demo can draw: the main plot,
// the history chart unless it is static, and its panels. A run may lack
// the history or a panel (Run.DrawFigure's ok).
func (d *Demo) Figures() []string {
	names := []string{PlotFigure}
	if !d.Static {
		names = append(names, HistoryFigure)
	}
	return append(names, d.Panels...)
}

// FigurePath is the URL path of figure name in format ext ("svg", "png"):
// PlotPath for the main plot, PanelPath's with ext for the others.
func (d *Demo) FigurePath(name, ext string) string {
	if name == PlotFigure {
		return d.PlotPath(ext)
	}
	return strings.TrimSuffix(d.PanelPath(name), ".svg") + "." + ext
}

// historyOptions keeps the chart's own wide, short shape unless the URL
// sets the height.
func historyOptions(opt render.Options, s State) render.Options {
	if heightParam.Get(s) == defaultPx {
		opt.Height = 0
	}
	return opt
}

// svgString renders a figure for inlining in a page.
func svgString(draw func(w io.Writer) error) (string, error) {
	var b bytes.Buffer
	if err := draw(&b); err != nil {
		return "", err
	}
	return string(render.InlineSVG(b.Bytes())), nil
}
