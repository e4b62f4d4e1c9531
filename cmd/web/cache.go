package main

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// cacheImmutable is the Cache-Control of a response that its URL alone
// determines: any cache may keep it for a year without asking again.
const cacheImmutable = "public, max-age=31536000, immutable"

// serveImmutable answers 200 with body, for a URL that alone determines
// it: a canonical plot URL holds the whole state of the demo, so its
// picture never changes and may be cached for a year and shared (plots
// are pasted into slides and notes on other sites, hence
// Access-Control-Allow-Origin: *).
//
// The strong ETag is a hash of body, not of the URL, so a release that
// draws the same state differently gets a new tag. A request whose
// If-None-Match lists that tag, or is *, gets 304 with the same caching
// headers and no body. The tag names the unencoded bytes; gzip keeps it,
// which is sound for If-None-Match (a weak comparison) and for caches
// (Vary: Accept-Encoding), and plots are not served in ranges.
func serveImmutable(c echo.Context, contentType string, body []byte) error {
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := c.Response().Header()
	h.Set(echo.HeaderCacheControl, cacheImmutable)
	h.Set("ETag", etag)
	h.Set(echo.HeaderAccessControlAllowOrigin, "*")
	if etagMatches(c.Request().Header.Values("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, contentType, body)
}

// etagMatches reports whether If-None-Match header values (each a
// comma-separated list of entity tags, or *) match etag by the weak
// comparison RFC 9110 §13.1.2 prescribes: W/ prefixes are ignored.
func etagMatches(ifNoneMatch []string, etag string) bool {
	for _, v := range ifNoneMatch {
		for _, t := range strings.Split(v, ",") {
			t = strings.TrimSpace(t)
			if t == "*" || strings.TrimPrefix(t, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// varyOn adds header to the response's Vary list unless it is there
// already (or Vary is *). Handlers call it instead of setting Vary, which
// would drop the Accept-Encoding that the gzip middleware added first: a
// cache that kept only one of the two would hand a gzipped htmx fragment
// to a browser that asked for the whole page, or the reverse.
func varyOn(c echo.Context, header string) {
	h := c.Response().Header()
	for _, v := range h.Values(echo.HeaderVary) {
		for _, f := range strings.Split(v, ",") {
			f = strings.TrimSpace(f)
			if f == "*" || strings.EqualFold(f, header) {
				return
			}
		}
	}
	h.Add(echo.HeaderVary, header)
}
