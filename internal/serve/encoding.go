package serve

import (
	"net/http"
	"strconv"
	"strings"
)

// AcceptsGzipEncoding reports whether a request's Accept-Encoding lets
// the server answer in gzip, read by RFC 9110 §12.5.3 over every value of
// the header: codings and the q parameter are case-insensitive; a q-value
// of 0 (or one that does not parse) refuses a coding; x-gzip is gzip; *
// stands for every coding the header does not name. A request without the
// header gets no gzip (what browsers and curl --compressed send names it),
// nor does one that accepts only identity. "identity;q=0" alone refuses
// the uncompressed bytes without accepting gzip: nothing acceptable is
// left, and such a client gets the uncompressed bytes anyway, as the RFC
// allows.
//
// It is the one reading of the header in Margin: the response cache keys
// on it (AcceptsGzip) and cmd/web's compressor decides by it, so the key
// splits exactly where the bytes do.
func AcceptsGzipEncoding(h http.Header) bool {
	gzipQ, starQ := -1.0, -1.0 // -1: not named
	for _, v := range h.Values("Accept-Encoding") {
		for _, item := range strings.Split(v, ",") {
			coding, q := parseCoding(item)
			switch coding {
			case "gzip", "x-gzip":
				if q > gzipQ {
					gzipQ = q
				}
			case "*":
				if q > starQ {
					starQ = q
				}
			}
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

// parseCoding splits one element of Accept-Encoding, "gzip;q=0.5", into
// its coding in lower case and its q-value (1 when absent, 0 when it does
// not parse or lies outside [0, 1]).
func parseCoding(item string) (string, float64) {
	coding, params, _ := strings.Cut(item, ";")
	coding = strings.ToLower(strings.TrimSpace(coding))
	q := 1.0
	for _, p := range strings.Split(params, ";") {
		name, value, ok := strings.Cut(strings.TrimSpace(p), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "q") {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || f < 0 || f > 1 {
			f = 0
		}
		q = f
	}
	return coding, q
}
