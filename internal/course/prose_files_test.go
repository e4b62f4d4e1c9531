package course

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"html/template"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/demo/demotest"
	"github.com/margin-edu/margin/internal/topics/perceptron"
)

const genSuffix = ".html"

// TestCatalogAnchors checks that every catalogue entry that points into a
// lesson page names a section that the page's prose has.
func TestCatalogAnchors(t *testing.T) {
	c := demotest.MustCourse(t, Default)
	for _, l := range c.Lessons {
		page, frag, ok := strings.Cut(l.Anchor, "#")
		if !ok {
			continue
		}
		slug := strings.TrimPrefix(page, "/lessons/")
		parts, err := demo.Prose(c.ProseFS(slug), slug)
		if err != nil {
			t.Errorf("lesson %q: anchor %q: Prose(%q) error: %v", l.Slug, l.Anchor, slug, err)
			continue
		}
		if !slices.ContainsFunc(parts, func(p template.HTML) bool { return strings.Contains(string(p), ` id="`+frag+`"`) }) {
			t.Errorf("lesson %q: anchor %q: no id %q in the prose of %q", l.Slug, l.Anchor, frag, slug)
		}
	}
}

func TestProseRejects(t *testing.T) {
	tests := []struct{ name, slug string }{
		{"empty", ""},
		{"unknown", "no-such-lesson"},
		{"source file", "perceptron.src"},
		{"path", "../content/perceptron"},
		{"slash", "content/perceptron"},
		{"backslash", `content\perceptron`},
	}
	if _, err := demo.Prose(nil, "perceptron"); !errors.Is(err, demo.ErrNoProse) {
		t.Errorf("Prose(nil, perceptron): %v, want %v", err, demo.ErrNoProse)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := demo.Prose(perceptron.Topic().Prose, tt.slug)
			if !errors.Is(err, demo.ErrNoProse) {
				t.Errorf("Prose(%q) = %d parts, %v; want error %v", tt.slug, len(parts), err, demo.ErrNoProse)
			}
		})
	}
}

// TestGeneratedUpToDate checks, without node, that every source has a
// generated file rendered from its current bytes (the renderer records the
// source's SHA-256 in its header) and that no generated file lacks a source.
// On failure: npm ci && node tools/katex/render.mjs.
func TestGeneratedUpToDate(t *testing.T) {
	srcs := 0
	for _, tp := range topics() {
		srcs += checkGenerated(t, tp.Prose)
	}
	if srcs < 8 {
		t.Errorf("only %d lesson sources embedded", srcs)
	}
}

// checkGenerated checks one topic's prose and counts its sources.
func checkGenerated(t *testing.T, content fs.FS) (srcs int) {
	names, err := fs.Glob(content, "*"+genSuffix)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, demo.SrcSuffix) {
			continue
		}
		if _, err := fs.Stat(content, strings.TrimSuffix(name, genSuffix)+demo.SrcSuffix); err != nil {
			t.Errorf("%s has no source %s", name, path.Base(strings.TrimSuffix(name, genSuffix)+demo.SrcSuffix))
		}
	}
	for _, name := range names {
		if !strings.HasSuffix(name, demo.SrcSuffix) {
			continue
		}
		srcs++
		src, err := fs.ReadFile(content, name)
		if err != nil {
			t.Fatal(err)
		}
		gen := strings.TrimSuffix(name, demo.SrcSuffix) + genSuffix
		b, err := fs.ReadFile(content, gen)
		if err != nil {
			t.Errorf("%s: no generated %s; run node tools/katex/render.mjs", name, path.Base(gen))
			continue
		}
		header, _, _ := strings.Cut(string(b), "\n")
		sum := sha256.Sum256(src)
		want := "from " + path.Base(name) + " sha256:" + hex.EncodeToString(sum[:]) + ";"
		if !strings.HasPrefix(header, demo.HeaderPrefix) || !strings.Contains(header, want) {
			t.Errorf("%s is stale or hand-edited: header %q does not contain %q; run node tools/katex/render.mjs", gen, header, want)
		}
	}
	return srcs
}

// TestSourceMarkup holds the lesson sources to the house rules: HTML
// fragments with no document tags, scripts or inline styles, and classes
// only from the small set the stylesheet knows.
func TestSourceMarkup(t *testing.T) {
	allowed := map[string]bool{"lesson-table": true, "algorithm": true, "theorem": true, "proof": true, "note": true}
	classAttr := regexp.MustCompile(`\sclass="([^"]*)"`)
	var names []string
	for _, tp := range topics() {
		ns, err := fs.Glob(tp.Prose, "*"+demo.SrcSuffix)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, ns...)
	}
	for _, name := range names {
		b, err := readProse(name)
		if err != nil {
			t.Fatal(err)
		}
		src := strings.ToLower(string(b))
		for _, bad := range []string{"<html", "<head", "<body", "<script", "<style", " style=", "<h1"} {
			if strings.Contains(src, bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
		for _, m := range classAttr.FindAllStringSubmatch(string(b), -1) {
			for _, c := range strings.Fields(m[1]) {
				if !allowed[c] {
					t.Errorf("%s uses class %q; allowed: lesson-table, algorithm, theorem, proof, note", name, c)
				}
			}
		}
	}
}

// readProse reads a prose file of whichever topic has it.
func readProse(name string) ([]byte, error) {
	for _, tp := range topics() {
		if b, err := fs.ReadFile(tp.Prose, name); err == nil {
			return b, nil
		}
	}
	return nil, fs.ErrNotExist
}

func TestContents(t *testing.T) {
	prose := perceptron.Topic().Prose
	secs, err := demo.Contents(prose, "perceptron")
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) < 8 || secs[0] != (demo.Section{"datasets", "Datasets and labels", 0}) {
		t.Errorf("Contents(perceptron) = %v", secs)
	}
	parts, _ := demo.Prose(prose, "perceptron")
	var all string
	for _, p := range parts {
		all += string(p)
	}
	for _, s := range secs {
		if !strings.Contains(all, `id="`+s.ID+`"`) {
			t.Errorf("section %q is not in the served prose", s.ID)
		}
	}
	if _, err := demo.Contents(prose, "perceptron.src"); err == nil {
		t.Error("Contents accepted a file name")
	}
}
