package main

import (
	"maps"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"
	"github.com/margin-edu/margin/internal/demo"
	"github.com/margin-edu/margin/internal/textfmt"
)

// answerPredict answers answer=X on a page URL of demo d (the lesson page,
// the presenter view or the embed) in predict mode: it runs the demo to
// the state's step t for its main plot only and asks the question about
// the step after it again, checks X against it and
// redirects (303) to the same page at step t+1, with the score counted
// and last=right or last=wrong, where the step is revealed. An answer that
// is no choice's, an answer outside predict mode or at a step where the
// run has stopped is a 400 naming answer.
//
// With htmx the browser's request follows the redirect with its
// HX-Request header, so the answer is the panel of step t+1, whose
// HX-Push-Url puts that step's permalink in the address bar.
func answerPredict(c echo.Context, d *demo.Demo, q url.Values, page string) error {
	answers := q[demo.KeyAnswer]
	if len(answers) != 1 {
		return demo.Problems{demo.KeyAnswer: "given more than once; give one answer"}
	}
	ans := strings.TrimSpace(answers[0])
	rest := maps.Clone(q)
	delete(rest, demo.KeyAnswer)
	if _, _, edited, _ := d.SplitEdit(rest); edited {
		return demo.Problems{demo.KeyAnswer: "an answer takes no edit of the points; answer, then edit"}
	}
	s, probs := d.Parse(rest)
	switch {
	case len(probs) > 0:
		return probs
	case !s.Predict.On:
		return demo.Problems{demo.KeyAnswer: "answers the question about the next step, asked only in predict mode; add predict=1"}
	case s.Step == demo.StepToEnd:
		return demo.Problems{demo.KeyAnswer: "answers the question at a step; give step as a number, not end"}
	}
	// Where the run stands at step t (the main plot's computation: the
	// page's other figures say nothing about the answer), then the
	// question the page at t asked.
	run, err := d.ExecuteFigure(c.Request().Context(), s, demo.PlotFigure)
	if err != nil {
		return err
	}
	var ask *demo.Question
	if run.State.Step == s.Step {
		if ask, err = d.AskAfter(c.Request().Context(), run); err != nil {
			return err
		}
	}
	if ask == nil {
		return demo.Problems{demo.KeyAnswer: demo.ErrNoQuestion.Error()}
	}
	if ask.None != "" {
		return demo.Problems{demo.KeyAnswer: "no question is asked at this step (" + ask.None + "); leave answer out and step on"}
	}
	if _, ok := ask.Choice(ans); !ok {
		return demo.Problems{demo.KeyAnswer: textfmt.Quote(ans) + " is not one of the choices (" + strings.Join(ask.Values(), ", ") + ")"}
	}
	next := s.AtStep(s.Step + 1).WithPredicting(s.Predict.Scored(ans == ask.Right))
	to := next.URL(page)
	if page == d.LessonPath() {
		to += d.Anchor()
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// hasAnswer reports whether a page request answers a question.
func hasAnswer(q url.Values) bool { return q.Has(demo.KeyAnswer) }
