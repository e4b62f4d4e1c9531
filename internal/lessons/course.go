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

// NewCourse builds the catalogue and the demos of specs, and puts each
// demo on the lesson its spec names, in the order given: the first demo of
// a lesson is the one its URL's state is for unless demo=<id> says
// otherwise. A lesson with a demo is ready.
func NewCourse(specs ...Spec) (*Course, error) {
	c := &Course{Catalog: NewCatalog(), byID: map[string]*Demo{}}
	for _, sp := range specs {
		d, err := NewDemo(sp)
		if err != nil {
			return nil, err
		}
		if c.byID[d.ID] != nil {
			return nil, fmt.Errorf("lessons: two demos are called %s", d.ID)
		}
		l := c.find(d.Lesson)
		if l == nil {
			return nil, fmt.Errorf("lessons: demo %s names lesson %q, which the catalogue lacks", d.ID, d.Lesson)
		}
		d.secondary = len(l.Demos) > 0
		l.Demos = append(l.Demos, d.ID)
		l.Ready = true
		c.Demos = append(c.Demos, d)
		c.byID[d.ID] = d
	}
	return c, nil
}

func (c *Course) find(slug string) *Lesson {
	for i := range c.Lessons {
		if c.Lessons[i].Slug == slug {
			return &c.Lessons[i]
		}
	}
	return nil
}

// DefaultCourse is Margin's course with all of its demos.
func DefaultCourse() (*Course, error) {
	return NewCourse(PerceptronSpec(), SVMSpec(true), SVMSpec(false), SGDSpec(),
		KernelMapSpec(), KernelGramSpec(), KernelSVMSpec(), KernelPegasosSpec(),
		InterpolationSpec(), RidgeSpec(), RegLossesSpec(), LSGDSpec(), BiasVarianceSpec(),
		LogisticSpec(), SoftmaxSpec(),
		BayesSpec(), KNNSpec(), CurseSpec(),
		GDSpec(), LossGallerySpec())
}

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
