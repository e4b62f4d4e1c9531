package lessons

// DefaultCourse is Margin's course with all of its demos.
func DefaultCourse() (*Course, error) {
	return NewCourse(PerceptronSpec(), SVMSpec(true), SVMSpec(false), SGDSpec(),
		KernelMapSpec(), KernelGramSpec(), KernelSVMSpec(), KernelPegasosSpec(),
		InterpolationSpec(), RidgeSpec(), RegLossesSpec(), LSGDSpec(), BiasVarianceSpec(),
		LogisticSpec(), SoftmaxSpec(),
		BayesSpec(), KNNSpec(), CurseSpec(),
		GDSpec(), LossGallerySpec())
}
