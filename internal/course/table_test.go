package course

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

// updateDocs, when set in the environment (MARGIN_UPDATE_DOCS=1),
// rewrites the generated sections of docs/demos/*.md instead of failing,
// and creates the page of a new demo.
var updateDocs = os.Getenv("MARGIN_UPDATE_DOCS") != ""

const demoDocs = "../../docs/demos"

// TestDemoDocs: every demo of the course has a page docs/demos/<ID>.md
// whose URL table and table of URL keys are what URLTable and ParamTable
// generate from the declarations, the index docs/demos/README.md links
// to each page, and no page is left for a demo the course lacks. On
// failure run `MARGIN_UPDATE_DOCS=1 go test ./internal/course/ -run
// TestDemoDocs` and review the diff.
func TestDemoDocs(t *testing.T) {
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(demoDocs, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{"README.md": true}
	for _, d := range course.Demos {
		name := d.ID + ".md"
		known[name] = true
		if !strings.Contains(string(index), "]("+name+")") {
			t.Errorf("docs/demos/README.md does not link to %s", name)
		}
		path := filepath.Join(demoDocs, name)
		b, err := os.ReadFile(path)
		if os.IsNotExist(err) && updateDocs {
			b = []byte(demoDocStub(d))
		} else if err != nil {
			t.Errorf("demo %s has no page: %v", d.ID, err)
			continue
		}
		doc := string(b)
		if !strings.HasPrefix(doc, "# `"+d.ID+"`") {
			t.Errorf("%s does not start with the heading # `%s`", name, d.ID)
		}
		for _, sec := range []struct{ tag, want string }{
			{"urls", d.URLTable()},
			{"params", d.ParamTable()},
		} {
			begin, end := "<!-- "+sec.tag+":"+d.ID+" -->\n", "<!-- /"+sec.tag+":"+d.ID+" -->"
			i, j := strings.Index(doc, begin), strings.Index(doc, end)
			if i < 0 || j < i {
				t.Errorf("%s has no %q … %q section", name, begin, end)
				continue
			}
			if got := doc[i+len(begin) : j]; got != sec.want {
				if updateDocs {
					doc = doc[:i+len(begin)] + sec.want + doc[j:]
					continue
				}
				t.Errorf("%s: the %s table is out of date; it should read:\n%s", name, sec.tag, sec.want)
			}
		}
		if updateDocs && doc != string(b) {
			if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	pages, err := filepath.Glob(filepath.Join(demoDocs, "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if !known[filepath.Base(p)] {
			t.Errorf("%s documents a demo the course does not have", p)
		}
	}
}

// demoDocStub is the page of a demo that has none yet: the heading and
// the generated sections, for the author to fill with prose.
func demoDocStub(d *demo.Demo) string {
	return "# `" + d.ID + "`: " + d.Title + "\n\n" +
		"What the demo shows, and which section of the notes it follows.\n\n" +
		"## URLs\n\n<!-- urls:" + d.ID + " -->\n<!-- /urls:" + d.ID + " -->\n\n" +
		"## Keys\n\n<!-- params:" + d.ID + " -->\n<!-- /params:" + d.ID + " -->\n"
}

// TestREADMELessons: the README's lesson list has one row per lesson page
// of the course, as the catalogue and the course's demos give it: the
// title linked to the page on a running server, where in the notes it
// comes from, and a link to each demo's page in docs/demos.
func TestREADMELessons(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	course, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range course.Lessons {
		if len(l.Demos) == 0 {
			continue
		}
		var demos []string
		for _, id := range l.Demos {
			demos = append(demos, "[`"+id+"`](docs/demos/"+id+".md)")
		}
		row := "| [" + l.Title + "](http://localhost:8080/lessons/" + l.Slug + ") | " + l.Notes + " | " + strings.Join(demos, ", ") + " |\n"
		if !strings.Contains(string(b), row) {
			t.Errorf("README.md lacks the row of lesson %s:\n%s", l.Slug, row)
		}
	}
}
