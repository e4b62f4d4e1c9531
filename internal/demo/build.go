package demo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
)

// built is what Build prepares: read only once Build returns.
type built struct {
	prose map[string]LessonProse // by lesson slug
	views map[string]*DemoView   // each demo's default view on its lesson page, by ID
}

// LessonProse is a lesson page's prose, split where its demos go (at
// least one part per demo), and its table of contents.
type LessonProse struct {
	Parts []string
	TOC   []Section
}

// Build checks and prepares the course before it is served: it parses
// the prose and contents of every lesson with demos, and runs every demo
// in its default state and builds its view on its lesson page, so that a
// broken lesson stops the server at start-up, naming the lesson or demo,
// rather than failing its first reader, and no request builds a default
// view. Call it once, before serving; the course is read only afterwards.
// The error joins every problem found.
func (c *Course) Build(ctx context.Context) error {
	b := &built{prose: map[string]LessonProse{}, views: map[string]*DemoView{}}
	var errs []error
	for _, l := range c.Lessons {
		if !l.Ready {
			continue
		}
		p, err := lessonProse(l.ProseFS, l.Slug, len(l.Demos))
		if err != nil {
			errs = append(errs, fmt.Errorf("lesson %s: %w", l.Slug, err))
			continue
		}
		b.prose[l.Slug] = p
	}
	for _, d := range c.Demos {
		v, err := d.defaultView(ctx)
		if err != nil {
			errs = append(errs, fmt.Errorf("demo %s in its default state: %w", d.ID, err))
			continue
		}
		b.views[d.ID] = v
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	c.built = b
	return nil
}

// Prose returns the prose of lesson slug as Build prepared it, or parses
// it now for a course not built.
func (c *Course) Prose(slug string) (LessonProse, error) {
	if c.built != nil {
		if p, ok := c.built.prose[slug]; ok {
			return p, nil
		}
	}
	l, _ := c.Find(slug)
	return lessonProse(l.ProseFS, slug, len(l.Demos))
}

// DefaultView returns demo d's view in its default state on its lesson
// page: the one Build made, or, for a course not built, one computed once
// per demo through the course's cache (concurrent requests share it). The
// view is shared: callers only read it.
func (c *Course) DefaultView(ctx context.Context, d *Demo) (*DemoView, error) {
	if c.built != nil {
		if v, ok := c.built.views[d.ID]; ok {
			return v, nil
		}
	}
	return Memoise(ctx, c.Cache, FloatsKey("default-view\x00"+d.ID), viewBytes, d.defaultView)
}

// defaultView runs d in its default state and builds its view on its
// lesson page. A view whose panel ctx cut short is an error, not the
// default view.
func (d *Demo) defaultView(ctx context.Context) (*DemoView, error) {
	run, err := d.ExecuteFigure(ctx, d.Default(), "")
	if err != nil {
		return nil, err
	}
	v, err := NewView(run, d.LessonPath())
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return v, nil
}

// viewBytes estimates a view's memory: its inline figures and a little
// for the rest.
func viewBytes(v *DemoView) int64 {
	n := int64(16<<10 + len(v.Plot) + len(v.History) + len(v.FrameJSON))
	for _, f := range v.Panels {
		n += int64(len(f.SVG))
	}
	return n
}

// lessonProse splits a lesson's prose for a page with demos: a lesson
// whose prose is not written yet shows its demos alone, and one with
// fewer demo markers than demos shows the rest at the end, so that every
// demo has a place.
func lessonProse(fsys fs.FS, slug string, demos int) (LessonProse, error) {
	prose, err := Prose(fsys, slug)
	if errors.Is(err, ErrNoProse) {
		return LessonProse{Parts: make([]string, demos)}, nil
	}
	if err != nil {
		return LessonProse{}, err
	}
	toc, err := Contents(fsys, slug)
	if err != nil {
		return LessonProse{}, err
	}
	parts := make([]string, max(len(prose), demos))
	for i, p := range prose {
		parts[i] = string(p)
	}
	return LessonProse{Parts: parts, TOC: toc}, nil
}
