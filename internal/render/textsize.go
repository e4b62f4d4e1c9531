package render

import (
	"math"
	"strings"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
)

// keptSizes is gonum/plot's plain text handler with the sizes it measures
// kept: plot.Draw lays out every tick label, title and legend entry by
// measuring it several times, and each measure walks the font's glyphs with
// a fresh sfnt.Buffer. Under the homework load that was 8 % of the server's
// CPU (docs/performance.md). A string's box depends only on the string and
// the font, so a kept size is the size measured, and figures are the same
// bytes as before.
type keptSizes struct {
	text.Plain

	mu    sync.RWMutex
	boxes map[sizeKey]textBox
	exts  map[font.Font]font.Extents
}

type sizeKey struct {
	txt string
	fnt font.Font
}

type textBox struct{ w, h, d vg.Length }

// maxKeptSizes bounds the kept sizes: strings the plots draw are short
// (tick labels, titles, captions), so 1<<15 of them hold a few MB. When
// full, the sizes are forgotten and measured again.
const maxKeptSizes = 1 << 15

func newKeptSizes(p text.Plain) *keptSizes {
	return &keptSizes{Plain: p, boxes: map[sizeKey]textBox{}, exts: map[font.Font]font.Extents{}}
}

// Extents implements text.Handler.
func (k *keptSizes) Extents(fnt font.Font) font.Extents {
	k.mu.RLock()
	e, ok := k.exts[fnt]
	k.mu.RUnlock()
	if ok {
		return e
	}
	e = k.Plain.Extents(fnt)
	k.mu.Lock()
	if len(k.exts) >= maxKeptSizes {
		clear(k.exts)
	}
	k.exts[fnt] = e
	k.mu.Unlock()
	return e
}

// Box implements text.Handler.
func (k *keptSizes) Box(txt string, fnt font.Font) (width, height, depth vg.Length) {
	key := sizeKey{txt, fnt}
	k.mu.RLock()
	b, ok := k.boxes[key]
	k.mu.RUnlock()
	if ok {
		return b.w, b.h, b.d
	}
	b.w, b.h, b.d = k.Plain.Box(txt, fnt)
	k.mu.Lock()
	if len(k.boxes) >= maxKeptSizes {
		clear(k.boxes)
	}
	k.boxes[key] = b
	k.mu.Unlock()
	return b.w, b.h, b.d
}

// Draw implements text.Handler as text.Plain.Draw does, line for line,
// with each line's width taken from the kept sizes.
func (k *keptSizes) Draw(c vg.Canvas, txt string, sty text.Style, pt vg.Point) {
	txt = strings.TrimRight(txt, "\n")
	if len(txt) == 0 {
		return
	}
	fnt := k.Fonts.Lookup(sty.Font, sty.Font.Size)
	c.SetColor(sty.Color)
	if sty.Rotation != 0 {
		c.Push()
		c.Rotate(sty.Rotation)
	}
	sin64, cos64 := math.Sincos(sty.Rotation)
	cos, sin := vg.Length(cos64), vg.Length(sin64)
	pt.X, pt.Y = pt.Y*sin+pt.X*cos, pt.Y*cos-pt.X*sin
	lines := k.Lines(txt)
	pt.Y += sty.Height(txt)*vg.Length(sty.YAlign) - k.Extents(sty.Font).Ascent
	for i, line := range lines {
		w, _, _ := k.Box(line, sty.Font)
		n := vg.Length(len(lines) - i)
		c.FillString(fnt, pt.Add(vg.Point{X: vg.Length(sty.XAlign) * w, Y: n * sty.Font.Size}), line)
	}
	if sty.Rotation != 0 {
		c.Pop()
	}
}

func init() {
	if p, ok := plot.DefaultTextHandler.(text.Plain); ok {
		plot.DefaultTextHandler = newKeptSizes(p)
	}
}
