package fit

import "context"

// fitLogisticRegression is being written (TEMPORARY placeholder; its owner replaces this file).
func fitLogisticRegression(ctx context.Context, req Request) (any, error) {
	return nil, badf("not implemented yet")
}
