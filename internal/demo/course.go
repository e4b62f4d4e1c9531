package demo

import (
	"fmt"
	"io/fs"
	"net/url"

	"github.com/margin-edu/margin/internal/textfmt"
)

// Course is the catalogue with its demos, built once per server: no
// package-level registry, so tests can build their own. It owns the state
// its demos keep between requests, its Cache; Build prepares what every
// page shares (prose, default views) before the course is served.
type Course struct {
	*Catalog
	Demos []*Demo // in catalogue order
	// Cache holds what the demos memoise, DefaultCacheBytes unless
	// Cache.SetBudget changes it. Every demo's Compute reaches it as
	// Input.Cache.
	Cache *Cache
	byID  map[string]*Demo
	built *built // by Build; nil before
}

// Topic is what a topic package brings to a course: its lessons (their
// catalogue entries, in the notes' order), their prose, and its demos.
type Topic struct {
	Lessons []Lesson
	// Prose holds each lesson's <slug>.src.html and the <slug>.html that
	// tools/katex/render.mjs typesets from it, at its root.
	Prose fs.FS
	// Demos are put on the lessons their specs name, which may be another
	// topic's (a test course adds toy demos to real lessons so).
	Demos []Spec
}

// NewCourse builds the course of topics: the catalogue is their lessons
// in the order given, and each demo goes on the lesson its spec names, in
// the order given: the first demo of a lesson is the one its URL's state
// is for unless demo=<id> says otherwise. A lesson with a demo is ready.
//
// It refuses two lessons or two demos of one name,
// It refuses two demos of one ID, a panel named PlotFigure or
// HistoryFigure, and any two URLs that coincide: a demo "kernel" with a
// panel "svm" would serve /plots/kernel-svm.svg, the main plot of a demo
// "kernel-svm".
func NewCourse(topics ...Topic) (*Course, error) {
	c := &Course{Catalog: &Catalog{}, Cache: NewCache(DefaultCacheBytes), byID: map[string]*Demo{}}
	var specs []Spec
	for _, t := range topics {
		for _, l := range t.Lessons {
			if c.find(l.Slug) != nil {
				return nil, fmt.Errorf("demo: two lessons are called %s", l.Slug)
			}
			l.ProseFS, l.Demos = t.Prose, nil
			c.Lessons = append(c.Lessons, l)
		}
		specs = append(specs, t.Demos...)
	}
	paths := map[string]string{} // URL → what serves it
	for _, sp := range specs {
		d, err := NewDemo(sp)
		if err != nil {
			return nil, err
		}
		if c.byID[d.ID] != nil {
			return nil, fmt.Errorf("demo: two demos are called %s", d.ID)
		}
		if err := claimPaths(paths, d); err != nil {
			return nil, err
		}
		d.Cache = c.Cache
		l := c.find(d.Lesson)
		if l == nil {
			return nil, fmt.Errorf("demo: demo %s names lesson %q, which the catalogue lacks", d.ID, d.Lesson)
		}
		d.Secondary = len(l.Demos) > 0
		d.explainTitle = SectionTitle(l.ProseFS, l.Slug, d.Explain.Section)
		l.Demos = append(l.Demos, d.ID)
		l.Ready = true
		c.Demos = append(c.Demos, d)
		c.byID[d.ID] = d
	}
	return c, nil
}

// claimPaths records in paths every URL demo d serves, and refuses a
// figure name the kit keeps or a URL another demo (or d itself) serves.
func claimPaths(paths map[string]string, d *Demo) error {
	claim := func(path, what string) error {
		if other, dup := paths[path]; dup {
			return fmt.Errorf("demo: %s and %s both serve %s; rename one", other, what, path)
		}
		paths[path] = what
		return nil
	}
	main := "the main plot of demo " + d.ID
	list := [][2]string{{d.PlotPath("svg"), main}, {d.PlotPath("png"), main + " (PNG)"},
		{d.PanelPath(HistoryFigure), "the history of demo " + d.ID}, {d.PresentPath(), "the presenter view of demo " + d.ID}}
	if d.HasPoints() {
		list = append(list, [2]string{d.CSVPath(), "the CSV of demo " + d.ID}, [2]string{d.DataPath(), "the upload of demo " + d.ID})
	}
	for _, name := range d.Panels {
		switch name {
		case "", PlotFigure, HistoryFigure:
			return fmt.Errorf("demo: demo %s: a panel cannot be called %q: the kit names its own figures so", d.ID, name)
		}
		list = append(list, [2]string{d.PanelPath(name), fmt.Sprintf("panel %s of demo %s", name, d.ID)})
	}
	for _, p := range list {
		if err := claim(p[0], p[1]); err != nil {
			return err
		}
	}
	return nil
}

func (c *Course) find(slug string) *Lesson {
	for i := range c.Lessons {
		if c.Lessons[i].Slug == slug {
			return &c.Lessons[i]
		}
	}
	return nil
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
		return nil, fmt.Errorf("demo: lesson %s has no demo", slug)
	}
	id := q.Get(KeyDemo)
	if id == "" {
		return ds[0], nil
	}
	for _, d := range ds[1:] {
		if d.ID == id {
			return d, nil
		}
	}
	return nil, Problems{KeyDemo: fmt.Sprintf("%s is not a demo of this page after the first", textfmt.Quote(id))}
}

// Lesson is one entry of the course catalogue.
type Lesson struct {
	Slug    string // URL stem: /lessons/<Slug>
	Title   string
	Summary string
	Notes   string // where in the notes it comes from
	Ready   bool   // false: listed as coming
	Anchor  string // when set, the lesson is a section of another page
	// Demos are the IDs of the demos the lesson shows, in page order: the
	// n-th "<!-- demo -->" marker of its prose holds the n-th. NewCourse
	// fills it from the demos' specs.
	Demos []string
	// ProseFS holds the lesson's prose: its topic's Topic.Prose, which
	// NewCourse sets.
	ProseFS fs.FS
}

// URL returns where the lesson is read, or "" for a lesson not built yet.
func (l Lesson) URL() string {
	switch {
	case l.Anchor != "":
		return l.Anchor
	case l.Ready:
		return "/lessons/" + l.Slug
	}
	return ""
}

// ProseFS returns where lesson slug's prose is, or nil.
func (c *Course) ProseFS(slug string) fs.FS {
	l, _ := c.Find(slug)
	return l.ProseFS
}

// Catalog is the course in the order of the notes.
type Catalog struct{ Lessons []Lesson }

// Find returns the lesson with slug, if the catalogue has it.
func (c *Catalog) Find(slug string) (Lesson, bool) {
	for _, l := range c.Lessons {
		if l.Slug == slug {
			return l, true
		}
	}
	return Lesson{}, false
}
