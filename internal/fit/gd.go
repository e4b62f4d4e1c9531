package fit

import "context"

// fitGD is being written (TEMPORARY placeholder; its owner replaces this file).
func fitGD(ctx context.Context, req Request) (any, error) {
	return nil, badf("not implemented yet")
}
