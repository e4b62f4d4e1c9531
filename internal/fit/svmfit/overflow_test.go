package svmfit

import (
	"errors"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// TestKernelOverflow is issue 18's item 6: a polynomial kernel whose
// values drown coef0 in rounding answered 200 "converged" with gap −2. It
// is a 422 naming gamma, for "svm" and "kernel-pegasos" alike, while the
// same points with a gamma inside the bound still fit.
func TestKernelOverflow(t *testing.T) {
	for _, alg := range []string{"svm", "kernel-pegasos"} {
		body := `{"algorithm":"` + alg + `","params":{"kernel":"poly","degree":10,"gamma":1e12},"x":[[1e6],[-1e6]],"y":[-1,1]}`
		_, err := fitAs[any](t, body)
		if !errors.Is(err, fitreq.ErrUnprocessable) || !strings.Contains(err.Error(), "params.gamma") {
			t.Errorf("%s with γ = 1e12: %v, want a 422 saying to lower params.gamma", alg, err)
		}
		ok := strings.Replace(body, "1e12", "1e-12", 1)
		if _, err := fitAs[any](t, ok); err != nil {
			t.Errorf("%s with γ = 1e-12: %v, want a fit", alg, err)
		}
	}
	// coef0 = 0 is homogeneous: no constant to lose, so no refusal.
	r, err := fitSVMJSON(t, `{"algorithm":"svm","params":{"kernel":"poly","degree":3,"gamma":1e12,"coef0":0},"x":[[1e6],[-1e6]],"y":[-1,1]}`)
	if err != nil || r.Status != "converged" {
		t.Errorf("homogeneous poly kernel: %+v, %v; want converged", r, err)
	}
}
