package render

import (
	"fmt"
	"io"

	"github.com/margin-edu/margin/internal/algos/perceptron"
)

// PerceptronSVGFrame writes the data plot of state s of problem pr as a
// standalone SVG file, with an XML declaration and <title>/<desc> (a text
// alternative that describes the state; InlineSVG puts it inside a page),
// and returns where the SVG puts the data area and which data it shows,
// measured by the drawing's own layout code: what a page needs to inline
// a clickable plot. The Frame is the same for every state of one problem
// and size.
//
// The plot needs no earlier state: the step's own change (the old w, the
// update) is read from s.Event. It shows the decision regions as opaque
// tints, the boundary, the margin band (Params.Margin > 0), the normal
// vector w, the update of this step, the examined point and the points
// the state misclassifies, with equal aspect ratio; its legend and axis
// ranges are laid out for opt's size (Width×Height CSS pixels). Data with
// d ≠ 2 give ErrDimension.
func PerceptronSVGFrame(w io.Writer, pr *perceptron.Problem, s perceptron.State, opt Options) (Frame, error) {
	f, err := perceptronFigure(pr, s, opt)
	if err != nil {
		return Frame{}, err
	}
	return f.frame(), f.writeSVG(w)
}

// PerceptronPNG writes PerceptronSVGFrame's figure as a PNG of exactly
// Width×Height pixels (96 dpi), for slides and downloads.
func PerceptronPNG(w io.Writer, pr *perceptron.Problem, s perceptron.State, opt Options) error {
	f, err := perceptronFigure(pr, s, opt)
	if err != nil {
		return err
	}
	return f.writePNG(w)
}

// checkProblem rejects a problem with no points and a state from another
// problem (or the zero State), which would index out of range.
func checkProblem(pr *perceptron.Problem, s perceptron.State) error {
	switch {
	case pr == nil || len(pr.X) == 0:
		return fmt.Errorf("%w: the problem is nil or has no points", ErrNoData)
	case s.Models == nil && len(pr.Tasks) > 0:
		return fmt.Errorf("%w: the state has no models; give a state from Init or Step", ErrNoState)
	case len(s.Models) != len(pr.Tasks):
		return fmt.Errorf("%w: state has %d models for %d tasks; it is not from this problem",
			ErrShape, len(s.Models), len(pr.Tasks))
	case s.Event.I >= len(pr.X) || s.Event.I >= 0 && len(s.Event.Before) < len(pr.Tasks):
		return fmt.Errorf("%w: the state's event (point %d) is not from this problem", ErrShape, s.Event.I)
	}
	for _, m := range s.Models {
		if len(m.W) != len(pr.X[0]) {
			return fmt.Errorf("%w: state has a %d-D w for %d-D data", ErrShape, len(m.W), len(pr.X[0]))
		}
	}
	return nil
}

// perceptronFigure builds the data plot and lays it out for opt's size.
func perceptronFigure(pr *perceptron.Problem, s perceptron.State, opt Options) (*figure, error) {
	if err := checkProblem(pr, s); err != nil {
		return nil, err
	}
	if d := len(pr.X[0]); d != 2 {
		return nil, fmt.Errorf("%w: the data have d = %d features; the plot draws d = 2 only", ErrDimension, d)
	}
	th := newTheme(opt.size(DefaultSize, DefaultSize))
	sc := newScene(pr, s, th)
	// The scene is built at the theme's scale already, so the figure must
	// not scale it again.
	return DataFigure{
		Title:  sc.heading(),
		Name:   sc.svgTitle(),
		Desc:   sc.describe(),
		View:   DataView(pr.X),
		Layers: sc.layers(),
		Legend: sc.legend,
	}.build(opt, false)
}
