// Copyright ©2015 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file of gonum.org/v1/plot
// (copied beside this file as LICENSE-gonum-plot).

package svgcanvas

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
)

// styleWriter appends the elements of a style attribute, as vgsvg's
// style(elm(...), ...) builds it: an element equal to its default is left
// out, the rest are joined by ";", and no elements make no attribute.
type styleWriter struct {
	b     []byte
	start int // where the attribute begins
	n     int // elements written
}

func beginStyle(b []byte) styleWriter {
	return styleWriter{b: append(b, `style="`...), start: len(b)}
}

// elm adds key:val unless val is def.
func (s *styleWriter) elm(key, def string, val []byte) {
	if string(val) == def {
		return
	}
	s.sep()
	s.b = append(s.b, key...)
	s.b = append(s.b, ':')
	s.b = append(s.b, val...)
}

// num adds key:v, v formatted as %.5g, unless that is def.
func (s *styleWriter) num(key, def string, v float64, unit string) {
	var tmp [32]byte
	val := append(appendNum(tmp[:0], v), unit...)
	s.elm(key, def, val)
}

func (s *styleWriter) sep() {
	if s.n > 0 {
		s.b = append(s.b, ';')
	}
	s.n++
}

// end closes the attribute, or takes it back when it is empty, and
// returns the buffer.
func (s *styleWriter) end() []byte {
	if s.n == 0 {
		return s.b[:s.start]
	}
	return append(s.b, '"')
}

// appendDashes appends the dash array as vgsvg's dashArrayString writes
// it: the lengths joined by ",", or "none".
func appendDashes(b []byte, dashes []vg.Length) []byte {
	if len(dashes) == 0 {
		return append(b, "none"...)
	}
	for i, d := range dashes {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendNum(b, d.Points())
	}
	return b
}

const hexDigits = "0123456789ABCDEF"

// appendColor appends the colour as vgsvg's colorString writes it:
// "#RRGGBB" of the colour with its alpha divided out.
func appendColor(b []byte, clr color.Color) []byte {
	if clr == nil {
		clr = color.Black
	}
	r, g, bl, _a := clr.RGBA()
	a := 255.0 / float64(_a)
	v := [3]int{int(float64(r) * a), int(float64(g) * a), int(float64(bl) * a)}
	for _, x := range v {
		if x < 0 || x > 255 { // a transparent colour (NaN) or out of range: as fmt writes it
			return append(b, fmt.Sprintf("#%02X%02X%02X", v[0], v[1], v[2])...)
		}
	}
	b = append(b, '#')
	for _, x := range v {
		b = append(b, hexDigits[x>>4], hexDigits[x&15])
	}
	return b
}

// appendOpacity appends the colour's opacity as vgsvg's opacityString
// writes it.
func appendOpacity(b []byte, clr color.Color) []byte {
	if clr == nil {
		clr = color.Black
	}
	_, _, _, a := clr.RGBA()
	return appendNum(b, float64(a)/math.MaxUint16)
}
