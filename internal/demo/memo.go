package demo

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"runtime/debug"
	"sync"

	"golang.org/x/sync/singleflight"
)

// The demos memoise what a page would otherwise recompute at every step
// or slider move (a γ sweep, a degree sweep, an exact optimum, a run):
// results of pure functions of the state, never anyone's session. They
// keep them in their course's Cache, which Compute reaches as in.Cache.

// DefaultCacheBytes is the budget of a new course's Cache: 64 MiB, room
// for a few hundred sweeps and optima and a hundred or so logistic runs.
const DefaultCacheBytes = 64 << 20

// Cache holds results of pure computations by key, bounded in bytes: each
// entry is charged the size its caller estimates, and when the total goes
// over the budget the least recently used entries are dropped. Concurrent
// misses for one key run the computation once and share its result. A
// computation that fails, or whose context ended, is not stored.
//
// A nil *Cache stores nothing: every call computes.
type Cache struct {
	mu     sync.Mutex
	budget int64
	used   int64
	lru    *list.List // of *cacheEntry, most recently used first
	byKey  map[CacheKey]*list.Element
	flight singleflight.Group
}

type CacheKey = [sha256.Size]byte

type cacheEntry struct {
	key  CacheKey
	val  any
	size int64
}

// NewCache returns an empty cache of budget bytes (DefaultCacheBytes if
// budget ≤ 0).
func NewCache(budget int64) *Cache {
	c := &Cache{lru: list.New(), byKey: map[CacheKey]*list.Element{}}
	c.SetBudget(budget)
	return c
}

// SetBudget changes the budget (DefaultCacheBytes if budget ≤ 0),
// dropping least recently used entries until the cache fits it.
func (c *Cache) SetBudget(budget int64) {
	if budget <= 0 {
		budget = DefaultCacheBytes
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = budget
	c.evict()
}

// Budget returns the budget in bytes; Used, the bytes its entries are
// charged; Len, their number.
func (c *Cache) Budget() int64 { c.mu.Lock(); defer c.mu.Unlock(); return c.budget }
func (c *Cache) Used() int64   { c.mu.Lock(); defer c.mu.Unlock(); return c.used }
func (c *Cache) Len() int      { c.mu.Lock(); defer c.mu.Unlock(); return c.lru.Len() }

// Reset drops every entry (tests start from a cold cache with it).
func (c *Cache) Reset() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Init()
	clear(c.byKey)
	c.used = 0
}

func (c *Cache) Get(k CacheKey) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[k]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(e)
	return e.Value.(*cacheEntry).val, true
}

// Put stores v under k, charged size bytes. An entry larger than the
// whole budget is not stored.
func (c *Cache) Put(k CacheKey, v any, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if size < 0 {
		size = 0
	}
	if size > c.budget {
		return
	}
	if e, ok := c.byKey[k]; ok {
		old := e.Value.(*cacheEntry)
		c.used += size - old.size
		old.val, old.size = v, size
		c.lru.MoveToFront(e)
	} else {
		c.byKey[k] = c.lru.PushFront(&cacheEntry{key: k, val: v, size: size})
		c.used += size
	}
	c.evict()
}

// recharge sets the size of key's entry, if it is still stored, for a
// value that grows after it is stored (a track the next request extends).
func (c *Cache) recharge(k CacheKey, size int64) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[k]; ok {
		ent := e.Value.(*cacheEntry)
		c.used += size - ent.size
		ent.size = size
		c.evict()
	}
}

// evict drops least recently used entries until used ≤ budget.
func (c *Cache) evict() {
	for c.used > c.budget {
		e := c.lru.Back()
		if e == nil {
			return
		}
		ent := c.lru.Remove(e).(*cacheEntry)
		delete(c.byKey, ent.key)
		c.used -= ent.size
	}
}

// Memoise returns the value of key in c, or computes it with compute(ctx)
// and stores it, charged size(value) bytes. Concurrent callers that miss
// the same key share one computation; a caller whose ctx ends stops
// waiting with ctx's error. A computation that returns an error, or whose
// context ended, is not stored, and a caller that shared it but whose own
// ctx is still live computes again rather than take another's
// cancellation as its own answer. Values are shared: callers only read
// them.
func Memoise[V any](ctx context.Context, c *Cache, key CacheKey, size func(V) int64, compute func(context.Context) (V, error)) (V, error) {
	if c == nil {
		return compute(ctx)
	}
	for {
		if v, ok := c.Get(key); ok {
			return v.(V), nil
		}
		led := false // this caller's compute ran (read after ch delivers)
		ch := c.flight.DoChan(string(key[:]), func() (v any, err error) {
			led = true
			// DoChan runs this in a goroutine of its own, where a panic
			// would end the process: it becomes the callers' error (a 500).
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("demo: cached computation panicked: %v\n%s", r, debug.Stack())
				}
			}()
			// The first caller's ctx runs the computation: it is the one
			// waiting for it.
			val, err := compute(ctx)
			if err == nil && ctx.Err() == nil {
				c.Put(key, val, size(val))
			}
			return val, err
		})
		select {
		case <-ctx.Done():
			var zero V
			return zero, ctx.Err()
		case r := <-ch:
			if !led && r.Err != nil && IsContextErr(r.Err) && ctx.Err() == nil {
				continue // another caller's context ended, not ours
			}
			if r.Err != nil {
				var zero V
				if v, ok := r.Val.(V); ok {
					return v, r.Err
				}
				return zero, r.Err
			}
			return r.Val.(V), nil
		}
	}
}

// FloatsBytes estimates the memory of float slices: 8 bytes a number
// and a slice header each.
func FloatsBytes(parts ...[]float64) int64 {
	n := int64(0)
	for _, p := range parts {
		n += 24 + 8*int64(len(p))
	}
	return n
}

// FloatsKey names a tag and a tuple of float slices, each slice
// length-prefixed so that different splits of the same numbers differ.
func FloatsKey(tag string, parts ...[]float64) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(tag + "\x00"))
	// The bytes binary.Write would write (little-endian int64 lengths and
	// float64s), through one buffer rather than an allocation a part.
	var buf []byte
	for _, p := range parts {
		buf = binary.LittleEndian.AppendUint64(buf[:0], uint64(int64(len(p))))
		for _, v := range p {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
		}
		h.Write(buf)
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}
