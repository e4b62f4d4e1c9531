package fit

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestStatusEnum is issue 18's item 10: every fitter spells its status
// from one snake_case enum, the one cmd/web/openapi.json declares and
// docs/api.md tables (it was "iteration limit" for four algorithms,
// "iteration_limit" for svm, and an undocumented "cycle detected").
func TestStatusEnum(t *testing.T) {
	spec, err := os.ReadFile("../../cmd/web/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Enum []string `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	enum := doc.Components.Schemas["Status"].Enum
	api, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range enum {
		if !strings.Contains(string(api), "| `"+s+"` |") {
			t.Errorf("docs/api.md has no row for status %q", s)
		}
	}
	xor := `"x":[[0,0],[1,1],[0,1],[1,0]],"y":[-1,-1,1,1]`
	cases := []struct{ body, want string }{
		{orBody + `}`, "converged"},
		{`{"algorithm":"perceptron",` + xor + `}`, "cycle_detected"},
		{`{"algorithm":"perceptron",` + xor + `,"params":{"max_epochs":5,"fixed_epochs":true}}`, "iteration_limit"},
		{`{"algorithm":"svm",` + xor + `,"params":{"max_iter":1}}`, "iteration_limit"},
		{`{"algorithm":"linear-regression","x":[[0],[1],[2]],"y":[1,3,6],"params":{"solver":"gd","eta":1e-5,"iters":3}}`, "iteration_limit"},
		{`{"algorithm":"logistic-regression","x":[[0],[1],[2],[3]],"y":[-1,1,-1,1],"params":{"solver":"gd","iters":2}}`, "iteration_limit"},
		{gdQuad + `,"iters":2}}`, "iteration_limit"},
	}
	snake := regexp.MustCompile(`^[a-z]+(_[a-z]+)*$`)
	for _, c := range cases {
		r, err := fitAs[any](t, c.body)
		if err != nil {
			t.Errorf("%s: %v", c.body, err)
			continue
		}
		b, _ := json.Marshal(r)
		var got struct{ Status string }
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if got.Status != c.want || !snake.MatchString(got.Status) || !slices.Contains(enum, got.Status) {
			t.Errorf("%s: status %q, want %q from the enum %v", c.body, got.Status, c.want, enum)
		}
	}
}
