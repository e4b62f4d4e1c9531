package demo_test

import (
	"bytes"
	"context"
	"errors"
	"net/url"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// leavingWriter counts its writes and ends its context at the first: a
// client that leaves as a GIF's first bytes arrive.
type leavingWriter struct {
	writes int
	cancel context.CancelFunc
	b      bytes.Buffer
}

func (w *leavingWriter) Write(p []byte) (int, error) {
	w.writes++
	w.cancel()
	return w.b.Write(p)
}

// TestGIFStopsWhenClientLeaves: a GIF whose context has ended draws no
// frame and writes nothing, and one whose context ends at its first write
// gets no second, each with the context's error (issue 28).
func TestGIFStopsWhenClientLeaves(t *testing.T) {
	d, err := demo.NewDemo(demotest.ObjectiveSpec("toy"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := d.ParseGIF(url.Values{"to": {"2"}})
	if err != nil {
		t.Fatal(err)
	}
	whole := &leavingWriter{cancel: func() {}}
	if _, err := d.WriteGIF(context.Background(), g, whole); err != nil {
		t.Fatal(err)
	}
	if whole.writes < 2 {
		t.Fatalf("the whole GIF is %d writes, too few to tell a stop", whole.writes)
	}
	for _, endedBefore := range []bool{true, false} {
		ctx, cancel := context.WithCancel(context.Background())
		if endedBefore {
			cancel()
		}
		w := &leavingWriter{cancel: cancel}
		_, err := d.WriteGIF(ctx, g, w)
		want := 1
		if endedBefore {
			want = 0
		}
		if !errors.Is(err, context.Canceled) || w.writes != want {
			t.Errorf("context ended before: %v: %v after %d writes (%d of %d bytes), want context.Canceled after %d",
				endedBefore, err, w.writes, w.b.Len(), whole.b.Len(), want)
		}
		cancel()
	}
}
