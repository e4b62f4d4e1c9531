package demo

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
)

// TestCatalogAnchors checks that every catalogue entry that points into a
// lesson page names a section that the page's prose has.
func TestCatalogAnchors(t *testing.T) {
	for _, l := range NewCatalog().Lessons {
		page, frag, ok := strings.Cut(l.Anchor, "#")
		if !ok {
			continue
		}
		slug := strings.TrimPrefix(page, "/lessons/")
		parts, err := Prose(slug)
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, err := Prose(tt.slug)
			if !errors.Is(err, ErrNoProse) {
				t.Errorf("Prose(%q) = %d parts, %v; want error %v", tt.slug, len(parts), err, ErrNoProse)
			}
		})
	}
}

// TestGeneratedUpToDate checks, without node, that every source has a
// generated file rendered from its current bytes (the renderer records the
// source's SHA-256 in its header) and that no generated file lacks a source.
// On failure: npm ci && node tools/katex/render.mjs.
func TestGeneratedUpToDate(t *testing.T) {
	names, err := fs.Glob(Content, ContentDir+"/*"+genSuffix)
	if err != nil {
		t.Fatal(err)
	}
	srcs := 0
	for _, name := range names {
		if strings.HasSuffix(name, SrcSuffix) {
			continue
		}
		if _, err := fs.Stat(Content, strings.TrimSuffix(name, genSuffix)+SrcSuffix); err != nil {
			t.Errorf("%s has no source %s", name, path.Base(strings.TrimSuffix(name, genSuffix)+SrcSuffix))
		}
	}
	for _, name := range names {
		if !strings.HasSuffix(name, SrcSuffix) {
			continue
		}
		srcs++
		src, err := fs.ReadFile(Content, name)
		if err != nil {
			t.Fatal(err)
		}
		gen := strings.TrimSuffix(name, SrcSuffix) + genSuffix
		b, err := fs.ReadFile(Content, gen)
		if err != nil {
			t.Errorf("%s: no generated %s; run node tools/katex/render.mjs", name, path.Base(gen))
			continue
		}
		header, _, _ := strings.Cut(string(b), "\n")
		sum := sha256.Sum256(src)
		want := "from " + path.Base(name) + " sha256:" + hex.EncodeToString(sum[:]) + ";"
		if !strings.HasPrefix(header, HeaderPrefix) || !strings.Contains(header, want) {
			t.Errorf("%s is stale or hand-edited: header %q does not contain %q; run node tools/katex/render.mjs", gen, header, want)
		}
	}
	if srcs == 0 {
		t.Error("no lesson sources embedded")
	}
}

// TestSourceMarkup holds the lesson sources to the house rules: HTML
// fragments with no document tags, scripts or inline styles, and classes
// only from the small set the stylesheet knows.
func TestSourceMarkup(t *testing.T) {
	allowed := map[string]bool{"lesson-table": true, "algorithm": true, "theorem": true, "proof": true, "note": true}
	classAttr := regexp.MustCompile(`\sclass="([^"]*)"`)
	names, err := fs.Glob(Content, ContentDir+"/*"+SrcSuffix)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(Content, name)
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

func TestContents(t *testing.T) {
	secs, err := Contents("perceptron")
	if err != nil {
		t.Fatal(err)
	}
	if len(secs) < 8 || secs[0] != (Section{"datasets", "Datasets and labels", 0}) {
		t.Errorf("Contents(perceptron) = %v", secs)
	}
	parts, _ := Prose("perceptron")
	var all string
	for _, p := range parts {
		all += string(p)
	}
	for _, s := range secs {
		if !strings.Contains(all, `id="`+s.ID+`"`) {
			t.Errorf("section %q is not in the served prose", s.ID)
		}
	}
	if _, err := Contents("perceptron.src"); err == nil {
		t.Error("Contents accepted a file name")
	}
}
