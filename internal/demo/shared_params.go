package demo

// Parameters several demos declare alike: the λ of 001's SGD procedures,
// a stochastic method's sampling seed and an iteration budget.

// Limits of λ, listed in docs/demos with each demo that declares it.
const (
	MinLambda = 1e-4 // λ runs over [MinLambda, MaxLambda] on a log slider
	MaxLambda = 10.0
)

// lambdaParam is the λ of 001's SGD procedures, on a log slider.
func LambdaParam(doc string, when func(State) bool) Param {
	return Param{Key: "lambda", Label: "λ", Doc: doc, Kind: Float,
		Group: GroupAlgo, Default: "0.01", Min: MinLambda, Max: MaxLambda, Step: "any", Log: true, When: when}
}

// aseedParam seeds a stochastic method's sampling, the data's seed unless
// set.
func AseedParam(doc string, when func(State) bool) Param {
	return Param{Key: "aseed", Label: "sampling seed", Doc: doc, Kind: Int, Group: GroupAlgo,
		DefaultFrom: "seed", Min: 0, Max: MaxSeed, When: when}
}

// iterationsParam is the T of an iterative trainer.
func IterationsParam() Param {
	return Param{Key: "T", Label: "iterations T", Doc: "iterations to run", Kind: Int, Group: GroupAlgo,
		Default: "2000", Min: 1, Max: MaxStep}
}
