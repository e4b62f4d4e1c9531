package svm

import (
	"fmt"
	"html"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/demo/pointset"
)

// svmProse is a lesson's typeset prose in one string.
func svmProse(t *testing.T, slug string) string {
	t.Helper()
	parts, err := demo.Prose(Topic().Prose, slug)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(demotest.Strings(parts), "")
}

// svmSource is a lesson's prose as written, TeX and all.
func svmSource(t *testing.T, slug string) string {
	t.Helper()
	src, err := demo.Source(Topic().Prose, slug)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// solveHard runs the hard-margin demo's SMO on the points of state q to
// the end, as the demo does, on the points in the order given by order
// (nil: as the demo has them).
func solveHard(t *testing.T, q string, order func(x [][]float64, y []int) ([][]float64, []int)) (*svm.Problem, svm.State) {
	t.Helper()
	r := demotest.Run(t, SVMSpec(true), q)
	x, yf := demo.Columns(r.Points)
	y := pointset.SignLabels(yf)
	if order != nil {
		x, y = order(x, y)
	}
	pr, s0, err := svm.New(x, y, SvmParams(r.State, true))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := algos.Replay(pr, s0, demo.MaxStep)
	if err != nil {
		t.Fatal(err)
	}
	return pr, s
}

// TestProseSoftReachesHard checks the soft-margin lesson's threshold
// against the states: the largest multiplier of the hard-margin solution
// on the default separable points, rounded up to two decimals, is the C
// from which the soft margin has no slack and is the hard solution, band,
// steps and all; just below it a point has slack.
func TestProseSoftReachesHard(t *testing.T) {
	_, hs := solveHard(t, "data=separable&step=end", nil)
	c := math.Ceil(slices.Max(hs.Alpha)*100) / 100
	cs := strconv.FormatFloat(c, 'f', 2, 64)
	below := strconv.FormatFloat(c-0.01, 'f', 2, 64)
	hard := demotest.Run(t, SVMSpec(true), "data=separable&step=end")
	soft := demotest.Run(t, SVMSpec(false), "data=separable&C="+cs+"&step=end")
	under := demotest.Run(t, SVMSpec(false), "data=separable&C="+below+"&step=end")
	src, err := demo.Source(Topic().Prose, "soft-margin-svm")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"no larger than $" + cs + "$",
		"C=" + cs + "&amp;data=separable&amp;step=" + strconv.Itoa(soft.Step) + "#demo-svm-soft\">$C = " + cs + "$</a> on no slack remains",
		"C=" + below + "&amp;data=separable&amp;step=" + strconv.Itoa(under.Step) + "#demo-svm-soft\">$C = " + below + "$</a>, one point",
		"the same " + strconv.Itoa(hard.Step) + " SMO steps",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("soft-margin prose lacks %q (max αᵢ of the hard margin %v)", want, slices.Max(hs.Alpha))
		}
	}
	if soft.Step != hard.Step || demotest.Counter(soft.Panel(), "band") != demotest.Counter(hard.Panel(), "band") {
		t.Errorf("C = %s: %d steps, band %s; the hard margin: %d steps, band %s", cs, soft.Step,
			demotest.Counter(soft.Panel(), "band"), hard.Step, demotest.Counter(hard.Panel(), "band"))
	}
	maxSlack := func(r *demo.Run) float64 {
		m := 0.0
		for _, row := range r.Panel().Tables[0].Rows {
			m = math.Max(m, demotest.ParseSig(t, row[3]))
		}
		return m
	}
	if m := maxSlack(soft); m > 1e-3 {
		t.Errorf("C = %s: slack %v remains", cs, m)
	}
	if m := maxSlack(under); m <= 1e-3 {
		t.Errorf("C = %s: no slack, but the prose says a point slipped into the band", below)
	}
}

// TestProseSVMNumbers checks numbers the two lessons quote from demo
// states against those states: the interval of optimal b and the errors
// over it, the training error with sgn(0) = −1, and the run lengths the
// LIBSVM comparison gives.
func TestProseSVMNumbers(t *testing.T) {
	hard := svmProse(t, "hard-margin-svm")
	src, err := demo.Source(Topic().Prose, "soft-margin-svm")
	if err != nil {
		t.Fatal(err)
	}
	interval := regexp.MustCompile(`every b from (\S+) to (\S+) satisfies.*runs from (\S+) % to (\S+) %`)
	r := demotest.Run(t, SVMSpec(false), "C=0.001&step=20")
	m := interval.FindStringSubmatch(demotest.Note(r.Panel(), "bias-range").Text)
	if m == nil {
		t.Fatalf("C = 0.001: bias note %q", demotest.Note(r.Panel(), "bias-range").Text)
	}
	lo, hi := demotest.ParseSig(t, m[1]), demotest.ParseSig(t, m[2])
	want := fmt.Sprintf("every $b$ from $%s$ to $%s$ is optimal, with training errors from $%s\\,\\%%$ to $%s\\,\\%%$",
		strconv.FormatFloat(lo, 'f', 2, 64), strconv.FormatFloat(hi, 'f', 2, 64),
		strings.TrimSuffix(m[3], ".0"), strings.TrimSuffix(m[4], ".0"))
	if !strings.Contains(string(src), want) {
		t.Errorf("soft-margin prose lacks %q", want)
	}
	if got := demotest.Counter(r.Panel(), "error"); !strings.Contains(string(src), "it reads $"+strings.TrimSuffix(strings.TrimSuffix(got, " %"), ".0")+"\\,\\%$") {
		t.Errorf("soft-margin prose does not quote C = 0.001's training error %s", got)
	}

	// "The training error is 25 % at all three values", each with b pinned
	// by a free multiplier.
	if !strings.Contains(string(src), "The training error is $25\\,\\%$ at all three values.") {
		t.Error("soft-margin prose no longer quotes 25 % for C = 0.01, 1 and 100")
	}
	for _, q := range []string{"C=0.01&step=20", "step=128", "C=100&step=17753"} {
		p := demotest.Run(t, SVMSpec(false), q).Panel()
		if got := demotest.Counter(p, "error"); got != "25.0 %" || demotest.Note(p, "bias-range") != nil {
			t.Errorf("%s: training error %s (b not unique: %v); the prose says 25 %%", q, got, demotest.Note(p, "bias-range") != nil)
		}
	}

	x := demotest.Run(t, SVMSpec(false), "data=xor&step=2")
	xn := demotest.Note(x.Panel(), "bias-range")
	if xn == nil || !strings.Contains(xn.Text, "every b from −1 to 1") || demotest.Counter(x.Panel(), "error") != "50.0 %" ||
		!strings.Contains(string(src), "every $b$ from $-1$ to $1$ is optimal") || !strings.Contains(string(src), "the training error is $50\\,\\%$") {
		t.Errorf("XOR: the prose's b in [−1, 1] and 50 %% against the panel: note %v, error %s", xn, demotest.Counter(x.Panel(), "error"))
	}

	// OR at step 1: two positive points on the line, predicted −1.
	if got := demotest.Counter(demotest.Run(t, SVMSpec(true), "data=or&step=1").Panel(), "error"); got != "50.0 %" {
		t.Errorf("OR after step 1: training error %s; the hard-margin prose says 50 %%", got)
	}

	// LIBSVM regroups the points, +1 first: on OR that makes 5 steps.
	plusFirst := func(x [][]float64, y []int) ([][]float64, []int) {
		var px [][]float64
		var py []int
		for _, c := range []int{1, -1} {
			for i := range x {
				if y[i] == c {
					px, py = append(px, x[i]), append(py, y[i])
				}
			}
		}
		return px, py
	}
	_, or := solveHard(t, "data=or&step=end", nil)
	_, orLIBSVM := solveHard(t, "data=or&step=end", plusFirst)
	_, def := solveHard(t, "step=end", nil)
	for _, want := range []string{
		fmt.Sprintf("it takes %d iterations where the demo takes %d (the demo, given the points in LIBSVM's order, takes %d as well)",
			orLIBSVM.T, or.T, orLIBSVM.T),
		fmt.Sprintf("needs 489 iterations against the demo's %d", def.T),
	} {
		if !strings.Contains(hard, want) {
			t.Errorf("hard-margin prose lacks %q", want)
		}
	}
}

// TestProseSMOTies checks the hard-margin lesson's account of ties on the
// default points against runs of the demo's solver with both rules: the
// steps whose first index is a tie that rounding tells apart, by
// LIBSVM's scan and by the demo's rule, and the run lengths.
func TestProseSMOTies(t *testing.T) {
	hard := svmSource(t, "hard-margin-svm")
	x, y, p := solveHardPoints(t, "step=end")
	if !p.Ties {
		t.Fatal("the hard-margin demo does not use the stated tie rule")
	}
	tied, n := roundingTies(t, x, y, p)
	p.Ties = false
	rounded, nLIBSVM := roundingTies(t, x, y, p)
	if len(tied) == 0 || len(rounded) == 0 {
		t.Fatalf("no ties told apart by rounding: %v with the rule, %v with LIBSVM's scan", tied, rounded)
	}
	want := fmt.Sprintf("With LIBSVM's scan on the demo's default points, rounding would have chosen $i$ between such a tie at step %d and at %d more of the run's %d steps; "+
		"with the demo's rule the same ties are decided by the index, the first at step %d and at %d more of its %d steps.",
		rounded[0], len(rounded)-1, nLIBSVM, tied[0], len(tied)-1, n)
	if !strings.Contains(hard, want) {
		t.Errorf("hard-margin prose lacks %q", want)
	}
}

// TestProseSMOTrace checks the hard-margin lesson's account of m − M and
// ½‖w‖² along the default run against the run's own history.
func TestProseSMOTrace(t *testing.T) {
	hard := svmSource(t, "hard-margin-svm")
	x, y, p := solveHardPoints(t, "step=end")
	pr, s, err := svm.New(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	var gap []float64
	below := -1 // the step from which ½‖w‖² < −D to the end
	for {
		gap = append(gap, s.Gap)
		if pw := pr.Primal(s); pw < -s.Dual && s.T > 0 {
			if below < 0 {
				below = s.T
			}
		} else {
			below = -1
		}
		if s.Status.Done() {
			break
		}
		s = pr.Step(s)
	}
	end := len(gap) - 1
	last := 13 // the last step of the bounce, before m − M first falls under 0.05
	for last+1 < len(gap) && gap[last+1] >= 0.05 {
		last++
	}
	lo, hi := slices.Min(gap[13:last+1]), slices.Max(gap[13:last+1])
	fell := 0
	for k := last; k <= end; k++ {
		if gap[k] <= gap[last]/100 {
			fell = k - last
			break
		}
	}
	want := fmt.Sprintf("it starts at $%s$, rises to $%.1f$ at step 1, falls to about $%.1f$ by step 12, then bounces between about $%.2f$ and $%.2f$ from step 13 to step %d while $D$ creeps down (from step %d on, $\\tfrac12\\|\\mathbf{w}\\|^2$ even sits below the dual value), and finally falls by two orders of magnitude in under %s steps, zigzagging below $\\varepsilon = 10^{-3}$ at step %d.",
		strconv.FormatFloat(gap[0], 'g', -1, 64), gap[1], gap[12], math.Floor(lo*100)/100, math.Ceil(hi*100)/100, last, below, map[bool]string{true: "fifty", false: "a hundred"}[fell < 50], end)
	if fell == 0 || fell >= 100 || gap[1] != slices.Max(gap) {
		t.Errorf("m − M: falls a hundredfold in %d steps from step %d; largest %v at step 1? %v", fell, last, slices.Max(gap), gap[1])
	}
	if !strings.Contains(hard, want) {
		t.Errorf("hard-margin prose lacks %q", want)
	}
}

// solveHardPoints returns the hard-margin demo's points and parameters
// for state q, as svm.New takes them.
func solveHardPoints(t *testing.T, q string) ([][]float64, []int, svm.Params) {
	t.Helper()
	r := demotest.Run(t, SVMSpec(true), q)
	x, yf := demo.Columns(r.Points)
	return x, pointset.SignLabels(yf), SvmParams(r.State, true)
}

// roundingTies runs SMO with p on x, y to the end and returns the steps
// (numbered as the demo numbers them: step k takes state k−1 to k) whose
// first index is a tie that float64 rounding tells apart: at least two
// points of I_up within the tie tolerance of the largest v, with different
// float64 values. LIBSVM's scan lets rounding choose there; the demo's
// rule chooses the last index. It also returns the run's length.
func roundingTies(t *testing.T, x [][]float64, y []int, p svm.Params) ([]int, int) {
	t.Helper()
	pr, s, err := svm.New(x, y, p)
	if err != nil {
		t.Fatal(err)
	}
	var steps []int
	for !s.Status.Done() {
		v := smoV(pr, s)
		m, scale := math.Inf(-1), 0.0
		for k := range v {
			scale = math.Max(scale, math.Abs(v[k]))
			if inUp(pr, s, k) {
				m = math.Max(m, v[k])
			}
		}
		for k := range v {
			if d := m - v[k]; inUp(pr, s, k) && d > 0 && d <= svm.TieTol(scale) {
				steps = append(steps, s.T+1)
				break
			}
		}
		s = pr.Step(s)
	}
	return steps, s.T
}

// TestProseSMOLinksEnd checks the SMO lessons' links into their demos: a
// link past step 20 opens the end of its run (the lessons link there to
// show a solution, and a run that grows or shrinks must move the link),
// and C = 100's step count is quoted as the link has it.
func TestProseSMOLinksEnd(t *testing.T) {
	link := regexp.MustCompile(`href="/lessons/(hard|soft)-margin-svm\?([^"#]*)`)
	n := 0
	for _, slug := range []string{"hard-margin-svm", "soft-margin-svm"} {
		for _, m := range link.FindAllStringSubmatch(svmSource(t, slug), -1) {
			vals, err := url.ParseQuery(html.UnescapeString(m[2]))
			if err != nil {
				t.Fatal(err)
			}
			step, _ := strconv.Atoi(vals.Get("step"))
			if step <= 20 || vals.Has("demo") { // another demo of the lesson
				continue
			}
			vals.Set("step", "end")
			if r := demotest.Run(t, SVMSpec(m[1] == "hard"), vals.Encode()); r.Step != step {
				t.Errorf("%s links %s at step %d; its run ends at step %d", slug, m[2], step, r.Step)
			}
			n++
		}
	}
	if n < 5 {
		t.Errorf("only %d links past step 20", n)
	}
	r := demotest.Run(t, SVMSpec(false), "C=100&step=end")
	want := "SMO needs $" + thinThousands(r.Step) + "$ steps"
	if src := svmSource(t, "soft-margin-svm"); !strings.Contains(src, fmt.Sprintf("C=100&amp;step=%d#", r.Step)) || !strings.Contains(src, want) {
		t.Errorf("soft-margin prose does not link and quote C = 100's %d steps (%q)", r.Step, want)
	}
}

// thinThousands writes n as the prose's TeX does: 17\,753.
func thinThousands(n int) string {
	s := strconv.Itoa(n)
	if len(s) <= 4 {
		return s
	}
	return s[:len(s)-3] + `\,` + s[len(s)-3:]
}
