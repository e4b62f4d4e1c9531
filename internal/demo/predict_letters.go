package demo

import (
	"cmp"
	"slices"
)

// Letters names n candidates "a", "b", "c", … in the order cmp sorts
// them (by where they lie, by their label), never in the order they were
// built: a question that builds the right answer first and its
// distractors after would otherwise always have "a" right. It returns
// the letter of each candidate, by its index. n is at most 26.
func Letters(n int, cmp func(i, j int) int) []string {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, cmp)
	out := make([]string, n)
	for rank, i := range idx {
		out[i] = string(rune('a' + rank))
	}
	return out
}

// LetteredChoices makes a choice of each label, lettered in the labels'
// sort order (Letters), and returns them with the letter of labels[right].
// Labels must differ (as shown: a question whose candidates print alike
// should ask something else).
func LetteredChoices(labels []string, right int) ([]Option, string) {
	ls := Letters(len(labels), func(i, j int) int { return cmp.Compare(labels[i], labels[j]) })
	out := make([]Option, len(labels))
	for i, l := range labels {
		out[i] = Option{Value: ls[i], Label: ls[i] + ": " + l}
	}
	return out, ls[right]
}

// YesNo are the choices of a yes-or-no question.
func YesNo() []Option { return YesNoSaying("yes", "no") }

// YesNoSaying are the choices of a yes-or-no question whose labels say
// what each answer means ("yes: J will be lower"); their values are still
// "yes" and "no", as YesOrNo gives them.
func YesNoSaying(yes, no string) []Option {
	return []Option{{Value: "yes", Label: yes}, {Value: "no", Label: no}}
}

// YesOrNo is "yes" when b holds, else "no": Right of a YesNo question.
func YesOrNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
