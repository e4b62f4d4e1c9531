package scenes

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/margin-edu/margin/internal/render"
)

// scene is what the perceptron plot shows for one state, as plotters in
// drawing order (back to front) and legend items in reading order.
type scene struct {
	ps     PerceptronScene
	th     render.Theme
	binary bool

	regions, lines, marks, arrows []plot.Plotter
	legend                        []render.LegendItem

	pts   *render.ClassPoints
	wrong int // points the state misclassifies
}

func (sc *scene) layers() []plot.Plotter {
	var all []plot.Plotter
	for _, l := range [][]plot.Plotter{sc.regions, sc.lines, sc.marks, sc.arrows} {
		all = append(all, l...)
	}
	return all
}

func (sc *scene) item(label string, shown bool, thumbs ...plot.Thumbnailer) {
	sc.legend = append(sc.legend, render.LegendItem{Label: label, Thumbs: thumbs, Hidden: !shown})
}

// slot is the palette slot of class c: +1 blue, −1 vermillion, and class
// k of a multiclass problem slot k, so a class keeps its colour across
// data sets.
func (sc *scene) slot(c int) int { return render.SlotOf(c, sc.binary) }

func (sc *scene) updated(k int) bool {
	return sc.ps.Event.I >= 0 && sc.ps.Tasks[k].Updated
}

func newScene(ps PerceptronScene, th render.Theme) *scene {
	sc := &scene{ps: ps, th: th, binary: ps.Binary}
	sc.addPoints()
	if sc.binary {
		sc.addBinary()
	} else {
		sc.addMulticlass()
	}
	sc.addMarks()
	return sc
}

func (sc *scene) addPoints() {
	n := len(sc.ps.X)
	ps := &render.ClassPoints{
		XY: make([]render.Vec, n), Slot: make([]int, n), Bold: make([]bool, n),
		Radius:   sc.th.Pt(render.MarkerRadius(n)),
		Edge:     draw.LineStyle{Color: render.White, Width: sc.th.Pt(0.75)},
		BoldEdge: draw.LineStyle{Color: render.Black, Width: sc.th.Pt(2)},
	}
	for i, x := range sc.ps.X {
		ps.XY[i] = render.Vec2(x)
		ps.Slot[i] = sc.slot(sc.ps.Y[i])
		ps.Bold[i] = sc.ps.Wrong[i]
		if ps.Bold[i] {
			sc.wrong++
		}
	}
	sc.pts = ps
	// Classes in the legend: +1 before −1, as the notes list them.
	classes := sc.ps.Classes
	if sc.binary {
		classes = []int{1, -1}
	}
	for _, c := range classes {
		if !sc.hasClass(c) {
			continue
		}
		sc.item(render.ClassName(c, sc.binary), true, render.ClassThumb{Points: ps, Slot: sc.slot(c)})
	}
}

func (sc *scene) hasClass(c int) bool { return hasClass(sc.ps.Classes, c) }

func hasClass(classes []int, c int) bool {
	for _, k := range classes {
		if k == c {
			return true
		}
	}
	return false
}

// addMarks adds the points, the ring on the examined point and the legend
// entries for both and for misclassified points.
func (sc *scene) addMarks() {
	sc.marks = append(sc.marks, sc.pts)
	ev := sc.ps.Event
	rg := &render.Ring{Radius: sc.pts.Radius*2 + sc.th.Pt(2), LineStyle: draw.LineStyle{Color: render.Black, Width: sc.th.Pt(2.25)}}
	if ev.I >= 0 {
		rg.At = render.Vec2(sc.ps.X[ev.I])
		sc.marks = append(sc.marks, rg)
	}
	sc.item("examined point", ev.I >= 0, rg)
	sc.item("misclassified", sc.wrong > 0, sc.pts.BoldThumb())
}

func (sc *scene) line(w []float64, b float64, sty draw.LineStyle) *render.Boundary {
	return &render.Boundary{W: [2]float64{w[0], w[1]}, B: b, LineStyle: sty}
}

func (sc *scene) dashed(c color.Color, width float64, on, off float64) draw.LineStyle {
	return draw.LineStyle{Color: c, Width: sc.th.Pt(width), Dashes: []vg.Length{sc.th.Pt(on), sc.th.Pt(off)}}
}

// addBinary draws sgn(w·x + b): the two half-planes, the boundary, the
// margin band, the averaged perceptron's current w, and the update. The
// band and the arrows belong to the current (not averaged) w: it is the
// one whose margin the update rule tests and that the update changes.
func (sc *scene) addBinary() {
	ps, th := sc.ps, sc.th
	t := ps.Tasks[0]
	w, b := t.W, t.B
	cur := line{t.CurW, t.CurB}
	// −1 everywhere, then +1 where w·x + b > 0 (sgn(0) = −1): one polygon
	// over a full background leaves no seam between the two.
	sc.regions = append(sc.regions,
		&render.Region{Color: render.RegionTint(1)},
		&render.Region{Planes: []render.HalfPlane{{A: [2]float64{w[0], w[1]}, B: b, Strict: true}}, Color: render.RegionTint(0)})

	bd := sc.line(w, b, draw.LineStyle{Color: render.Black, Width: th.Pt(2.25)})
	label := "w·x + b = 0"
	if ps.Average {
		label = "averaged w·x + b = 0"
	}
	sc.item(label, sc.visible(w, b), bd)

	before, upd := line{}, sc.updated(0)
	if upd {
		before = line{t.BeforeW, t.BeforeB}
		sc.lines = append(sc.lines, sc.line(before.W, before.B, sc.dashed(render.Grey, 1.5, 5, 4)))
	}
	if ps.Margin > 0 {
		band := &render.MarginBand{W: [2]float64{cur.W[0], cur.W[1]}, B: cur.B, Gamma: ps.Margin,
			LineStyle: sc.dashed(render.Black, 1.25, 6, 4)}
		sc.lines = append(sc.lines, band)
		sc.item("w·x + b = ±γ, γ = "+coord(ps.Margin),
			sc.visible(cur.W, cur.B-ps.Margin) || sc.visible(cur.W, cur.B+ps.Margin), band)
	}
	if ps.Average {
		cl := sc.line(cur.W, cur.B, sc.dashed(render.Black, 1.25, 2, 2.5))
		sc.lines = append(sc.lines, cl)
		sc.item("current w (not averaged)", sc.visible(cur.W, cur.B), cl)
	}
	sc.lines = append(sc.lines, bd)

	sc.addArrows(cur, before, upd)
}

// addArrows draws w as an arrow from its boundary and, after an update,
// the old w (grey) and the update η·y·x from the old tip to the new one,
// at one common scale so that old + update = new is an exact
// parallelogram. With averaging the arrows are the current (not averaged)
// w, which is what the update rule changes.
func (sc *scene) addArrows(cur, before line, upd bool) {
	wNew, wOld := render.Vec2(cur.W), render.Vec{}
	if upd {
		wOld = render.Vec2(before.W)
	}
	hasOld := !wOld.IsZero()
	fit, ok := render.FitArrows(wNew, cur.B, wOld, hasOld, sc.view())
	newArrow := sc.newArrow(render.Black, 2.25, "w")
	// The averaged classifier's boundary is the bold line; the arrow is
	// the current w, and the legend says so.
	wLabel, room := "w", "w (scaled)"
	if sc.ps.Average {
		wLabel, room = "current w, not w̄", "current w, not w̄ (scaled)"
	}
	if ok && fit.Scale != 1 {
		wLabel += " (scaled)"
	}
	oldArrow := sc.newArrow(render.Grey, 1.75, "")
	delta := sc.newArrow(render.Purple, 2.25, "η·y·x")
	delta.LabelBeside = true
	delta.LabelStyle.Color = render.Darker(render.Purple)
	if ok {
		newTip := fit.Base.Add(wNew.Scale(fit.Scale))
		newArrow.From, newArrow.To = pair(fit.Base), pair(newTip)
		up := &render.UpdateArrow{W: newArrow}
		if hasOld {
			oldTip := fit.Base.Add(wOld.Scale(fit.Scale))
			oldArrow.From, oldArrow.To = pair(fit.Base), pair(oldTip)
			delta.From, delta.To = pair(oldTip), pair(newTip)
			// Label the update outside the parallelogram, away from the base.
			d, r := newTip.Sub(oldTip), fit.Base.Sub(oldTip)
			delta.LabelRight = d.X*r.Y-d.Y*r.X > 0
			up.Old, up.Delta = oldArrow, delta
		}
		sc.arrows = append(sc.arrows, up)
	}
	sc.item(wLabel, ok, newArrow)
	// Reserve room for the longer label, so the legend band, and with it
	// the data area, is the same at every step.
	sc.legend[len(sc.legend)-1].Room = room
	prev := sc.dashed(render.Grey, 1.5, 5, 4)
	sc.item("previous w", upd && (sc.visible(before.W, before.B) || ok && hasOld), (*render.LineThumb)(&prev), oldArrow)
	sc.item("η·y·x", ok && hasOld, delta)
}

func (sc *scene) newArrow(c color.Color, width float64, label string) *render.Arrow {
	a, _ := render.NewArrow([2]float64{}, [2]float64{}, label)
	a.Color = c
	a.Width = sc.th.Pt(width)
	a.Head = sc.th.Pt(11)
	a.LabelStyle.Font = sc.th.Font(15, true)
	return a
}

// visible reports whether the line w·x + b = 0 crosses the data view, so
// that the legend lists only what can be seen.
func (sc *scene) visible(w []float64, b float64) bool {
	_, _, ok := render.LineInView(render.Vec2(w), b, sc.view())
	return ok
}

func pair(v render.Vec) [2]float64 { return [2]float64{v.X, v.Y} }

// view is the data set's view before the equal-aspect widening, which
// only adds room; arrows fitted into it stay inside the final view.
func (sc *scene) view() render.View { return render.DataView(sc.ps.X) }

// addMulticlass draws argmax over the per-class scores, each affine in x,
// so every class region is a convex polygon: the view clipped by
// score_c − score_l ≥ 0 for every other class l (strict for classes before
// c, as Predict gives ties to the first class). Each perceptron's boundary
// is drawn thin in its positive class's colour.
func (sc *scene) addMulticlass() {
	ps := sc.ps
	idx := make(map[int]int, len(ps.Classes))
	for i, c := range ps.Classes {
		idx[c] = i
	}
	score := make([]render.HalfPlane, len(ps.Classes)) // score_c(x) = A·x + B
	for _, t := range ps.Tasks {
		add(&score[idx[t.Pos]], t.W, t.B, 1)
		if !t.Rest {
			add(&score[idx[t.Neg]], t.W, t.B, -1)
		}
	}
	for j, c := range ps.Classes {
		var planes []render.HalfPlane
		if j > 0 {
			for l := range ps.Classes {
				if l == j {
					continue
				}
				planes = append(planes, render.HalfPlane{
					A:      [2]float64{score[j].A[0] - score[l].A[0], score[j].A[1] - score[l].A[1]},
					B:      score[j].B - score[l].B,
					Strict: l < j,
				})
			}
		}
		sc.regions = append(sc.regions, &render.Region{Planes: planes, Color: render.RegionTint(sc.slot(c))})
	}
	var anyUpd, anyLine bool
	for k, t := range ps.Tasks {
		if sc.updated(k) {
			sc.lines = append(sc.lines, sc.line(t.BeforeW, t.BeforeB, sc.dashed(render.Grey, 1.5, 5, 4)))
			anyUpd = anyUpd || sc.visible(t.BeforeW, t.BeforeB)
		}
	}
	var first *render.Boundary
	for _, t := range ps.Tasks {
		w, b := t.W, t.B
		bd := sc.line(w, b, draw.LineStyle{Color: render.ClassColor(sc.slot(t.Pos)), Width: sc.th.Pt(1.5)})
		if first == nil {
			first = bd
		}
		anyLine = anyLine || sc.visible(w, b)
		sc.lines = append(sc.lines, bd)
	}
	sc.item("perceptron boundaries", anyLine, first)
	prev := sc.dashed(render.Grey, 1.5, 5, 4)
	sc.item("previous boundaries", anyUpd, (*render.LineThumb)(&prev))
}

// line is the line w·x + b = 0 of a perceptron's weights.
type line struct {
	W []float64
	B float64
}

func add(h *render.HalfPlane, w []float64, b, sign float64) {
	h.A[0] += sign * w[0]
	h.A[1] += sign * w[1]
	h.B += sign * b
}
