package fit

import "context"

// fitSoftmaxRegression is being written (TEMPORARY placeholder; its owner replaces this file).
func fitSoftmaxRegression(ctx context.Context, req Request) (any, error) {
	return nil, badf("not implemented yet")
}
