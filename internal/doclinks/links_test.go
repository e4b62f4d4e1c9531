// Package doclinks holds only a test: that the Markdown documentation
// (README.md, docs/**/*.md, testdata/README.md) has no dead relative
// link, to a file or to a heading's #anchor.
package doclinks

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// root is the repository, from this package's directory.
const root = "../.."

// docFiles lists the Markdown files the test reads, relative to root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "testdata/README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

var (
	// linkRe finds inline links and images: [text](target) or
	// [text](target "title"). Text may hold one level of brackets.
	linkRe   = regexp.MustCompile(`!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	codeRe   = regexp.MustCompile("`[^`]*`")
	headRe   = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	schemeRe = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	// inline Markdown a heading's anchor leaves out: links keep their text.
	mdLinkRe = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// prose returns the file's lines outside fenced code blocks, with their
// line numbers; a fenced line comes back empty.
func prose(src string) []string {
	lines := strings.Split(src, "\n")
	fence := ""
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		switch {
		case fence == "" && (strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~")):
			fence = trim[:3]
			lines[i] = ""
		case fence != "":
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			lines[i] = ""
		}
	}
	return lines
}

// anchor is GitHub's anchor for a heading's text: lower case, inline
// code and link markup dropped (their text kept), every character that is
// not a letter, digit, space, hyphen or underscore removed, and spaces
// turned into hyphens.
func anchor(heading string) string {
	s := mdLinkRe.ReplaceAllString(heading, "$1")
	s = strings.NewReplacer("`", "", "**", "", "__", "").Replace(s)
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// anchors returns every heading anchor of a Markdown file, with GitHub's
// -1, -2 … suffixes for repeated headings.
func anchors(src string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(src) {
		m := headRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		a := anchor(m[1])
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

func TestAnchor(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"Two commands", "two-commands"},
		{"Gram matrices: `POST /api/v1/gram`", "gram-matrices-post-apiv1gram"},
		{"`make bench-svm`: side by side with LIBSVM", "make-bench-svm-side-by-side-with-libsvm"},
		{"`\"logistic-regression\"` and `\"softmax-regression\"`", "logistic-regression-and-softmax-regression"},
		{"Numbers in words: `textfmt`", "numbers-in-words-textfmt"},
		{"See [the API](api.md)", "see-the-api"},
	} {
		if got := anchor(tt.heading); got != tt.want {
			t.Errorf("anchor(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
	got := anchors("# A\n\n```sh\n# not a heading\n```\n## A\n")
	if !got["a"] || !got["a-1"] || got["not-a-heading"] || len(got) != 2 {
		t.Errorf("anchors = %v, want a and a-1 only", got)
	}
}

// TestNoDeadLinks: every relative link in the documentation names a file
// or directory of the repository, and every #anchor a heading of the
// Markdown file it points into. Absolute paths (/lessons/…) are dead on
// GitHub: write a full URL (http://localhost:8080/…) or a relative link.
func TestNoDeadLinks(t *testing.T) {
	cache := map[string]map[string]bool{}
	headings := func(rel string) map[string]bool {
		if a, ok := cache[rel]; ok {
			return a
		}
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		cache[rel] = anchors(string(b))
		return cache[rel]
	}
	links := 0
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range prose(string(b)) {
			line = codeRe.ReplaceAllString(line, "``")
			for _, m := range linkRe.FindAllStringSubmatch(line, -1) {
				target := m[1]
				where := file + ":" + strconv.Itoa(n+1)
				switch {
				case target == "":
					t.Errorf("%s: empty link %s", where, m[0])
					continue
				case schemeRe.MatchString(target):
					continue // http(s), mailto: not checked here
				case strings.HasPrefix(target, "/"):
					t.Errorf("%s: %s is an absolute path, dead on GitHub; use a relative link or a full URL", where, target)
					continue
				}
				links++
				path, frag, _ := strings.Cut(target, "#")
				rel := file
				if path != "" {
					rel = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(file), path)))
					if strings.HasPrefix(rel, "..") {
						t.Errorf("%s: %s leaves the repository", where, target)
						continue
					}
					if _, err := os.Stat(filepath.Join(root, rel)); err != nil {
						t.Errorf("%s: dead link %s (no %s)", where, target, rel)
						continue
					}
				}
				if frag == "" {
					continue
				}
				if !strings.HasSuffix(rel, ".md") {
					t.Errorf("%s: %s: an anchor into a file that is not Markdown", where, target)
					continue
				}
				if !headings(rel)[frag] {
					t.Errorf("%s: dead anchor %s: %s has no heading #%s", where, target, rel, frag)
				}
			}
		}
	}
	if links < 50 {
		t.Errorf("found only %d relative links; is the link pattern broken?", links)
	}
}
