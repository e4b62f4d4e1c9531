// Package components holds the templ pieces demos share.
package components

import "strconv"

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

// trail separates the facts of a model line: "w = …, b = …".
func trail(i, n int) string {
	if i < n-1 {
		return ","
	}
	return ""
}
