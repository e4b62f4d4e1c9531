package lessons

import (
	"fmt"
	"testing"

	"github.com/margin-edu/margin/internal/demo"
)

func TestStretches(t *testing.T) {
	d := func(id string) *demo.DemoView { return &demo.DemoView{ID: id} }
	a, b, c := d("a"), d("b"), d("c")
	show := func(ss []stretch) string {
		s := ""
		for _, x := range ss {
			id := "-"
			if x.Demo != nil {
				id = x.Demo.ID
			}
			s += fmt.Sprintf("[%v %s %v]", x.Before, id, x.After)
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		prose []string
		demos []*demo.DemoView
		want  string
	}{
		{"no demo", []string{"p0"}, nil, "[[p0] - []]"},
		{"one demo", []string{"p0", "p1"}, []*demo.DemoView{a}, "[[p0] a [p1]]"},
		{"three demos", []string{"p0", "p1", "p2", "p3"}, []*demo.DemoView{a, b, c}, "[[p0] a [p1]][[] b [p2]][[] c [p3]]"},
		{"empty parts dropped", []string{"", "p1", ""}, []*demo.DemoView{a, b}, "[[] a [p1]][[] b []]"},
		{"extra parts go with the last demo", []string{"p0", "p1", "p2"}, []*demo.DemoView{a}, "[[p0] a [p1 p2]]"},
		{"fewer parts than demos", []string{"p0"}, []*demo.DemoView{a, b}, "[[p0] a []][[] b []]"},
	} {
		if got := show(stretches(tc.prose, tc.demos)); got != tc.want {
			t.Errorf("%s: stretches(%q, …) = %s, want %s", tc.name, tc.prose, got, tc.want)
		}
	}
}
