// Package components holds the templ pieces demos share.
package components

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

func itoa(i int) string { return strconv.Itoa(i) }

func speedName(ms int) string {
	switch {
	case ms >= 1000:
		return "slow"
	case ms >= 500:
		return "normal"
	case ms >= 250:
		return "fast"
	case ms >= 100:
		return "faster"
	}
	return "fastest"
}

// fetchURL is the URL htmx requests for a link: href without its
// fragment, which names where the page lands and is no part of a request.
func fetchURL(href string) string {
	u, _, _ := strings.Cut(href, "#")
	return u
}

// trail separates the facts of a model line: "w = …, b = …".
func trail(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}

// long reports whether a counter's value is too long for the counter's
// large type (1.13·10⁻⁴, 1 − 10⁻²⁰): the stylesheet shrinks it to its box.
func long(v string) bool { return utf8.RuneCountInString(v) > 7 }
