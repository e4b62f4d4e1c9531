package fields

import (
	"math"

	"github.com/margin-edu/margin/internal/render"
)

// grid is a function of the plane sampled at the (nx+1)×(ny+1) nodes of
// a regular grid over a view: z[j*(nx+1)+i] = f(x(i), y(j)). Non-finite
// samples are stored as NaN and treated as missing.
type grid struct {
	nx, ny int
	v      render.View
	z      []float64
	edgeAt [][2]int32 // contour's scratch, kept between levels
	// lo and hi are each cell's smallest and largest corner, NaN for a
	// cell with a missing corner: a level outside [lo, hi] crosses no
	// edge of the cell, so contour skips it at the cost of two loads
	// (computed at the first level, kept for the others).
	lo, hi []float64
}

// ranges fills lo and hi.
func (g *grid) ranges() {
	if len(g.lo) == g.nx*g.ny {
		return
	}
	g.lo, g.hi = make([]float64, g.nx*g.ny), make([]float64, g.nx*g.ny)
	for j := 0; j < g.ny; j++ {
		for i := 0; i < g.nx; i++ {
			a, b, c, d := g.at(i, j), g.at(i+1, j), g.at(i+1, j+1), g.at(i, j+1)
			k := j*g.nx + i
			if math.IsNaN(a) || math.IsNaN(b) || math.IsNaN(c) || math.IsNaN(d) {
				g.lo[k], g.hi[k] = math.NaN(), math.NaN()
				continue
			}
			g.lo[k], g.hi[k] = min(a, b, c, d), max(a, b, c, d)
		}
	}
}

// sample evaluates f on an nx×ny-cell grid over v; nx, ny ≥ 1.
func sample(f func(x1, x2 float64) float64, v render.View, nx, ny int) *grid {
	g := &grid{nx: nx, ny: ny, v: v, z: make([]float64, (nx+1)*(ny+1))}
	for j := 0; j <= ny; j++ {
		y := g.y(j)
		for i := 0; i <= nx; i++ {
			z := f(g.x(i), y)
			if math.IsInf(z, 0) {
				z = math.NaN()
			}
			g.z[j*(nx+1)+i] = z
		}
	}
	return g
}

// x and y are node coordinates, exact at both ends of the view.
func (g *grid) x(i int) float64 {
	return g.v.XMin + (g.v.XMax-g.v.XMin)*float64(i)/float64(g.nx)
}

func (g *grid) y(j int) float64 {
	return g.v.YMin + (g.v.YMax-g.v.YMin)*float64(j)/float64(g.ny)
}

func (g *grid) at(i, j int) float64 { return g.z[j*(g.nx+1)+i] }

// Grid edges are numbered so that both cells beside an edge name it the
// same way: first the horizontal edges, (i, j)–(i+1, j) at j·nx + i, then
// the vertical ones, (i, j)–(i, j+1) at H + j·(nx+1) + i.
func (g *grid) hEdge(i, j int) int { return j*g.nx + i }
func (g *grid) vEdge(i, j int) int { return (g.ny+1)*g.nx + j*(g.nx+1) + i }
func (g *grid) edges() int         { return (g.ny+1)*g.nx + g.ny*(g.nx+1) }

// crossing is where the level crosses edge e, interpolated linearly from
// the edge's lower-numbered node, so both cells beside it get the same
// point to the last bit and their pieces join exactly.
func (g *grid) crossing(e int, level float64) render.Vec {
	var i0, j0, i1, j1 int
	if h := (g.ny + 1) * g.nx; e < h {
		i0, j0 = e%g.nx, e/g.nx
		i1, j1 = i0+1, j0
	} else {
		e -= h
		i0, j0 = e%(g.nx+1), e/(g.nx+1)
		i1, j1 = i0, j0+1
	}
	za, zb := g.at(i0, j0), g.at(i1, j1)
	t := (level - za) / (zb - za)
	a, b := render.Vec{g.x(i0), g.y(j0)}, render.Vec{g.x(i1), g.y(j1)}
	return a.Lerp(b, t)
}

// cellSegments lists, for each marching-squares case, the pieces inside
// a cell as pairs of its sides (0 bottom, 1 right, 2 top, 3 left). The
// case has bit 1 for the bottom-left corner at or above the level, 2
// bottom-right, 4 top-right, 8 top-left. The saddles 5 and 10 list the
// pieces for a centre below the level; saddle resolves them.
var cellSegments = [16][][2]int{
	{}, {{3, 0}}, {{0, 1}}, {{3, 1}},
	{{1, 2}}, {{3, 0}, {1, 2}}, {{0, 2}}, {{3, 2}},
	{{2, 3}}, {{0, 2}}, {{0, 1}, {2, 3}}, {{1, 2}},
	{{3, 1}}, {{0, 1}}, {{3, 0}}, {},
}

// saddle returns the pieces of a saddle cell (case 5 or 10), decided by
// the mean of its corners, the value bilinear interpolation gives its
// centre: at or above the level, the two high corners are joined through
// the centre and the pieces cut off the two low corners; below it, the
// pieces cut off the high corners. The rule depends only on the cell, so
// the result is deterministic and the same for the pieces on either side.
func saddle(cs int, centreHigh bool) [][2]int {
	cutLow := cs == 5 && centreHigh || cs == 10 && !centreHigh
	if cutLow { // cut off bottom-right and top-left
		return [][2]int{{0, 1}, {2, 3}}
	}
	return [][2]int{{3, 0}, {1, 2}} // cut off bottom-left and top-right
}

// contour returns the curve f = level as polylines in data coordinates,
// by marching squares with the pieces joined end to end through the grid
// edges they share. A closed curve repeats its first point at the end.
// Cells with a missing corner have no pieces. The order is fixed: lines
// start from the first unvisited piece in row-major cell order and run
// first in the direction that piece lists, so the same grid always gives
// the same polylines, point for point (plotter.Contour's do not: it
// gathers them in a map).
func (g *grid) contour(level float64) [][]render.Vec {
	type seg struct{ a, b int } // the two grid edges a piece joins
	var segs []seg
	if len(g.edgeAt) != g.edges() {
		g.edgeAt = make([][2]int32, g.edges())
		for e := range g.edgeAt {
			g.edgeAt[e] = [2]int32{-1, -1}
		}
	}
	g.ranges()
	at := g.edgeAt // the pieces on each edge (at most two); all unset between calls
	defer func() { // unset the edges this level set, for the next
		for _, sg := range segs {
			at[sg.a], at[sg.b] = [2]int32{-1, -1}, [2]int32{-1, -1}
		}
	}()
	link := func(e int, s int32) {
		if at[e][0] < 0 {
			at[e][0] = s
		} else {
			at[e][1] = s
		}
	}
	for j := 0; j < g.ny; j++ {
		for i := 0; i < g.nx; i++ {
			// Missing corners (NaN range), all below the level (case 0) or
			// all at or above it (case 15): no pieces. The negated
			// comparisons are false for NaN, so a missing cell skips too.
			if k := j*g.nx + i; !(g.hi[k] >= level) || !(g.lo[k] < level) {
				continue
			}
			z := [4]float64{g.at(i, j), g.at(i+1, j), g.at(i+1, j+1), g.at(i, j+1)}
			cs := 0
			missing := false
			for k, v := range z {
				missing = missing || math.IsNaN(v)
				if v >= level {
					cs |= 1 << k
				}
			}
			if missing || cs == 0 || cs == 15 {
				continue
			}
			pieces := cellSegments[cs]
			if cs == 5 || cs == 10 {
				pieces = saddle(cs, (z[0]+z[1]+z[2]+z[3])/4 >= level)
			}
			side := [4]int{g.hEdge(i, j), g.vEdge(i+1, j), g.hEdge(i, j+1), g.vEdge(i, j)}
			for _, p := range pieces {
				s := int32(len(segs))
				segs = append(segs, seg{side[p[0]], side[p[1]]})
				link(side[p[0]], s)
				link(side[p[1]], s)
			}
		}
	}
	used := make([]bool, len(segs))
	// follow walks from edge e, leaving piece s, along unused pieces and
	// returns the edges it passes.
	follow := func(e int, s int32) []int {
		var out []int
		for {
			next := at[e][0]
			if next == s || next < 0 || used[next] {
				next = at[e][1]
			}
			if next < 0 || next == s || used[next] {
				return out
			}
			used[next] = true
			if segs[next].a == e {
				e = segs[next].b
			} else {
				e = segs[next].a
			}
			out = append(out, e)
			s = next
		}
	}
	var lines [][]render.Vec
	for s := range segs {
		if used[s] {
			continue
		}
		used[s] = true
		fwd := follow(segs[s].b, int32(s))
		closed := len(fwd) > 0 && fwd[len(fwd)-1] == segs[s].a
		var back []int
		if !closed {
			back = follow(segs[s].a, int32(s))
		}
		pts := make([]render.Vec, 0, len(back)+len(fwd)+2)
		for k := len(back) - 1; k >= 0; k-- {
			pts = append(pts, g.crossing(back[k], level))
		}
		pts = append(pts, g.crossing(segs[s].a, level), g.crossing(segs[s].b, level))
		for _, e := range fwd {
			pts = append(pts, g.crossing(e, level))
		}
		lines = append(lines, pts)
	}
	return lines
}
