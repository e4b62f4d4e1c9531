package textfmt

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFormats(t *testing.T) {
	tests := []struct {
		name string
		f    func(float64) string
		in   float64
		want string
	}{
		{"Num", Num, 0.5, "0.5"},
		{"Num", Num, -1.25, "−1.25"},
		{"Num", Num, 40401, "40401"},
		{"Num", Num, 0.123456, "0.1235"},
		{"Num", Num, -0.00001, "0"},
		{"Num", Num, math.Copysign(0, -1), "0"},
		{"Num", Num, 123456789012, "1.23·10¹¹"},
		{"Num", Num, 2.5e47, "2.5·10⁴⁷"},
		{"Num", Num, -9.6e99, "−9.6·10⁹⁹"},
		{"Num", Num, math.NaN(), "NaN"},
		{"Num", Num, math.Inf(-1), "−∞"},
		{"Sig", Sig, 40401, "40401"},
		{"Sig", Sig, 40401.5, "40400"},
		{"Sig", Sig, 1.19123, "1.191"},
		{"Sig", Sig, -0.0123456, "−0.01235"},
		{"Sig", Sig, 4.9e-11, "4.9·10⁻¹¹"},
		{"Sig", Sig, 1.8e12 + 0.5, "1.8·10¹²"},
		{"Sig", Sig, 999999.7, "1·10⁶"},
		{"Sig", Sig, 0, "0"},
		{"Sig", Sig, math.Copysign(0, -1), "0"},
		{"Sig", Sig, -3, "−3"},
		{"Signed", Signed, 1, "+1"},
		{"Signed", Signed, -1, "−1"},
		{"Signed", Signed, 0, "0"},
	}
	for _, tt := range tests {
		if got := tt.f(tt.in); got != tt.want {
			t.Errorf("%s(%v) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestPctVecSup(t *testing.T) {
	if got := Pct(0.125, 1); got != "12.5 %" {
		t.Errorf("Pct(0.125, 1) = %q", got)
	}
	if got := Pct(-0.0001, 1); got != "0.0 %" {
		t.Errorf("Pct(-0.0001, 1) = %q, want no minus on zero", got)
	}
	if got := Pct(math.NaN(), 2); got != "—" {
		t.Errorf("Pct(NaN) = %q", got)
	}
	if got := Vec([]float64{1, -0.5, 200}); got != "(1, −0.5, 200)" {
		t.Errorf("Vec = %q", got)
	}
	if got := Sup(-12); got != "⁻¹²" {
		t.Errorf("Sup(-12) = %q", got)
	}
	if got := SigN(1234.5678, 2); got != "1200" {
		t.Errorf("SigN(1234.5678, 2) = %q", got)
	}
}

// Every exact integer below MaxExact prints as itself, so arithmetic on
// printed integers is true arithmetic.
func TestExactIntegersRoundTrip(t *testing.T) {
	for _, v := range []float64{1, 7, 201, 40401, 99999, 1000001, 123456789, 999999999} {
		for _, f := range []func(float64) string{Num, Sig} {
			s := f(v)
			if s != Num(v) || len(s) == 0 {
				t.Errorf("%v prints %q and %q", v, s, Num(v))
			}
		}
	}
}

func TestClipQuote(t *testing.T) {
	long := strings.Repeat("é", 100)
	if got := Clip(long); utf8.RuneCountInString(got) != MaxQuote || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip(100 runes) = %d runes %q", utf8.RuneCountInString(got), got)
	}
	if got := Clip("short"); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	if got := Quote("a\"b"); got != `"a\"b"` {
		t.Errorf("Quote = %q", got)
	}
	if got := Quote(long); !strings.HasSuffix(got, `"…`) || utf8.RuneCountInString(got) != MaxQuote+3 {
		t.Errorf("Quote(100 runes) = %q", got)
	}
}

func TestCountedNouns(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Count(1, "point", "points"), "1 point"},
		{Count(0, "point", "points"), "0 points"},
		{Count(2, "step", "steps"), "2 steps"},
		{Count(-1, "step", "steps"), "−1 steps"},
		{Count(1, "class", "classes"), "1 class"},
		{Count(11, "class", "classes"), "11 classes"},
		{Plural(1, "mistakes"), "1 mistake"},
		{Plural(21, "mistakes"), "21 mistakes"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
