# Streamcart: `make run` starts the shop, `make test` runs every test.
SHELL := /bin/bash
GO ?= go
NPM ?= npm
GOA := $(GO) run goa.design/goa/v3/cmd/goa
WIDGET_SRC := $(shell find widget/src -type f 2>/dev/null) widget/vite.config.ts widget/package.json

.PHONY: all deps build run test test-go test-widget check-cycles test-storybook test-e2e gen check-gen lint-openapi widget size bench soak clean

all: build

# npm ci only when the lockfile or a manifest changed since the last install.
node_modules/.installed: package-lock.json package.json widget/package.json examples/checkout/package.json examples/react-host/package.json storybook/package.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

# stripe-mock is a real (stateless) Stripe for the gateway tests, pinned and built from the module proxy.
STRIPE_MOCK := bin/stripe-mock

$(STRIPE_MOCK):
	GOBIN=$(CURDIR)/bin $(GO) install github.com/stripe/stripe-mock@v0.203.0

deps: node_modules/.installed $(STRIPE_MOCK)
	$(GO) mod download

widget/dist/streamcart.js: node_modules/.installed $(WIDGET_SRC)
	$(NPM) run build -w widget

widget: widget/dist/streamcart.js

# The binary embeds the widget bundle and the /checkout host, so the widget is built first.
build: widget
	$(GO) build -o bin/streamcart ./api/cmd/streamcart
	@echo "widget integrity: $$(./bin/streamcart version 2>/dev/null | sed -n 's/^integrity //p')"

# The embedding examples (/examples/…) are demo pages: served here, off unless asked elsewhere.
run: build
	STREAMCART_EXAMPLES=true ./bin/streamcart serve

gen:
	$(GOA) gen github.com/streamcart/streamcart/design
	# The served document is Goa's, completed with what Goa cannot say (nullable properties, every
	# error of each operation, the HTTP layer's answers, security, the Streamcart-Store header).
	$(GO) run ./api/cmd/openapidoc gen/http/openapi3.json api/httpapi/openapi3.json

# CI fails when the committed gen/ is not what `goa gen` makes of design/.
check-gen: gen
	@git diff --exit-code --stat -- gen api/httpapi/openapi3.json
	@test -z "$$(git status --porcelain -- gen)" || { git status --porcelain -- gen; echo "gen/ is stale: run make gen and commit"; exit 1; }

# The served OpenAPI document: 0 errors under Redocly's recommended rules (redocly.yaml), and a
# TypeScript client generated from it that the widget's response schemas must accept (tsc fails
# on drift: widget/openapi/check.ts). Offline: no telemetry, no update check.
lint-openapi: node_modules/.installed
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true node_modules/.bin/redocly lint --config redocly.yaml api/httpapi/openapi3.json
	node_modules/.bin/openapi-typescript api/httpapi/openapi3.json -o widget/openapi/openapi.gen.ts
	node_modules/.bin/tsc -p widget/openapi/tsconfig.json --noEmit

test-go: $(STRIPE_MOCK)
	$(GO) vet ./...
	STREAMCART_STRIPE_MOCK=$(CURDIR)/$(STRIPE_MOCK) $(GO) test -race -count=1 ./...

test-widget: node_modules/.installed
	$(NPM) test -w widget

# No import cycle in the widget's source; type-only imports count, since they tie two files together
# as tightly for a reader.
check-cycles: node_modules/.installed
	node_modules/.bin/madge --circular --no-spinner --extensions ts,tsx --ts-config widget/tsconfig.json widget/src

# Builds the static Storybook (from the widget's source) and opens every story in Chromium.
test-storybook: node_modules/.installed
	$(NPM) test -w storybook

test-e2e: build
	$(NPM) run e2e -w examples/checkout

test: deps check-gen lint-openapi test-go test-widget check-cycles test-storybook test-e2e

# The crash trial of api/faulttest for SOAK (a Go duration): two replicas on a fresh PostgreSQL
# database, SIGKILLed at random while 16 buyers order and pay; prints zero lost, duplicated and
# half-written orders, or fails. (A short version runs in test-go.)
SOAK ?= 3m
soak:
	set -o pipefail; STREAMCART_SOAK=$(SOAK) $(GO) test -count=1 -v -timeout 0 -run '^TestKillReplicasDuringOrders$$' ./api/faulttest/ | grep -E '^(soak:|--- |ok|FAIL|panic)|_test.go'

size: widget
	$(NPM) run size -w widget

clean:
	rm -rf bin widget/dist/*.js widget/dist/*.map widget/dist/assets widget/lib examples/react-host/dist storybook/storybook-static node_modules/.installed
