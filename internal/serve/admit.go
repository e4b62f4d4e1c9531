// Package serve holds Margin's net/http middleware for a crowded server:
// admission control, which bounds how many expensive computations run at
// once and sheds the rest with 503 + Retry-After (Limiter), and a cache
// of rendered responses shared by every client (Cache). Neither knows
// Margin's routes: the caller says which requests are cheap, which
// request headers a response may depend on, and the handler marks the
// responses that may be kept.
package serve

import (
	"net/http"
	"strconv"
	"time"
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
type Limiter struct {
	slots chan struct{} // a token per running expensive request
	queue chan struct{} // a token per waiting one
	wait  time.Duration
	retry string // Retry-After, in whole seconds
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
		slots: make(chan struct{}, slots),
		queue: make(chan struct{}, queue),
		wait:  wait,
		retry: strconv.Itoa(secs),
	}
}

// Running is the number of expensive requests running now.
func (l *Limiter) Running() int { return len(l.slots) }

// Waiting is the number of expensive requests waiting for a slot now.
func (l *Limiter) Waiting() int { return len(l.queue) }

// Wrap returns next behind the limiter; cheap reports the requests that
// bypass it (static files, health checks).
func (l *Limiter) Wrap(next http.Handler, cheap func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cheap != nil && cheap(r) {
			next.ServeHTTP(w, r)
			return
		}
		if !l.acquire(r) {
			l.refuse(w, r)
			return
		}
		defer func() { <-l.slots }()
		next.ServeHTTP(w, r)
	})
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

// refuse answers 503 with Retry-After and a short message. The answer is
// never cached (no-store): the next try may well succeed.
func (l *Limiter) refuse(w http.ResponseWriter, r *http.Request) {
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
		_, _ = w.Write([]byte("Margin is busy: too many computations are running; try again in " + l.retry + " s.\n"))
	}
}
