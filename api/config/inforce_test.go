package config_test

import (
	"testing"

	"github.com/streamcart/streamcart/api/config"
)

// InForce names each setting's source and masks what must not be shown.
func TestInForce(t *testing.T) {
	s := config.New("serve")
	var db, token, redis, key, name, poll string
	s.String(&db, "db", "./data/streamcart.db", "database")
	s.Secret(&token, "metrics-token", "bearer token")
	s.URL(&redis, "redis-url", "", "redis", "redis").MarkSecret()
	s.String(&key, "coinbase-key-id", "", "a key's id, not a secret")
	s.String(&name, "widget-api-key", "", "ends in KEY: a secret whatever it was declared")
	s.String(&poll, "job-poll", "1s", "poll")
	env := map[string]string{
		"STREAMCART_DB":                 "postgres://shop:s3cret@db.internal:5432/shop?sslmode=disable",
		"STREAMCART_METRICS_TOKEN_FILE": "/run/secrets/metrics",
		"STREAMCART_REDIS_URL":          "redis://:pa55@cache:6379/0",
		"STREAMCART_COINBASE_KEY_ID":    "organizations/1/apiKeys/2",
		"STREAMCART_WIDGET_API_KEY":     "pk_live_1",
	}
	s.Lookup = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	s.ReadFile = func(string) ([]byte, error) { return []byte("tok\n"), nil }
	if err := s.Parse([]string{"--job-poll=3s"}, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]config.InForce{
		"db":              {Env: "STREAMCART_DB", Value: "postgres://shop:••••@db.internal:5432/shop?sslmode=disable", Source: config.SourceEnvironment},
		"metrics-token":   {Env: "STREAMCART_METRICS_TOKEN_FILE", Value: "/run/secrets/metrics", Source: config.SourceEnvironment, Secret: true},
		"redis-url":       {Env: "STREAMCART_REDIS_URL", Value: "redis://:••••@cache:6379/0", Source: config.SourceEnvironment, Secret: true},
		"coinbase-key-id": {Env: "STREAMCART_COINBASE_KEY_ID", Value: "organizations/1/apiKeys/2", Source: config.SourceEnvironment},
		"widget-api-key":  {Env: "STREAMCART_WIDGET_API_KEY", Value: config.Masked, Source: config.SourceEnvironment, Secret: true},
		"job-poll":        {Env: "STREAMCART_JOB_POLL", Value: "3s", Source: config.SourceFlag},
	}
	got := s.InForce()
	if len(got) != len(want) {
		t.Fatalf("%d settings, want %d", len(got), len(want))
	}
	for _, g := range got {
		w := want[g.Name]
		if g.Env != w.Env || g.Value != w.Value || g.Source != w.Source || g.Secret != w.Secret {
			t.Errorf("%s: %+v, want %+v", g.Name, g, w)
		}
	}
	// Unset: the default, from the default.
	u := config.New("serve")
	u.String(&poll, "job-poll", "1s", "poll")
	u.Lookup = func(string) (string, bool) { return "", false }
	if err := u.Parse(nil, nil); err != nil {
		t.Fatal(err)
	}
	if g := u.InForce()[0]; g.Value != "1s" || g.Source != config.SourceDefault || g.Flag != "--job-poll" {
		t.Errorf("default: %+v", g)
	}
}
