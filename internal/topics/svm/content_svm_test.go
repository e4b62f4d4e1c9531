package svm

import (
	"fmt"
	"math"
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
	for _, q := range []string{"C=0.01&step=20", "step=128", "C=100&step=17554"} {
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
	// At step 18 of the default run, the first index is a tie broken by
	// rounding: the two largest vₜ over I_up agree to a few ulps.
	pr, s0, err := svm.New(solveHardPoints(t, "step=end"))
	if err != nil {
		t.Fatal(err)
	}
	s17, _, _ := algos.Replay(pr, s0, 17)
	var v []float64
	for k := range pr.Y {
		if pr.Y[k] > 0 || s17.Alpha[k] > 0 {
			v = append(v, -pr.Y[k]*s17.G[k])
		}
	}
	slices.Sort(v)
	if top, next := v[len(v)-1], v[len(v)-2]; math.Abs(top-next) > 1e-14*math.Abs(top) {
		t.Errorf("before step 18 the two largest violations are %v and %v; the prose calls them equal", top, next)
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
