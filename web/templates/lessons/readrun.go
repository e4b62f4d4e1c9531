package lessons

import "github.com/margin-edu/margin/internal/demo"

// stretch is one demo with the prose read beside it: on a wide screen the
// demo stays in view (sticky) while that prose scrolls past, and the next
// stretch brings the next demo; on a narrow one the parts simply follow
// each other, in the page's order, as the prose has them.
type stretch struct {
	Before []string       // prose before the demo: the lesson's opening, in the first stretch only
	Demo   *demo.DemoView // nil only on a page without demos
	After  []string       // the prose from this demo's marker to the next one's
}

// stretches pairs each demo with the prose it goes with: the prose after
// its "<!-- demo -->" marker, up to the next demo's, which is where a
// lesson says what to try in it and links its states; the first demo also
// goes with the opening before it, so a lesson's first demo is in view
// from the top of the page. Parts past the last demo's (there are none on
// a built course: n markers make n+1 parts) go with the last demo, and
// empty parts are dropped.
func stretches(prose []string, demos []*demo.DemoView) []stretch {
	if len(demos) == 0 {
		return []stretch{{Before: nonEmpty(prose)}}
	}
	out := make([]stretch, len(demos))
	for i, d := range demos {
		out[i].Demo = d
	}
	if len(prose) > 0 {
		out[0].Before = nonEmpty(prose[:1])
	}
	for i := 1; i < len(prose); i++ {
		k := min(i-1, len(demos)-1)
		out[k].After = append(out[k].After, nonEmpty(prose[i:i+1])...)
	}
	return out
}

func nonEmpty(parts []string) []string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}
