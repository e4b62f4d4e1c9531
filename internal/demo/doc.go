// Package demo is Margin's demo kit: what every demo gets from one
// declaration, the course catalogue of lessons in the notes' order, and each
// lesson's prose. The demos themselves live in internal/topics, one package
// per topic; internal/course puts them together.
//
// # The demo kit
//
// A demo is declared once as a Spec: its URL parameters (Param: key,
// label, default, range or choices, form group, when it applies), its data
// (DataSpec), its extra figures and a Compute function that runs its
// stepper to the step asked for, under the request's context, and says
// what kind each of its errors is (errors.go: a refused key, valid input
// it cannot compute, or a bug). From that one declaration the kit parses
// and validates a URL (Demo.Parse, with a Problems entry naming the key and
// what is allowed), writes its canonical form (State.Encode: one state,
// one URL), builds the parameter forms (min, max and step come from the
// declaration), edits points (SplitEdit, State.Apply), reads and writes
// CSV, and builds the view model of the demo panel (NewView). The
// handlers in cmd/web only glue these together, one loop over the
// course's demos; nothing here speaks HTTP.
package demo
