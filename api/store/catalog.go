package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/streamcart/streamcart/api/console"
)

// SaveCatalog keeps source as the next catalog version and makes it the catalog setting key,
// in one transaction; console.ErrStale when v.Base is set and the setting holds another source.
// v.Before, when set, is kept as a version first (unless the newest version holds it).
func (s *db) SaveCatalog(ctx context.Context, key string, source []byte, v console.CatalogVersion) (console.CatalogVersion, error) {
	err := s.tx(ctx, func(q querier) error {
		if err := q.d.lock(ctx, q, "streamcart:catalog"); err != nil {
			return err
		}
		if v.Base != "" {
			// Made from another catalog than the one in force now (a concurrent publish won):
			// refused, nothing written. No row yet means the built-in catalog, checked by the caller.
			var cur string
			err := q.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&cur)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if sum := sha256.Sum256([]byte(cur)); err == nil && hex.EncodeToString(sum[:]) != v.Base {
				return console.ErrStale
			}
		}
		if v.Before != nil {
			// The source in force no version holds: kept first, unless the newest version is it.
			var last string
			err := q.QueryRowContext(ctx, `SELECT sha256 FROM catalog_versions ORDER BY version DESC LIMIT 1`).Scan(&last)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if sum := sha256.Sum256(v.Before); hex.EncodeToString(sum[:]) != last {
				if _, err := q.ExecContext(ctx, `INSERT INTO catalog_versions (version, source, sha256, operator, comment, created_at)
					SELECT COALESCE(MAX(version), 0) + 1, ?, ?, '', ?, ? FROM catalog_versions`,
					string(v.Before), hex.EncodeToString(sum[:]), "the catalog in force before it was first published here", fmtTime(v.CreatedAt)); err != nil {
					return err
				}
			}
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
	v.Base, v.Before = "", nil
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
