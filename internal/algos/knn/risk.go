package knn

import (
	"fmt"
	"slices"
)

// Encode maps any integer labels to the class numbers New accepts:
// classes lists the distinct labels in increasing order and codes[i] is
// the position of labels[i] in it. The map keeps the order of labels, so
// "the smallest label wins a tied vote" means the same before and after:
// decode a prediction p as classes[p]. For the ±1 labels of a two-class
// set, −1 becomes 0 and +1 becomes 1.
func Encode(labels []int) (codes, classes []int) {
	classes = slices.Compact(slices.Sorted(slices.Values(labels)))
	codes = make([]int, len(labels))
	for i, y := range labels {
		codes[i], _ = slices.BinarySearch(classes, y)
	}
	return codes, classes
}

// TrainingError is the training error R̂(h) of the notes, the fraction of
// training points h misclassifies when each is a query against the whole
// training set, itself included. At K = 1 a point is its own nearest
// neighbour (distance 0), so the error is 0, the "memorising" classifier,
// unless a point has an exact duplicate with a lower index and a
// different label: the duplicate ranks first and outvotes it.
func (c *Classifier) TrainingError() float64 {
	return c.errorRate(-1)
}

// LeaveOneOutError is the fraction of training points misclassified by
// the classifier built on the other n − 1 points (the point itself, by
// index, is left out; exact duplicates stay). It needs K ≤ n − 1. Unlike
// TrainingError it estimates the true risk R(h) without a test set.
func (c *Classifier) LeaveOneOutError() (float64, error) {
	if c.pts == nil {
		return 0, errNotBuilt
	}
	if c.K > len(c.ids)-1 {
		return 0, fmt.Errorf("%w: leaving one of %d points out leaves %d to vote but K = %d; use K ≤ %d", ErrK, len(c.ids), len(c.ids)-1, c.K, len(c.ids)-1)
	}
	return c.errorRate(0), nil
}

// errorRate counts the training points misclassified, each queried with
// itself left out when leaveOut is 0 and kept when it is −1.
func (c *Classifier) errorRate(leaveOut int) float64 {
	if c.pts == nil {
		return 0
	}
	s := c.newSearch(c.K)
	wrong := 0
	for i, q := range c.X {
		skip := -1
		if leaveOut == 0 {
			skip = i
		}
		if c.classes[s.vote(s.nearest(q, skip))] != c.Y[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(c.X))
}
