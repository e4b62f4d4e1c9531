// Package svm declares the demos of the hard-margin, soft-margin and kernel
// lessons on the demo kit: kernel SVM and kernel Pegasos are the SVM solvers
// with a kernel, so the kernel lesson shares this topic.
package svm

import "github.com/margin-edu/margin/internal/demo"

// Specs are the demos of the hard-margin, soft-margin and kernel lessons, in page order.
func Specs() []demo.Spec {
	return []demo.Spec{SVMSpec(true), SVMSpec(false), SGDSpec(), KernelMapSpec(), KernelGramSpec(), KernelSVMSpec(), KernelPegasosSpec()}
}

// topicCourse is a course of this topic's demos alone.
func topicCourse() (*demo.Course, error) { return demo.NewCourse(Specs()...) }
