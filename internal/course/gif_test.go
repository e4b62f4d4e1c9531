package course

import (
	"bytes"
	"context"
	"errors"
	"image/gif"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
)

// cpuTime is the process's user and system CPU time: on a shared
// machine the wall time of a benchmark overstates its CPU.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// gifDemo finds a demo of the course by ID.
func gifDemo(t testing.TB, id string) *demo.Demo {
	t.Helper()
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range course.Demos {
		if d.ID == id {
			return d
		}
	}
	t.Fatalf("no demo %s", id)
	return nil
}

// TestGIF: a GIF has one frame a step, the delay asked for, a size well
// under 2 MB for 30 frames at 600 px, and a 400 naming its limit beyond it.
func TestGIF(t *testing.T) {
	d := gifDemo(t, "svm-soft")
	g, err := d.ParseGIF(url.Values{"to": {"29"}, "delay": {"150"}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	n, err := d.WriteGIF(context.Background(), g, &b)
	if err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if n != 30 || len(anim.Image) != 30 {
		t.Errorf("frames = %d (decoded %d), want 30", n, len(anim.Image))
	}
	if anim.Delay[0] != 15 || anim.Config.Width != 600 || anim.Config.Height != 600 {
		t.Errorf("delay %d cs, %d×%d, want 15 cs at 600×600", anim.Delay[0], anim.Config.Width, anim.Config.Height)
	}
	if b.Len() > 1<<20 {
		t.Errorf("30 frames at 600 px are %d bytes, want under 1 MiB", b.Len())
	}

	// MaxGIFWork: 30 frames up to step 17000 of svm-soft's 40 points cost
	// 30·(17000 + 3000)·40 = 24 000 000, the limit; one step more is over
	// it, and so are 16 frames with 500 points.
	for _, c := range []struct {
		query string
		ok    bool
	}{{"from=16971&to=17000", true}, {"from=16972&to=17001", false}, {"n=500&to=14", true}, {"n=500&to=15", false}} {
		q, _ := url.ParseQuery(c.query)
		_, err := d.ParseGIF(q)
		var in *demo.InputError
		if c.ok && err != nil || !c.ok && (!errors.As(err, &in) || !strings.Contains(err.Error(), "MaxGIFWork")) {
			t.Errorf("%s: %v", c.query, err)
		}
	}
	// The page's GIF link fits the limits: late in a run it has fewer
	// frames (24 000 000 / ((20000 + 3000)·40) = 26), and parses back.
	late := demo.DefaultGIF(demotest.MustParse(t, d, "step=20000"))
	if late.From != 19975 || late.To != 20000 {
		t.Errorf("DefaultGIF at step 20000 = steps %d–%d, want 19975–20000", late.From, late.To)
	}
	if u, _ := url.Parse(late.URL()); u != nil {
		if g, err := d.ParseGIF(u.Query()); err != nil || g.Query() != late.Query() {
			t.Errorf("%s: %v, %s", late.URL(), err, g.Query())
		}
	}
	for _, c := range []struct{ query, key, says string }{
		{"to=60", "to", "12000000"},
		{"from=0&to=200", "to", "120 frames"},
		{"to=40&w=300&h=300&scale=3", "to", "MaxGIFPixels"},
		{"delay=5", "delay", "20"},
		{"step=3", "step", "leave step out"},
		{"from=9&to=3", "to", "from 9"},
	} {
		q, _ := url.ParseQuery(c.query)
		_, err := d.ParseGIF(q)
		var in *demo.InputError
		if !errors.As(err, &in) || in.Key != c.key || !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseGIF(%s) = %v, want a problem with %s saying %q", c.query, err, c.key, c.says)
		}
	}
}

// BenchmarkGIF draws the largest GIFs the limit allows: 30 frames of the
// 600×600 plot of every demo that steps, and 120 frames at 300×300 of the
// two that cost most a frame. docs/performance.md has the numbers.
func BenchmarkGIF(b *testing.B) {
	course, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	type bench struct {
		d    *demo.Demo
		name string
		q    url.Values
	}
	var cases []bench
	for _, d := range course.Demos {
		if !d.Static {
			cases = append(cases, bench{d, d.ID + "/30x600", url.Values{"to": {"29"}}})
		}
		if d.ID == "svm-soft" || d.ID == "logistic" || d.ID == "kernel-svm" {
			cases = append(cases, bench{d, d.ID + "/120x300", url.Values{"to": {"119"}, "w": {"300"}, "h": {"300"}}})
			cases = append(cases, bench{d, d.ID + "/500pts", url.Values{"to": {"14"}, "n": {"500"}}})
		}
		if d.ID == "kernel-pegasos" || d.ID == "svm-sgd" {
			// The last 30 steps a demo shows: each frame replays the run
			// from step 0 (the kit has no stepping hook into a demo).
			// The latest 30 steps MaxGIFWork allows with their 60 points,
			// and the most frames it allows with 500.
			cases = append(cases, bench{d, d.ID + "/late", url.Values{"from": {"9971"}, "to": {"10000"}, "T": {"20000"}}})
			cases = append(cases, bench{d, d.ID + "/500pts", url.Values{"to": {"14"}, "T": {"20000"}, "n": {"500"}}})
		}
	}
	for _, c := range cases {
		g, err := c.d.ParseGIF(c.q)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			var size, frames int
			cpu0 := cpuTime()
			for b.Loop() {
				var buf bytes.Buffer
				if frames, err = c.d.WriteGIF(context.Background(), g, &buf); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			b.ReportMetric(float64(size), "bytes")
			b.ReportMetric(float64(frames), "frames")
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}
