package lessons

import "context"

// Execute is ExecuteFigure for a test: every figure, under a context that
// never ends.
func (d *Demo) Execute(s State) (*Run, error) {
	return d.ExecuteFigure(context.Background(), s, "")
}
