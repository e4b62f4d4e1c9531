package knn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// pointsOf writes a difference of two error rates (fractions) in
// percentage points with d decimals, "2.56 percentage points", never as
// a percentage.
func pointsOf(diff float64, d int) string {
	s := strings.TrimSuffix(textfmt.Pct(diff, d), " %")
	if s == "1.00" || s == "1.0" {
		return s + " percentage point"
	}
	return s + " percentage points"
}

// pointsAre is "1 point is", "3 points are".
func pointsAre(n int) string {
	if n == 1 {
		return "1 point is"
	}
	return textfmt.Plural(n, "points") + " are"
}

// thereAre is "is 1", "are 3" (after "there").
func thereAre(n int) string {
	if n == 1 {
		return "is 1"
	}
	return "are " + strconv.Itoa(n)
}

func (r *knnRun) describe() string {
	k := neighbours.Get(r.s)
	if r.c == nil {
		return fmt.Sprintf("%s drawn by class; k = %d nearest neighbours need at least %s, so no regions are drawn.", pointsAre(len(r.x)), k, textfmt.Plural(k, "points"))
	}
	d := fmt.Sprintf("The plane coloured by the %d-nearest-neighbour vote (%s distance) of %d training points: "+
		"blue where it predicts +1, vermillion where it predicts −1, a thin grey line between. "+
		"The points are drawn by class; the %s the classifier gets wrong have a bold edge.",
		k, metricChoice.Get(r.s), len(r.x), textfmt.Pct(demo.Fraction(r.wrong), 2))
	if r.m != nil {
		d += fmt.Sprintf(" A dashed black line is the Bayes boundary η = ½ of the mixture they were drawn from, whose Bayes error is %s; "+
			"the classifier's own risk on that mixture is %s.", textfmt.Pct(r.bayesErr, 2), textfmt.Pct(r.heldErr, r.heldDigits))
	}
	return d
}

func (r *knnRun) panel() demo.Panel {
	k := neighbours.Get(r.s)
	p := demo.Panel{Status: "k = " + strconv.Itoa(k), Done: true}
	if r.c == nil {
		p.Counters = []demo.Counter{{"k", strconv.Itoa(k), "k"}}
		p.Status, p.Bad = "needs more points", true
		p.Start = "Click on the plot to add points, choosing each one's class under it."
		p.Notes = []demo.Note{{TestID: "few-points", Alert: true,
			Text: fmt.Sprintf("k = %d neighbours need at least %s; there %s. Add points or lower k.", k, textfmt.Plural(k, "points"), thereAre(len(r.x)))}}
		return p
	}
	train, held := demo.Fraction(r.wrong), r.heldErr
	heldLabel := "held-out error"
	switch {
	case r.exact():
		heldLabel = "risk R(h), by quadrature"
	case r.held:
		heldLabel = "held-out error (" + textfmt.Plural(len(r.tx), "points") + ")"
	}
	p.Counters = []demo.Counter{
		{"k", strconv.Itoa(k), "k"},
		{"training error", textfmt.Pct(train, 2), "training-error"},
		{heldLabel, textfmt.Pct(held, r.heldDigits), "heldout"},
		{"Bayes error", textfmt.Pct(r.bayesErr, 2), "bayes-error"},
	}
	p.Start = fmt.Sprintf("h(x) = the label most of the %d training points nearest x carry (%s distance; a tied vote goes to −1, the lower label, "+
		"the rule the Bayes classifier h* follows at η = ½ too).", k, metricChoice.Get(r.s))
	switch {
	case r.exact():
		p.Model = []demo.ModelLine{{Prefix: "generalization gap:", Facts: []demo.Fact{{"R(h) − training error", pointsOf(held-train, r.heldDigits), "gap"}}}}
	case r.held:
		p.Model = []demo.ModelLine{{Prefix: "generalization gap:", Facts: []demo.Fact{{"held-out − training", pointsOf(held-train, 2), "gap"}}}}
	}
	test, worth := "held-out error", "its held-out error shows what that is worth."
	switch {
	case r.exact():
		test, worth = "risk", "its risk shows what that is worth."
	case !r.held:
		test, worth = "error on new points", "only points it has not seen could show what that is worth."
	}
	p.Notes = append(p.Notes, demo.Note{TestID: "memorise",
		Text: "At k = 1 each training point is its own nearest neighbour, so the training error is 0: " +
			"the classifier memorises the sample, and " + worth,
		Fine: "Larger k averages over more neighbours: smoother regions, a higher training error, " +
			"and, up to a point, a lower " + test + "."})
	if r.m != nil {
		p.Notes = append(p.Notes, demo.Note{TestID: "bayes-ref",
			Text: fmt.Sprintf("No classifier's risk is below the Bayes error, and this one's is %s above it: R(h) = %s against R(h*) = %s.",
				pointsOf(held-r.bayesErr, r.heldDigits), textfmt.Pct(held, r.heldDigits), textfmt.Pct(r.bayesErr, 2)),
			Fine: r.riskMethod()})
	} else if !r.held {
		p.Notes = append(p.Notes, demo.Note{TestID: "no-heldout", Text: "Your own points have no held-out set: only the training error is known."})
	}
	return p
}
