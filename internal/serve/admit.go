// Package serve holds Margin's net/http middleware for a crowded server:
// admission control, which bounds how many expensive computations run at
// once, holds a slot only while one computes (not while its client sends
// a body or reads an answer), sheds the rest with 503 + Retry-After, and
// sheds all new work near the memory limit (Limiter); and a cache of
// rendered responses shared by every client, HEAD answered from GET's
// entries (Cache). Neither knows Margin's routes: the caller says which
// requests are cheap, which request headers a response may depend on,
// and the handler marks the responses that may be kept.
package serve

import (
	"bytes"
	"io"
	"math"
	"net/http"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"
)

// Limiter admits at most a fixed number of expensive requests at once.
// Requests beyond that wait in a bounded queue for at most a fixed time
// and are then refused with 503 Service Unavailable and Retry-After, as
// are requests that find the queue full. Cheap requests pass straight
// through and never wait behind expensive ones. A request whose client
// leaves while it waits gives up its place at once; one whose client
// leaves while it runs frees its slot as soon as its handler returns,
// which Margin's handlers do promptly because every solver watches the
// request's context.
//
// A slot is held only while the handler computes, never while a client
// is slow: with ReadFirst, a request's body is read whole before it asks
// for a slot, and the handler's answer is buffered (up to a bound) and
// written to the client after the slot is given back. So a client that
// sends a body a byte at a time, or never reads a large answer, holds a
// goroutine and its bytes until the server's timeouts, not a slot.
type Limiter struct {
	slots chan struct{} // a token per running expensive request
	queue chan struct{} // a token per waiting one
	wait  time.Duration
	retry string // Retry-After, in whole seconds

	bodyMax    int64               // ReadFirst's bound on one body; 0: bodies are not read first
	bodies     *semaphore.Weighted // bytes of bodies being read or held
	answerMax  int                 // bytes of an answer buffered before it streams
	writeAfter time.Duration       // the deadline of each write once an answer streams

	reading, sending atomic.Int64
	buffered         atomic.Int64 // bytes of answers buffered now, at most answerBudget
	answerBudget     int64

	memory MemoryProbe // nil: no memory guard
}

// MemoryProbe reports the bytes the heap holds live and the process's
// memory limit (GOMEMLIMIT; 0 or math.MaxInt64 when there is none).
type MemoryProbe func() (live, limit uint64)

// RuntimeMemory is the Go runtime's MemoryProbe: /gc/heap/live:bytes of
// runtime/metrics (the heap the last collection found live: what a
// collection cannot give back) and the limit of debug.SetMemoryLimit,
// read once.
func RuntimeMemory() MemoryProbe {
	limit := debug.SetMemoryLimit(-1)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var mu sync.Mutex
	return func() (uint64, uint64) {
		mu.Lock()
		defer mu.Unlock()
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0, 0
		}
		return sample[0].Value.Uint64(), uint64(limit)
	}
}

// memoryNear is the fraction of the limit at which the guard refuses
// new work: near enough for the collector to be working hard, far
// enough that the requests already running (each bounded) fit.
const memoryNear = 0.9

// GuardMemory makes l refuse expensive requests with 503 and Retry-After
// while probe reports the live heap at 90 % of the limit or more, and
// returns l. Cheap requests, and whatever answers ahead of l (the
// response cache), keep answering.
func (l *Limiter) GuardMemory(probe MemoryProbe) *Limiter {
	l.memory = probe
	return l
}

// nearLimit reports whether the memory guard refuses work now.
func (l *Limiter) nearLimit() bool {
	if l.memory == nil {
		return false
	}
	live, limit := l.memory()
	return limit > 0 && limit < math.MaxInt64 && float64(live) >= memoryNear*float64(limit)
}

// NewLimiter returns a Limiter running at most slots expensive requests
// at once, with at most queue more waiting, each for at most wait.
func NewLimiter(slots, queue int, wait time.Duration) *Limiter {
	if slots < 1 {
		slots = 1
	}
	if queue < 0 {
		queue = 0
	}
	secs := int((wait + time.Second - 1) / time.Second)
	if secs < 1 {
		secs = 1
	}
	return &Limiter{
		slots:        make(chan struct{}, slots),
		queue:        make(chan struct{}, queue),
		wait:         wait,
		retry:        strconv.Itoa(secs),
		answerMax:    DefaultAnswerMax,
		answerBudget: DefaultAnswerBudget,
		writeAfter:   DefaultWriteWait,
	}
}

// DefaultAnswerMax is the most of an answer a Limiter buffers: the
// largest Margin sends (a Gram matrix of 1000 points as JSON, 19 MB) fits.
// DefaultAnswerBudget is the most it buffers of all answers at once, so
// that clients that never read cannot pile up answers in memory. An
// answer past either streams from its handler, slot held, each write with
// DefaultWriteWait to finish: a client that does not read then holds a
// slot for that long, not for the server's write timeout.
const (
	DefaultAnswerMax    = 32 << 20
	DefaultAnswerBudget = 256 << 20
	DefaultWriteWait    = 5 * time.Second
)

// ReadFirst makes l read a request body of up to max bytes whole before
// the request waits for a slot, holding at most budget bytes of bodies at
// once (a body of unknown length counts as max), and returns l. A request
// finding the budget spent is refused like one finding the queue full. A
// body declared longer than max is left to the handler, which refuses it
// by its length; one that turns out longer, or fails while it is read
// (the client stops, the read deadline passes), reaches the handler as
// the bytes that came and then the error the read met, so the handler
// answers as it would have (a 413 for *http.MaxBytesError, whose
// connection net/http then closes).
func (l *Limiter) ReadFirst(max, budget int64) *Limiter {
	if budget < max {
		budget = max
	}
	l.bodyMax, l.bodies = max, semaphore.NewWeighted(budget)
	return l
}

// Running is the number of expensive requests running now.
func (l *Limiter) Running() int { return len(l.slots) }

// Waiting is the number of expensive requests waiting for a slot now.
func (l *Limiter) Waiting() int { return len(l.queue) }

// Reading is the number of request bodies being read first now
// (ReadFirst), no slot held.
func (l *Limiter) Reading() int { return int(l.reading.Load()) }

// Sending is the number of buffered answers being written now, their
// slots given back.
func (l *Limiter) Sending() int { return int(l.sending.Load()) }

// Wrap returns next behind the limiter; cheap reports the requests that
// bypass it (static files, health checks).
func (l *Limiter) Wrap(next http.Handler, cheap func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cheap != nil && cheap(r) {
			next.ServeHTTP(w, r)
			return
		}
		if l.nearLimit() {
			l.refuseMemory(w, r)
			return
		}
		if l.bodies != nil && hasBody(r) && r.ContentLength <= l.bodyMax {
			n := r.ContentLength
			if n < 0 {
				n = l.bodyMax
			}
			if !l.bodies.TryAcquire(n) {
				l.refuse(w, r)
				return
			}
			defer l.bodies.Release(n)
			l.reading.Add(1)
			r = readFirst(w, r, l.bodyMax)
			l.reading.Add(-1)
		}
		if !l.acquire(r) {
			l.refuse(w, r)
			return
		}
		if _, ok := w.(*recorder); ok {
			// The response cache buffers the answer and sends it
			// once this returns, the slot given back.
			defer func() { <-l.slots }()
			next.ServeHTTP(w, r)
			return
		}
		b := &answer{w: w, l: l, release: func() { <-l.slots }}
		defer b.finish()
		next.ServeHTTP(b, r)
	})
}

// hasBody reports whether r may carry a body to read.
func hasBody(r *http.Request) bool {
	return r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
}

// readFirst reads r's body, at most max bytes, and returns r with a body
// that replays them, then the error reading met (io.EOF when none).
func readFirst(w http.ResponseWriter, r *http.Request, max int64) *http.Request {
	size := r.ContentLength
	if size < 0 || size > max {
		size = 512
	}
	buf := bytes.NewBuffer(make([]byte, 0, size))
	// The connection's own writer, so that a body over max makes
	// net/http close the connection after the answer.
	_, err := buf.ReadFrom(http.MaxBytesReader(unwrap(w), r.Body, max))
	g := *r
	g.Body = &replay{data: bytes.NewReader(buf.Bytes()), err: err, orig: r.Body, read: int64(buf.Len())}
	return &g
}

// RestOf returns what of a body read first (by ReadFirst) was left
// unread past its bound, and how many bytes were read: a caller that
// drains a refused body (cmd/web's drainRefused, so the client reads the
// 413 instead of a reset) reads on from there. ok is false for any other
// body.
func RestOf(body io.Reader) (rest io.Reader, read int64, ok bool) {
	b, ok := body.(*replay)
	if !ok {
		return nil, 0, false
	}
	return b.orig, b.read, true
}

// replay is a body read first: its bytes, then the error reading met.
type replay struct {
	data *bytes.Reader
	err  error // nil: the body ended
	orig io.ReadCloser
	read int64 // bytes read from orig
}

func (b *replay) Read(p []byte) (int, error) {
	n, _ := b.data.Read(p)
	if n > 0 {
		return n, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	return 0, io.EOF
}

func (b *replay) Close() error { return b.orig.Close() }

// unwrap follows Unwrap down to the writer net/http gave the handler.
func unwrap(w http.ResponseWriter) http.ResponseWriter {
	for {
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return w
		}
		w = u.Unwrap()
	}
}

// acquire takes a slot, waiting in the queue if there is room there; it
// reports false when the queue is full, the wait runs out or the client
// leaves.
func (l *Limiter) acquire(r *http.Request) bool {
	select {
	case l.slots <- struct{}{}:
		return true
	default:
	}
	select {
	case l.queue <- struct{}{}:
	default:
		return false // the queue is full: refuse at once
	}
	defer func() { <-l.queue }()
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-r.Context().Done():
		return false
	}
}

// refuseMemory answers 503 with Retry-After for the memory guard.
func (l *Limiter) refuseMemory(w http.ResponseWriter, r *http.Request) {
	l.refuseWith(w, r, "Margin is near its memory limit; try again in "+l.retry+" s.\n")
}

// refuse answers 503 with Retry-After and a short message. The answer is
// never cached (no-store): the next try may well succeed.
func (l *Limiter) refuse(w http.ResponseWriter, r *http.Request) {
	l.refuseWith(w, r, "Margin is busy: too many computations are running; try again in "+l.retry+" s.\n")
}

// refuseWith answers 503 with Retry-After and msg.
func (l *Limiter) refuseWith(w http.ResponseWriter, r *http.Request, msg string) {
	if r.Context().Err() != nil {
		return // the client has gone; nobody reads an answer
	}
	h := w.Header()
	h.Set("Retry-After", l.retry)
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusServiceUnavailable)
	if r.Method != http.MethodHead {
		_, _ = w.Write([]byte(msg))
	}
}
