package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"

	"github.com/streamcart/streamcart/api/compress"
)

// asset is one static file held in memory with its validators and, for text
// types worth it, a gzip copy made once at start-up, or the gzip and brotli
// copies made at build time (<name>.gz and <name>.br beside it).
type asset struct {
	name  string
	ctype string
	body  []byte
	gz    []byte
	br    []byte
	etag  string
}

// minGzip is the size under which compressing costs more than it saves.
const minGzip = 512

func newAsset(name string, body []byte) *asset {
	a := &asset{name: name, ctype: contentType(name), body: body}
	sum := sha256.Sum256(body)
	a.etag = `"` + hex.EncodeToString(sum[:8]) + `"`
	if compressible(a.ctype) && len(body) >= minGzip {
		if gz := gzipOnce(sum, body); len(gz) < len(body) {
			a.gz = gz
		}
	}
	return a
}

// gzipped keeps the gzip copy of each body by its SHA-256 (sum → []byte): a process that makes
// more than one host (api/app's tests open hundreds of shops) compresses the same embedded assets
// at best compression once, not once per host.
var gzipped sync.Map

// gzipOnce is compress.GzipSmallest(body), made once per content; sum is body's SHA-256. The
// copy is shared: nothing writes to an asset's bytes.
func gzipOnce(sum [sha256.Size]byte, body []byte) []byte {
	if gz, ok := gzipped.Load(sum); ok {
		return gz.([]byte)
	}
	gz, _ := gzipped.LoadOrStore(sum, compress.GzipSmallest(body))
	return gz.([]byte)
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".json", ".map":
		return "application/json; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".html":
		return "text/html; charset=utf-8"
	}
	if t := mime.TypeByExtension(path.Ext(name)); t != "" {
		return t
	}
	return "application/octet-stream"
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "json") ||
		strings.Contains(ctype, "javascript") || strings.Contains(ctype, "svg")
}

// serve writes the asset with the given Cache-Control, answering
// If-None-Match with 304 and HEAD without a body.
func (a *asset) serve(w http.ResponseWriter, r *http.Request, cacheControl string) {
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", cacheControl)
	h.Set("X-Content-Type-Options", "nosniff")
	body, etag := a.body, a.etag
	if a.gz != nil || a.br != nil {
		h.Add("Vary", "Accept-Encoding")
		// Each encoding is its own representation, with its own validator.
		switch compress.Prefer(r, offered(a)...) {
		case "br":
			body, etag = a.br, strings.TrimSuffix(a.etag, `"`)+`-br"`
			h.Set("Content-Encoding", "br")
		case "gzip":
			body, etag = a.gz, strings.TrimSuffix(a.etag, `"`)+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
	}
	h.Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		h.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeBody(w, r, http.StatusOK, body)
}

// writeBody sets Content-Length and writes body unless the request is HEAD.
func writeBody(w http.ResponseWriter, r *http.Request, status int, body []byte) {
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

func etagMatch(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// offered are the codings a has a copy in, brotli first (smaller on a tie).
func offered(a *asset) []string {
	var out []string
	if a.br != nil {
		out = append(out, "br")
	}
	if a.gz != nil {
		out = append(out, "gzip")
	}
	return out
}

// loadAssets reads every regular file under root (dot files skipped) and
// returns them by slash path relative to root, plus a content hash of the set.
func loadAssets(fsys fs.FS, root string) (map[string]*asset, string, error) {
	files := map[string]*asset{}
	var names []string
	precompressed := map[string][]byte{}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != root {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		body, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel := p
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		}
		if ext := path.Ext(rel); ext == ".br" || ext == ".gz" {
			precompressed[rel] = body
			return nil
		}
		files[rel] = newAsset(rel, body)
		names = append(names, rel)
		return nil
	})
	if err != nil {
		return nil, "", fmt.Errorf("load assets: %w", err)
	}
	// <name>.br and <name>.gz are encodings of <name>, not files of their own:
	// they are served only in its place (and a .gz without its file is served
	// as the file it is). The version hash covers the files they encode.
	for rel, body := range precompressed {
		if a := files[strings.TrimSuffix(rel, path.Ext(rel))]; a != nil {
			a.attach(path.Ext(rel), body)
			continue
		}
		files[rel] = newAsset(rel, body)
		names = append(names, rel)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(files[n].body))
		h.Write(files[n].body)
	}
	return files, hex.EncodeToString(h.Sum(nil))[:16], nil
}

// attach takes body as the asset's build-time encoding ext (".br" or ".gz")
// when it decodes to exactly the asset's bytes; a stale copy from an older
// build is refused (false) and the asset keeps what newAsset made.
func (a *asset) attach(ext string, body []byte) bool {
	var rd io.Reader
	switch ext {
	case ".br":
		rd = brotli.NewReader(bytes.NewReader(body))
	case ".gz":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return false
		}
		rd = zr
	default:
		return false
	}
	// One byte more than the asset: a longer decoding is a mismatch too.
	got, err := io.ReadAll(io.LimitReader(rd, int64(len(a.body))+1))
	if err != nil || !bytes.Equal(got, a.body) || len(body) >= len(a.body) {
		return false
	}
	if ext == ".br" {
		a.br = body
	} else {
		a.gz = body
	}
	return true
}
