package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func cheapHealthz(r *http.Request) bool { return r.URL.Path == "/healthz" }

// blocking is a handler whose expensive requests run until release is
// closed or their client leaves.
func blocking(started chan<- struct{}, release <-chan struct{}, done *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			_, _ = w.Write([]byte("ok"))
			return
		}
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
		done.Add(1)
	})
}

func TestLimiterQueuesThenRefuses(t *testing.T) {
	started, release := make(chan struct{}, 8), make(chan struct{})
	var done atomic.Int64
	l := NewLimiter(2, 1, 50*time.Millisecond)
	h := l.Wrap(blocking(started, release, &done), cheapHealthz)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil)) }()
		<-started
	}
	// The third waits in the queue; a fourth, finding it full, is refused at once.
	third := httptest.NewRecorder()
	thirdDone := make(chan struct{})
	go func() { defer close(thirdDone); h.ServeHTTP(third, httptest.NewRequest("GET", "/x", nil)) }()
	for l.Waiting() != 1 {
		time.Sleep(time.Millisecond)
	}
	fourth := httptest.NewRecorder()
	h.ServeHTTP(fourth, httptest.NewRequest("GET", "/x", nil))
	if fourth.Code != http.StatusServiceUnavailable || fourth.Header().Get("Retry-After") == "" {
		t.Errorf("full queue: %d, Retry-After %q; want 503 with Retry-After", fourth.Code, fourth.Header().Get("Retry-After"))
	}
	// /healthz answers while every slot is busy.
	hz := httptest.NewRecorder()
	h.ServeHTTP(hz, httptest.NewRequest("GET", "/healthz", nil))
	if hz.Code != http.StatusOK {
		t.Errorf("/healthz with all slots busy: %d", hz.Code)
	}
	<-thirdDone // the third's wait runs out
	if third.Code != http.StatusServiceUnavailable || third.Header().Get("Retry-After") != "1" {
		t.Errorf("queued past its wait: %d, Retry-After %q; want 503, 1", third.Code, third.Header().Get("Retry-After"))
	}
	if l.Running() != 2 {
		t.Errorf("running %d, want 2", l.Running())
	}
	close(release)
	wg.Wait()
}

func TestLimiterCancelFreesSlot(t *testing.T) {
	started, release := make(chan struct{}, 8), make(chan struct{})
	defer close(release)
	var done atomic.Int64
	l := NewLimiter(1, 4, 5*time.Second)
	h := l.Wrap(blocking(started, release, &done), nil)
	ctx, cancel := context.WithCancel(context.Background())
	finished := make(chan struct{})
	go func() {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil).WithContext(ctx))
		close(finished)
	}()
	<-started
	// A second request queues behind the first; cancelling the first must
	// hand its slot over at once, not after the 5 s wait.
	second := make(chan struct{})
	go func() {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil))
		close(second)
	}()
	for l.Waiting() != 1 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	<-finished
	select {
	case <-started: // the second got the slot
	case <-time.After(2 * time.Second):
		t.Fatal("the cancelled request did not free its slot")
	}
	if l.Running() != 1 || l.Waiting() != 0 {
		t.Errorf("running %d waiting %d, want 1 0", l.Running(), l.Waiting())
	}
}
