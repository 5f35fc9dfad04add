package whmcsfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// snapshot is the fake's records as its state file keeps them.
type snapshot struct {
	Clients      []*client      `json:"clients"`
	Orders       []*order       `json:"orders"`
	Invoices     []*invoice     `json:"invoices"`
	Transactions []*transaction `json:"transactions"`
	Services     []*service     `json:"services"`
	Promotions   []*Promotion   `json:"promotions"`
	Upgrades     []*upgrade     `json:"upgrades"`
	Module       []ModuleCall   `json:"module"`
}

// Open makes a fake WHMCS whose records live in the file at path, as a real WHMCS's live in its
// database: read when the file exists (else the fake starts from seed), written after every API
// call and cron run. Stopping the fake and starting it again on the same file keeps its clients,
// orders, invoices, payments and services (`make run-whmcs`: trying an outage by hand).
func Open(seed Seed, path string, opts ...Option) (*Fake, error) {
	f := New(seed, opts...)
	f.stateFile = path
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, f.save()
	}
	if err != nil {
		return nil, fmt.Errorf("whmcsfake: state: %w", err)
	}
	var s snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("whmcsfake: state %s: %w", path, err)
	}
	f.clients, f.orders, f.invoices, f.transactions = s.Clients, s.Orders, s.Invoices, s.Transactions
	f.services, f.promotions, f.upgrades, f.module = s.Services, s.Promotions, s.Upgrades, s.Module
	return f, nil
}

// save writes the records to the state file, if any, through a temporary file (a crash leaves
// the previous state). The caller holds the lock, or is the only user (Open).
func (f *Fake) save() error {
	if f.stateFile == "" {
		return nil
	}
	b, err := json.Marshal(snapshot{f.clients, f.orders, f.invoices, f.transactions, f.services, f.promotions, f.upgrades, f.module})
	if err != nil {
		return fmt.Errorf("whmcsfake: state: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.stateFile), ".whmcs-fake-*")
	if err != nil {
		return fmt.Errorf("whmcsfake: state: %w", err)
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("whmcsfake: state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("whmcsfake: state: %w", err)
	}
	if err := os.Rename(tmp.Name(), f.stateFile); err != nil {
		return fmt.Errorf("whmcsfake: state: %w", err)
	}
	return nil
}
