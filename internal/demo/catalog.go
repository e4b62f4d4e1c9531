package demo

// Lesson is one entry of the course catalogue.
type Lesson struct {
	Slug    string // URL stem: /lessons/<Slug>
	Title   string
	Summary string
	Notes   string // where in the notes it comes from
	Ready   bool   // false: listed as coming
	Anchor  string // when set, the lesson is a section of another page
	// Demos are the IDs of the demos the lesson shows, in page order: the
	// n-th "<!-- demo -->" marker of its prose holds the n-th. NewCourse
	// fills it from the demos' specs.
	Demos []string
}

// URL returns where the lesson is read, or "" for a lesson not built yet.
func (l Lesson) URL() string {
	switch {
	case l.Anchor != "":
		return l.Anchor
	case l.Ready:
		return "/lessons/" + l.Slug
	}
	return ""
}

// Catalog is the course in the order of the notes.
type Catalog struct{ Lessons []Lesson }

// NewCatalog returns the course. It is built anew for each server rather
// than kept in a package variable, so tests can make their own.
func NewCatalog() *Catalog {
	return &Catalog{Lessons: []Lesson{
		{Slug: "datasets", Title: "Datasets and linear classifiers", Notes: "§1.1, §1.2 (Def. 1.1.1–1.2.5)",
			Summary: "Features, labels, the OR and spam examples; affine functions, sgn and half-spaces.",
			Ready:   true, Anchor: "/lessons/perceptron#datasets"},
		{Slug: "perceptron", Title: "The perceptron", Notes: "§1.2; CIS 5200, DS 503 lecture 10",
			Summary: "Algorithm 1 step by step, the C²/γ² mistake bound, XOR and cycling, averaged and margin perceptrons, multiclass.",
			Ready:   true},
		{Slug: "linear-regression", Title: "Linear and ridge regression", Notes: "§1.3; short notes §4; DS 503 regression",
			Summary: "Least squares, exact interpolation, ridge (Def. 1.3.4) and its stability, losses for regression, bias and variance."},
		{Slug: "logistic-regression", Title: "Logistic regression", Notes: "§1.4; short notes §3; CIS 5200",
			Summary: "Maximum likelihood, the sigmoid, gradient descent and Newton's method, separable data, softmax."},
		{Slug: "hard-margin-svm", Title: "Hard-margin SVM", Notes: "§1.5",
			Summary: "The maximum-margin separator, its dual and support vectors."},
		{Slug: "soft-margin-svm", Title: "Soft-margin SVM", Notes: "§1.6",
			Summary: "Slack variables, the hinge loss and choosing C."},
		{Slug: "kernels", Title: "Kernels", Notes: "§1.7",
			Summary: "Feature maps, reproducing kernels, polynomial and Gaussian kernels."},
		{Slug: "gradient-descent", Title: "Gradient descent", Notes: "§1.8; CIS 5200",
			Summary: "Step sizes and L, the convergence rate of Thm 1.8.5, schedules, SGD, Newton's method, a saddle, and a gallery of losses."},
		{Slug: "knn-bayes", Title: "Nearest neighbours and the Bayes classifier", Notes: "CIS 5200",
			Summary: "Risk and the 0/1 loss, the Bayes classifier and its error, k nearest neighbours, the curse of dimensionality."},
	}}
}

// Find returns the lesson with slug, if the catalogue has it.
func (c *Catalog) Find(slug string) (Lesson, bool) {
	for _, l := range c.Lessons {
		if l.Slug == slug {
			return l, true
		}
	}
	return Lesson{}, false
}
