package demo

import "math"

// Trail bounds, shared by every demo that draws an optimiser's path.
// MaxTrail bounds the iterates a Trail keeps, so memory and drawing stay
// small on a run of MaxStep steps; FarIterate bounds the coordinates
// drawn, since a diverging run's would overflow page coordinates.
const (
	MaxTrail   = 2000
	FarIterate = 1e9
)

// Trail keeps the 2-D iterates of a run for its plot: a read-only
// observer of a replay, fed one iterate per state by Add. It keeps every
// stride-th iterate, k = 0, stride, 2·stride, …; when that fills MaxTrail
// it drops every other one and doubles stride. Which iterates are kept
// depends only on k, so a plot URL always draws the same path, and the
// start is always kept. It stops at the first iterate too far out to
// draw (beyond ±FarIterate): a diverging run leaves the view for good.
type Trail struct {
	xy     [][2]float64
	stride int
	start  [2]float64
	far    bool
}

// NewTrail returns an empty Trail.
func NewTrail() *Trail { return &Trail{stride: 1} }

// Add records iterate k, x; call it for k = 0, 1, 2, … in order.
func (r *Trail) Add(k int, x [2]float64) {
	if k == 0 {
		r.start = x
	}
	if r.far = r.far || !Drawable(x); r.far || k%r.stride != 0 {
		return
	}
	r.xy = append(r.xy, x)
	if len(r.xy) >= MaxTrail {
		kept := r.xy[:0]
		for i := 0; i < len(r.xy); i += 2 {
			kept = append(kept, r.xy[i])
		}
		r.xy, r.stride = kept, 2*r.stride
	}
}

// Start returns iterate 0.
func (r *Trail) Start() [2]float64 { return r.start }

// Iterates returns the path to draw whose current iterate is x: the kept
// ones, ending with x, and the index of x, or −1 when x is too far out to
// draw. The slice is a copy the caller may keep.
func (r *Trail) Iterates(x [2]float64) ([][2]float64, int) {
	xy := append([][2]float64(nil), r.xy...)
	if !Drawable(x) {
		return xy, -1
	}
	if n := len(xy); n == 0 || xy[n-1] != x {
		xy = append(xy, x)
	}
	return xy, len(xy) - 1
}

// Drawable reports whether x is near enough to draw: both coordinates
// within ±FarIterate.
func Drawable(x [2]float64) bool {
	return math.Abs(x[0]) <= FarIterate && math.Abs(x[1]) <= FarIterate
}
