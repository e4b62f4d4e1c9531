package demo

import "strconv"

// EmbedPath is the demo alone, for an iframe on another site: NewView
// with this page builds every link and form of the view under it.
func (d *Demo) EmbedPath() string { return "/embed/" + d.ID }

// gifFrames is how many steps the GIF link covers.
const gifFrames = 30

// gifURL is the main plot's GIF (/plots/<demo>.gif) of the last gifFrames
// steps up to the one s shows (steps 0 to gifFrames − 1 early in a run):
// s's keys without its step, then from and to.
func gifURL(s State) string {
	to := max(s.Step, gifFrames-1)
	v := s.AtStep(0).Values(ForPlot)
	v.Set("from", strconv.Itoa(max(to-gifFrames+1, 0)))
	v.Set("to", strconv.Itoa(to))
	return WithQuery(s.d.PlotPath("gif"), encode(v))
}
