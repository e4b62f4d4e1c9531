package demo

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
)

// The kinds of error a demo's Compute returns. The kit and the topics say
// what kind an error is; only cmd/web/errors.go turns a kind into an HTTP
// status:
//
//   - an *InputError: a value the client sent is refused; the message
//     names its key and says what is allowed (400);
//   - an error wrapping ErrUncomputable: every value is allowed, but what
//     they describe together cannot be computed (an overflow, a problem
//     with no solution, a reference solve out of budget); the message
//     says what to change (422);
//   - an error wrapping context.Canceled or context.DeadlineExceeded: the
//     request's context ended (the client left, or a timeout), and the
//     work stopped;
//   - anything else is a bug, never the client's fault: the kit wraps it
//     in an *InternalError with the stack where the kit met it (500).

// ErrUncomputable marks input that is valid, each value within what its
// key allows, but that the demo cannot compute.
var ErrUncomputable = errors.New("demo: cannot be computed")

// uncomputable is an error wrapping ErrUncomputable whose text is only
// its message: the message is for the client, and says what to change.
type uncomputable struct {
	msg   string
	cause error
}

func (u *uncomputable) Error() string { return u.msg }

func (u *uncomputable) Unwrap() []error {
	if u.cause == nil {
		return []error{ErrUncomputable}
	}
	return []error{ErrUncomputable, u.cause}
}

// Uncomputable returns an error wrapping ErrUncomputable (and cause, when
// it is not nil) whose text is msg, which says what to change.
func Uncomputable(cause error, msg string) error {
	return &uncomputable{msg: msg, cause: cause}
}

// InputError is a value of query key Key that the demo refuses; Err says
// what is wrong with it and what is allowed.
type InputError struct {
	Key string
	Err error
}

func (e *InputError) Error() string { return e.Key + ": " + e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// BadInput returns an *InputError for key with the message
// fmt.Sprintf(format, args...).
func BadInput(key, format string, args ...any) error {
	return &InputError{Key: key, Err: fmt.Errorf(format, args...)}
}

// InternalError is an error of a demo that is none of the kinds above: a
// bug, which the server logs with Stack and answers with a fixed message.
type InternalError struct {
	Demo  string // the demo's ID
	Query string // the state's canonical query, to reproduce it
	Err   error
	stack []byte
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("demo: demo %s at ?%s: %v", e.Demo, e.Query, e.Err)
}

func (e *InternalError) Unwrap() error { return e.Err }

// Stack is the goroutine's stack where the kit met the error.
func (e *InternalError) Stack() []byte { return e.stack }

// kindOf returns err unchanged when it is of a kind the server tells the
// client about (an *InputError, ErrUncomputable, the context's end), and
// otherwise err as an *InternalError of demo d in state s.
func (d *Demo) kindOf(s State, err error) error {
	var (
		in    *InputError
		inter *InternalError
	)
	switch {
	case err == nil:
		return nil
	case errors.As(err, &in), errors.As(err, new(Problems)), errors.Is(err, ErrUncomputable), errors.As(err, &inter), IsContextErr(err):
		return err
	}
	return &InternalError{Demo: d.ID, Query: s.Encode(ForPage), Err: err, stack: debug.Stack()}
}

// IsContextErr reports whether err says that a context ended.
func IsContextErr(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}

// UncomputableIf returns err as an Uncomputable error, its own message
// saying what to change, when it wraps one of kinds (such as an
// algorithm's overflow or no-minimiser sentinel), and err otherwise.
func UncomputableIf(err error, kinds ...error) error {
	for _, k := range kinds {
		if errors.Is(err, k) {
			return Uncomputable(err, err.Error())
		}
	}
	return err
}
