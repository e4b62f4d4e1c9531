package render

import (
	"bytes"
	"html"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// haloMark and haloEnd wrap the stroke width (in points) at the start of
// the marked white copy that HaloText writes into an SVG: private-use
// characters, which no caption contains.
const (
	haloMark = "\uE000"
	haloEnd  = "\uE001"
)

// withHalos folds each marked halo copy into the label drawn after it:
// the copy's <text> element goes, and the label's style gains a white
// stroke of the marked width, painted under its fill. A copy whose label
// cannot be found is dropped with no halo.
func withHalos(svg []byte) []byte {
	mark := []byte(html.EscapeString(haloMark))
	var out bytes.Buffer
	for {
		i := bytes.Index(svg, mark)
		if i < 0 {
			out.Write(svg)
			return out.Bytes()
		}
		start := bytes.LastIndex(svg[:i], []byte("<text "))
		end := bytes.Index(svg[i:], []byte("</text>\n"))
		if start < 0 || end < 0 {
			out.Write(svg)
			return out.Bytes()
		}
		end += i + len("</text>\n")
		body := svg[i+len(mark) : end-len("</text>\n")]
		width, label, _ := bytes.Cut(body, []byte(html.EscapeString(haloEnd)))
		out.Write(svg[:start])
		svg = svg[end:]
		// The label: the next <text> whose content is the same string.
		want := append(append([]byte(">"), label...), "</text>"...)
		j := bytes.Index(svg, want)
		if j < 0 {
			continue
		}
		k := bytes.LastIndex(svg[:j], []byte(`"`))
		if k < 0 || bytes.LastIndex(svg[:j], []byte("style=")) < bytes.LastIndex(svg[:j], []byte("<text ")) {
			continue
		}
		out.Write(svg[:k])
		out.WriteString(";stroke:#FFFFFF;stroke-width:")
		out.Write(width)
		out.WriteString("px;stroke-linejoin:round;paint-order:stroke")
		svg = svg[k:]
	}
}

// isSVG reports whether c draws into an SVG, looking through the
// draw.Canvas wrappers that cropping and plotting nest around it.
func isSVG(c vg.Canvas) bool {
	for {
		switch v := c.(type) {
		case *vgsvg.Canvas:
			return true
		case draw.Canvas:
			c = v.Canvas
		case *draw.Canvas:
			c = v.Canvas
		default:
			return false
		}
	}
}
