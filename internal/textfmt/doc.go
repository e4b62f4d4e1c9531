// Package textfmt formats numbers for people, with one rule for every
// caption, panel, title and table in Margin, so the lessons and the plots
// never print the same number two ways.
//
// The rule:
//   - a real minus sign (U+2212), never a hyphen, and never "−0";
//   - an exact integer (a whole number below 10⁹ in magnitude) prints
//     exactly, every digit: (200 + 1)² is 40401, not 40400;
//   - anything else is rounded: Num to at most four decimals with trailing
//     zeros dropped, Sig to four significant digits;
//   - Sig prints magnitudes outside [10⁻³, 10⁶) that are not exact
//     integers as m·10ᵉ with three significant digits (trailing zeros of m dropped, a superscript
//     exponent), and from 10⁹ up every number takes that form;
//   - NaN prints as "NaN", ±Inf as "∞" and "−∞".
package textfmt
