package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	httpserve "github.com/margin-edu/margin/internal/serve"
)

// Prefix is where the files are served.
const Prefix = "/static/"

// CacheImmutable is the Cache-Control of a fingerprinted URL: its
// content hash names its bytes, so any cache may keep them for a year.
const CacheImmutable = "public, max-age=31536000, immutable"

// cacheRevalidate is the Cache-Control of an unversioned URL
// (/static/app.css), whose bytes change with a release: a cache keeps
// them but asks again (If-None-Match, answered 304).
const cacheRevalidate = "public, no-cache"

// file is one embedded file, read and hashed at start-up.
type file struct {
	body  []byte
	gz    []byte // body gzipped once at start-up; nil when that saves nothing (fonts)
	etag  string // weak: the same for the gzipped and the identity bytes
	ctype string
}

var (
	files   = map[string]file{}
	version string // hash of every file, the fingerprint in URLs
)

func init() {
	all := sha256.New()
	err := fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(FS, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		all.Write([]byte(p + "\x00"))
		all.Write(sum[:])
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" {
			ctype = http.DetectContentType(b)
		}
		files[p] = file{b, gzipped(b), `W/"` + hex.EncodeToString(sum[:12]) + `"`, ctype}
		return nil
	})
	if err != nil {
		panic("static: reading the embedded files: " + err.Error())
	}
	version = hex.EncodeToString(all.Sum(nil)[:6])
}

// Version is the content hash of the embedded files, as it appears in
// their fingerprinted URLs.
func Version() string { return version }

// URL is the fingerprinted URL of an embedded file, name relative to the
// static directory ("app.css"): /static/<hash>/app.css. The hash covers
// all files, so relative references between them (KaTeX's fonts) keep
// working under one fingerprint. It panics on a name that is not
// embedded, which a template test meets at once.
func URL(name string) string {
	if _, ok := files[name]; !ok {
		panic("static: no embedded file " + name)
	}
	return Prefix + version + "/" + name
}

// Serve answers GET or HEAD for a path under Prefix. A fingerprinted path
// (/static/<hash>/app.css) is immutable; an unversioned one
// (/static/app.css, as older pages and bookmarks link it) is the same
// bytes, revalidated. Both carry an ETag and answer 304 to a matching
// If-None-Match. Anything else, a directory, a trailing slash, a stale
// hash, is 404: there is exactly one URL of each version of a file.
func Serve(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutPrefix(r.URL.Path, Prefix)
	cache := cacheRevalidate
	if rest, found := strings.CutPrefix(name, version+"/"); found {
		name, cache = rest, CacheImmutable
	}
	f, found := files[name]
	if !ok || !found || r.URL.RawQuery != "" && cache == CacheImmutable {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", cache)
	h.Set("ETag", f.etag)
	h.Set("Access-Control-Allow-Origin", "*") // fonts load cross-origin behind a proxy
	if Matches(r.Header.Values("If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", f.ctype)
	h.Set("X-Content-Type-Options", "nosniff")
	body := f.body
	if f.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		// The test echo's gzip middleware makes, which the server skips
		// for these files: they are compressed once, here.
		if httpserve.AcceptsGzipEncoding(r.Header) {
			h.Set("Content-Encoding", "gzip")
			body = f.gz
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// gzipped is b compressed at gzip's best level, or nil when that does not
// save a tenth (fonts and images are compressed already). Compressing
// once at start-up instead of on every request took a static file from
// about a third of a millisecond of CPU to almost nothing.
func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(b)
	zw.Close()
	if buf.Len() > len(b)*9/10 {
		return nil
	}
	return buf.Bytes()
}

// Matches reports whether If-None-Match values (each a comma-separated
// list of entity tags, or *) match etag by the weak comparison RFC 9110
// §13.1.2 prescribes for If-None-Match: W/ prefixes are ignored.
func Matches(ifNoneMatch []string, etag string) bool {
	etag = strings.TrimPrefix(etag, "W/")
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
