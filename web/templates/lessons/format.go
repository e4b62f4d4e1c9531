// Package lessons holds the templates of the lesson pages.
package lessons

import "strconv"

func itoa(i int) string { return strconv.Itoa(i) }
