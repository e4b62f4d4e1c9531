package fit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/margin-edu/margin/internal/algos/svm"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// Limits of POST /api/v1/gram beyond MaxBody and MaxD. MaxGramWork bounds
// n²·d, the Gram matrix's work (each of its n(n+1)/2 entries costs d
// multiply-adds): about 0.4 s on one core of the reference machine, 0.7 s
// when the squared differences are subnormal (BenchmarkGramWorst). The
// eigenvalues cost about n³ more whatever d is (0.4 s at n = 1000, near
// 4 s at MaxGramN), and an n×n answer is about 20n² bytes.
const (
	MaxGramN    = 2000
	MaxGramWork = 1e9
)

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

// gramBody is GramRequest as sent: x's numbers are pointers so that a
// null, which is what JavaScript's JSON.stringify makes of NaN and
// ±Infinity, is refused instead of read as 0.
type gramBody struct {
	Kernel *string      `json:"kernel"`
	Gamma  *float64     `json:"gamma"`
	Degree *int         `json:"degree"`
	Coef0  *float64     `json:"coef0"`
	X      [][]*float64 `json:"x"`
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

// DecodeGram reads one JSON body of POST /api/v1/gram as Decode does:
// unknown fields, trailing data and bodies over MaxBody are refused, and
// so is a null in x.
func DecodeGram(r io.Reader) (GramRequest, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return GramRequest{}, fitreq.Badf("reading the body: %v", err)
	}
	if len(body) > MaxBody {
		return GramRequest{}, fitreq.Badf("body is larger than %d bytes (4 MiB)", MaxBody)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var b gramBody
	if err := dec.Decode(&b); err != nil {
		return GramRequest{}, fitreq.Badf("body is not the JSON object expected (%s); send %s with %s", fitreq.ClipErr(err), gramFields, gramKnown)
	}
	if dec.More() {
		return GramRequest{}, fitreq.Badf("body has data after the JSON object; send exactly one object")
	}
	req := GramRequest{Kernel: b.Kernel, Gamma: b.Gamma, Degree: b.Degree, Coef0: b.Coef0, X: make([][]float64, len(b.X))}
	for i, row := range b.X {
		if row == nil {
			continue // a length-0 row, which Gram refuses
		}
		req.X[i] = make([]float64, len(row))
		for j, v := range row {
			if v == nil {
				return GramRequest{}, fitreq.Badf(`"x[%d][%d]" is null; give a finite number (JSON.stringify writes NaN and ±Infinity as null)`, i, j)
			}
			req.X[i][j] = *v
		}
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
// rows of 1 to MaxD finite numbers each, and n²·d ≤ MaxGramWork.
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
	if err := fitreq.CheckRows("x", req.X, d); err != nil {
		return err
	}
	if work := float64(n) * float64(n) * float64(d); work > MaxGramWork {
		rows := min(MaxGramN, int(math.Sqrt(MaxGramWork/float64(d))))
		return fitreq.Badf(`"x" has %d rows of %d features, so n²·d = %s; the limit is %s: send at most %d rows of %d features, or at most %d features for %d rows`,
			n, d, fitreq.Work(work, MaxGramWork), fitreq.Limit(work, MaxGramWork), rows, d, int(MaxGramWork/(float64(n)*float64(n))), n)
	}
	return nil
}

// Gram validates req and answers it. It checks ctx before each of its
// two phases, the Gram matrix (at most about 0.4 s) and the eigenvalues
// (gonum's eigensolver, which cannot be stopped: about 0.4 s at n = 1000
// and 4 s at n = 2000), and then returns an error wrapping ctx.Err(). A
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
	K := svm.Gram(k, req.X)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: gram stopped before its eigenvalues: %w", err)
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
// and a newline (as json.Encoder does), streaming: at n = 2000 the answer
// is about 80 MB, which json.Marshal would build in memory first, at
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
