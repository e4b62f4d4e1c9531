// Package pages holds the templates of pages that are not lessons: the
// course index and the error page.
package pages
