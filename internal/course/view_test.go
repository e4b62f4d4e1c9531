package course

import (
	"context"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// TestFigureLabels checks that every further figure of every demo has a
// label for readers, so no link says "kkt as SVG", and that two figures of
// one demo are not called alike.
func TestFigureLabels(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range course.Demos {
		seen := map[string]string{}
		for _, name := range d.Panels {
			label := d.FigureLabel(name)
			if label == name || strings.TrimSpace(label) == "" {
				t.Errorf("demo %s: figure %q has no label in figureLabels", d.ID, name)
			}
			if other, dup := seen[label]; dup {
				t.Errorf("demo %s: figures %q and %q are both labelled %q", d.ID, other, name, label)
			}
			seen[label] = name
		}
	}
}

// TestLinksCarryAnchor checks the view's state links: with the demo's
// anchor on its lesson page, without one in the presenter view, and the
// way back to the lesson always with it.
func TestLinksCarryAnchor(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range course.Demos {
		if d.Static {
			continue
		}
		run, err := d.ExecuteFigure(context.Background(), d.Default().AtStep(1), "")
		if err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		for _, page := range []string{d.LessonPath(), d.PresentPath()} {
			v, err := demo.NewView(run, page)
			if err != nil {
				t.Fatalf("%s: %v", d.ID, err)
			}
			want := ""
			if page == d.LessonPath() {
				want = "#demo-" + d.ID
			}
			if v.Anchor != want {
				t.Errorf("%s on %s: anchor %q, want %q", d.ID, page, v.Anchor, want)
			}
			l := v.Links
			for name, href := range map[string]string{"self": l.Self, "reset": l.Reset, "prev": l.Prev, "next": l.Next, "end": l.End} {
				if href == "" {
					continue
				}
				if _, frag, _ := strings.Cut(href, "#"); "#"+frag != want && !(want == "" && !strings.Contains(href, "#")) {
					t.Errorf("%s on %s: %s link %q, want the fragment %q", d.ID, page, name, href, want)
				}
			}
			if !strings.HasSuffix(l.Lesson, "#demo-"+d.ID) {
				t.Errorf("%s: lesson link %q lacks the anchor", d.ID, l.Lesson)
			}
		}
	}
}
