package demo

import "io/fs"

// Explain declares where a demo's lesson defines what its step does, so
// the kit can link the step's explanation (the panel's Examined and Lines,
// or Start at step 0; for a static demo, what the state shown computes) to
// the notes it spells out.
type Explain struct {
	// Section is the id of an <h2> of the demo's lesson prose:
	// "perceptron-algorithm". The course's tests check it exists.
	Section string
}

// ExplainLink is the view's link from a step's explanation to the lesson
// section that defines it.
type ExplainLink struct {
	Href  string // "#smo" on the lesson page, "/lessons/hard-margin-svm#smo" elsewhere
	Title string // the section's heading, or its id when the prose has none
}

// explainLink is d's link to its Explain section from page, or the zero
// link when d declares none.
func (d *Demo) explainLink(page string) ExplainLink {
	id := d.Explain.Section
	if id == "" {
		return ExplainLink{}
	}
	href := "#" + id
	if page != d.LessonPath() {
		href = d.LessonPath() + href
	}
	title := d.explainTitle
	if title == "" {
		title = id
	}
	return ExplainLink{Href: href, Title: title}
}

// SectionTitle returns the heading of the section id in lesson slug's
// prose in fsys, or "" when the prose or the section is missing.
func SectionTitle(fsys fs.FS, slug, id string) string {
	if fsys == nil || id == "" {
		return ""
	}
	secs, err := Contents(fsys, slug)
	if err != nil {
		return ""
	}
	for _, s := range secs {
		if s.ID == id {
			return s.Title
		}
	}
	return ""
}
