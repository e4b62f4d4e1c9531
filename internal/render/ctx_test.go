package render_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/margin-edu/margin/internal/render"
)

// cancelWriter counts the writes it gets and ends its context at the
// first: a client that leaves as the first bytes of a PNG arrive.
type cancelWriter struct {
	writes int
	cancel context.CancelFunc
	b      bytes.Buffer
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	w.writes++
	w.cancel()
	return w.b.Write(p)
}

// TestRasterStopsWithContext: a PNG or a frame whose Target's context has
// ended draws and writes nothing and returns the context's error; one
// whose context ends at its first write gets no second; a live context
// changes no byte (issue 28: a 2000 × 2000 PNG is ~0.2 s of CPU that a
// client who left went on paying for).
func TestRasterStopsWithContext(t *testing.T) {
	opt := render.Options{}
	var plain bytes.Buffer
	if err := pathFigure(t).WritePNG(&render.Target{W: &plain, Format: render.PNG}, opt); err != nil {
		t.Fatal(err)
	}
	var live bytes.Buffer
	if err := pathFigure(t).WritePNG(&render.Target{W: &live, Format: render.PNG, Ctx: context.Background()}, opt); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(live.Bytes(), plain.Bytes()) {
		t.Errorf("a PNG under a live context differs from one without (%d, %d bytes)", live.Len(), plain.Len())
	}
	if plain.Len() < 3*4096 {
		t.Fatalf("the PNG is %d bytes, too few to be written in several pieces", plain.Len())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := &cancelWriter{cancel: cancel}
	if err := pathFigure(t).WritePNG(&render.Target{W: w, Format: render.PNG, Ctx: ctx}, opt); !errors.Is(err, context.Canceled) || w.writes != 0 {
		t.Errorf("PNG under an ended context: %v after %d writes, want context.Canceled after none", err, w.writes)
	}
	frame := &render.Target{Format: render.Raster, Ctx: ctx}
	if err := pathFigure(t).WritePNG(frame, opt); !errors.Is(err, context.Canceled) || frame.Image != nil {
		t.Errorf("frame under an ended context: %v, image %v; want context.Canceled and none", err, frame.Image != nil)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	w = &cancelWriter{cancel: cancel}
	if err := pathFigure(t).WritePNG(&render.Target{W: w, Format: render.PNG, Ctx: ctx}, opt); !errors.Is(err, context.Canceled) || w.writes != 1 {
		t.Errorf("PNG whose context ends at its first write: %v after %d writes (%d of %d bytes), want context.Canceled after 1",
			err, w.writes, w.b.Len(), plain.Len())
	}
}
