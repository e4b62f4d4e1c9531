package svm

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// TestKernelsQ3ClassifiesByTheScore checks Check yourself Q3 against 001's
// example: every point the answer scores has the score psiScore gives and
// the sign the answer names, the asymptotes it quotes are the roots of
// t² + 3t + 1, and the angle of the negative wedge is theirs. (The answer
// said only points near the diagonal were positive; (2, 0) and (3, −0.5)
// are positive too.)
func TestKernelsQ3ClassifiesByTheScore(t *testing.T) {
	src, err := demo.Source(Topic().Prose, "kernels")
	if err != nil {
		t.Fatal(err)
	}
	_, q3, ok := strings.Cut(string(src), "<summary>3. With $\\psi")
	if !ok {
		t.Fatal("no Check yourself question 3 on ψ")
	}
	q3, _, _ = strings.Cut(q3, "</details>")
	claims := regexp.MustCompile(`\$\((-?[0-9.]+), (-?[0-9.]+)\)\$ scores \$[^$]*= (-?[0-9.]+)\$, (positive|negative)`).FindAllStringSubmatch(q3, -1)
	scored := map[[2]float64]bool{}
	for _, c := range claims {
		x1, _ := strconv.ParseFloat(c[1], 64)
		x2, _ := strconv.ParseFloat(c[2], 64)
		v, _ := strconv.ParseFloat(c[3], 64)
		scored[[2]float64{x1, x2}] = true
		got := PsiScore(x1, x2)
		if math.Abs(got-v) > 1e-12 || (got > 0) != (c[4] == "positive") {
			t.Errorf("Q3: (%v, %v) scores %v, %s; w·ψ(x) + b = %v", x1, x2, v, c[4], got)
		}
	}
	for _, p := range [][2]float64{{1, 0}, {1, 1}, {1, -1}, {2, 0}, {3, -0.5}} {
		if !scored[p] {
			t.Errorf("Q3 does not score (%v, %v)", p[0], p[1])
		}
	}
	// x₁² + 3x₁x₂ + x₂² = 0 on x₂ = tx₁ with t² + 3t + 1 = 0.
	lo, hi := (-3-math.Sqrt(5))/2, (-3+math.Sqrt(5))/2
	want := fmt.Sprintf(`\approx %.3f$ and $%.3f$`, hi, lo)
	if !strings.Contains(q3, want) {
		t.Errorf("Q3 does not give the asymptotes' slopes as %q", want)
	}
	angle := (math.Atan(-lo) - math.Atan(-hi)) * 180 / math.Pi
	if want := fmt.Sprintf("about $%.0f°$ wide", angle); !strings.Contains(q3, want) {
		t.Errorf("Q3 does not give the negative wedge's angle as %q (%.2f°)", want, angle)
	}
	if strings.Contains(q3, "Only the points near the diagonal") {
		t.Error("Q3 still says only points near the diagonal are positive")
	}
}

// TestProseKernelsHandComputationLive checks the numbers the "hand
// computation, live" item reads off the linked iteration 3 against a
// fresh replay of kernelized SGD: the score and β₁ of the update, the
// weights ᾱ₁, ᾱ₂ of the panel's table, and the score of (0, 1), which the
// prose works out from them.
func TestProseKernelsHandComputationLive(t *testing.T) {
	const slug, query = "kernels", "aseed=24&data=xor&demo=kernel-pegasos&lambda=0.25&step=3"
	replay := ReplayKernelPegasos
	demotest.CheckClaims(t, demotest.MustCourse(t, topicCourse), []demotest.Claim{
		{Slug: slug, Query: query, From: "the panel shows the score", To: ". Its training error",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				_, s := replay(t, r)
				if s.I != 0 || !s.Violated {
					t.Errorf("iteration 3 draws x%d (violated %v), want x1 with an update", s.I+1, s.Violated)
				}
				return []float64{s.Margin, s.Beta[0], s.Avg[0], s.Avg[1]}
			}},
		{Slug: slug, Query: query, From: `\approx`, To: ", is wrong too",
			Want: func(t *testing.T, r *demo.Run) []float64 {
				kp, s := replay(t, r)
				x, _ := demo.Columns(r.Points)
				if x[2][0] != 0 || x[2][1] != 1 {
					t.Fatalf("x3 = %v, want (0, 1)", x[2])
				}
				f := kp.Score(s, x[2])
				if want := -5.0/9*math.Exp(-1) + 2.0/9*math.Exp(-2); math.Abs(f-want) > 1e-9 {
					t.Errorf("f(0, 1) = %g, want −5/9·e⁻¹ + 2/9·e⁻² = %g", f, want)
				}
				return []float64{f}
			}},
	})
}
