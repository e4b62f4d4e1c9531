package knn

import (
	"fmt"

	"github.com/margin-edu/margin/internal/algos/knn"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// The kNN lesson's conventions (demo.Conventions): none of its demos
// minimises anything; each says what it computes instead.

func bayesConventions() *demo.Conventions {
	return &demo.Conventions{
		Procedure: func(s demo.State) string {
			return fmt.Sprintf("nothing is fitted: h*(x) = +1 where η(x) = P(y = +1 | x) > ½ under the known mixture "+
				"(Δ = %s, σ = %s, π = %s), else −1; its risk is the expected 0/1 loss",
				textfmt.Sig(delta.Get(s)), textfmt.Sig(sigma.Get(s)), textfmt.Sig(prior.Get(s)))
		},
		Fills: []demo.Declarer{delta, sigma, prior},
		Bias:  demo.BiasNotApplicable, Labels: demo.LabelsSigned,
	}
}

func knnConventions() *demo.Conventions {
	return &demo.Conventions{
		Procedure: func(s demo.State) string {
			return fmt.Sprintf("nothing is minimised: h(x) is the label most of the k = %d training points nearest x carry "+
				"(%s distance; a tied vote goes to −1)", neighbours.Get(s), metricChoice.Get(s))
		},
		Fills: []demo.Declarer{neighbours},
		Bias:  demo.BiasNotApplicable, Labels: demo.LabelsSigned,
	}
}

func curseConventions() *demo.Conventions {
	return &demo.Conventions{
		Procedure: func(s demo.State) string {
			return fmt.Sprintf("nothing is fitted: the mean distance from %d queries to the nearest and the farthest of n = %d uniform points in [0, 1]^D",
				knn.CurseQueries, curseN.Get(s))
		},
		Fills: []demo.Declarer{curseN},
		Bias:  demo.BiasNotApplicable,
	}
}
