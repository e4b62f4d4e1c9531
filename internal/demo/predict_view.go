package demo

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/render"
)

// PredictView is the view model of predict-then-reveal on a demo panel:
// the toggle, the reveal of the question just met and the question about
// the next step. It is nil for a demo that asks no questions.
type PredictView struct {
	On bool
	// Toggle turns predicting on (when off) or off (when on), at the
	// step shown.
	Toggle string
	Score  string // "3 of 5 right", or "" before the first answer
	// Reveal is the question about the step just taken, with how it
	// was met; nil on a question page reached otherwise.
	Reveal *Reveal
	// Ask is the question about the next step; nil when predicting is
	// off, the run has stopped, or no question is asked at this step.
	Ask *Ask
	// None says why no question is asked about the next step (a tie
	// within rounding, say): the stepper then goes on unscored.
	None string
}

// Reveal is the question about the step shown, after it: the verdict,
// the right choice and why.
type Reveal struct {
	Last    string // LastRight, LastWrong or LastShown
	Verdict string // "Right", "Not quite", "Revealed"
	Prompt  string
	Answer  string // the right choice's label
	Why     string
}

// Ask is the question about the next step as a GET form: Fields carry the
// state, each choice submits answer=<Value>, and ShowURL goes on to the
// next step without an answer (revealing it unscored: last=shown).
type Ask struct {
	Prompt  string
	Choices []Option // in ChoiceOrder
	Marks   []MarkView
	Action  string // the page (with the demo's anchor on a lesson page)
	Fields  []Field
	ShowURL string
	// ViewBox is the plot's "0 0 W H", for the marks' overlay, and
	// MarkR the marks' radius in its units: about the plot's own markers.
	ViewBox string
	MarkR   float64
}

// MarkView is a Mark placed in the plot's viewBox coordinates.
type MarkView struct {
	Label string
	X, Y  float64
	// LX, LY is where its label is written: the ring's centre, or, when
	// another mark's ring comes closer than two radii (x₃₅ and x₆ 0.17
	// apart at svm-soft step 5 merged their labels into "ij"), beside
	// the ring on the side away from its nearest neighbour.
	LX, LY float64
	// Off is set when the point lies outside the plot's data area; the
	// mark is then drawn at the edge.
	Off bool
}

// predictView builds the view of r's quiz on page, with the marks placed
// by the plot's frame f.
func predictView(r *Run, page string, f render.Frame) *PredictView {
	d, s := r.State.d, r.State
	if d.Predict == nil || d.Static {
		return nil
	}
	anchor := d.anchorOn(page)
	p := s.Predict
	v := &PredictView{On: p.On}
	if p.On {
		v.Toggle = s.WithPredicting(Predicting{}).URL(page) + anchor
	} else {
		v.Toggle = s.WithPredicting(Predicting{On: true}).URL(page) + anchor
	}
	z := r.Quiz
	if !p.On || z == nil {
		return v
	}
	if p.Asked > 0 {
		v.Score = strconv.Itoa(p.Right) + " of " + strconv.Itoa(p.Asked) + " right"
	}
	if z.Prev != nil {
		right, _ := z.Prev.Choice(z.Prev.Right)
		v.Reveal = &Reveal{Last: p.Last, Verdict: verdicts[p.Last], Prompt: z.Prev.Prompt, Answer: right.Label, Why: z.Prev.Why}
	}
	if z.Ask == nil {
		return v
	}
	if z.Ask.None != "" {
		v.None = z.Ask.None
		return v
	}
	a := &Ask{Prompt: z.Ask.Prompt, Action: page + anchor,
		ShowURL: s.AtStep(s.Step+1).WithPredicting(Predicting{On: true, Right: p.Right, Asked: p.Asked, Last: LastShown}).URL(page) + anchor,
		ViewBox: "0 0 " + strconv.FormatFloat(f.ViewBoxWidth, 'f', -1, 64) + " " + strconv.FormatFloat(f.ViewBoxHeight, 'f', -1, 64),
		MarkR:   round2(max(6, f.ViewBoxWidth/55))}
	for _, i := range z.Order {
		a.Choices = append(a.Choices, z.Ask.Choices[i])
	}
	q := s.Values(ForPage)
	q.Del(KeyLast)
	if page != d.LessonPath() {
		q.Del(KeyDemo)
	}
	q.Set(KeyStep, strconv.Itoa(s.Step))
	for _, k := range slices.Sorted(maps.Keys(q)) {
		a.Fields = append(a.Fields, Field{k, q.Get(k)})
	}
	a.Marks = placeMarks(z.Ask.Marks, f, a.MarkR)
	v.Ask = a
	return v
}

var verdicts = map[string]string{LastRight: "Right", LastWrong: "Not quite", LastShown: "Revealed"}

// placeMarks maps marks to the plot's viewBox, sorted by label so their
// order says nothing the labels do not; a mark outside the data area (or
// not finite) sits on its edge, flagged Off. Marks of radius r that
// crowd each other get their labels moved out (MarkView.LX, LY).
func placeMarks(marks []Mark, f render.Frame, r float64) []MarkView {
	out := make([]MarkView, 0, len(marks))
	vw := f.View
	if f.Width <= 0 || f.Height <= 0 || vw.XMax <= vw.XMin || vw.YMax <= vw.YMin {
		return nil
	}
	for _, m := range marks {
		if math.IsNaN(m.X1) || math.IsNaN(m.X2) {
			continue
		}
		u := (m.X1 - vw.XMin) / (vw.XMax - vw.XMin)
		w := (vw.YMax - m.X2) / (vw.YMax - vw.YMin)
		off := u < 0 || u > 1 || w < 0 || w > 1
		u, w = min(max(u, 0), 1), min(max(w, 0), 1)
		out = append(out, MarkView{Label: m.Label, X: round2(f.Left + u*f.Width), Y: round2(f.Top + w*f.Height), Off: off})
	}
	slices.SortStableFunc(out, func(a, b MarkView) int { return strings.Compare(a.Label, b.Label) })
	for i := range out {
		m := &out[i]
		m.LX, m.LY = m.X, m.Y
		near, d := -1, 2*r
		for j, o := range out {
			if dj := math.Hypot(o.X-m.X, o.Y-m.Y); j != i && dj < d {
				near, d = j, dj
			}
		}
		if near < 0 {
			continue
		}
		// Away from the neighbour (or, on top of it, left for the
		// first label and right for the second), 2.2 radii out.
		ux, uy := m.X-out[near].X, m.Y-out[near].Y
		if n := math.Hypot(ux, uy); n > 1e-9 {
			ux, uy = ux/n, uy/n
		} else if ux, uy = 1, 0; i < near {
			ux = -1
		}
		m.LX, m.LY = round2(m.X+2.2*r*ux), round2(m.Y+2.2*r*uy)
	}
	return out
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }
