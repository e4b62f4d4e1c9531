package perceptron

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"sync"

	"github.com/margin-edu/margin/internal/algos"
)

// startIndex makes the cycle check cost O(tasks·(d+1)) per epoch, not a
// comparison with every earlier epoch start: it maps a hash of the models
// (w and b of every task) at the start of each epoch to that epoch.
//
// It belongs to a run: Init makes one and every state of the run points
// to it (copies of a state too), and Step stays pure all the same. The run
// is deterministic, so the start of epoch e is the same in every
// trajectory from that Init; the first trajectory to reach it records it
// and later ones find it there. A state at the start of epoch E consults
// only epochs < E, which its own trajectory passed through and which
// nothing changes once recorded, so stepping an old state again, or
// twice, or a copy of it kept while its run went on, gives the same
// answer whatever else has been stepped. Living in the state and not in
// the Problem, it goes where the state goes: a state kept between
// requests and stepped on by a fresh Problem of the same data still
// finds the epochs it passed through.
//
// It stores hashes, 20 bytes an epoch, not the models (tasks·(d+1) floats
// an epoch). A hit is confirmed exactly by recomputing that epoch start
// from w = 0: a true hit ends the run, so that costs at most the run so
// far, once; a false one needs a 64-bit collision under a seed drawn per
// run, which data cannot be chosen to provoke. The seed changes only how
// fast the check is, never its answer.
type startIndex struct {
	mu   sync.Mutex
	seed maphash.Seed
	head map[uint64]int32 // hash → latest recorded epoch with that hash
	prev []int32          // prev[e]: earlier epoch with e's hash, or −1
	buf  []byte           // scratch for hashing
}

// cycles reports whether ms, the models at the start of epoch e, equal
// the models at the start of an earlier epoch of the run ix indexes, a
// run of pr. If not, and e is the next epoch to record, it records e.
func (pr *Problem) cycles(ix *startIndex, e int, ms []Model) bool {
	ix.mu.Lock()
	if ix.head == nil {
		ix.seed = maphash.MakeSeed()
		ix.head = map[uint64]int32{}
		ix.record(ix.sum(ms, true)) // epoch 0: w = 0, b = 0
	}
	h := ix.sum(ms, false)
	var cand []int
	for c, ok := ix.head[h]; ok && c >= 0; c = ix.prev[c] {
		if int(c) < e {
			cand = append(cand, int(c))
		}
	}
	if len(cand) == 0 {
		ix.recordAt(e, h)
	}
	ix.mu.Unlock()
	if len(cand) == 0 {
		return false
	}
	for _, c := range cand {
		if sameStart(pr.startOf(c), ms) {
			return true
		}
	}
	// A 64-bit collision with a different start: record e all the same.
	ix.mu.Lock()
	ix.recordAt(e, h)
	ix.mu.Unlock()
	return false
}

// recordAt records epoch e unless another trajectory already did.
// Epochs are reached in order, so e is either recorded or the next one.
func (ix *startIndex) recordAt(e int, h uint64) {
	if e == len(ix.prev) {
		ix.record(h)
	}
}

func (ix *startIndex) record(h uint64) {
	p, ok := ix.head[h]
	if !ok {
		p = -1
	}
	ix.head[h] = int32(len(ix.prev))
	ix.prev = append(ix.prev, p)
}

// sum hashes w and b of every model, or zeros of the same shape. Adding +0
// folds −0 into 0, which == treats as equal.
func (ix *startIndex) sum(ms []Model, zero bool) uint64 {
	b := ix.buf[:0]
	for _, m := range ms {
		for _, v := range m.W {
			b = binary.LittleEndian.AppendUint64(b, bits(v, zero))
		}
		b = binary.LittleEndian.AppendUint64(b, bits(m.B, zero))
	}
	ix.buf = b
	return maphash.Bytes(ix.seed, b)
}

func bits(v float64, zero bool) uint64 {
	if zero {
		return 0
	}
	return math.Float64bits(v + 0)
}

// startOf recomputes the models at the start of epoch e from w = 0.
func (pr *Problem) startOf(e int) []Model {
	ms := make([]Model, len(pr.Tasks))
	dim := len(pr.X[0])
	for k := range ms {
		ms[k] = Model{W: make([]float64, dim), U: make([]float64, dim), C: 1}
	}
	for ep := range e {
		for _, i := range pr.order(ep) {
			for k := range ms {
				pr.visit(&ms[k], k, i)
			}
		}
	}
	return ms
}

func sameStart(a, b []Model) bool {
	for k := range a {
		if a[k].B != b[k].B {
			return false
		}
		for j, v := range a[k].W {
			if v != b[k].W[j] {
				return false
			}
		}
	}
	return true
}

// Cycle explains a CycleDetected state s of pr's run: from is the earlier
// epoch (0-based: after from completed epochs) whose start the models of
// s repeat, and updated says per task whether it made an update in the
// epochs from there to s. Each such task returned to its (w, b) after an
// update, which no task with a separating hyperplane can (an update
// raises ⟨(w, b), (w*, b*)⟩), so its binary problem is not linearly
// separable; a task that made no update in between is not judged. ok is
// false when s is not a CycleDetected state of pr's run. It replays the
// run from w = 0, so it costs as much as the run to s.
func (pr *Problem) Cycle(s State) (from int, updated []bool, ok bool) {
	if s.Status != algos.CycleDetected || len(s.Models) != len(pr.Tasks) {
		return 0, nil, false
	}
	r := pr.start()
	var starts [][]int // updates per task at each epoch start
	count := make([]int, len(pr.Tasks))
	from = -1
	for !r.Status.Done() && r.Epoch < s.Epoch {
		if r.Pos == 0 {
			if from < 0 && sameStart(r.Models, s.Models) {
				from = r.Epoch
			}
			starts = append(starts, slices.Clone(count))
		}
		pr.advance(&r, true)
		for k, u := range r.Event.Updated {
			if u {
				count[k]++
			}
		}
	}
	if from < 0 || r.Epoch != s.Epoch || !sameStart(r.Models, s.Models) {
		return 0, nil, false
	}
	updated = make([]bool, len(pr.Tasks))
	for k := range updated {
		updated[k] = count[k] > starts[from][k]
	}
	return from, updated, true
}
