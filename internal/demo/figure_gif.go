// The animated GIF of a stretch of a run: /plots/<ID>.gif?<state>&from=&to=&delay=.

package demo

import (
	"context"
	"fmt"
	"image"
	"image/gif"
	"io"
	"net/url"
	"strconv"

	"github.com/margin-edu/margin/internal/render"
	"github.com/margin-edu/margin/internal/textfmt"
)

// Limits of an animated GIF; docs/urls.md lists them. MaxGIFPixels caps
// frames·w·h·scale², what the GIF costs to draw and encode: 30 frames of
// the default 600×600 plot (10.8 million) fit, as do 120 frames at
// 300×300; 60 frames at 600×600 do not. Every GIF within it draws in well
// under 2 s of CPU (BenchmarkGIF, docs/performance.md).
//
// MaxGIFWork bounds what a GIF's frames cost beyond their pixels: each
// frame's state comes from the demo's Compute, and each frame draws every
// point (and, for a kernel, a field over every support vector), so
// frames · (to + gifFrameSteps) · max(points, 40) ≤ MaxGIFWork. 30 frames
// fit up to step 17000 with 40 points or none, up to step 10000 with 60,
// and 15 frames at the start of a run with 500 points. Every stepping
// demo keeps its runs in the course's cache (RunKept), so a frame steps on
// from the one before and costs about its drawing (in BenchmarkGIF, 20–35
// ms a 600 px frame); the formula still charges each frame a replay from
// step 0, which is what a frame costs when the cache drops the run between
// frames, so the bound holds whatever the cache holds.
const (
	MaxGIFWork       = 24_000_000
	minGIFWorkPoints = 40
	gifFrameSteps    = 3000 // what drawing a frame costs, in replayed steps
	MaxGIFPixels     = 12_000_000
	MaxGIFFrames     = 120
	DefaultGIFFrames = 30
	DefaultGIFDelay  = 200 // ms a frame
	MinGIFDelay      = 20
	MaxGIFDelay      = 10000
)

// The GIF's own keys.
const (
	KeyFrom  = "from"
	KeyTo    = "to"
	KeyDelay = "delay"
)

// GIF is an animation of state's run from step From to step To, one
// frame a step, each shown Delay ms.
type GIF struct {
	State    State // Step is ignored
	From, To int
	Delay    int
}

// DefaultGIF is the stretch of s's run a page links: the 30 steps up to
// the state shown, or the first 30; fewer, down to the state alone, where
// the limits allow fewer (late in a long run, many points, a large w).
func DefaultGIF(s State) GIF { return defaultGIF(s, false) }

// defaultGIF is DefaultGIF, ending at the state shown when the run
// stopped there (final): frames past the end would repeat it, and the
// name would say "steps0-29" of a run of 4.
func defaultGIF(s State, final bool) GIF {
	to := max(s.Step, DefaultGIFFrames-1)
	if final {
		to = s.Step
	}
	g := GIF{State: s.AtStep(0), To: to, Delay: DefaultGIFDelay}
	pts, _ := s.Points()
	for n := DefaultGIFFrames; n >= 1; n-- {
		g.From = max(to-n+1, 0)
		if g.checkSize() == nil && g.checkWork(len(pts)) == nil {
			break
		}
	}
	return g
}

// ParseGIF reads a GIF's query: the state's keys (step is not one: the
// frames say which steps), from (default 0), to (default from + 29) and
// delay. Its problems name their key and what is allowed; a static demo
// has no steps to animate, which the server says before parsing.
func (d *Demo) ParseGIF(q url.Values) (GIF, error) {
	rest := url.Values{}
	for k, v := range q {
		if k != KeyFrom && k != KeyTo && k != KeyDelay {
			rest[k] = v
		}
	}
	if rest.Has(KeyStep) {
		return GIF{}, BadInput(KeyStep, "a GIF shows the steps from and to; leave step out")
	}
	s, probs := d.Parse(rest)
	if len(probs) > 0 {
		return GIF{}, probs
	}
	g := GIF{State: s, Delay: DefaultGIFDelay}
	num := func(key string, def, lo, hi int) (int, error) {
		raw := q.Get(key)
		if len(q[key]) > 1 {
			return 0, BadInput(key, "give it once")
		}
		if raw == "" {
			return def, nil
		}
		n, err := strconv.Atoi(raw)
		if err != nil || n < lo || n > hi {
			return 0, BadInput(key, "%q is not a whole number from %d to %d", raw, lo, hi)
		}
		return n, nil
	}
	var err error
	if g.From, err = num(KeyFrom, 0, 0, MaxStep); err != nil {
		return GIF{}, err
	}
	if g.To, err = num(KeyTo, min(g.From+DefaultGIFFrames-1, MaxStep), g.From, MaxStep); err != nil {
		return GIF{}, err
	}
	if g.Delay, err = num(KeyDelay, DefaultGIFDelay, MinGIFDelay, MaxGIFDelay); err != nil {
		return GIF{}, err
	}
	return g, g.check()
}

// check enforces the frame, pixel and work limits, naming them.
func (g GIF) check() error {
	if err := g.checkSize(); err != nil {
		return err
	}
	pts, err := g.State.Points()
	if err != nil {
		return g.State.d.kindOf(g.State, err)
	}
	return g.checkWork(len(pts))
}

// checkSize enforces the frame and pixel limits.
func (g GIF) checkSize() error {
	n := g.To - g.From + 1
	if n > MaxGIFFrames {
		return BadInput(KeyTo, "to − from + 1 = %d frames is over the limit of %d frames a GIF (MaxGIFFrames)", n, MaxGIFFrames)
	}
	w, h, k := widthParam.Get(g.State), heightParam.Get(g.State), scaleParam.Get(g.State)
	if px := n * w * h * k * k; px > MaxGIFPixels {
		return BadInput(KeyTo, "%d frames of %d×%d pixels (scale %d) are %d pixels, over the limit of frames·w·h·scale² ≤ %d (MaxGIFPixels); show fewer steps or a smaller w and h",
			n, w*k, h*k, k, px, MaxGIFPixels)
	}
	return nil
}

// checkWork enforces MaxGIFWork for a state with n points, naming it.
func (g GIF) checkWork(n int) error {
	frames := g.To - g.From + 1
	if work := frames * (g.To + gifFrameSteps) * max(n, minGIFWorkPoints); work > MaxGIFWork {
		return BadInput(KeyTo, "%s up to step %d with %s are %d, over the limit of frames·(to + %d)·max(points, %d) ≤ %d (MaxGIFWork); show fewer or earlier steps, or fewer points",
			textfmt.Count(frames, "frame", "frames"), g.To, textfmt.Count(n, "point", "points"), work, gifFrameSteps, minGIFWorkPoints, MaxGIFWork)
	}
	return nil
}

// Query is the GIF's canonical query: the state's plot keys, then from,
// to and delay, each left out at its default.
func (g GIF) Query() string {
	v := g.State.AtStep(0).Values(ForPlot)
	if g.From != 0 {
		v.Set(KeyFrom, strconv.Itoa(g.From))
	}
	if g.To != min(g.From+DefaultGIFFrames-1, MaxStep) {
		v.Set(KeyTo, strconv.Itoa(g.To))
	}
	if g.Delay != DefaultGIFDelay {
		v.Set(KeyDelay, strconv.Itoa(g.Delay))
	}
	return encode(v)
}

// URL is the GIF's canonical URL.
func (g GIF) URL() string { return WithQuery(g.State.d.PlotPath("gif"), g.Query()) }

// FileName is the name its download takes: "svm-soft-C1-steps0-29.gif".
func (g GIF) FileName() string {
	name := g.State.AtStep(0).FileName(PlotFigure, "gif")
	return name[:len(name)-len(".gif")] + fmt.Sprintf("-steps%d-%d.gif", g.From, g.To)
}

// WriteGIF draws the main plot at each step from g.From to g.To (fewer
// when the run stops first) and writes them as an animated GIF that
// loops, each frame after the first only the rectangle that changed, in
// a fixed palette (gifPalette). The work stops when ctx ends.
func (d *Demo) WriteGIF(ctx context.Context, g GIF, w io.Writer) (frames int, err error) {
	if err := g.check(); err != nil {
		return 0, err
	}
	anim := &gif.GIF{}
	var prev *image.Paletted
	delay := (g.Delay + 5) / 10 // GIF delays are in 1/100 s
	for k := g.From; k <= g.To; k++ {
		run, err := d.ExecuteFigure(ctx, g.State.AtStep(k), PlotFigure)
		if err != nil {
			return 0, err
		}
		if run.State.Step < k {
			break // the run stopped before k: its last state is drawn already
		}
		t := &render.Target{Format: render.Raster, Ctx: ctx}
		if _, err := run.DrawFigure(t, PlotFigure); err != nil {
			return 0, err
		}
		cur := quantize(t.Image)
		frame := cur
		if prev != nil {
			frame = changed(prev, cur)
		}
		anim.Image = append(anim.Image, frame)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		prev = cur
	}
	if len(anim.Image) == 0 {
		return 0, BadInput(KeyFrom, "the run stops before step %d; start the GIF earlier", g.From)
	}
	b := prev.Bounds()
	anim.Config = image.Config{ColorModel: gifPalette(), Width: b.Dx(), Height: b.Dy()}
	if err := gif.EncodeAll(render.ContextWriter(ctx, w), anim); err != nil {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		return 0, fmt.Errorf("demo: writing gif: %w", err)
	}
	return len(anim.Image), nil
}
