package demo

import (
	"fmt"
	"html"
	"io/fs"
	"regexp"
	"strings"
)

// Section is one top-level heading of a lesson, for its table of contents.
type Section struct {
	ID, Title string
	// Part is the prose part the section is in: the number of demo
	// markers before it, so demo k follows the last section of part k.
	Part int
}

// h2 matches a top-level heading of a prose source, which the markup rules
// keep to <h2 id="…">plain text</h2>.
var h2 = regexp.MustCompile(`<h2 id="([^"]+)">([^<]+)</h2>`)

// Contents lists the sections of lesson slug in order, read from its
// source so that titles are plain text. Slugs are checked as in Prose.
func Contents(slug string) ([]Section, error) {
	if _, err := Prose(slug); err != nil {
		return nil, err
	}
	b, err := fs.ReadFile(Content, ContentDir+"/"+slug+SrcSuffix)
	if err != nil {
		return nil, fmt.Errorf("demo: reading the source of %q: %w", slug, err)
	}
	src := string(b)
	var secs []Section
	for _, m := range h2.FindAllStringSubmatchIndex(src, -1) {
		secs = append(secs, Section{ID: src[m[2]:m[3]], Title: html.UnescapeString(src[m[4]:m[5]]),
			Part: strings.Count(src[:m[0]], DemoMarker)})
	}
	return secs, nil
}
