package fit

import (
	"context"
	"fmt"
	"math"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/fit/fitreq"
)

// Limits of "knn". MaxKNNWork bounds knnWork, counted before any work: a
// unit is about a nanosecond of one core (0.8 ns per feature of a
// distance), so that with the 4 MiB body's decoding every allowed request
// answers within about a second (BenchmarkKNNWorst). The context is
// checked after every knnChunkWork units of predict rows.
const (
	MaxKNNWork   = 6e8
	knnChunkWork = 1e7
	// maxLabel is the largest label magnitude: integers beyond 2⁵³ are
	// not all representable in JSON's doubles, so they would not survive
	// the round trip to a browser.
	maxLabel = 1<<53 - 1
)

// knnDefaultK is k when params.k is not given (scikit-learn's default
// too), or n when x has fewer rows: a small odd k that smooths the
// 1-NN memoriser without blurring a teaching set of a few dozen points.
const knnDefaultK = 5

type knnParams struct {
	K      *int    `json:"k"`
	Metric *string `json:"metric"`
}

const knnKnown = `k (neighbours that vote, 1 to the number of rows of x; default 5, or the number of rows when fewer), metric ("euclidean", the default, or "manhattan")`

// KNNResponse is the answer for "algorithm": "knn": for each predict row,
// the label most common among its k nearest rows of x. A tie in the vote
// goes to the smallest label among the tied ones; rows of x at equal
// distance count in order, the lower index first.
type KNNResponse struct {
	Algorithm string `json:"algorithm"`
	Labels    []int  `json:"labels"`
}

// knnLabels checks the labels of "knn": any integers (the ±1 of the other
// classifiers, or 0, 1, 2, … for several classes), at most maxLabel in
// size.
func knnLabels(y []float64) ([]int, error) {
	out := make([]int, len(y))
	for i, v := range y {
		if v != math.Trunc(v) || math.Abs(v) > maxLabel {
			return nil, fitreq.Badf(`"y[%d]" is %v; knn labels must be whole numbers of at most %d in size, such as -1 and +1 or 0, 1, 2, …`, i, v, int64(maxLabel))
		}
		out[i] = int(v)
	}
	return out, nil
}

func (kp knnParams) params(n int) (k int, m knn.Metric, err error) {
	k = min(knnDefaultK, n)
	if kp.K != nil {
		if *kp.K < 1 || *kp.K > n {
			return 0, 0, fitreq.Badf("params.k is %d; give 1 to %d (the number of rows of x)", *kp.K, n)
		}
		k = *kp.K
	}
	if kp.Metric != nil {
		if m, err = knn.ParseMetric(*kp.Metric); err != nil {
			return 0, 0, fitreq.Badf(`params.metric is %s; give "euclidean" or "manhattan"`, fitreq.Clip(*kp.Metric))
		}
	}
	return k, m, nil
}

// kNN's cost model, in MaxKNNWork's units: each predict row compares
// itself with all n rows of x (the search is never worse than that scan),
// one unit per feature plus knnPointCost for ranking the point; building
// the classifier copies x. The constant is from BenchmarkKNNWorst, where
// the slowest shapes (9 features with k = n/2, where ranking dominates;
// 1000 features, where the distances do; every distance tied) then cost
// about the same per unit.
const knnPointCost = 16

// knnWideCost is what a comparison costs, in ordinary ones, when the data
// or the predict rows hold a coordinate outside knn.Ordinary's range
// (beyond about 1e135, or below about 1e-135 but not 0), where distances
// are computed in a scaled space so that squares neither overflow nor
// underflow: 3–5 times as much (docs/performance.md, Hardening).
const knnWideCost = 5

// knnWork returns the work of m predict rows against n rows of d
// features, wide or not (knnWideCost), and the most predict rows the
// limit allows.
func knnWork(n, d, m int, wide bool) (work float64, most int) {
	perRow := float64(n) * float64(d+knnPointCost)
	if wide {
		perRow *= knnWideCost
	}
	fixed := float64(n) * float64(d)
	return fixed + float64(m)*perRow, int((MaxKNNWork - fixed) / perRow)
}

// knnWide reports whether a row of x or predict has a coordinate outside
// knn.Ordinary's range.
func knnWide(x, predict [][]float64) bool {
	for _, rows := range [2][][]float64{x, predict} {
		for _, r := range rows {
			if !knn.Ordinary(r) {
				return true
			}
		}
	}
	return false
}

func fitKNN(ctx context.Context, req Request) (*KNNResponse, error) {
	var kp knnParams
	if err := fitreq.StrictParams(req.Params, &kp, knnKnown); err != nil {
		return nil, err
	}
	n, d := len(req.X), len(req.X[0])
	k, metric, err := kp.params(n)
	if err != nil {
		return nil, err
	}
	labels, err := knnLabels(req.Y)
	if err != nil {
		return nil, err
	}
	if work, most := knnWork(n, d, len(req.Predict), knnWide(req.X, req.Predict)); work > MaxKNNWork {
		return nil, fitreq.Badf("%d predict rows against %d rows of %d features could cost %s units of work; the limit is %s; send at most %d predict rows with this x, or fewer rows or features",
			len(req.Predict), n, d, fitreq.Work(work, MaxKNNWork), fitreq.Limit(work, MaxKNNWork), max(most, 0))
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fit: knn not started: %w", err)
	}
	codes, classes := knn.Encode(labels)
	c, err := knn.New(req.X, codes, k, metric)
	if err != nil { // Request.Validate and the checks above make this unreachable
		return nil, fitreq.Badf("%v", err)
	}
	resp := &KNNResponse{Algorithm: "knn", Labels: make([]int, 0, len(req.Predict))}
	chunk := max(1, int(knnChunkWork/(float64(n)*float64(d+knnPointCost))))
	for lo := 0; lo < len(req.Predict); lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("fit: knn stopped after %d of %d predict rows: %w", lo, len(req.Predict), err)
		}
		got, err := c.PredictAll(req.Predict[lo:min(lo+chunk, len(req.Predict))])
		if err != nil {
			return nil, fitreq.Badf("%v", err)
		}
		for _, code := range got {
			resp.Labels = append(resp.Labels, classes[code])
		}
	}
	return resp, nil
}
