package svm

// ColumnCache keeps the most recently used columns of Q within a byte budget,
// as LIBSVM's Cache does, so that an n = 5000 problem never holds the n×n
// matrix. A column is computed by fill, always by the same code, so
// whether it came from the cache never changes a value.
//
// Evicted columns' storage is reused rather than left to the garbage
// collector: touching fresh memory costs more than computing a linear
// kernel column, so a cache that allocated on every miss would be slower
// than none. The price is that a column is valid only until the next
// miss evicts it. The least recently used column goes first and the
// cache holds at least two, so the working pair's columns i and j stay
// valid while each other is fetched; callers use a column before they
// fetch a third. A ColumnCache is not safe for concurrent use.
//
// A column may be partial, as in LIBSVM: while Solve has shrunk the
// problem it computes only the entries of the active variables. Where
// LIBSVM permutes the variables so that the active ones come first and a
// partial column is a prefix, here it is tagged with the generation of
// the active set it was computed for: within a generation the active set
// only shrinks, so the column stays valid; when the set grows again the
// shrinker starts a new generation. Generation 0 marks a full column,
// which serves every request.
type ColumnCache struct {
	fill       func(i int, col []float64, idx []int)
	n          int
	capacity   int         // columns that fit in the budget, at least 2
	cols       [][]float64 // cols[i] is column i, or nil when not cached
	gens       []int       // generation of cols[i]; 0 when it is full
	prev, next []int32     // LRU ring over the cached columns; node n is the head
	used       int
	lastGen    int
	computed   int // kernel values fill has computed, for Solve's Meter
	// poll, when set, is told the nominal work (about a unit per feature)
	// of every pollChunk values a miss computes; when it returns false
	// the miss is abandoned: getAt returns nil and the cache holds what it
	// held (see getAt). Solve sets it only where it can stop.
	poll    func(units int) bool
	all     []int // 0, …, n−1, for polled full columns
	perUnit int   // poll's units per value
}

// pollChunk is how many kernel values a polled miss computes between two
// calls of poll.
const pollChunk = 64

// NewColumnCache returns a cache of columns of length n within bytes bytes
// of column data (the bookkeeping is O(n) more), or two columns when
// bytes holds fewer. Storage is allocated as columns are first cached.
func NewColumnCache(n, bytes int, fill func(int, []float64, []int)) *ColumnCache {
	c := &ColumnCache{fill: fill, n: n, capacity: max(2, bytes/(8*n))}
	c.cols = make([][]float64, n)
	c.gens = make([]int, n)
	c.prev = make([]int32, n+1)
	c.next = make([]int32, n+1)
	c.prev[n], c.next[n] = int32(n), int32(n)
	return c
}

// newGen returns a generation number not used before.
func (c *ColumnCache) newGen() int {
	c.lastGen++
	return c.lastGen
}

// Get returns the full column i, valid until a later Get evicts it.
func (c *ColumnCache) Get(i int) []float64 { return c.getAt(i, nil, 0) }

// getAt returns column i, valid at least at the indices idx of generation
// gen (at all indices when idx is nil), computing it on a miss.
func (c *ColumnCache) getAt(i int, idx []int, gen int) []float64 {
	if idx == nil {
		gen = 0
	}
	col := c.cols[i]
	if col != nil {
		c.unlink(i)
		if g := c.gens[i]; g == 0 || g == gen {
			c.pushBack(i)
			return col
		}
		// A partial column of an older generation: recompute it in place.
		// Entries both versions have get the same bits, so a caller
		// holding the old version reads no change.
	} else if c.used < c.capacity {
		col = make([]float64, c.n)
		c.used++
	} else {
		lru := int(c.next[c.n])
		c.unlink(lru)
		col, c.cols[lru] = c.cols[lru], nil
	}
	if c.poll != nil {
		if !c.fillPolled(i, col, idx) {
			if c.cols[i] != nil {
				// i's own partial column of an older generation: the
				// entries recomputed got the bits they had, so it is still
				// valid for that generation.
				c.pushBack(i)
			} else {
				c.used-- // its storage goes
			}
			return nil
		}
	} else {
		c.fill(i, col, idx)
	}
	if idx == nil {
		c.computed += c.n
	} else {
		c.computed += len(idx)
	}
	c.cols[i], c.gens[i] = col, gen
	c.pushBack(i)
	return col
}

// fillPolled is fill in chunks of pollChunk values with a call of poll
// after each; it reports false, with the column part-filled, when poll
// does. Every value is the one fill computes alone.
func (c *ColumnCache) fillPolled(i int, col []float64, idx []int) bool {
	if idx == nil {
		if c.all == nil {
			c.all = make([]int, c.n)
			for k := range c.all {
				c.all[k] = k
			}
		}
		idx = c.all
	}
	for a := 0; a < len(idx); a += pollChunk {
		b := min(a+pollChunk, len(idx))
		c.fill(i, col, idx[a:b])
		c.computed += b - a
		if !c.poll((b - a) * c.perUnit) {
			return false
		}
	}
	c.computed -= len(idx) // counted again by getAt
	return true
}

func (c *ColumnCache) unlink(i int) {
	p, n := c.prev[i], c.next[i]
	c.next[p], c.prev[n] = n, p
}

// pushBack makes i the most recently used column.
func (c *ColumnCache) pushBack(i int) {
	head := int32(c.n)
	last := c.prev[head]
	c.next[last], c.prev[i] = int32(i), last
	c.next[i], c.prev[head] = head, int32(i)
}
