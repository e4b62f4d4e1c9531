package fit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// knnBody is a request of n rows of x and m predict rows of d features,
// labels 0 and 1, numbers with three decimals or, when short, single
// digits (so that 1000 × 1000 features fit in the body limit).
func knnBody(n, m, d, k int, short bool, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0))
	var b strings.Builder
	var buf []byte
	rows := func(count int) {
		for i := range count {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			for j := range d {
				if j > 0 {
					b.WriteByte(',')
				}
				if short {
					b.WriteByte(byte('0' + r.IntN(10)))
				} else {
					buf = strconv.AppendFloat(buf[:0], math.Round(r.Float64()*1000)/1000, 'f', -1, 64)
					b.Write(buf)
				}
			}
			b.WriteByte(']')
		}
	}
	fmt.Fprintf(&b, `{"algorithm":"knn","params":{"k":%d},"x":[`, k)
	rows(n)
	b.WriteString(`],"y":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, i%2)
	}
	b.WriteString(`],"predict":[`)
	rows(m)
	b.WriteString(`]}`)
	return b.String()
}

// TestKNNWorkLimit: the most predict rows knnWork allows pass the check,
// one more is refused before any work with a message naming the limit
// and the allowed count.
func TestKNNWorkLimit(t *testing.T) {
	const n, d = 10000, 1
	_, most := knnWork(n, d, 0, false)
	if work, _ := knnWork(n, d, most, false); work > MaxKNNWork {
		t.Errorf("%d rows: work %.3g > MaxKNNWork", most, work)
	}
	if work, _ := knnWork(n, d, most+1, false); work <= MaxKNNWork {
		t.Errorf("%d rows: work %.3g ≤ MaxKNNWork", most+1, work)
	}
	_, err := fitKNNJSON(t, knnBody(n, most+1, d, 5, false, 1))
	if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), fmt.Sprintf("at most %d predict rows", most)) || !strings.Contains(err.Error(), "6e+08") {
		t.Errorf("%d predict rows: %v; want a bad request naming the limit and %d rows", most+1, err, most)
	}
	// Coordinates beyond knn.Ordinary's range cost knnWideCost times as
	// much: the same shape is refused at a fifth of the rows, whether the
	// large numbers are in x or only in predict.
	_, wideMost := knnWork(n, d, 0, true)
	if wideMost >= most/knnWideCost+1 || wideMost < most/knnWideCost-1 {
		t.Errorf("wide: at most %d rows, want about %d/%d", wideMost, most, knnWideCost)
	}
	for _, where := range []string{"x", "predict"} {
		body := knnWideBody(n, wideMost+1, d, where)
		if _, err := fitKNNJSON(t, body); !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), fmt.Sprintf("at most %d predict rows", wideMost)) {
			t.Errorf("wide %s, %d predict rows: %v; want a bad request allowing %d", where, wideMost+1, err, wideMost)
		}
	}
}

// knnWideBody is n rows of x of d features and m predict rows, with
// coordinates near 1e200 in x or in predict (where), the rest of
// ordinary size, labels ±1.
func knnWideBody(n, m, d int, where string) string {
	r := rand.New(rand.NewPCG(uint64(n), uint64(m)))
	var b strings.Builder
	block := func(count int, wide bool) {
		for i := range count {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('[')
			for j := range d {
				if j > 0 {
					b.WriteByte(',')
				}
				if wide {
					fmt.Fprintf(&b, "%de200", r.IntN(19)-9)
				} else {
					fmt.Fprintf(&b, "%d", r.IntN(19)-9)
				}
			}
			b.WriteByte(']')
		}
	}
	b.WriteString(`{"algorithm":"knn","params":{"k":5},"x":[`)
	block(n, where == "x")
	b.WriteString(`],"y":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString([]string{"-1", "1"}[r.IntN(2)])
	}
	b.WriteString(`],"predict":[`)
	block(m, where == "predict")
	b.WriteString(`]}`)
	return b.String()
}

// BenchmarkKNNWorstWide times the worst allowed requests whose x holds
// coordinates near 1e200 (every squared distance beyond float64), from
// body to encoded answer: about the ordinary worst's time, by
// knnWideCost.
func BenchmarkKNNWorstWide(b *testing.B) {
	for _, c := range []struct{ n, d int }{{MaxN, 1}, {MaxN, 9}, {500, 1000}} {
		_, most := knnWork(c.n, c.d, 0, true)
		body := knnWideBody(c.n, min(most, MaxPredict), c.d, "x")
		b.Run(fmt.Sprintf("d=%d", c.d), func(b *testing.B) {
			for b.Loop() {
				req, err := Decode(strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Run(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// knnWorst are the most expensive requests the limits allow, each at its
// largest allowed number of predict rows: many rows of few features with
// k = n/2 (ranking dominates), 2 features in random order (the k-d tree's
// ring shortcut cannot help), 9 features (no tree), wide rows (the body
// limit allows about 1000 rows of 1000 one-digit features), and every
// distance tied (two distinct points, queries equidistant from them).
var knnWorst = []struct {
	name    string
	n, d, k int
	short   bool
}{
	{"d=1", MaxN, 1, MaxN / 2, false},
	{"d=2", MaxN, 2, MaxN / 2, false},
	{"d=9", MaxN, 9, MaxN / 2, false},
	{"d=9,k=1", MaxN, 9, 1, false},
	{"d=1000", 1000, 1000, 500, true},
	{"ties", MaxN, 2, MaxN / 2, false},
}

func knnWorstBody(c struct {
	name    string
	n, d, k int
	short   bool
}) string {
	_, most := knnWork(c.n, c.d, 0, false)
	most = min(most, MaxPredict)
	if c.name == "ties" {
		return fmt.Sprintf(`{"algorithm":"knn","params":{"k":%d},"x":[%s],"y":[%s],"predict":[%s]}`,
			c.k, rows(`[0,0],[1,1]`, c.n/2), rows(`1,0`, c.n/2), rows(`[0.5,0.5],[0,1]`, most/2))
	}
	return knnBody(c.n, most, c.d, c.k, c.short, 1)
}

// BenchmarkKNNWorst times the worst allowed requests from body to encoded
// answer.
func BenchmarkKNNWorst(b *testing.B) {
	for _, c := range knnWorst {
		body := knnWorstBody(c)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				req, err := Decode(strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				resp, err := Run(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(resp); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
