package fit

import (
	"errors"
	"math"

	"github.com/margin-edu/margin/internal/algos"
	"github.com/margin-edu/margin/internal/algos/perceptron"
)

type perceptronParams struct {
	Order     *string  `json:"order"`
	Seed      *int64   `json:"seed"`
	MaxEpochs *int     `json:"max_epochs"`
	Eta       *float64 `json:"eta"`
	Margin    *float64 `json:"margin"`
	Average   *bool    `json:"average"`
}

const perceptronKnown = "order (\"cyclic\" or \"random\"), seed (integer), max_epochs (1 to 100000), eta (> 0), margin (≥ 0), average (bool)"

// PerceptronResponse is the answer for "algorithm": "perceptron".
type PerceptronResponse struct {
	Algorithm  string      `json:"algorithm"`
	W          []float64   `json:"w"`
	B          float64     `json:"b"`
	Iterations int         `json:"iterations"`
	Mistakes   int         `json:"mistakes"`
	Epochs     int         `json:"epochs"`
	Converged  bool        `json:"converged"`
	Cycled     bool        `json:"cycled"`
	Status     string      `json:"status"`
	Scores     []float64   `json:"scores"`
	Trace      []TraceStep `json:"trace,omitempty"`
}

// TraceStep is the state after one point was examined.
type TraceStep struct {
	T       int       `json:"t"`
	I       int       `json:"i"`
	Mistake bool      `json:"mistake"`
	W       []float64 `json:"w"`
	B       float64   `json:"b"`
}

func (pp perceptronParams) params() (perceptron.Params, error) {
	p := perceptron.DefaultParams()
	if pp.Order != nil {
		switch *pp.Order {
		case "cyclic":
		case "random":
			p.Order = perceptron.Random
		default:
			return p, badf(`params.order is %q; use "cyclic" or "random"`, *pp.Order)
		}
	}
	if pp.Seed != nil {
		p.Seed = uint64(*pp.Seed)
	}
	if pp.MaxEpochs != nil {
		if *pp.MaxEpochs < 1 || *pp.MaxEpochs > MaxEpochs {
			return p, badf("params.max_epochs is %d; give 1 to %d", *pp.MaxEpochs, MaxEpochs)
		}
		p.MaxEpochs = *pp.MaxEpochs
	}
	if pp.Eta != nil {
		if !(*pp.Eta > 0) || math.IsInf(*pp.Eta, 0) {
			return p, badf("params.eta is %v; give a finite number > 0", *pp.Eta)
		}
		p.Eta = *pp.Eta
	}
	if pp.Margin != nil {
		if !(*pp.Margin >= 0) || math.IsInf(*pp.Margin, 0) {
			return p, badf("params.margin is %v; give a finite number ≥ 0", *pp.Margin)
		}
		p.Margin = *pp.Margin
	}
	if pp.Average != nil {
		p.Average = *pp.Average
	}
	return p, nil
}

func fitPerceptron(req Request) (*PerceptronResponse, error) {
	var pp perceptronParams
	if err := strictParams(req.Params, &pp, perceptronKnown); err != nil {
		return nil, err
	}
	p, err := pp.params()
	if err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	if work := float64(n) * float64(d) * float64(p.MaxEpochs); work > MaxWork {
		return nil, badf("n·d·max_epochs = %d·%d·%d is over the limit %.0g; lower max_epochs or send less data", n, d, p.MaxEpochs, float64(MaxWork))
	}
	data := perceptron.Data{X: req.X, Y: make([]int, n)}
	for i, y := range req.Y {
		data.Y[i] = int(y)
	}
	var trace []TraceStep
	observe := func(s perceptron.State) error {
		if len(trace) == MaxTrace {
			return badf("the trace would be longer than %d steps; set trace to false or lower max_epochs", MaxTrace)
		}
		w := make([]float64, d)
		copy(w, s.Models[0].W)
		trace = append(trace, TraceStep{T: s.T, I: s.Event.I, Mistake: s.Event.Updated[0], W: w, B: s.Models[0].B})
		return nil
	}
	if !req.Trace {
		observe = nil
	}
	pr, s, err := perceptron.Run(data, p, observe)
	if err != nil {
		if errors.Is(err, ErrBadRequest) {
			return nil, err
		}
		return nil, badf("%v", err)
	}
	w, b := pr.Classifier(s, 0)
	resp := &PerceptronResponse{
		Algorithm: "perceptron", W: w, B: b,
		Iterations: s.T, Mistakes: s.Mistakes, Epochs: s.Epoch,
		Converged: s.Status == algos.Converged, Cycled: s.Status == algos.CycleDetected,
		Status: s.Status.String(), Scores: make([]float64, len(req.Predict)), Trace: trace,
	}
	for i, x := range req.Predict {
		resp.Scores[i] = perceptron.Score(w, b, x)
	}
	return resp, nil
}
