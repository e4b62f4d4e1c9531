package chart

import (
	"io"

	"github.com/margin-edu/margin/internal/render"
)

// ResidualLossesSVG writes c as CurvesSVG does, with desc as the SVG
// <desc> in place of the generic one, for a chart of regression losses
// ℓ(r) whose minimisers the caller knows exactly: the generic
// description reads one sample as "lowest at x = …", where the
// ε-insensitive loss is lowest on a whole band of residuals. An empty
// desc keeps the generic description.
func ResidualLossesSVG(w io.Writer, c Curves, desc string, opt render.Options) error {
	f, err := c.figure(opt)
	if err != nil {
		return err
	}
	if desc != "" {
		f.Desc = desc
	}
	return f.WriteSVG(w)
}
