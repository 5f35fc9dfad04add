package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/console"
)

// SaveCatalog keeps source as the next catalog version and makes it the catalog setting key,
// in one transaction.
func (s *db) SaveCatalog(ctx context.Context, key string, source []byte, v console.CatalogVersion) (console.CatalogVersion, error) {
	err := s.tx(ctx, func(q querier) error {
		if err := q.d.lock(ctx, q, "streamcart:catalog"); err != nil {
			return err
		}
		if err := q.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) + 1 FROM catalog_versions`).Scan(&v.Version); err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO catalog_versions (version, source, sha256, operator, comment, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			v.Version, string(source), v.SHA256, v.Operator, v.Comment, fmtTime(v.CreatedAt)); err != nil {
			return err
		}
		_, err := q.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`, key, source, fmtTime(v.CreatedAt))
		return err
	})
	if err != nil {
		return v, fmt.Errorf("save catalog: %w", err)
	}
	return v, nil
}

// CatalogVersions lists the saved catalogs, newest first.
func (s *db) CatalogVersions(ctx context.Context) ([]console.CatalogVersion, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT version, operator, comment, sha256, created_at FROM catalog_versions ORDER BY version DESC`)
	if err != nil {
		return nil, fmt.Errorf("catalog versions: %w", err)
	}
	defer rows.Close()
	out := []console.CatalogVersion{}
	for rows.Next() {
		var v console.CatalogVersion
		var at string
		if err := rows.Scan(&v.Version, &v.Operator, &v.Comment, &v.SHA256, &at); err != nil {
			return nil, fmt.Errorf("catalog versions: %w", err)
		}
		v.CreatedAt = parseTime(at)
		out = append(out, v)
	}
	return out, rows.Err()
}

// CatalogVersion reads one saved catalog; console.ErrNotFound when none.
func (s *db) CatalogVersion(ctx context.Context, version int64) (console.CatalogVersion, []byte, error) {
	var v console.CatalogVersion
	var at, src string
	err := s.r.QueryRowContext(ctx, `SELECT version, operator, comment, sha256, created_at, source FROM catalog_versions WHERE version = ?`, version).
		Scan(&v.Version, &v.Operator, &v.Comment, &v.SHA256, &at, &src)
	if errors.Is(err, sql.ErrNoRows) {
		return v, nil, console.ErrNotFound
	}
	if err != nil {
		return v, nil, fmt.Errorf("catalog version: %w", err)
	}
	v.CreatedAt = parseTime(at)
	return v, []byte(src), nil
}
