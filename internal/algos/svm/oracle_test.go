package svm

// The checks of SMO against outside oracles: LIBSVM's svm-train, and
// an exhaustive active-set search (svmtest.BruteQP) on small sets.

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/svm/svmtest"
)

// libsvmModel is what TestAgainstLIBSVM reads back from svm-train: the
// dual objective it prints, its ρ, and its support vectors' αᵢ.
type libsvmModel struct {
	obj, rho float64
	sv       [][]float64 // coordinates as the model file prints them
	coef     []float64   // αᵢyᵢ
}

var objRE = regexp.MustCompile(`obj = (\S+), rho = `)

// trainLIBSVM runs svm-train on x, y with args and reads its model.
func trainLIBSVM(t *testing.T, train string, x [][]float64, y []int, args ...string) libsvmModel {
	t.Helper()
	dir := t.TempDir()
	data, model := filepath.Join(dir, "data"), filepath.Join(dir, "model")
	var b strings.Builder
	for i, row := range x {
		fmt.Fprintf(&b, "%+d", y[i])
		for j, v := range row {
			fmt.Fprintf(&b, " %d:%s", j+1, strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(data, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(train, append(args, data, model)...).CombinedOutput()
	if err != nil {
		t.Fatalf("svm-train: %v\n%s", err, out)
	}
	var m libsvmModel
	match := objRE.FindSubmatch(out)
	if match == nil {
		t.Fatalf("no objective in svm-train's output:\n%s", out)
	}
	m.obj, _ = strconv.ParseFloat(string(match[1]), 64)
	f, err := os.Open(model)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	inSV := false
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case inSV:
			c, _ := strconv.ParseFloat(fields[0], 64)
			row := make([]float64, len(x[0]))
			for _, fv := range fields[1:] {
				k, v, _ := strings.Cut(fv, ":")
				j, _ := strconv.Atoi(k)
				row[j-1], _ = strconv.ParseFloat(v, 64)
			}
			m.sv, m.coef = append(m.sv, row), append(m.coef, c)
		case fields[0] == "rho":
			m.rho, _ = strconv.ParseFloat(fields[1], 64)
		case fields[0] == "label" && fields[1] != "1":
			t.Fatalf("svm-train put label %s first; the test expects +1 first", fields[1])
		case fields[0] == "SV":
			inSV = true
		}
	}
	return m
}

// TestAgainstLIBSVM compares Solve with Debian's svm-train on
// NoisyData(200): the dual objective, b = −ρ and every αᵢ. It is skipped
// under -short and when svm-train is not installed (Debian:
// libsvm-tools). LIBSVM keeps Q in float32, so the two agree to about
// single precision, not to Tol.
func TestAgainstLIBSVM(t *testing.T) {
	if testing.Short() {
		t.Skip("compares with svm-train; skipped under -short")
	}
	train, err := exec.LookPath("svm-train")
	if err != nil {
		t.Skip("svm-train not installed (Debian: apt-get install libsvm-tools)")
	}
	x, y := NoisyData(200, 1)
	for _, tc := range []struct {
		k    Kernel
		c    float64
		args []string
	}{
		{Kernel{Kind: Linear}, 1, []string{"-t", "0", "-c", "1"}},
		{Kernel{Kind: RBF, Gamma: 1}, 1, []string{"-t", "2", "-c", "1", "-g", "1"}},
		{Kernel{Kind: RBF, Gamma: 0.5}, 10, []string{"-t", "2", "-c", "10", "-g", "0.5"}},
		{Kernel{Kind: Poly, Gamma: 0.5, Coef0: 1, Degree: 3}, 1, []string{"-t", "1", "-c", "1", "-g", "0.5", "-r", "1", "-d", "3"}},
	} {
		lib := trainLIBSVM(t, train, x, y, append(tc.args, "-e", "1e-6")...)
		pr, _ := mustNew(t, x, y, Params{C: tc.c, Kernel: tc.k, Tol: 1e-6, MaxIter: 1000000})
		s, err := pr.Solve(context.Background())
		if err != nil || s.Status != algos.Converged {
			t.Fatalf("%v: %v %v", tc.k, s.Status, err)
		}
		libAlpha := make([]float64, len(x))
		for v, row := range lib.sv {
			i := nearest(x, row)
			libAlpha[i] = lib.coef[v] * float64(y[i])
		}
		var worst float64
		for i, a := range s.Alpha {
			worst = math.Max(worst, math.Abs(a-libAlpha[i]))
		}
		t.Logf("%v C %v: D %v vs %v, b %v vs %v, max |Δα| %.2g", tc.k, tc.c, s.Dual, lib.obj, s.B, -lib.rho, worst)
		// svm-train prints the objective with 6 decimals.
		if !near(s.Dual, lib.obj, math.Max(5e-7, 1e-6*math.Abs(lib.obj))) {
			t.Errorf("%v C %v: D = %.9g, LIBSVM %.9g", tc.k, tc.c, s.Dual, lib.obj)
		}
		if !near(s.B, -lib.rho, 1e-4) {
			t.Errorf("%v C %v: b = %.9g, LIBSVM %.9g", tc.k, tc.c, s.B, -lib.rho)
		}
		if worst > 1e-3*tc.c {
			t.Errorf("%v C %v: an αᵢ differs from LIBSVM's by %v", tc.k, tc.c, worst)
		}
		// The support sets agree but for multipliers too small for
		// either solver to tell from zero.
		ours := make([]bool, len(x))
		for _, i := range pr.Support(s) {
			ours[i] = true
		}
		for i := range x {
			if ours[i] != (libAlpha[i] > 0) && math.Max(s.Alpha[i], libAlpha[i]) > 1e-4*tc.c {
				t.Errorf("%v C %v: point %d: α = %v, LIBSVM %v", tc.k, tc.c, i, s.Alpha[i], libAlpha[i])
			}
		}
		if len(lib.sv) != len(pr.Support(s)) {
			t.Logf("%v C %v: %d support vectors, LIBSVM %d", tc.k, tc.c, len(pr.Support(s)), len(lib.sv))
		}
	}
}

// nearest returns the index of the point closest to row (the model file
// prints coordinates to 8 digits).
func nearest(x [][]float64, row []float64) int {
	best, bi := math.Inf(1), -1
	for i, p := range x {
		if d := sqdist(p, row); d < best {
			best, bi = d, i
		}
	}
	return bi
}

// TestAgainstBruteForce: on small random sets, soft and hard, linear and
// RBF, SMO's optimum is the exhaustive active-set search's, to 1e-7.
func TestAgainstBruteForce(t *testing.T) {
	kernels := []Kernel{{Kind: Linear}, {Kind: RBF, Gamma: 0.7}, {Kind: Poly, Gamma: 0.5, Coef0: 1, Degree: 2}}
	hard := 0
	for seed := uint64(1); seed <= 6; seed++ {
		n := 4 + int(seed)%4 // 4…7
		x, y := NoisyData(n, seed)
		for _, k := range kernels {
			for _, c := range []float64{0.3, 2, math.Inf(1)} {
				name := fmt.Sprintf("seed %d n %d %v C %v", seed, n, k, c)
				p := Params{C: c, Hard: math.IsInf(c, 1), Kernel: k, Tol: 1e-10, MaxIter: 100000}
				pr, s, err := New(x, y, p)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if s.Status == algos.Infeasible {
					continue // checked in the hard-margin tests
				}
				if p.Hard {
					hard++
				}
				s, err = pr.Solve(context.Background())
				if err != nil || s.Status != algos.Converged {
					t.Fatalf("%s: %v %v", name, s.Status, err)
				}
				_, want := svmtest.BruteQP(svmtest.Q(k.Eval, x, pr.Y), pr.Y, c, true)
				if math.Abs(s.Dual-want) > 1e-7*math.Max(1, math.Abs(want)) {
					t.Errorf("%s: D(α) = %.12g, brute force %.12g", name, s.Dual, want)
				}
			}
		}
	}
	if hard < 6 {
		t.Errorf("only %d separable hard-margin cases; the test needs more", hard)
	}
	t.Logf("%d separable hard-margin cases", hard)
}
