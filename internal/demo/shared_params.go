package demo

// Parameters several demos declare alike: the λ of 001's SGD procedures,
// a stochastic method's sampling seed and an iteration budget.

// Limits of λ, listed in docs/demos with each demo that declares it.
const (
	MinLambda = 1e-4 // λ runs over [MinLambda, MaxLambda] on a log slider
	MaxLambda = 10.0
)

var (
	// Lambda is the λ of 001's SGD procedures, on a log slider.
	Lambda = Float{Key: "lambda", Label: "λ", Doc: "regularisation λ", Group: GroupAlgo,
		Default: 0.01, Min: MinLambda, Max: MaxLambda, Step: "any", Log: true}
	// Aseed seeds a stochastic method's sampling, the data's seed unless
	// set.
	Aseed = Int{Key: "aseed", Label: "sampling seed", Doc: "seeds the sampling", Group: GroupAlgo,
		DefaultFrom: "seed", Min: 0, Max: MaxSeed}
	// Iterations is the T of an iterative trainer.
	Iterations = Int{Key: "T", Label: "iterations T", Doc: "iterations to run", Group: GroupAlgo,
		Default: 2000, Min: 1, Max: MaxStep}
)

// LambdaParam is Lambda with a demo's own wording, applying when when says.
func LambdaParam(doc string, when func(State) bool) Param {
	p := Lambda
	p.Doc, p.When = doc, when
	return p.Param()
}

// AseedParam is Aseed with a demo's own wording, applying when when says.
func AseedParam(doc string, when func(State) bool) Param {
	p := Aseed
	p.Doc, p.When = doc, when
	return p.Param()
}
