package main

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
)

// renderHTML writes a templ component as an HTML response.
func renderHTML(c echo.Context, status int, t templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return t.Render(c.Request().Context(), c.Response())
}

// htmx request headers (https://htmx.org/reference/#request_headers) and
// the one response header Margin sets.
const (
	hxRequest        = "HX-Request"
	hxHistoryRestore = "HX-History-Restore-Request"
	hxPushURL        = "HX-Push-Url"
)

// isPartial reports whether the request wants only the demo panel: an
// htmx request that is not restoring a page from history.
func isPartial(r *http.Request) bool {
	return r.Header.Get(hxRequest) == "true" && r.Header.Get(hxHistoryRestore) != "true"
}
