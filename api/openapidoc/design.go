package openapidoc

import (
	"sync"

	"goa.design/goa/v3/eval"
	"goa.design/goa/v3/expr"

	_ "github.com/streamcart/streamcart/design" // evaluated here as goa gen does
)

// Build is the served document made of Goa's (gen/http/openapi3.json): completed with the
// nullable properties, the design's errors of each operation and the HTTP layer's.
func Build(goa []byte) ([]byte, error) {
	errs, err := DesignErrors()
	if err != nil {
		return nil, err
	}
	return Complete(goa, Completion{Nullable: Nullable, Errors: errs, RateLimited: RateLimited, EventStreams: EventStreams})
}

var design struct {
	once sync.Once
	errs map[string][]Error
	err  error
}

// DesignErrors are the errors of every operation ("POST /checkout/api/orders") in the order the
// design gives them, read from the evaluated design (Goa's document keeps one per status).
func DesignErrors() (map[string][]Error, error) {
	design.once.Do(func() {
		if errs := eval.Context.Errors; errs != nil {
			design.err = errs
			return
		}
		if design.err = eval.RunDSL(); design.err != nil {
			return
		}
		design.errs = map[string][]Error{}
		for _, svc := range expr.Root.API.HTTP.Services {
			for _, e := range svc.HTTPEndpoints {
				errs := []Error{}
				for _, he := range e.HTTPErrors {
					oe := Error{
						Name: he.Name, Description: he.Description, Status: he.Response.StatusCode,
						Custom: he.Type != expr.ErrorResult,
					}
					if oe.Custom && he.Response.Headers.IsEmpty() {
						oe.Schema = he.Type.Name() // the body is the type itself
					}
					errs = append(errs, oe)
				}
				for _, r := range e.Routes {
					for _, p := range r.FullPaths() {
						design.errs[r.Method+" "+expr.HTTPWildcardRegex.ReplaceAllString(p, "/{$1}")] = errs
					}
				}
			}
		}
	})
	return design.errs, design.err
}
