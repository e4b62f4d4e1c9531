package main

import (
	"encoding/json"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/margin-edu/margin/internal/fit"
)

// openAPIDoc is the part of the OpenAPI description the test reads.
type openAPIDoc struct {
	OpenAPI string `json:"openapi"`
	Paths   map[string]map[string]struct {
		RequestBody struct {
			Content map[string]struct {
				Example  json.RawMessage `json:"example"`
				Examples map[string]struct {
					Value json.RawMessage `json:"value"`
				} `json:"examples"`
			} `json:"content"`
		} `json:"requestBody"`
		Responses map[string]json.RawMessage `json:"responses"`
	} `json:"paths"`
	Components struct {
		Schemas map[string]schema `json:"schemas"`
	} `json:"components"`
}

type schema struct {
	Algorithm  string            `json:"x-algorithm"`
	Properties map[string]schema `json:"properties"`
	Items      *schema           `json:"items"`
	Enum       []string          `json:"enum"`
	AnyOf      []struct {
		Ref string `json:"$ref"`
	} `json:"anyOf"`
	Type    string `json:"type"`
	Default any    `json:"default"`
}

// TestOpenAPI: GET /api/v1/openapi.json is an OpenAPI 3 description that
// matches the handlers: its algorithms are the ones the fit handler names
// when it refuses an unknown one, every $ref resolves, the request's
// fields are fit.Request's, each algorithm's example fits (200) and
// answers exactly the fields its response schema lists (trace entries
// included), every documented parameter is one the handler knows, and
// the Gram example answers the GramResponse fields for every function
// the schema lists.
func TestOpenAPI(t *testing.T) {
	h := newTestServer(t)
	rec := get(t, h, openAPIPath)
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("GET %s = %d %q", openAPIPath, rec.Code, rec.Header().Get("Content-Type"))
	}
	var doc openAPIDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Errorf("openapi = %q, want 3.x", doc.OpenAPI)
	}
	var raw any
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	schemas := doc.Components.Schemas
	for _, ref := range refs(raw) {
		name, ok := strings.CutPrefix(ref, "#/components/schemas/")
		if _, found := schemas[name]; !ok || !found {
			t.Errorf("$ref %s resolves to nothing", ref)
		}
	}

	// The request's fields are fit.Request's JSON fields.
	req := schemas["FitRequest"]
	var fields []string
	rt := reflect.TypeFor[fit.Request]()
	for i := range rt.NumField() {
		fields = append(fields, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	if got := sortedKeys(req.Properties); !slices.Equal(got, sorted(fields)) {
		t.Errorf("FitRequest properties %v, fit.Request fields %v", got, sorted(fields))
	}

	// The algorithms are those the handler lists.
	fitOp := doc.Paths["/api/v1/fit"]["post"]
	if fitOp.Responses == nil {
		t.Fatal("no POST /api/v1/fit")
	}
	for _, code := range []string{"200", "400", "422", "503"} {
		if fitOp.Responses[code] == nil {
			t.Errorf("POST /api/v1/fit documents no %s", code)
		}
	}
	refused := postFitRaw(t, h, `{"algorithm": "no-such-algorithm", "x": [[0]], "y": [1]}`, http.StatusBadRequest)
	_, list, ok := strings.Cut(refused["error"].(string), "known algorithms: ")
	if !ok {
		t.Fatalf("the refusal names no algorithms: %v", refused)
	}
	known := sorted(strings.Split(list, ", "))
	algos := req.Properties["algorithm"].Enum
	if !slices.Equal(sorted(algos), known) {
		t.Errorf("the description's algorithms %v, the handler's %v", sorted(algos), known)
	}

	examples := fitOp.RequestBody.Content["application/json"].Examples
	paramRefs, respRefs := refNames(req.Properties["params"].AnyOf), refNames(schemas["FitResponse"].AnyOf)
	for _, a := range algos {
		t.Run(a, func(t *testing.T) {
			params, resp := byAlgorithm(t, schemas, a, "Params"), byAlgorithm(t, schemas, a, "Response")
			if !slices.Contains(paramRefs, params) || !slices.Contains(respRefs, resp) {
				t.Errorf("%s or %s is not among FitRequest.params %v / FitResponse %v", params, resp, paramRefs, respRefs)
			}
			ex, ok := examples[a]
			if !ok {
				t.Fatalf("no request example for %s", a)
			}
			answer := postFitRaw(t, h, string(ex.Value), http.StatusOK)
			if answer["algorithm"] != a {
				t.Errorf("the example answers algorithm %v", answer["algorithm"])
			}
			sameFields(t, resp, answer, schemas[resp])

			// Every documented parameter is known to the handler.
			var body map[string]any
			if err := json.Unmarshal(ex.Value, &body); err != nil {
				t.Fatal(err)
			}
			for name, p := range schemas[params].Properties {
				b := maps.Clone(body)
				b["params"] = map[string]any{name: sample(p)}
				if msg := postFitError(t, h, b); strings.Contains(msg, `unknown field "`+name+`"`) {
					t.Errorf("params.%s is documented but the handler refuses it: %s", name, msg)
				}
			}
			b := maps.Clone(body)
			b["params"] = map[string]any{"zzz": 1}
			if msg := postFitError(t, h, b); !strings.Contains(msg, `unknown field "zzz"`) {
				t.Errorf("an unknown parameter was not refused by name: %q", msg)
			}
		})
	}

	// The Gram API: every function of the schema gives an answer with
	// exactly GramResponse's fields.
	gramOp := doc.Paths["/api/v1/gram"]["post"]
	gramEx := gramOp.RequestBody.Content["application/json"].Example
	var gramBody map[string]any
	if err := json.Unmarshal(gramEx, &gramBody); err != nil {
		t.Fatalf("the Gram example: %v", err)
	}
	gramReq := schemas["GramRequest"]
	for _, k := range gramReq.Properties["kernel"].Enum {
		b := maps.Clone(gramBody)
		b["kernel"] = k
		body, _ := json.Marshal(b)
		rec := do(t, h, http.MethodPost, gramPath, strings.NewReader(string(body)), nil)
		if rec.Code != http.StatusOK {
			t.Errorf("gram %s: %d %.200s", k, rec.Code, rec.Body)
			continue
		}
		var answer map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &answer); err != nil {
			t.Fatal(err)
		}
		sameFields(t, "GramResponse", answer, schemas["GramResponse"])
	}
	for name, p := range gramReq.Properties {
		b := maps.Clone(gramBody)
		b[name] = sample(p)
		body, _ := json.Marshal(b)
		rec := do(t, h, http.MethodPost, gramPath, strings.NewReader(string(body)), nil)
		if strings.Contains(rec.Body.String(), `unknown field \"`+name) {
			t.Errorf("GramRequest.%s is documented but the handler refuses it: %s", name, rec.Body)
		}
	}
}

// sameFields checks that an answer has exactly the fields the schema
// lists, and that the first entry of its trace has exactly those of the
// trace's items.
func sameFields(t *testing.T, name string, answer map[string]any, s schema) {
	t.Helper()
	if got, want := sortedKeys(answer), sortedKeys(s.Properties); !slices.Equal(got, want) {
		t.Errorf("%s: the answer has fields %v, the schema %v", name, got, want)
	}
	trace, _ := answer["trace"].([]any)
	if len(trace) == 0 {
		return
	}
	item := s.Properties["trace"].Items
	first, _ := trace[0].(map[string]any)
	if item == nil || !slices.Equal(sortedKeys(first), sortedKeys(item.Properties)) {
		t.Errorf("%s: a trace entry has fields %v, the schema %v", name, sortedKeys(first), item)
	}
}

// byAlgorithm returns the one schema named …suffix whose x-algorithm is a.
func byAlgorithm(t *testing.T, schemas map[string]schema, a, suffix string) string {
	t.Helper()
	var found []string
	for name, s := range schemas {
		if s.Algorithm == a && strings.HasSuffix(name, suffix) {
			found = append(found, name)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%s: %d %s schemas (%v), want 1", a, len(found), suffix, found)
	}
	return found[0]
}

// sample is a value of a parameter's type: its default when it has one.
func sample(p schema) any {
	switch {
	case p.Default != nil:
		return p.Default
	case len(p.Enum) > 0:
		return p.Enum[0]
	case p.Type == "array" && p.Items != nil && p.Items.Type == "array":
		return [][]float64{{1, 0}, {0, 1}}
	case p.Type == "array":
		return []float64{0, 0}
	case p.Type == "boolean":
		return false
	}
	return 1
}

func postFitRaw(t *testing.T, h http.Handler, body string, want int) map[string]any {
	t.Helper()
	var out map[string]any
	postFit(t, h, body, want, &out)
	return out
}

// postFitError posts body and returns the error message, "" on a 200.
func postFitError(t *testing.T, h http.Handler, body map[string]any) string {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	rec := do(t, h, http.MethodPost, "/api/v1/fit", strings.NewReader(string(b)), nil)
	if rec.Code == http.StatusOK {
		return ""
	}
	var e struct{ Error string }
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("error answer is not JSON: %.200s", rec.Body)
	}
	return e.Error
}

// refs lists every "$ref" value in a decoded JSON document.
func refs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				out = append(out, s)
			} else {
				out = append(out, refs(x)...)
			}
		}
	case []any:
		for _, x := range v {
			out = append(out, refs(x)...)
		}
	}
	return out
}

func refNames(refs []struct {
	Ref string `json:"$ref"`
}) []string {
	var out []string
	for _, r := range refs {
		out = append(out, strings.TrimPrefix(r.Ref, "#/components/schemas/"))
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}
