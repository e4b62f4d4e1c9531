package scenes

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// num and coord format a weight and a data coordinate by textfmt's one
// rule (at most four decimals, exact integers exactly, a real minus sign).
func num(v float64) string { return textfmt.Num(v) }

func coord(v float64) string { return textfmt.Num(v) }

// vector formats w or x as "(a, b, …)" with f.
func vector(v []float64, f func(float64) string) string { return textfmt.VecWith(v, f) }

func wb(w []float64, b float64) string { return "w = " + vector(w, num) + ", b = " + num(b) }

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// updatesWord is "mistakes" for Algorithm 1, where every update is a
// mistake, and "updates" when a margin or several perceptrons make the
// two differ.
func (sc *scene) updatesWord(n int) string {
	if sc.ps.UpdatesAreMistakes {
		return plural(n, "mistake", "mistakes")
	}
	return plural(n, "update", "updates")
}

func (sc *scene) errorRate() string {
	return textfmt.Pct(float64(sc.wrong)/float64(len(sc.ps.X)), 1)
}

// heading is the plot title: the state in a line ("step 5 · epoch 2 ·
// 3 mistakes"), then the classifier with its bias.
func (sc *scene) heading() string {
	s := sc.ps
	line := fmt.Sprintf("step %d%s · epoch %d · %s", s.T, sc.stepOutcome(), s.Epoch, sc.updatesWord(s.Mistakes))
	if s.Stopped != "" {
		line += " · " + s.Stopped
	}
	switch {
	case !sc.binary:
		return line + fmt.Sprintf("\n%s · %d perceptrons · training error %s", s.Scheme, len(s.Tasks), sc.errorRate())
	case s.Average:
		t := s.Tasks[0]
		return line + "\naveraged " + wb(t.W, t.B) + "\ncurrent " + wb(t.CurW, t.CurB)
	}
	return line + "\n" + wb(s.Tasks[0].CurW, s.Tasks[0].CurB)
}

// stepOutcome says what the last step did to the point it examined, for
// the title of a plot that must explain itself on a slide: ": x₃ mistake",
// ": x₃ correct" (": x₃ update" / ": x₃ no update" where a margin or
// several perceptrons make "mistake" the wrong word); "" at step 0.
func (sc *scene) stepOutcome() string {
	ev := sc.ps.Event
	if ev.I < 0 {
		return ""
	}
	updated := false
	for _, t := range sc.ps.Tasks {
		updated = updated || t.Updated
	}
	yes, no := "mistake", "correct"
	if !sc.ps.UpdatesAreMistakes {
		yes, no = "update", "no update"
	}
	if updated {
		return ": " + render.PointName(ev.I) + " " + yes
	}
	return ": " + render.PointName(ev.I) + " " + no
}

// svgTitle is the figure's short accessible name.
func (sc *scene) svgTitle() string {
	if !sc.binary {
		return fmt.Sprintf("Perceptron (%s), step %d: training error %s", sc.ps.Scheme, sc.ps.T, sc.errorRate())
	}
	t := sc.ps.Tasks[0]
	return fmt.Sprintf("Perceptron, step %d: %s", sc.ps.T, wb(t.W, t.B))
}

// describe is the <desc>: the data, the parameters, what this step did
// and where the run stands, in sentences a screen reader can speak.
func (sc *scene) describe() string {
	pr := sc.ps
	var d strings.Builder
	classes := pr.Classes
	if sc.binary {
		classes = []int{1, -1}
	}
	var parts []string
	for _, c := range classes {
		n := 0
		for _, y := range pr.Y {
			if y == c {
				n++
			}
		}
		if n == 0 {
			continue
		}
		if sc.binary {
			parts = append(parts, fmt.Sprintf("%d with %s", n, render.ClassName(c, true)))
		} else {
			parts = append(parts, fmt.Sprintf("%d of %s", n, render.ClassName(c, false)))
		}
	}
	if sc.binary {
		fmt.Fprintf(&d, "Perceptron on %s in two dimensions (%s).", textfmt.Plural(len(pr.X), "points"), strings.Join(parts, ", "))
	} else {
		fmt.Fprintf(&d, "Perceptron, %s with %d perceptrons, on %s in two dimensions (%s).",
			pr.Scheme, len(pr.Tasks), textfmt.Plural(len(pr.X), "points"), strings.Join(parts, ", "))
	}
	fmt.Fprintf(&d, " Learning rate η = %s", coord(pr.Eta))
	if pr.Margin > 0 {
		fmt.Fprintf(&d, ", margin γ = %s", coord(pr.Margin))
	}
	if pr.Average {
		d.WriteString(", averaged weights")
	}
	d.WriteString(". ")
	sc.describeStep(&d)
	if sc.binary {
		t := pr.Tasks[0]
		if pr.Average {
			fmt.Fprintf(&d, " The averaged classifier is %s; the current %s.", wb(t.W, t.B), wb(t.CurW, t.CurB))
		} else {
			fmt.Fprintf(&d, " Now %s.", wb(t.W, t.B))
		}
	} else {
		for _, t := range pr.Tasks {
			fmt.Fprintf(&d, " Perceptron %s: %s.", t.Name, wb(t.W, t.B))
		}
	}
	fmt.Fprintf(&d, " %s so far; %d of %s misclassified (training error %s).",
		sc.updatesWord(pr.Mistakes), sc.wrong, textfmt.Plural(len(pr.X), "points"), sc.errorRate())
	if pr.StoppedNote != "" {
		d.WriteString(" " + pr.StoppedNote)
	}
	return d.String()
}

func (sc *scene) describeStep(d *strings.Builder) {
	pr := sc.ps
	ev := pr.Event
	if ev.I < 0 {
		d.WriteString("Initial state, before any step: every w and b is 0.")
		return
	}
	x := pr.X[ev.I]
	fmt.Fprintf(d, "Step %d (epoch %d) examined point %s = %s, %s.", pr.T, pr.Epoch, render.PointName(ev.I),
		vector(x, coord), render.ClassName(pr.Y[ev.I], sc.binary))
	if sc.binary {
		m := pr.Tasks[0].Margin
		if sc.updated(0) {
			fmt.Fprintf(d, " Its y(w·x + b) was %s ≤ %s, so w changed by η·y·x = %s and b by η·y = %s.",
				num(m), coord(pr.Margin), vector(ev.DeltaW, num), num(ev.DeltaB))
		} else {
			fmt.Fprintf(d, " Its y(w·x + b) was %s > %s, so nothing changed.", num(m), coord(pr.Margin))
		}
		return
	}
	var changed []string
	for k, t := range pr.Tasks {
		if sc.updated(k) {
			changed = append(changed, t.Name)
		}
	}
	if len(changed) == 0 {
		d.WriteString(" No perceptron changed.")
		return
	}
	fmt.Fprintf(d, " Updated the perceptrons %s.", strings.Join(changed, ", "))
}
