package main

import (
	"github.com/margin-edu/margin/internal/demo"
	tl "github.com/margin-edu/margin/web/templates/lessons"
)

// presentNav is the presenter view's way through the course from d: the
// demos before and after it in the order the lessons show them (the
// lessons in the notes' order, each lesson's demos in page order), each
// at its default state. The first demo has no previous one, the last no
// next one.
func presentNav(course *demo.Course, d *demo.Demo) tl.PresentNav {
	var order []*demo.Demo
	for _, l := range course.Lessons {
		for _, id := range l.Demos {
			if x := course.Demo(id); x != nil {
				order = append(order, x)
			}
		}
	}
	var nav tl.PresentNav
	for i, x := range order {
		if x != d {
			continue
		}
		if i > 0 {
			nav.PrevTitle, nav.PrevURL = order[i-1].Title, order[i-1].PresentPath()
		}
		if i+1 < len(order) {
			nav.NextTitle, nav.NextURL = order[i+1].Title, order[i+1].PresentPath()
		}
	}
	return nav
}
