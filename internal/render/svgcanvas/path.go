// Copyright ©2015 The Gonum Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file of gonum.org/v1/plot
// (copied beside this file as LICENSE-gonum-plot).

package svgcanvas

import (
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot/vg"
)

// appendNum appends v as fmt's %.5g writes it.
func appendNum(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', pr, 64)
}

func appendPoint(b []byte, cmd byte, x, y float64) []byte {
	b = append(b, cmd)
	b = appendNum(b, x)
	b = append(b, ',')
	return appendNum(b, y)
}

func appendPathData(b []byte, path vg.Path) []byte {
	var x, y float64
	for _, comp := range path {
		switch comp.Type {
		case vg.MoveComp:
			x, y = comp.Pos.X.Points(), comp.Pos.Y.Points()
			b = appendPoint(b, 'M', x, y)
		case vg.LineComp:
			x, y = comp.Pos.X.Points(), comp.Pos.Y.Points()
			b = appendPoint(b, 'L', x, y)
		case vg.ArcComp:
			r := comp.Radius.Points()
			sin, cos := math.Sincos(comp.Start)
			x0 := comp.Pos.X.Points() + r*cos
			y0 := comp.Pos.Y.Points() + r*sin
			if x0 != x || y0 != y {
				b = appendPoint(b, 'L', x0, y0)
			}
			if math.Abs(comp.Angle) >= 2*math.Pi {
				b, x, y = circle(b, &comp)
			} else {
				b, x, y = arc(b, &comp)
			}
		case vg.CurveComp:
			switch len(comp.Control) {
			case 1:
				b = appendPoint(b, 'Q', comp.Control[0].X.Points(), comp.Control[0].Y.Points())
				b = appendPoint(b, ',', comp.Pos.X.Points(), comp.Pos.Y.Points())
			case 2:
				b = appendPoint(b, 'C', comp.Control[0].X.Points(), comp.Control[0].Y.Points())
				b = appendPoint(b, ',', comp.Control[1].X.Points(), comp.Control[1].Y.Points())
				b = appendPoint(b, ',', comp.Pos.X.Points(), comp.Pos.Y.Points())
			default:
				panic("vgsvg: invalid number of control points")
			}
			x = comp.Pos.X.Points()
			y = comp.Pos.Y.Points()
		case vg.CloseComp:
			b = append(b, 'Z')
		default:
			panic(fmt.Sprintf("vgsvg: unknown path component type: %d", comp.Type))
		}
	}
	return b
}

// appendArc appends "A r,r 0 large sweep x,y" as vgsvg writes it.
func appendArc(b []byte, r float64, large, sweep int, x, y float64) []byte {
	b = appendPoint(b, 'A', r, r)
	b = append(b, " 0 "...)
	b = strconv.AppendInt(b, int64(large), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(sweep), 10)
	b = append(b, ' ')
	b = appendNum(b, x)
	b = append(b, ',')
	return appendNum(b, y)
}

// circle adds circle path data to b.
// Circles must be drawn using two arcs because
// SVG disallows the start and end point of an arc
// from being at the same location.
func circle(b []byte, comp *vg.PathComp) (_ []byte, x, y float64) {
	angle := 2 * math.Pi
	if comp.Angle < 0 {
		angle = -2 * math.Pi
	}
	angle += remainder(comp.Angle, 2*math.Pi)
	if angle >= 4*math.Pi {
		panic("Impossible angle")
	}

	s0, c0 := math.Sincos(comp.Start + 0.5*angle)
	s1, c1 := math.Sincos(comp.Start + angle)

	r := comp.Radius.Points()
	x0 := comp.Pos.X.Points() + r*c0
	y0 := comp.Pos.Y.Points() + r*s0
	x = comp.Pos.X.Points() + r*c1
	y = comp.Pos.Y.Points() + r*s1

	b = appendArc(b, r, large(angle/2), sweep(angle/2), x0, y0)
	b = appendArc(b, r, large(angle/2), sweep(angle/2), x, y)
	return b, x, y
}

// remainder returns the remainder of x/y, as vgsvg computes it.
func remainder(x, y float64) float64 {
	return (x/y - math.Trunc(x/y)) * y
}

// arc adds arc path data to b. Arc can only be used if the arc's angle is
// less than a full circle; if it is greater, circle is used instead.
func arc(b []byte, comp *vg.PathComp) (_ []byte, x, y float64) {
	r := comp.Radius.Points()
	sin, cos := math.Sincos(comp.Start + comp.Angle)
	x = comp.Pos.X.Points() + r*cos
	y = comp.Pos.Y.Points() + r*sin
	return appendArc(b, r, large(comp.Angle), sweep(comp.Angle), x, y), x, y
}

// sweep returns the arc sweep flag value for the given angle.
func sweep(a float64) int {
	if a < 0 {
		return 0
	}
	return 1
}

// large returns the arc's large flag value for the given angle.
func large(a float64) int {
	if math.Abs(a) >= math.Pi {
		return 1
	}
	return 0
}
