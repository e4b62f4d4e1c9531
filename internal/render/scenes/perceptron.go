package scenes

import (
	"fmt"
	"io"

	"github.com/margin-edu/margin/internal/render"
)

// PerceptronScene is one state of a perceptron run as plain data: what
// PerceptronSVGFrame draws and says. The perceptron topic builds it from
// the algorithm's problem and state; render knows nothing of the algorithm.
type PerceptronScene struct {
	X       [][]float64 // the points; the plot draws d = 2 only
	Y       []int       // each point's class: ±1 for a two-class problem, else 0…K−1
	Classes []int       // the classes in the data, in order
	// Binary is set for one two-class problem with labels ±1, as opposed
	// to a multiclass reduction to several perceptrons.
	Binary bool
	// Wrong says, per point, whether the state misclassifies it.
	Wrong []bool
	// Tasks are the binary perceptrons: one for a two-class problem.
	Tasks []PerceptronTask
	// Scheme names a multiclass reduction ("one-vs-all", "one-vs-one").
	Scheme string

	Eta     float64 // learning rate η
	Margin  float64 // margin γ of the update rule (0: Algorithm 1)
	Average bool    // each task predicts with its averaged w̄, b̄
	// UpdatesAreMistakes is set when every update is a mistake (Algorithm
	// 1), so the words say "mistakes" rather than "updates".
	UpdatesAreMistakes bool

	T        int // points examined
	Epoch    int // 1-based epoch of the step that made the state
	Mistakes int // updates made, summed over tasks
	// Stopped is why the run stopped, as the title says it ("converged"),
	// and StoppedNote the sentence the text alternative ends with; both ""
	// while the run goes on.
	Stopped, StoppedNote string

	Event PerceptronEvent
}

// PerceptronTask is one binary perceptron: points of class Pos are +1,
// points of class Neg (every other class when Rest) are −1.
type PerceptronTask struct {
	Name     string // "0 vs rest", "0 vs 1"
	Pos, Neg int
	Rest     bool
	W        []float64 // the weights it predicts with (w̄ when averaged)
	B        float64
	CurW     []float64 // its current, not averaged, weights
	CurB     float64
	// Updated says whether the step updated it; then BeforeW, BeforeB are
	// its weights before the step.
	Updated bool
	BeforeW []float64
	BeforeB float64
	// Margin is y(w·x + b) of the examined point before the step.
	Margin float64
}

// PerceptronEvent is what the step that made the state did.
type PerceptronEvent struct {
	I int // the point examined, −1 for the initial state
	// DeltaW and DeltaB are a two-class update η·y·x and η·y (whether or
	// not it happened: the text says what it would have been).
	DeltaW []float64
	DeltaB float64
}

// PerceptronSVGFrame writes the data plot of perceptron state sc as a
// standalone SVG file, with an XML declaration and <title>/<desc> (a text
// alternative that describes the state; InlineSVG puts it inside a page),
// and returns where the SVG puts the data area and which data it shows,
// measured by the drawing's own layout code: what a page needs to inline
// a clickable plot. The Frame is the same for every state of one problem
// and size.
//
// The plot needs no earlier state: the step's own change (the old w, the
// update) is in sc.Tasks and sc.Event. It shows the decision regions as
// opaque tints, the boundary, the margin band (Margin > 0), the normal
// vector w, the update of this step, the examined point and the points
// the state misclassifies, with equal aspect ratio; its legend and axis
// ranges are laid out for opt's size (Width×Height CSS pixels). Data with
// d ≠ 2 give ErrDimension.
func PerceptronSVGFrame(w io.Writer, sc PerceptronScene, opt render.Options) (render.Frame, error) {
	f, err := perceptronFigure(sc, opt)
	if err != nil {
		return render.Frame{}, err
	}
	return f.WriteSVG(w, opt)
}

// PerceptronPNG writes PerceptronSVGFrame's figure as a PNG of exactly
// Width×Height pixels (96 dpi), for slides and downloads.
func PerceptronPNG(w io.Writer, sc PerceptronScene, opt render.Options) error {
	f, err := perceptronFigure(sc, opt)
	if err != nil {
		return err
	}
	return f.WritePNG(w, opt)
}

// checkScene rejects a scene with no points, no perceptrons, or parts of
// the wrong length, which would index out of range.
func checkScene(sc PerceptronScene) error {
	n := len(sc.X)
	switch {
	case n == 0:
		return fmt.Errorf("%w: the scene has no points", render.ErrNoData)
	case len(sc.Tasks) == 0 && (sc.Binary || len(sc.Classes) > 1):
		// Only one class split one-vs-one has no perceptron to draw.
		return fmt.Errorf("%w: the scene has no perceptrons; give a state from Init or Step", render.ErrNoState)
	case len(sc.Y) != n || len(sc.Wrong) != n:
		return fmt.Errorf("%w: %d points, %d labels and %d misclassified flags", render.ErrShape, n, len(sc.Y), len(sc.Wrong))
	case sc.Binary && len(sc.Tasks) != 1:
		return fmt.Errorf("%w: a two-class scene has %d perceptrons", render.ErrShape, len(sc.Tasks))
	case sc.Event.I >= n:
		return fmt.Errorf("%w: the event's point %d is not one of the %d points", render.ErrShape, sc.Event.I, n)
	case sc.Binary && sc.Event.I >= 0 && len(sc.Event.DeltaW) != len(sc.X[0]):
		return fmt.Errorf("%w: the event's update has %d coordinates for %d-D data", render.ErrShape, len(sc.Event.DeltaW), len(sc.X[0]))
	}
	d := len(sc.X[0])
	for i, x := range sc.X {
		if len(x) != d {
			return fmt.Errorf("%w: point %d has %d coordinates, point 1 has %d", render.ErrShape, i+1, len(x), d)
		}
		if !hasClass(sc.Classes, sc.Y[i]) {
			return fmt.Errorf("%w: point %d has class %d, not one of %v", render.ErrShape, i+1, sc.Y[i], sc.Classes)
		}
	}
	for _, t := range sc.Tasks {
		if len(t.W) != d || len(t.CurW) != d || t.Updated && len(t.BeforeW) != d {
			return fmt.Errorf("%w: a perceptron has a %d-D w for %d-D data", render.ErrShape, len(t.W), d)
		}
	}
	if !sc.Binary {
		for _, t := range sc.Tasks {
			if !hasClass(sc.Classes, t.Pos) || !t.Rest && !hasClass(sc.Classes, t.Neg) {
				return fmt.Errorf("%w: perceptron %q names a class not in %v", render.ErrShape, t.Name, sc.Classes)
			}
		}
	}
	return nil
}

// perceptronFigure builds the data plot and lays it out for opt's size.
func perceptronFigure(ps PerceptronScene, opt render.Options) (render.DataFigure, error) {
	if err := checkScene(ps); err != nil {
		return render.DataFigure{}, err
	}
	if d := len(ps.X[0]); d != 2 {
		return render.DataFigure{}, fmt.Errorf("%w: the data have d = %d features; the plot draws d = 2 only", render.ErrDimension, d)
	}
	th := render.NewTheme(opt.Size(render.DefaultSize, render.DefaultSize)).ForHall(opt)
	sc := newScene(ps, th)
	// The scene is built at the theme's scale already, so the figure must
	// not scale it again.
	return render.DataFigure{
		Title:     sc.heading(),
		Name:      sc.svgTitle(),
		Desc:      sc.describe(),
		View:      render.DataView(ps.X),
		Layers:    sc.layers(),
		Legend:    sc.legend,
		Prescaled: true,
	}, nil
}
