package fit

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// MulticlassPerceptronResponse is the answer for "algorithm":
// "perceptron" with labels 0, 1, 2, …: one perceptron per task of the
// one-vs-all or one-vs-one reduction (params.multi), as the multiclass
// demo of the perceptron lesson trains them. Labels are the predicted
// classes of the predict rows; Scores[r][k] is model k's w·x + b there.
type MulticlassPerceptronResponse struct {
	Algorithm  string            `json:"algorithm"`
	Multi      string            `json:"multi"`
	Classes    []int             `json:"classes"`
	Models     []PerceptronModel `json:"models"`
	Iterations int               `json:"iterations"`
	Mistakes   int               `json:"mistakes"`
	Epochs     int               `json:"epochs"`
	Converged  bool              `json:"converged"`
	Cycled     bool              `json:"cycled"`
	Status     string            `json:"status"`
	Labels     []int             `json:"labels"`
	Scores     [][]float64       `json:"scores"`
}

// PerceptronModel is one binary perceptron of a multiclass fit: class Pos
// is +1 against class Neg (one-vs-one) or every other class (one-vs-all,
// Neg absent).
type PerceptronModel struct {
	Pos int       `json:"pos"`
	Neg *int      `json:"neg,omitempty"`
	W   []float64 `json:"w"`
	B   float64   `json:"b"`
}

// perceptronLabels reads y: −1 and +1 are a two-class fit (one task);
// otherwise the labels must be classes 0 … MaxClasses−1, at least two of
// them, and the tasks are the reduction's.
func perceptronLabels(y []float64, m perceptron.Multiclass) (labels []int, tasks int, err error) {
	labels = make([]int, len(y))
	if fitreq.SignLabels(y) == nil {
		for i, v := range y {
			labels[i] = int(v)
		}
		return labels, 1, nil
	}
	var seen [perceptron.MaxClasses]bool
	k := 0
	for i, v := range y {
		c := int(v)
		if float64(c) != v || c < 0 || c >= perceptron.MaxClasses {
			return nil, 0, fitreq.Badf(`"y[%d]" is %v; labels must be -1 or +1, or classes 0 to %d (with params.multi "ova" or "ovo")`, i, v, perceptron.MaxClasses-1)
		}
		if !seen[c] {
			seen[c], k = true, k+1
		}
		labels[i] = c
	}
	if k < 2 {
		return nil, 0, fitreq.Badf(`"y" holds one class only; labels must be -1 or +1, or at least two of the classes 0 to %d`, perceptron.MaxClasses-1)
	}
	if m == perceptron.OneVsOne {
		return labels, k * (k - 1) / 2, nil
	}
	return labels, k, nil
}

func multiclassResponse(pr *perceptron.Problem, s perceptron.State, p perceptron.Params, predict [][]float64) (*MulticlassPerceptronResponse, error) {
	resp := &MulticlassPerceptronResponse{
		Algorithm: "perceptron", Multi: "ova", Classes: pr.Classes,
		Iterations: s.T, Mistakes: s.Mistakes, Epochs: s.Epoch,
		Converged: s.Status == algos.Converged, Cycled: s.Status == algos.CycleDetected,
		Status: s.Status.Code(), Labels: make([]int, len(predict)), Scores: make([][]float64, len(predict)),
	}
	if p.Multiclass == perceptron.OneVsOne {
		resp.Multi = "ovo"
	}
	for k, t := range pr.Tasks {
		w, b := pr.Classifier(s, k)
		if !finiteModel(s.Models[k], p.Average) || !fitreq.Finite(w) || !fitreq.Finite([]float64{b}) {
			return nil, overflow(s.T)
		}
		m := PerceptronModel{Pos: t.Pos, W: w, B: b}
		if !t.Rest {
			m.Neg = &t.Neg
		}
		resp.Models = append(resp.Models, m)
	}
	for r, x := range predict {
		resp.Labels[r] = pr.Predict(s, x)
		resp.Scores[r] = make([]float64, len(resp.Models))
		for k, m := range resp.Models {
			resp.Scores[r][k] = perceptron.Score(m.W, m.B, x)
			if !fitreq.Finite(resp.Scores[r][k : k+1]) {
				return nil, fmt.Errorf("%w: the score w·x + b of predict[%d] overflowed; rescale x and predict to smaller numbers", ErrUnprocessable, r)
			}
		}
	}
	return resp, nil
}
