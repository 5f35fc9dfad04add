package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/streamcart/streamcart/api/catalog"
	"github.com/streamcart/streamcart/api/store"
)

// LegalSetting names the settings row holding the Markdown files of the catalog's legal pages
// (JSON, path → text) as the last import read them beside the catalog file. Replicas and the
// console resolve the catalog's legal entries there, never in a folder of their own machine: a
// catalog in the database has no folder.
const LegalSetting = "catalog.legal"

// storeLegal keeps the legal files c was loaded with. It runs before the catalog is stored, so a
// replica never reads the new catalog without its files.
func storeLegal(ctx context.Context, st store.Backend, c *catalog.Catalog) error {
	raw, err := json.Marshal(legalBundle(c.LegalFiles()))
	if err != nil {
		return err
	}
	return st.PutSetting(ctx, LegalSetting, raw)
}

// legalBundle is the stored form: texts, not base64.
func legalBundle(files map[string][]byte) map[string]string {
	out := make(map[string]string, len(files))
	for p, b := range files {
		out[p] = string(b)
	}
	return out
}

// storedLegal reads the stored legal files; nil when none were ever stored.
func storedLegal(ctx context.Context, st store.Backend) ([]byte, error) {
	raw, err := st.Setting(ctx, LegalSetting)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("legal files: %w", err)
	}
	return raw, nil
}

// legalReader resolves the legal entries of the stored catalog source: the demo catalog's own
// files for the demo as embedded, else the stored files.
func legalReader(source, stored []byte) (catalog.LegalReader, error) {
	if bytes.Equal(source, catalog.DemoYAML()) {
		return catalog.DemoLegal(), nil
	}
	files := map[string]string{}
	if stored != nil {
		if err := json.Unmarshal(stored, &files); err != nil {
			return nil, fmt.Errorf("legal files: %w", err)
		}
	}
	b := make(map[string][]byte, len(files))
	for p, s := range files {
		b[p] = []byte(s)
	}
	return catalog.MapReader(b), nil
}

// demoLegalBundle is the demo's files in the stored form, stored with the demo catalog on first
// start so a console edit of the demo keeps its pages.
func demoLegalBundle() []byte {
	raw, _ := json.Marshal(legalBundle(catalog.Demo().LegalFiles()))
	return raw
}

// consoleLegal reads the stored legal files for a catalog saved in the console: a legal entry
// naming a file the last import did not store is refused (import the catalog with its files).
func (a *App) consoleLegal(ctx context.Context, source []byte) (catalog.LegalReader, error) {
	stored, err := storedLegal(ctx, a.store)
	if err != nil {
		return nil, err
	}
	read, err := legalReader(source, stored)
	if err != nil {
		return nil, err
	}
	return func(name string) ([]byte, error) {
		b, err := read(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errNotImported
		}
		return b, err
	}, nil
}

// errNotImported says why the console cannot take a new legal file, and what can.
var errNotImported = errors.New("is not among the files stored by the last import: the console has no catalog folder, so add a file with `streamcart catalog import FILE` from the folder that holds it")
