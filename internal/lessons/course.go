package lessons

import (
	"fmt"
	"net/url"
)

// Course is the catalogue with its demos, built once per server: no
// package-level registry, so tests can build their own.
type Course struct {
	*Catalog
	Demos []*Demo // in catalogue order
	byID  map[string]*Demo
}

// NewCourse builds the catalogue and every demo it lists from specs, and
// checks that each lesson's demos exist.
func NewCourse(specs ...Spec) (*Course, error) {
	c := &Course{Catalog: NewCatalog(), byID: map[string]*Demo{}}
	made := map[string]*Demo{}
	for _, sp := range specs {
		d, err := NewDemo(sp)
		if err != nil {
			return nil, err
		}
		made[d.ID] = d
	}
	for _, l := range c.Lessons {
		for i, id := range l.Demos {
			d, ok := made[id]
			if !ok || d.Lesson != l.Slug {
				return nil, fmt.Errorf("lessons: lesson %s lists demo %q, which is not its demo", l.Slug, id)
			}
			d.secondary = i > 0
			c.Demos = append(c.Demos, d)
			c.byID[id] = d
		}
	}
	if len(c.byID) != len(made) {
		return nil, fmt.Errorf("lessons: %d demos built but %d listed by lessons", len(made), len(c.byID))
	}
	return c, nil
}

// DefaultCourse is Margin's course with all of its demos.
func DefaultCourse() (*Course, error) { return NewCourse(PerceptronSpec()) }

// Demo returns the demo with id, or nil.
func (c *Course) Demo(id string) *Demo { return c.byID[id] }

// LessonDemos returns the demos of lesson slug, in page order.
func (c *Course) LessonDemos(slug string) []*Demo {
	l, _ := c.Find(slug)
	out := make([]*Demo, 0, len(l.Demos))
	for _, id := range l.Demos {
		out = append(out, c.byID[id])
	}
	return out
}

// Active returns which of a lesson page's demos the query's state is for:
// the one its demo key names, or the first.
func (c *Course) Active(slug string, q url.Values) (*Demo, error) {
	ds := c.LessonDemos(slug)
	if len(ds) == 0 {
		return nil, fmt.Errorf("lessons: lesson %s has no demo", slug)
	}
	id := q.Get(keyDemo)
	if id == "" {
		return ds[0], nil
	}
	for _, d := range ds[1:] {
		if d.ID == id {
			return d, nil
		}
	}
	return nil, Problems{keyDemo: fmt.Sprintf("%s is not a demo of this page after the first", quote(id))}
}
