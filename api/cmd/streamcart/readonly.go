package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/streamcart/streamcart/api/app"
	"github.com/streamcart/streamcart/api/config"
	"github.com/streamcart/streamcart/api/store"
)

// readOnlySettings are the settings of a listing (mail, audit, affiliates, storefront,
// payments, …): the database only; the command adds its own flags to s.Flags().
func readOnlySettings(name string) (*config.Set, *app.Config) {
	var cfg app.Config
	s := config.New(name)
	dbSetting(s, &cfg)
	return s, &cfg
}

// openExisting opens the database of a command that only reads: a mistyped --db must not
// create and migrate an empty database that the command then lists as "nothing". Nothing is
// created: a SQLite file must exist, a PostgreSQL database must answer.
func openExisting(ctx context.Context, db string) (store.Backend, error) {
	if store.IsPostgresURL(db) {
		if err := postgresExists(ctx, db); err != nil {
			return nil, err
		}
	} else if fi, err := os.Stat(db); err != nil || fi.IsDir() {
		return nil, fmt.Errorf("database %s does not exist (--db or STREAMCART_DB; serve or migrate creates it)", db)
	}
	return store.OpenURL(ctx, db)
}

// postgresExists connects to db without creating it (store.OpenPostgres would).
func postgresExists(ctx context.Context, db string) error {
	shown := db
	if u, err := url.Parse(db); err == nil {
		shown = u.Redacted() // the URL may carry a password
	}
	conn, err := sql.Open("pgx", db)
	if err != nil {
		return fmt.Errorf("database %s: %w", shown, err)
	}
	defer conn.Close()
	err = conn.PingContext(ctx)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "3D000" { // invalid_catalog_name
		return fmt.Errorf("database %s does not exist (--db or STREAMCART_DB; serve or migrate creates it)", shown)
	}
	if err != nil {
		return fmt.Errorf("database %s: %w", shown, err)
	}
	return nil
}
