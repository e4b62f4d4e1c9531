package fit

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func fitKNNJSON(t testing.TB, body string) (*KNNResponse, error) { return fitAs[*KNNResponse](t, body) }

// TestKNNHand: 1-D points worked by hand.
//
//	x:  -3  -1   1   2   6
//	y:  +1  -1  +1  +1  -1
func TestKNNHand(t *testing.T) {
	const set = `{"algorithm":"knn","x":[[-3],[-1],[1],[2],[6]],"y":[1,-1,1,1,-1],"predict":[[0],[1.6],[4],[5]]`
	tests := []struct {
		params string
		want   []int
	}{
		// k = 1: 0 is 1 from both −1 (index 1) and 1 (index 2): index 1
		// wins, −1. 1.6 → 2 (+1). 4 → 2 (+1, 2 away, 6 is 2 away too but
		// has the higher index). 5 → 6 (−1).
		{`{"k":1}`, []int{-1, 1, 1, -1}},
		// k = 2: 0 → {−1, 1}: labels −1, +1 tie, −1 is smaller.
		// 1.6 → {2, 1}: +1. 4 → {2, 6}: tie, −1. 5 → {6, 2}: tie, −1.
		{`{"k":2}`, []int{-1, 1, -1, -1}},
		// k = 3: 0 → {−1, 1, 2}: +1 twice. 4 → {2, 6, 1}: +1 twice.
		{`{"k":3}`, []int{1, 1, 1, 1}},
		// k = 5 (the default): all vote, three +1.
		{`{}`, []int{1, 1, 1, 1}},
		{`{"k":5,"metric":"manhattan"}`, []int{1, 1, 1, 1}},
	}
	for _, tt := range tests {
		r, err := fitKNNJSON(t, set+`,"params":`+tt.params+`}`)
		if err != nil {
			t.Fatalf("%s: %v", tt.params, err)
		}
		if r.Algorithm != "knn" || !slices.Equal(r.Labels, tt.want) {
			t.Errorf("params %s: labels %v, want %v", tt.params, r.Labels, tt.want)
		}
	}
}

// TestKNNMetric: (2, 0) and (1, 1.2) from the origin are 2 and 2.2 apart
// in Manhattan distance, 2 and 1.56 in Euclidean.
func TestKNNMetric(t *testing.T) {
	body := `{"algorithm":"knn","x":[[2,0],[1,1.2]],"y":[7,3],"predict":[[0,0]],"params":{"k":1%s}}`
	for _, c := range []struct {
		metric string
		want   int
	}{{``, 3}, {`,"metric":"euclidean"`, 3}, {`,"metric":"manhattan"`, 7}} {
		r, err := fitKNNJSON(t, fmt.Sprintf(body, c.metric))
		if err != nil || !slices.Equal(r.Labels, []int{c.want}) {
			t.Errorf("metric %q: %v, %v; want [%d]", c.metric, r, err, c.want)
		}
	}
}

// TestKNNLabels: labels are any whole numbers, kept as given; the vote's
// tie goes to the smallest, negative or not.
func TestKNNLabels(t *testing.T) {
	r, err := fitKNNJSON(t, `{"algorithm":"knn","x":[[0],[1],[2],[10]],"y":[9007199254740991,-40,0,2],"predict":[[0.1],[0.5],[9]],"params":{"k":2}}`)
	if err != nil {
		t.Fatal(err)
	}
	// 0.1 → {0, 1}: tie, −40. 0.5 → {0, 1} at equal distance: tie, −40.
	// 9 → {10, 2}: tie between 2 and 0, 0.
	if want := []int{-40, -40, 0}; !slices.Equal(r.Labels, want) {
		t.Errorf("labels %v, want %v", r.Labels, want)
	}
	r, err = fitKNNJSON(t, `{"algorithm":"knn","x":[[0],[1]],"y":[9007199254740991,-9007199254740991],"predict":[[0]],"params":{"k":1}}`)
	if err != nil || r.Labels[0] != 9007199254740991 {
		t.Errorf("largest label: %v, %v", r, err)
	}
	out, _ := json.Marshal(r)
	if want := `{"algorithm":"knn","labels":[9007199254740991]}`; string(out) != want {
		t.Errorf("JSON %s, want %s", out, want)
	}
}

// TestKNNNoPredict: no predict rows is an empty list, not null.
func TestKNNNoPredict(t *testing.T) {
	r, err := fitKNNJSON(t, `{"algorithm":"knn","x":[[0],[1]],"y":[0,1]}`)
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(r); string(out) != `{"algorithm":"knn","labels":[]}` {
		t.Errorf("JSON %s, want an empty labels list", out)
	}
}

func TestKNNBadRequests(t *testing.T) {
	const set = `{"algorithm":"knn","x":[[0],[1],[2]],"y":[0,1,1],"predict":[[0]]`
	tests := []struct{ name, body, want string }{
		{"fractional label", `{"algorithm":"knn","x":[[0],[1]],"y":[0,0.5]}`, `"y[1]" is 0.5`},
		{"huge label", `{"algorithm":"knn","x":[[0],[1]],"y":[0,1e16]}`, `"y[1]"`},
		{"k zero", set + `,"params":{"k":0}}`, "params.k is 0; give 1 to 3"},
		{"k above n", set + `,"params":{"k":4}}`, "params.k is 4; give 1 to 3"},
		{"k fraction", set + `,"params":{"k":1.5}}`, "known parameters"},
		{"metric", set + `,"params":{"metric":"cosine"}}`, `params.metric is "cosine"`},
		{"unknown param", set + `,"params":{"weights":"distance"}}`, "weights"},
		{"predict width", set[:len(set)-len(`"predict":[[0]]`)] + `"predict":[[0,1]]}`, "predict[0]"},
	}
	for _, tt := range tests {
		_, err := fitKNNJSON(t, tt.body)
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want a bad request containing %q", tt.name, err, tt.want)
		}
	}
}

// TestKNNReference checks the service against a brute-force kNN written
// from the definition, on random rows of 3 features rounded to one
// decimal (so distances tie), labels -1, 0, 2 and both metrics.
func TestKNNReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	row := func() []float64 {
		return []float64{math.Round(r.NormFloat64()*10) / 10, math.Round(r.NormFloat64()*10) / 10, float64(r.IntN(3))}
	}
	var x, predict [][]float64
	var y []float64
	for range 150 {
		x, y = append(x, row()), append(y, float64([]int{-1, 0, 2}[r.IntN(3)]))
	}
	for range 100 {
		predict = append(predict, row())
	}
	for _, metric := range []string{"euclidean", "manhattan"} {
		for _, k := range []int{1, 4, 7, 30, 150} {
			body, _ := json.Marshal(map[string]any{"algorithm": "knn", "x": x, "y": y, "predict": predict,
				"params": map[string]any{"k": k, "metric": metric}})
			got, err := fitKNNJSON(t, string(body))
			if err != nil {
				t.Fatal(err)
			}
			for i, q := range predict {
				if want := referenceKNN(x, y, q, k, metric == "manhattan"); got.Labels[i] != want {
					t.Fatalf("%s k=%d predict[%d] = %v: %d, want %d", metric, k, i, q, got.Labels[i], want)
				}
			}
		}
	}
}

// referenceKNN: sort every row by (distance, index), take k, count, and
// take the most common label, the smallest among the most common.
func referenceKNN(x [][]float64, y []float64, q []float64, k int, manhattan bool) int {
	idx := make([]int, len(x))
	dist := make([]float64, len(x))
	for i, p := range x {
		idx[i] = i
		for j := range p {
			if manhattan {
				dist[i] += math.Abs(p[j] - q[j])
			} else {
				dist[i] += float64((p[j] - q[j]) * (p[j] - q[j]))
			}
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return cmp.Or(cmp.Compare(dist[a], dist[b]), cmp.Compare(a, b)) })
	count := map[int]int{}
	for _, i := range idx[:k] {
		count[int(y[i])]++
	}
	best, most := 0, 0
	for label, c := range count {
		if c > most || (c == most && label < best) {
			best, most = label, c
		}
	}
	return best
}

func TestKNNContext(t *testing.T) {
	// About 0.2 s of work: 200 predict rows against 1000 rows of 1000.
	req, err := Decode(strings.NewReader(knnBody(1000, 200, 1000, 500, true, 1)))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v, want context.Canceled", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("deadline mid-run: %v, want context.DeadlineExceeded", err)
	}
}

// TestKNNCrosscheck serves tools/crosscheck/knn.py: with
// MARGIN_KNN_CROSSCHECK set to a directory, it answers every
// request*.json there into answer*.json (or error*.txt).
func TestKNNCrosscheck(t *testing.T) {
	dir := os.Getenv("MARGIN_KNN_CROSSCHECK")
	if dir == "" {
		t.Skip("set MARGIN_KNN_CROSSCHECK to a directory of request*.json")
	}
	files, err := filepath.Glob(filepath.Join(dir, "request*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no request*.json in %s (%v)", dir, err)
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "request"), ".json")
		resp, err := fitKNNJSON(t, string(body))
		if err != nil {
			if err := os.WriteFile(filepath.Join(dir, "error"+base+".txt"), []byte(err.Error()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		out, _ := json.Marshal(resp)
		if err := os.WriteFile(filepath.Join(dir, "answer"+base+".json"), out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKNNBeyondFloat64: distances whose squares overflow float64 or
// underflow to 0 rank as they are (issue 28 §4): 9e199 is nearer 1e200
// than −1e200, and 2.9e-170 nearer 3e-170 than 0, where float64's squared
// distances tie (+Inf, 0) and the lower index, label −1, won.
func TestKNNBeyondFloat64(t *testing.T) {
	tests := []struct{ body string }{
		{`{"algorithm":"knn","x":[[-1e200,0],[1e200,0]],"y":[-1,1],"predict":[[9e199,0]],"params":{"k":1}}`},
		{`{"algorithm":"knn","x":[[0,0],[3e-170,0]],"y":[-1,1],"predict":[[2.9e-170,0]],"params":{"k":1}}`},
		{`{"algorithm":"knn","x":[[-1e200,0],[1e200,0]],"y":[-1,1],"predict":[[9e199,0]],"params":{"k":1,"metric":"manhattan"}}`},
		{`{"algorithm":"knn","x":[[-1.7e308],[1.7e308]],"y":[-1,1],"predict":[[1e308]],"params":{"k":1}}`},
	}
	for _, tt := range tests {
		r, err := fitKNNJSON(t, tt.body)
		if err != nil || !slices.Equal(r.Labels, []int{1}) {
			t.Errorf("%s: %+v (%v), want labels [1]", tt.body, r, err)
		}
	}
}
