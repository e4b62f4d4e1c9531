package lessons

import "github.com/margin-edu/margin/internal/demo"

// compareBodyClass is the body class of a comparison in its view: the
// presenter view's and the embed view's styles, and compare's own
// (compare.css).
func compareBodyClass(v *demo.CompareView) string {
	switch {
	case v.Present:
		return "present compare"
	case v.Embed:
		return "embed compare"
	}
	return "compare"
}
