package web

import (
	"bytes"
	"html/template"
	"net/http"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"

	shop "github.com/streamcart/streamcart/api/catalog"
)

// LegalPath is the path of a legal page below the base (and its locale prefix).
const LegalPath = "legal/"

// markdown renders the seller's Markdown. Raw HTML in it is dropped (goldmark's default), and
// the output still goes through policy: the file is the seller's, but a catalog may be edited
// by any operator with the catalog permission, and a page here runs on the shop's origin.
var (
	markdown = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))
	policy   = func() *bluemonday.Policy {
		p := bluemonday.UGCPolicy()
		p.RequireNoReferrerOnLinks(true)
		return p
	}()
)

// legalDoc is one rendered page.
type legalDoc struct {
	Title string
	Body  template.HTML
}

// renderLegal turns Markdown into sanitised HTML and finds its title (the first heading).
func renderLegal(md []byte) (legalDoc, error) {
	doc := markdown.Parser().Parse(text.NewReader(md))
	var title string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			title = plainText(h, md)
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	var buf bytes.Buffer
	if err := markdown.Renderer().Render(&buf, md, doc); err != nil {
		return legalDoc{}, err
	}
	// Sanitised here, so the template may trust it.
	return legalDoc{Title: strings.TrimSpace(title), Body: template.HTML(policy.SanitizeBytes(buf.Bytes()))}, nil // #nosec G203
}

func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// legalCache keeps the rendered pages of the catalog in force; a new catalog starts afresh.
type legalCache struct {
	mu    sync.Mutex
	cat   *shop.Catalog
	pages map[string]legalDoc
}

func (lc *legalCache) get(cat *shop.Catalog, key string, md []byte) (legalDoc, error) {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if lc.cat != cat {
		lc.cat, lc.pages = cat, map[string]legalDoc{}
	}
	if d, ok := lc.pages[key]; ok {
		return d, nil
	}
	d, err := renderLegal(md)
	if err != nil {
		return d, err
	}
	lc.pages[key] = d
	return d, nil
}

// footerLinks are the footer's help and legal links, by name.
var footerLinks = []string{"help", "contact", "faq", "terms", "privacy", "dmca"}

// link is one footer link: Legal when it comes from the catalog (the host's script leaves it).
type link struct {
	Href  string
	Legal bool
}

// LegalURL is where a catalog's legal page is read: the seller's URL, or our rendered page under
// prefix ("" or a locale prefix such as "de-de"); "" for a page that has neither (its files were
// not read).
func LegalURL(l shop.LegalPage, prefix string) string {
	if l.URL != "" {
		return l.URL
	}
	if len(l.Docs) == 0 {
		return ""
	}
	return localePath(Base, prefix, LegalPath+l.Name)
}

// links builds the footer's links: the catalog's legal pages, else the seller's support site,
// else the configured support URL, each with the link's name as fragment; "contact" writes to
// the seller's address when nothing else is set.
func (h *host) links(cat *shop.Catalog, prefix string) map[string]link {
	out := make(map[string]link, len(footerLinks))
	for _, name := range footerLinks {
		if cat != nil {
			if l, ok := cat.LegalPage(name); ok {
				if href := LegalURL(l, prefix); href != "" {
					out[name] = link{Href: href, Legal: true}
					continue
				}
			}
			if s := cat.Seller.SupportURL; s != "" {
				out[name] = link{Href: strings.SplitN(s, "#", 2)[0] + "#" + name, Legal: true}
				continue
			}
			if name == "contact" && cat.Seller.Email != "" {
				out[name] = link{Href: "mailto:" + cat.Seller.Email, Legal: true}
				continue
			}
		}
		out[name] = link{Href: h.cfg.SupportURL + "#" + name}
	}
	return out
}

// serveLegal answers /checkout/[prefix/]legal/{name}: the catalog's Markdown page in the
// visitor's language (else English, else the page's first file), in the storefront's frame. A
// name the catalog does not have as a file page is the branded 404 (a URL page is the seller's,
// not ours to redirect to).
func (h *host) serveLegal(w http.ResponseWriter, r *http.Request, prefix, name string) {
	cat := h.shop()
	l, ok := shop.LegalPage{}, false
	if cat != nil && shop.LegalNameRe.MatchString(name) {
		l, ok = cat.LegalPage(name)
	}
	p := h.page(r, prefix, LegalPath+name)
	md, key, found := l.Doc(p.Locale)
	if !ok || !found {
		h.serveNotFound(w, r, prefix)
		return
	}
	if !allowRead(w, r) {
		return
	}
	doc, err := h.legal.get(cat, name+"\x00"+key, md)
	if err != nil {
		h.log.Error("checkout host: legal page", "name", name, "err", err)
		h.serveError(w, r, http.StatusInternalServerError, "")
		return
	}
	p.Doc = doc
	if doc.Title == "" {
		p.Doc.Title = name
	}
	// The text's own language when it is not the page's (a German page falling back to English).
	if key != "" {
		doc, _, _ := strings.Cut(key, "-")
		if page, _, _ := strings.Cut(strings.ToLower(p.Current.ISO), "-"); doc != page {
			p.DocLang = doc
		}
	}
	h.render(w, r, http.StatusOK, "legal.html", p)
}
