package lessons

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"
)

// The demos memoise what a page would otherwise recompute at every step
// or slider move (a γ sweep, a degree sweep, an exact optimum, a run):
// results of pure functions of the state, never anyone's session.

// memo is a small bounded map, safe for concurrent use, that forgets its
// oldest entry when full.
type memo[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	m     map[K]V
	order []K
}

func (c *memo[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *memo[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[K]V{}
	}
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) == c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[k] = v
	c.order = append(c.order, k)
}

// floatsKey names a tag and a tuple of float slices, each slice
// length-prefixed so that different splits of the same numbers differ.
func floatsKey(tag string, parts ...[]float64) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(tag + "\x00"))
	for _, p := range parts {
		binary.Write(h, binary.LittleEndian, int64(len(p)))
		binary.Write(h, binary.LittleEndian, p)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}
