package fit

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// refusalNumbers matches a refusal's work and limit as it prints them.
var refusalNumbers = regexp.MustCompile(`(?:cost|=) ([0-9.]+(?:e[+-]?[0-9]+)?)[^;]*; the limit is ([0-9.]+(?:e[+-]?[0-9]+)?)`)

// checkRefusal asserts err is a 400 whose printed work exceeds its
// printed limit.
func checkRefusal(t *testing.T, name string, err error) {
	t.Helper()
	if !errors.Is(err, ErrBadRequest) {
		t.Errorf("%s: %v, want a 400", name, err)
		return
	}
	m := refusalNumbers.FindStringSubmatch(err.Error())
	if m == nil {
		t.Errorf("%s: no work and limit in %q", name, err)
		return
	}
	work, _ := strconv.ParseFloat(m[1], 64)
	limit, _ := strconv.ParseFloat(m[2], 64)
	if !(work > limit) {
		t.Errorf("%s: refused with work %s, not above the limit %s: %v", name, m[1], m[2], err)
	}
}

// grid is n rows of d features (small distinct numbers) with labels
// i mod c, as JSON.
func grid(n, d, c int) (x, y string) {
	var xs, ys []string
	for i := range n {
		row := make([]string, d)
		for j := range row {
			row[j] = strconv.Itoa((i*7 + j*3) % 10)
		}
		xs = append(xs, "["+strings.Join(row, ",")+"]")
		ys = append(ys, strconv.Itoa(i%c))
	}
	return "[" + strings.Join(xs, ",") + "]", "[" + strings.Join(ys, ",") + "]"
}

// TestRefusalsAgree is issue 18's item 10: work-limit refusals printed
// numbers that contradicted them ("could cost 1.16e+09 units …; the limit
// is 1.2e+09" for softmax at n = 982, d = 20, c = 10; logistic at
// 10000×64; gram's "n²·d = 1e+09; the limit is 1e+09"). A refusal's work
// is now the sum its decision compares, printed with the digits that tell
// it from the limit, and the problem just under the limit is accepted.
func TestRefusalsAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("requests at the limits")
	}
	x, y := grid(982, 20, 10)
	_, err := Run(context.Background(), mustDecode(t, `{"algorithm":"softmax-regression","x":`+x+`,"y":`+y+`}`))
	checkRefusal(t, "softmax 982×20, c = 10", err)
	x, y = grid(10000, 64, 2)
	_, err = Run(context.Background(), mustDecode(t, `{"algorithm":"logistic-regression","x":`+x+`,"y":`+strings.ReplaceAll(y, "0", "-1")+`}`))
	checkRefusal(t, "logistic 10000×64", err)

	rows := func(n, d int) [][]float64 {
		x := make([][]float64, n)
		for i := range x {
			x[i] = make([]float64, d)
			x[i][0] = float64(i)
		}
		return x
	}
	_, err = Gram(context.Background(), GramRequest{X: rows(MaxGramN, 251)})
	checkRefusal(t, "gram 2000×251", err)
	if err := (GramRequest{X: rows(MaxGramN, 250)}).validX(); err != nil {
		t.Errorf("gram 2000×250, n²·d = 1e9 = the limit: %v, want accepted", err)
	}
}

func mustDecode(t *testing.T, body string) Request {
	t.Helper()
	req, err := Decode(strings.NewReader(body))
	if err != nil {
		t.Fatal(fmt.Errorf("decode: %w", err))
	}
	return req
}
