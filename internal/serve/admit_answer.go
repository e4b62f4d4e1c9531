package serve

import (
	"bytes"
	"net/http"
	"time"
)

// answer buffers a handler's answer, up to max bytes, while it holds a
// slot; finish gives the slot back (release) and then writes the answer,
// however slowly the client reads. An answer longer than max starts
// going out as it passes max, slot still held, each write given wait to
// finish (http.ResponseController's write deadline), so a client that
// does not read loses its connection instead of keeping the slot.
type answer struct {
	w       http.ResponseWriter
	l       *Limiter // its bounds, budget and counters
	release func()

	status    int
	body      bytes.Buffer
	streaming bool
}

func (a *answer) Header() http.Header { return a.w.Header() }

func (a *answer) WriteHeader(status int) {
	if a.streaming {
		return
	}
	if status >= 100 && status < 200 {
		a.w.WriteHeader(status) // informational: goes out at once
		return
	}
	if a.status == 0 {
		a.status = status
	}
}

func (a *answer) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	if !a.streaming && a.body.Len()+len(p) <= a.l.answerMax {
		if a.l.buffered.Add(int64(len(p))) <= a.l.answerBudget {
			return a.body.Write(p)
		}
		a.l.buffered.Add(-int64(len(p)))
	}
	if !a.streaming {
		a.streaming = true
		a.w.WriteHeader(a.status)
		if a.body.Len() > 0 {
			err := a.out(a.body.Bytes())
			a.l.buffered.Add(-int64(a.body.Len()))
			a.body = bytes.Buffer{}
			if err != nil {
				return 0, err
			}
		}
	}
	return len(p), a.out(p)
}

// out writes p to the client within a.wait.
func (a *answer) out(p []byte) error {
	rc := http.NewResponseController(a.w)
	_ = rc.SetWriteDeadline(time.Now().Add(a.l.writeAfter)) // not every writer has one
	_, err := a.w.Write(p)
	return err
}

// Flush does nothing while the answer is buffered: it goes out whole.
func (a *answer) Flush() {
	if a.streaming {
		_ = http.NewResponseController(a.w).Flush()
	}
}

// Unwrap lets a handler reach the connection's writer (http.MaxBytesReader
// marks it to close after a body over its limit).
func (a *answer) Unwrap() http.ResponseWriter { return a.w }

// finish gives the slot back and then sends the buffered answer.
func (a *answer) finish() {
	a.release()
	if a.streaming {
		return
	}
	defer a.l.buffered.Add(-int64(a.body.Len()))
	if a.status == 0 {
		if a.body.Len() == 0 {
			return // nothing written: net/http sends its 200
		}
		a.status = http.StatusOK
	}
	a.l.sending.Add(1)
	defer a.l.sending.Add(-1)
	a.w.WriteHeader(a.status)
	if a.body.Len() > 0 {
		_, _ = a.w.Write(a.body.Bytes())
	}
}
