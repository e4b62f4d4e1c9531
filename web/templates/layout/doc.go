// Package layout is the HTML shell every Margin page shares.
package layout
