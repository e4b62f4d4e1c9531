package demo

import "testing"

func TestHeldOutCounterNoun(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "held-out error (1 point)"}, {2, "held-out error (2 points)"}, {400, "held-out error (400 points)"}} {
		if got := HeldOutCounter(0.25, c.n).Label; got != c.want {
			t.Errorf("HeldOutCounter(0.25, %d).Label = %q, want %q", c.n, got, c.want)
		}
	}
}
