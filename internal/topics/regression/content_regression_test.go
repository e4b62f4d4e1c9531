package regression

import (
	"bytes"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// regClaim is a number the linear regression prose quotes from a demo
// state, and where that state's page shows it:
//
//	counter  id = the counter's test id
//	fact     id = the fact's test id, "id#i" for entry i of a vector
//	table    id = "row prefix#column" of the panel's first table
//	notes    id = the words just before the number in the notes
//	lines    id = the same, in the panel's lines
//	plot     id = the same, in the plot's title and description
//	fig:NAME id = the same, in the figure NAME's title and description
//	end      the run stops after want steps
//
// want is the number as the prose writes it, compared to the digits it
// has; "<x" means the page shows a number below x (round-off, which the
// prose quotes as an order of magnitude).
type regClaim struct{ where, id, want string }

// regClaims holds, for every state the linear regression prose links to
// (and a few it quotes without a link: defaults, runs to the end), the
// numbers it quotes. TestProseRegressionNumbers requires every linked
// state to be here, so a new link brings its numbers with it.
var regClaims = map[string][]regClaim{
	// The interpolation demo.
	"": {{"counter", "train-mse", "0.0136"}, {"counter", "test-mse", "0.0381"},
		{"fig:degree", "held-out: from 0.588 at x = 0 to 393 at x = 20, lowest", "0.0299"},
		{"fig:degree", "lowest 0.0299 at x =", "5"}},
	"degree=0":               {{"counter", "train-mse", "0.590"}, {"counter", "test-mse", "0.588"}},
	"degree=1":               {{"counter", "train-mse", "0.263"}, {"counter", "test-mse", "0.214"}},
	"degree=8":               {{"counter", "train-mse", "0.0047"}, {"counter", "test-mse", "0.335"}},
	"degree=9":               {{"counter", "train-mse", "<1e-20"}, {"counter", "test-mse", "22.5"}, {"counter", "norm", "1468"}, {"notes", "(training MSE", "<1e-20"}},
	"degree=9&n=20":          {{"counter", "train-mse", "0.0133"}, {"counter", "test-mse", "0.0871"}},
	"degree=19&n=20":         {{"counter", "train-mse", "<1e-15"}, {"counter", "test-mse", "17980"}},
	"degree=9&noise=0":       {{"counter", "test-mse", "3.3e-7"}},
	"degree=9&lambda=0.001":  {{"counter", "train-mse", "0.0153"}, {"counter", "test-mse", "0.0415"}},
	"degree=9&lambda=0.0001": {{"counter", "train-mse", "0.0082"}, {"counter", "test-mse", "0.0316"}},
	// The ε example and ridge.
	"demo=ridge": {{"counter", "w-ls", "(-20, 1)"}, {"table", "1#1", "1.416"}, {"table", "2#1", "0.0706"}},
	"demo=ridge&eps=0.01": {{"counter", "w-ls", "(-200, 1)"}, {"table", "2#1", "0.00707"}, {"notes", "σ₁/σ₂ =", "200"},
		{"table", "1#1", "1.41423"}},
	"demo=ridge&eps=0.000001": {{"counter", "norm-ls", "2e6"}, {"notes", "σ₁/σ₂ =", "2e6"}, {"lines", "agrees to a relative", "<1e-15"}},
	"demo=ridge&eps=1":        {{"notes", "σ₁/σ₂ =", "2.618"}, {"notes", "2.618, below", "10"}},
	"demo=ridge&eps=0.01&lambda=0.01": {{"counter", "w-ridge", "(-0.4987, 0.0025)"}, {"table", "2#3", "0.02005"}, {"table", "2#2", "5e-5"},
		{"notes", "its condition number is", "100.8"}, {"notes", "instead of XXᵀ's", "40000"}},
	"demo=ridge&eps=0.2&lambda=0.01": {{"counter", "norm-ridge", "4.9997"}, {"notes", "‖y‖/(2√(nλ)) =", "5"}},
	"demo=ridge&lambda=0.01":         {{"counter", "w-ridge", "(-3.992, 0.198)"}, {"notes", "the ridge answer to within", "<1e-14"}},
	// Four losses.
	"demo=reg-losses": {{"table", "squared#1", "0.367"}, {"table", "absolute#1", "0.747"}, {"table", "Huber#1", "0.712"},
		{"table", "ε-insensitive#1", "0.845"}, {"table", "ε-insensitive#2", "0.22"}, {"counter", "n", "21"}},
	"demo=reg-losses&oy=-6":      {{"table", "squared#1", "0.056"}, {"table", "absolute#1", "0.7469"}, {"table", "Huber#1", "0.7124"}},
	"demo=reg-losses&oy=6":       {{"table", "squared#1", "1.30"}},
	"demo=reg-losses&ox=0&oy=-6": {{"table", "squared#1", "0.772"}, {"table", "squared#2", "-0.020"}},
	"del=20&demo=reg-losses": {{"table", "squared#1", "0.772"}, {"table", "squared#2", "0.279"}, {"counter", "n", "20"},
		{"notes", "fit is not unique: the line y = 0.8453·x + 0.2194 has the same mean loss,", "0"}},
	"delta=10&demo=reg-losses":   {{"table", "Huber#1", "0.3674"}, {"table", "squared#1", "0.3674"}},
	"delta=0.01&demo=reg-losses": {{"table", "Huber#1", "0.751"}, {"table", "absolute#1", "0.747"}},
	"demo=reg-losses&epsilon=1":  {{"table", "ε-insensitive#2", "-0.58"}},
	// Gradient descent on least squares.
	"demo=ls-gd": {{"counter", "L", "2"}, {"counter", "two-over-L", "1"}, {"fact", "w-opt", "0.7437"}, {"fact", "b-opt", "0.2571"},
		{"counter", "optimum", "0.03887"}, {"counter", "objective", "0.2911"}, {"end", "", "146"}},
	"demo=ls-gd&step=10":           {{"counter", "distance", "0.118"}},
	"demo=ls-gd&step=50":           {{"counter", "distance", "7.4e-5"}},
	"demo=ls-gd&step=146":          {{"counter", "step", "146"}, {"counter", "distance", "<1e-11"}},
	"demo=ls-gd&eta=0.1&step=386":  {{"counter", "step", "386"}, {"end", "", "386"}},
	"demo=ls-gd&eta=0.5&step=66":   {{"end", "", "66"}},
	"demo=ls-gd&eta=0.75&step=40":  {{"end", "", "40"}},
	"demo=ls-gd&eta=0.95&step=256": {{"counter", "step", "256"}, {"end", "", "256"}},
	"demo=ls-gd&eta=1&step=50": {{"counter", "L", "2.0000003"}, {"counter", "two-over-L", "0.9999998"}, {"notes", "|1 − ηL| =", "1.0000003"},
		{"fact", "b", "0.0004"}, {"fact", "b-opt", "0.2571"}, {"fact", "w", "0.7438"}},
	"demo=ls-gd&eta=1.05&step=50": {{"notes", "|1 − ηL| =", "1.1"}, {"counter", "objective", "908"}, {"fact", "b", "-29.9"}},
	"demo=ls-gd&eta=1.05&step=1222": {{"counter", "step", "1222"}, {"counter", "objective", "9.62e99"}, {"notes", "the cap of 10¹⁰⁰: iteration", "1223"},
		{"end", "", "1222"}},
	// Bias and variance.
	"demo=bias-variance": {{"counter", "bias2", "0.0048"}, {"counter", "variance", "0.0241"}, {"counter", "noise", "0.09"},
		{"counter", "expected", "0.119"}, {"fact", "mean-theta", "(2.721, -0.005, -2.922, 0.003)"},
		{"fact", "expected-theta", "(2.711, -0.004, -2.904, -0.003)"}, {"notes", "The mean of the 50 refits is within", "0.018"},
		{"fig:degree", "bias² + variance: from 0.502 at x = 0 to 35.8 at x = 12, lowest", "0.029"},
		{"fig:degree", "lowest 0.029 at x =", "3"}, {"fig:degree", "variance: from 0.006 at x = 0 to", "35.8"},
		{"fig:lambda", "bias² + variance: from", "0.029"}, {"fig:lambda", "lowest 0.0286 at x =", "5e-4"}, {"fig:lambda", "0.5 at x = 100, lowest", "0.0286"}},
	"degree=1&demo=bias-variance": {{"counter", "bias2", "0.204"}, {"counter", "variance", "0.012"}},
	"degree=9&demo=bias-variance": {{"counter", "bias2", "2e-10"}, {"counter", "variance", "0.163"}, {"fact", "expected-theta#0", "3.1416"},
		{"fact", "expected-theta#2", "-5.167"}, {"notes", "The mean of the 50 refits is within", "22"},
		{"fig:lambda", "bias² + variance: from", "0.079"}, {"fig:lambda", "0.5 at x = 100, lowest", "0.0405"}},
	"degree=9&demo=bias-variance&lambda=0.001": {{"counter", "variance", "0.036"}, {"counter", "bias2", "0.004"},
		{"fig:degree", "bias² + variance: from 0.502 at x = 0 to", "0.044"}},
	"demo=bias-variance&lambda=0.1": {{"fact", "expected-theta#0", "0.82"}, {"fact", "expected-theta#2", "-0.19"}, {"counter", "bias2", "0.195"}},
	"demo=bias-variance&fits=2":     {{"notes", "The mean of the 2 refits is within", "0.28"}},
	"demo=bias-variance&fits=10":    {{"notes", "The mean of the 10 refits is within", "0.13"}},
	"demo=bias-variance&fits=200":   {{"notes", "The mean of the 200 refits is within", "0.039"}},
	// The lasso.
	"demo=lasso&step=1":                      {{"lines", "·w₁) =", "1.259"}, {"lines", "x̃ᵢ₁² =", "0.7223"}, {"fact", "w1", "0.3586"}},
	"demo=lasso&step=2":                      {{"lines", "|ρ₂| =", "0.7784"}, {"fact", "w2", "0"}, {"fact", "w2-ls", "0.4772"}},
	"demo=lasso":                             {{"notes", "Ridge at the same α, minimising (1/2n)‖y − Xw − b·1‖² + (α/2)‖w‖₂², gives w = (", "0.6632"}, {"counter", "alpha-max", "1.259"}},
	"alpha=0.5&demo=lasso&step=34":           {{"fact", "w1-opt", "1.0144"}, {"fact", "w2-opt", "0.083"}, {"end", "", "34"}},
	"alpha=0.1&corr=0.3&demo=lasso&step=16":  {{"end", "", "16"}},
	"alpha=0.1&demo=lasso&step=34":           {{"end", "", "34"}},
	"alpha=0.1&corr=0.9&demo=lasso&step=150": {{"end", "", "150"}},
	"alpha=0.1&corr=0.9&demo=lasso&step=1":   {{"fact", "w1", "1.7913"}, {"fact", "w1-opt", "1.4914"}, {"fact", "w1-ls", "1.5577"}},
}

// TestProseRegressionNumbers checks every number of regClaims against
// the page of its state, and that every state the prose links to has
// its entry.
func TestProseRegressionNumbers(t *testing.T) {
	course := demotest.MustCourse(t, topicCourse)
	parts, err := demo.Prose(Topic().Prose, "linear-regression")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range demotest.DeepLink.FindAllStringSubmatch(strings.Join(demotest.Strings(parts), ""), -1) {
		if raw := strings.ReplaceAll(m[2], "&amp;", "&"); regClaims[raw] == nil {
			t.Errorf("the prose links to ?%s, which has no entry in regClaims", raw)
		}
	}
	for raw, claims := range regClaims {
		t.Run(raw, func(t *testing.T) {
			q, err := url.ParseQuery(raw)
			if err != nil {
				t.Fatal(err)
			}
			step := q.Get("step")
			d, err := course.Active("linear-regression", q)
			if err != nil {
				t.Fatal(err)
			}
			q.Del("step")
			s, probs := d.Parse(q)
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			if step != "" {
				k, _ := strconv.Atoi(step)
				s = s.AtStep(k)
			}
			run, err := demotest.Execute(d, s)
			if err != nil {
				t.Fatal(err)
			}
			p := run.Panel()
			for _, c := range claims {
				got, err := claimed(run, p, c, d, s)
				if err != nil {
					t.Errorf("%s %q: %v", c.where, c.id, err)
					continue
				}
				// Counts are exact: a step or a number of points is no rounding.
				exact := c.where == "end" || c.id == "step" || c.id == "n"
				if exact && got != c.want || !exact && !agree(t, got, c.want) {
					t.Errorf("%s %q: the page shows %s, the prose says %s", c.where, c.id, got, c.want)
				}
			}
		})
	}
}

// topicCourse is a course of the regression demos alone, all the prose's
// deep links need.
func topicCourse() (*demo.Course, error) { return demo.NewCourse(Topic()) }

// claimed finds the printed number a claim is about.
func claimed(run *demo.Run, p demo.Panel, c regClaim, d *demo.Demo, s demo.State) (string, error) {
	switch {
	case c.where == "counter":
		if v := demotest.Counter(p, c.id); v != "" {
			return v, nil
		}
	case c.where == "fact":
		id, i, vector := strings.Cut(c.id, "#")
		for _, ml := range p.Model {
			for _, f := range ml.Facts {
				if f.TestID != id {
					continue
				}
				if !vector {
					return f.Value, nil
				}
				k, _ := strconv.Atoi(i)
				parts := strings.Split(strings.Trim(f.Value, "()"), ", ")
				if k < len(parts) {
					return parts[k], nil
				}
			}
		}
	case c.where == "table":
		row, col, _ := strings.Cut(c.id, "#")
		k, _ := strconv.Atoi(col)
		for _, r := range p.Tables[0].Rows {
			if strings.HasPrefix(r[0], row) && k < len(r) {
				return r[k], nil
			}
		}
	case c.where == "end":
		r, err := demotest.Execute(d, s.AtStep(demo.StepToEnd))
		if err != nil {
			return "", err
		}
		if !r.Done {
			return "", fmt.Errorf("the run does not stop")
		}
		return strconv.Itoa(r.Step), nil
	default:
		var text string
		switch {
		case c.where == "notes":
			for _, n := range p.Notes {
				text += n.Text + " "
			}
		case c.where == "lines":
			text = strings.Join(p.Lines, " ")
		case c.where == "plot":
			var b bytes.Buffer
			if _, err := run.Plot(&b, false, run.PlotOptions()); err != nil {
				return "", err
			}
			text = b.String()
		case strings.HasPrefix(c.where, "fig:"):
			var b bytes.Buffer
			if _, err := run.WriteFigure(&b, strings.TrimPrefix(c.where, "fig:"), false); err != nil {
				return "", err
			}
			text = b.String()
		}
		i := strings.Index(text, c.id)
		if i < 0 {
			return "", fmt.Errorf("no %q in %.300q", c.id, text)
		}
		tok, _, _ := strings.Cut(strings.Fields(text[i+len(c.id):])[0], "<")
		return strings.TrimRight(tok, ",.:;)"), nil
	}
	return "", fmt.Errorf("not on the page")
}

// agree says whether a printed number (or vector) shows what the prose
// writes: equal to within half a unit of the last digit of each.
func agree(t *testing.T, got, want string) bool {
	t.Helper()
	if b, ok := strings.CutPrefix(want, "<"); ok {
		w, _ := strconv.ParseFloat(b, 64)
		return math.Abs(number(t, got)) < w
	}
	if strings.HasPrefix(want, "(") {
		g, w := strings.Split(strings.Trim(got, "()"), ", "), strings.Split(strings.Trim(want, "()"), ", ")
		if len(g) != len(w) {
			return false
		}
		for i := range g {
			if !agree(t, g[i], w[i]) {
				return false
			}
		}
		return true
	}
	w, err := strconv.ParseFloat(want, 64)
	if err != nil {
		t.Fatalf("claim %q: %v", want, err)
	}
	return math.Abs(number(t, got)-w) <= halfUnit(want)+halfUnit(strings.NewReplacer("−", "-", "×10", "e", "·10", "e").Replace(got))+1e-12*math.Abs(w)
}

// number parses a printed number: a true minus, ·10ⁿ or ×10ⁿ.
func number(t *testing.T, s string) float64 {
	t.Helper()
	return demotest.ParseSig(t, strings.ReplaceAll(s, "×10", "·10"))
}

// halfUnit is half a unit in the last digit of a number as written
// ("0.0136" → 0.00005, "2e6" → 5e5, "1468" → 0.5).
func halfUnit(s string) float64 {
	mant, exp, _ := strings.Cut(strings.TrimLeft(s, "-"), "e")
	e := 0
	if exp != "" {
		e, _ = strconv.Atoi(strings.NewReplacer("⁻", "-", "⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4", "⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9").Replace(exp))
	}
	if _, frac, ok := strings.Cut(mant, "."); ok {
		e -= len(frac)
	}
	return 0.5 * math.Pow(10, float64(e))
}
