package demo

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/margin-edu/margin/internal/textfmt"
)

// The page keys of predict-then-reveal (issue 20 §1). They are part of a
// page's state and of its canonical URL, so a score survives a reload and
// a shared link, but never of a figure's URL: the plot at step t is the
// same figure whether a question is asked about it or not.
const (
	KeyPredict = "predict" // 1: Step becomes a question about the next step
	KeyScore   = "score"   // R-A: R right of A asked
	KeyLast    = "last"    // right, wrong or shown: how the step shown was reached
	// KeyAnswer is an answer to the question asked at the step of the URL
	// it is added to; the server answers with a redirect to the next step.
	KeyAnswer = "answer"
)

// MaxScore bounds both numbers of score=R-A; at the bound the score stops
// counting (docs/urls.md).
const MaxScore = 100000

// How the question before the step shown was met: answered right or
// wrong, or revealed without an answer (the presenter's Enter).
const (
	LastRight = "right"
	LastWrong = "wrong"
	LastShown = "shown"
)

// Predicting is the predict-then-reveal part of a page's state.
type Predicting struct {
	On    bool
	Right int // questions answered right …
	Asked int // … of those answered
	// Last says how the question about the step before the one shown was
	// met (LastRight, LastWrong, LastShown), or "" when the step was
	// reached otherwise (a link, a reset, a reload of a plain step).
	Last string
}

// parsePredict reads predict, score and last. A demo that asks no
// questions refuses predict=1; score and last without predict=1 are
// dropped from the canonical URL.
func (d *Demo) parsePredict(one func(string) (string, bool), probs Problems, step int) Predicting {
	var p Predicting
	if raw, ok := one(KeyPredict); ok {
		switch {
		case raw != "0" && raw != "1":
			probs[KeyPredict] = fmt.Sprintf("%s is not 1 (ask about each next step) or 0 (off)", textfmt.Quote(raw))
		case raw == "1" && d.Predict == nil:
			probs[KeyPredict] = "this demo asks no questions about its next step; leave predict out"
		default:
			p.On = raw == "1"
		}
	}
	if raw, ok := one(KeyScore); ok {
		r, a, err := parseScore(raw)
		if err != nil {
			probs[KeyScore] = err.Error()
		}
		p.Right, p.Asked = r, a
	}
	if raw, ok := one(KeyLast); ok {
		switch {
		case raw != LastRight && raw != LastWrong && raw != LastShown:
			probs[KeyLast] = fmt.Sprintf("%s is not right, wrong or shown", textfmt.Quote(raw))
		case step == 0:
			probs[KeyLast] = "says how the question before the step shown was met, and step 0 has none; leave last out"
		default:
			p.Last = raw
		}
	}
	if !p.On {
		p = Predicting{}
	}
	return p
}

// parseScore reads R-A: whole numbers 0 ≤ R ≤ A ≤ MaxScore.
func parseScore(raw string) (r, a int, err error) {
	rs, as, ok := strings.Cut(raw, "-")
	r, errR := strconv.Atoi(rs)
	a, errA := strconv.Atoi(as)
	if !ok || errR != nil || errA != nil || r < 0 || a < 0 || a > MaxScore || r > a {
		return 0, 0, fmt.Errorf("%s is not R-A, R right of A answered: whole numbers with 0 ≤ R ≤ A ≤ %d", textfmt.Quote(raw), MaxScore)
	}
	return r, a, nil
}

// encode adds the keys to a page's query: none when predicting is off,
// score only once a question was answered, last only after step 0.
func (p Predicting) encode(v url.Values, step int) {
	if !p.On {
		return
	}
	v.Set(KeyPredict, "1")
	if p.Asked > 0 {
		v.Set(KeyScore, strconv.Itoa(p.Right)+"-"+strconv.Itoa(p.Asked))
	}
	if p.Last != "" && step != 0 {
		v.Set(KeyLast, p.Last)
	}
}

// isPredictKey reports whether key is one of the predict keys Parse reads.
func isPredictKey(key string) bool { return key == KeyPredict || key == KeyScore || key == KeyLast }

// Scored returns p after an answer: one more asked, one more right if
// right, and Last saying which. At MaxScore the score stops counting.
func (p Predicting) Scored(right bool) Predicting {
	if p.Asked < MaxScore {
		p.Asked++
		if right {
			p.Right++
		}
	}
	p.Last = LastWrong
	if right {
		p.Last = LastRight
	}
	return p
}

// WithPredicting returns s with its predict keys set to p.
func (s State) WithPredicting(p Predicting) State { s.Predict = p; return s }
