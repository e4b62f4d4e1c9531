package fit

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/budget"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// MaxGramN bounds the rows of POST /api/v1/gram (beyond MaxBody and
// MaxD). It is what answers in 2 s of CPU: the eigenvalues cost about n³
// whatever d is, in gonum's single-threaded eigensolver, which cannot be
// stopped (0.7 s at n = 1000, 1.2 s at 1200, 1.8 s at 1400 and 3.6–5 s at
// 2000 on the reference machine); the matrix costs n²·d/2 multiply-adds
// (≤ 0.4 s at n = 1000, d = MaxD); and the answer is about 20n² bytes
// (20 MB at n = 1000, 82 MB at 2000). n = 1000 leaves room for a busy
// machine: the costliest request it allows, 1000 × 1000, takes 1.1 s.
const MaxGramN = 1000

// MaxGramMatrixCPU is the CPU the Gram matrix may take before the request
// is stopped (a 503): the largest allowed matrix of ordinary numbers takes
// about 0.4 s, one of subnormal products about 100 times that (issue 28:
// 10–14 s), and the eigenvalues after it up to 0.7 s more.
const MaxGramMatrixCPU = 600 * time.Millisecond

// gramMatrixCPU is MaxGramMatrixCPU, lowered by tests of the budget.
var gramMatrixCPU = MaxGramMatrixCPU

// GramRequest is the body of POST /api/v1/gram: a function, by the names
// svm.ParseFunctionKind reads, and its parameters, each nil for its
// default (linear, gamma 1, degree 2, coef0 1), and the points x.
type GramRequest struct {
	Kernel *string
	Gamma  *float64
	Degree *int
	Coef0  *float64
	X      [][]float64
}

// GramResponse is the answer of POST /api/v1/gram: Kᵢⱼ = k(xᵢ, xⱼ), its
// eigenvalues in ascending order, and whether K is positive
// semi-definite up to rounding (svm.Spectrum's rule).
type GramResponse struct {
	K           [][]float64 `json:"K"`
	Eigenvalues []float64   `json:"eigenvalues"`
	PSD         bool        `json:"psd"`
}

const gramFields = `{"kernel", "gamma", "degree", "coef0", "x"}`

// gramKnown lists the parameters and what each allows.
const gramKnown = `kernel ("linear" default, "poly", "rbf", "laplace", "sigmoid" or "neg-sqdist"), gamma (> 0, default 1), degree (1 to 10, default 2), coef0 (any number, default 1)`

// DecodeGram reads one JSON body of POST /api/v1/gram as Decode does
// (fitreq.Reader): field names exactly and once each, no null, numbers
// within float64's range, nothing after the object, at most MaxBody bytes,
// and x counted against MaxGramN rows and MaxD features as it is read.
func DecodeGram(r io.Reader) (GramRequest, error) {
	t := fitreq.NewReader(r, gramFields+" with "+gramKnown)
	var req GramRequest
	err := t.Object(func(key string) error {
		switch key {
		case "kernel":
			s, err := t.String(key)
			req.Kernel = &s
			return err
		case "gamma", "coef0":
			f, err := t.Float(key)
			if key == "gamma" {
				req.Gamma = &f
			} else {
				req.Coef0 = &f
			}
			return err
		case "degree":
			d, err := t.Int(key, fmt.Sprintf("an integer from 1 to %d", svm.MaxDegree))
			req.Degree = &d
			return err
		case "x":
			x, err := t.Matrix(key, MaxGramN)
			req.X = x
			return err
		}
		return t.UnknownField(key)
	})
	if err != nil {
		return GramRequest{}, err
	}
	return req, nil
}

// kernel returns the function req asks for, with its defaults.
func (req GramRequest) kernel() (svm.Kernel, error) {
	k := svm.Kernel{Kind: svm.Linear, Gamma: 1, Degree: 2, Coef0: 1}
	if req.Kernel != nil {
		kind, err := svm.ParseFunctionKind(*req.Kernel)
		if err != nil {
			return k, fitreq.Badf(`"kernel" is %s; use "linear", "poly", "rbf", "laplace", "sigmoid" or "neg-sqdist"`, fitreq.Clip(*req.Kernel))
		}
		k.Kind = kind
	}
	if v := req.Gamma; v != nil {
		if !(*v > 0) || *v > MaxParam {
			return k, fitreq.Badf(`"gamma" is %v; give a number > 0 and at most %g`, *v, MaxParam)
		}
		k.Gamma = *v
	}
	if v := req.Coef0; v != nil {
		if !(math.Abs(*v) <= MaxParam) {
			return k, fitreq.Badf(`"coef0" is %v; give a number from %g to %g (negative is allowed here)`, *v, -MaxParam, MaxParam)
		}
		k.Coef0 = *v
	}
	if v := req.Degree; v != nil {
		if *v < 1 || *v > svm.MaxDegree {
			return k, fitreq.Badf(`"degree" is %d; give an integer from 1 to %d`, *v, svm.MaxDegree)
		}
		k.Degree = *v
	}
	if err := k.ValidateFunction(); err != nil {
		return k, fitreq.Badf("%v", err) // unreachable after the checks above
	}
	return k, nil
}

// validX checks x's shape and values against the limits: 1 to MaxGramN
// rows (DecodeGram counts them as it reads) of 1 to MaxD finite numbers
// each.
func (req GramRequest) validX() error {
	n := len(req.X)
	switch {
	case n == 0:
		return fitreq.Badf(`"x" is empty or missing; give 1 to %d rows of numbers`, MaxGramN)
	case n > MaxGramN:
		return fitreq.Badf(`"x" has %d rows; at most %d are allowed`, n, MaxGramN)
	}
	d := len(req.X[0])
	if d == 0 || d > MaxD {
		return fitreq.Badf(`"x" rows have %d features; give 1 to %d`, d, MaxD)
	}
	return fitreq.CheckRows("x", req.X, d)
}

// Gram validates req and answers it. It checks ctx before it starts, and
// while it computes the Gram matrix looks at ctx and its CPU (at most
// MaxGramMatrixCPU, package budget) every few milliseconds whatever the
// numbers cost; the eigenvalues (gonum's eigensolver, which cannot be
// stopped: about 0.7 s at MaxGramN) follow. A done context or a spent
// budget returns an error wrapping context.DeadlineExceeded or ctx.Err(). A
// matrix whose entries overflow (a high polynomial degree on large x) is
// an error wrapping ErrUnprocessable.
func Gram(ctx context.Context, req GramRequest) (*GramResponse, error) {
	k, err := req.kernel()
	if err != nil {
		return nil, err
	}
	if err := req.validX(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: gram not started: %w", err)
	}
	b := budget.Start(ctx, gramMatrixCPU)
	K, err := svm.GramSpend(k, req.X, b.Spend)
	if err == nil {
		err = b.Check()
	}
	b.Stop()
	switch {
	case budget.IsSpent(err):
		return nil, fmt.Errorf("fit: gram stopped while computing the matrix: %w; numbers whose products are subnormal (below 2.2e-308, as 1e-160·1e-160 is) cost about 100 times as much: rescale x", err)
	case err != nil:
		return nil, fmt.Errorf("fit: gram stopped while computing the matrix: %w", err)
	}
	sp, err := svm.Eigenvalues(K)
	switch {
	case errors.Is(err, svm.ErrNotFinite):
		return nil, fmt.Errorf("%w: the Gram matrix overflowed (%v); rescale x to smaller numbers, or lower gamma or the degree", ErrUnprocessable, err)
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrUnprocessable, err)
	case !fitreq.Finite(sp.Values):
		return nil, fmt.Errorf("%w: the eigenvalues overflowed to ±Inf or NaN; rescale x to smaller numbers, or lower gamma or the degree", ErrUnprocessable)
	}
	n := len(req.X)
	raw := K.RawSymmetric()
	resp := &GramResponse{K: make([][]float64, n), Eigenvalues: sp.Values, PSD: sp.PSD}
	for i := range resp.K {
		resp.K[i] = raw.Data[i*raw.Stride : i*raw.Stride+n : i*raw.Stride+n]
	}
	return resp, nil
}

// WriteJSON writes r as encoding/json would encode it, byte for byte,
// and a newline (as json.Encoder does), streaming: at n = MaxGramN the
// answer is about 20 MB, which json.Marshal would build in memory first, at
// several times the CPU (2.4 s against 0.3 s here). r's numbers must be
// finite, as Gram's are.
func (r *GramResponse) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 32)
	floats := func(v []float64) {
		bw.WriteByte('[')
		for i, f := range v {
			if i > 0 {
				bw.WriteByte(',')
			}
			buf = appendJSONFloat(buf[:0], f)
			bw.Write(buf)
		}
		bw.WriteByte(']')
	}
	bw.WriteString(`{"K":`)
	if r.K == nil {
		bw.WriteString("null")
	} else {
		bw.WriteByte('[')
		for i, row := range r.K {
			if i > 0 {
				bw.WriteByte(',')
			}
			floats(row)
		}
		bw.WriteByte(']')
	}
	bw.WriteString(`,"eigenvalues":`)
	if r.Eigenvalues == nil {
		bw.WriteString("null")
	} else {
		floats(r.Eigenvalues)
	}
	bw.WriteString(`,"psd":` + strconv.FormatBool(r.PSD) + "}\n")
	return bw.Flush()
}

// appendJSONFloat appends f as encoding/json writes a finite float64:
// the shortest representation that round-trips, in %f form unless
// |f| < 1e-6 or ≥ 1e21, where %e is used with a one-digit exponent kept
// as is ("1e-7", not "1e-07").
func appendJSONFloat(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}
