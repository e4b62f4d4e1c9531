package main

import (
	"context"
	"fmt"
	"math"
	"math/rand"
	"net/url"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/course"
	"github.com/margin-edu/margin/internal/demo"
)

// workload holds the course's demos, for URLs built from their declarations.
type workload struct {
	demos    []*demo.Demo // every non-static demo
	lecture  []string     // 3 stepping demos × 60 steps, canonical URLs
	presents []string
}

func newWorkload() (*workload, error) {
	c, err := course.Default()
	if err != nil {
		return nil, err
	}
	w := &workload{}
	for _, d := range c.Demos {
		w.presents = append(w.presents, d.PresentPath())
		if d.Static {
			continue
		}
		w.demos = append(w.demos, d)
		if len(w.lecture) < 180 && runsTo(d, 60) {
			s := d.Default()
			for k := 1; k <= 60; k++ {
				w.lecture = append(w.lecture, figureURL(d, s.AtStep(k), false))
			}
		}
	}
	if len(w.lecture) < 180 {
		return nil, fmt.Errorf("only %d lecture states: fewer than 3 stepping demos whose default run lasts 60 steps", len(w.lecture))
	}
	return w, nil
}

// figureURL is the canonical URL of s's main plot, SVG or PNG, as the
// pages link it: the plot's keys only (no page keys such as speed or
// class, no scale for an SVG), which the server answers without a
// redirect.
func figureURL(d *demo.Demo, s demo.State, png bool) string {
	ext := "svg"
	if png {
		ext = "png"
	}
	return demo.WithQuery(d.PlotPath(ext), s.FigureQuery(png))
}

// runsTo reports whether d's default run lasts at least k steps, so that
// its steps 1…k are canonical URLs: a step past the end of a run is
// redirected to the last (a 301 the response cache does not keep), and
// the lecture mix asks for canonical URLs only.
func runsTo(d *demo.Demo, k int) bool {
	s, probs := d.Parse(url.Values{demo.KeyStep: {strconv.Itoa(k)}})
	if len(probs) > 0 || s.Step != k {
		return false
	}
	r, err := d.ExecuteFigure(context.Background(), s, demo.PlotFigure)
	return err == nil && r.Step == k
}

// random draws a valid state of d from its Params' declared ranges; a
// draw the demo refuses (a cross-parameter rule) is drawn again.
func random(r *rand.Rand, d *demo.Demo) demo.State {
	for try := 0; try < 20; try++ {
		q := url.Values{}
		for _, p := range d.Params() {
			switch p.Kind {
			case demo.KindChoice:
				var vs []string
				for _, o := range p.Options {
					if o.Value != "custom" { // custom data needs points in the URL
						vs = append(vs, o.Value)
					}
				}
				if len(vs) > 0 {
					q.Set(p.Key, vs[r.Intn(len(vs))])
				}
			case demo.KindInt:
				lo, hi := p.Min, math.Min(p.Max, p.Min+200)
				if p.Key == "hold" || p.Key == "warmup" { // gd: warmup+hold < iters
					hi = math.Min(hi, lo+10)
				}
				q.Set(p.Key, strconv.Itoa(int(lo)+r.Intn(int(hi-lo)+1)))
			case demo.KindFloat:
				lo, hi := p.Min, p.Max
				if p.OpenMin || lo <= 0 {
					lo = math.Max(lo, 1e-3)
				}
				if hi > lo*100 && lo > 0 { // log-uniform over wide ranges
					q.Set(p.Key, strconv.FormatFloat(lo*math.Pow(hi/lo, r.Float64()), 'g', 3, 64))
				} else {
					q.Set(p.Key, strconv.FormatFloat(lo+(hi-lo)*r.Float64(), 'g', 3, 64))
				}
			}
		}
		if s, probs := d.Parse(q); len(probs) == 0 {
			return s
		}
	}
	return d.Default()
}

func (w *workload) mix(name string) (mix, bool) {
	pick := func(urls []string) func(*rand.Rand) string {
		return func(r *rand.Rand) string { return urls[r.Intn(len(urls))] }
	}
	homework := func(r *rand.Rand) string {
		d := w.demos[r.Intn(len(w.demos))]
		return figureURL(d, random(r, d), false)
	}
	switch name {
	case "static":
		return mix{Clients: 200, Next: pick([]string{"/static/app.css"})}, true
	case "lecture":
		return mix{Clients: 200, Next: pick(w.lecture)}, true
	case "homework":
		return mix{Rate: 500, Next: homework}, true
	case "png":
		return mix{Clients: 50, Next: func(r *rand.Rand) string {
			d := w.demos[r.Intn(len(w.demos))]
			return figureURL(d, random(r, d), true)
		}}, true
	case "present":
		return mix{Clients: 50, Next: pick(w.presents)}, true
	case "overload":
		return mix{Rate: 1500, Next: homework}, true
	case "slow":
		// 50 clients on the slowest allowed render the worst-state hunt
		// (make worst) found, each on new data (a new seed) so no cache
		// answers it.
		return mix{Clients: 50, Next: func(r *rand.Rand) string {
			return "/plots/softmax.svg?eta=0.01&n=500&q2=10&seed=" + strconv.Itoa(r.Intn(1<<31)) + "&step=20000"
		}}, true
	case "fitstorm":
		// 50 clients posting valid fit bodies near the 4 MiB limit: 10,000
		// rows of 50 features (issue 18 §1.3's storm, with bodies that are
		// accepted).
		// Four bodies built once, so the client spends its CPU sending.
		bodies := make([][]byte, 4)
		for i := range bodies {
			bodies[i] = fitBody(rand.New(rand.NewSource(int64(i))))
		}
		return mix{Clients: 50, Next: func(*rand.Rand) string { return "/api/v1/fit" },
			Body: func(r *rand.Rand) []byte { return bodies[r.Intn(len(bodies))] }}, true
	}
	return mix{}, false
}

// fitBody is a valid least-squares fit request of 10,000 rows of 50
// features with 4 significant digits each, about 3.7 MB.
func fitBody(r *rand.Rand) []byte {
	var b strings.Builder
	b.WriteString(`{"algorithm":"linear-regression","x":[`)
	y := make([]string, 10000)
	for i := range y {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('[')
		for j := 0; j < 50; j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.FormatFloat(r.Float64()*2-1, 'f', 3, 64))
		}
		b.WriteByte(']')
		y[i] = strconv.FormatFloat(r.NormFloat64(), 'f', 3, 64)
	}
	b.WriteString(`],"y":[` + strings.Join(y, ",") + `]}`)
	return []byte(b.String())
}
