# Streamcart: `make run` starts the shop, `make test` runs every test.
SHELL := /bin/bash
GO ?= go
NPM ?= npm
GOA := $(GO) run goa.design/goa/v3/cmd/goa
WIDGET_SRC := $(shell find widget/src -type f 2>/dev/null) widget/vite.config.ts widget/package.json
CONSOLE_SRC := $(shell find widget/console/src widget/console/public -type f 2>/dev/null) widget/console/index.html widget/vite.console.config.ts widget/package.json

.PHONY: all deps build run run-whmcs test test-go lint-go test-widget check-cycles lint-ts test-storybook test-e2e lighthouse lint-package gen check-gen check-disposable lint-openapi widget console size bench soak clean

all: build

# npm ci only when the lockfile or a manifest changed since the last install.
node_modules/.installed: package-lock.json package.json widget/package.json examples/checkout/package.json examples/react-host/package.json storybook/package.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

# stripe-mock is a real (stateless) Stripe for the gateway tests, pinned and built from the module proxy.
STRIPE_MOCK := bin/stripe-mock

$(STRIPE_MOCK):
	GOBIN=$(CURDIR)/bin $(GO) install github.com/stripe/stripe-mock@v0.203.0

# staticcheck, pinned like stripe-mock (its 2026.2 release knows Go 1.26).
STATICCHECK := bin/staticcheck

$(STATICCHECK):
	GOBIN=$(CURDIR)/bin $(GO) install honnef.co/go/tools/cmd/staticcheck@v0.8.2

deps: node_modules/.installed $(STRIPE_MOCK) $(STATICCHECK)
	$(GO) mod download

# The script-tag files are precompressed here (.br, .gz beside each): api/web serves those copies.
# The builds add to dist/ (two of them, and .gitkeep is tracked): the previous build's hashed
# chunks are removed first, or the binary would embed every one of them.
widget/dist/streamcart.js: node_modules/.installed $(WIDGET_SRC) widget/scripts/compress.mjs
	find widget/dist -mindepth 1 -maxdepth 1 ! -name .gitkeep -exec rm -rf {} +
	$(NPM) run build -w widget
	node widget/scripts/compress.mjs

widget: widget/dist/streamcart.js

# The seller's console (/checkout/admin/): its own React entry, built into widget/console/dist.
widget/console/dist/index.html: node_modules/.installed $(CONSOLE_SRC)
	$(NPM) run build:console -w widget

console: widget/console/dist/index.html

# The binary embeds the widget bundle, the console and the /checkout host, so they are built first.
# Built with api/cmd/streamcart/default.pgo (go build's -pgo=auto): a profile-guided build, a few
# per cent less CPU per request (docs/benchmarks.md); api/bench/pgo.sh makes the profile again.
build: widget console
	$(GO) build -o bin/streamcart ./api/cmd/streamcart
	@echo "widget integrity: $$(./bin/streamcart version 2>/dev/null | sed -n 's/^integrity //p')"

# The embedding examples (/examples/…) are demo pages: served here, off unless asked elsewhere.
run: build
	STREAMCART_EXAMPLES=true ./bin/streamcart serve

# The shop in WHMCS mode (docs/whmcs.md) in front of the fake WHMCS (api/cmd/whmcs-fake) and its
# demo data, on a database of its own: the storefront's plans come from the fake. Ctrl-C stops both.
WHMCS_FAKE_ADDR ?= 127.0.0.1:8090
run-whmcs: build
	$(GO) build -o bin/whmcs-fake ./api/cmd/whmcs-fake
	mkdir -p data; ./bin/whmcs-fake --addr $(WHMCS_FAKE_ADDR) --state ./data/whmcs-fake.json & fake=$$!; trap 'kill $$fake 2>/dev/null' EXIT; \
	for i in $$(seq 50); do (exec 3<>/dev/tcp/$(subst :,/,$(WHMCS_FAKE_ADDR))) 2>/dev/null && break; sleep 0.1; done; \
	STREAMCART_EXAMPLES=true STREAMCART_DB=./data/streamcart-whmcs.db STREAMCART_BACKEND=whmcs \
	STREAMCART_WHMCS_URL=http://$(WHMCS_FAKE_ADDR)/includes/api.php \
	STREAMCART_WHMCS_IDENTIFIER=demo-identifier STREAMCART_WHMCS_SECRET=demo-secret \
	STREAMCART_WHMCS_PLANS_GROUP=1 STREAMCART_WHMCS_RESELLER_GROUP=2 \
	STREAMCART_WHMCS_GATEWAYS=sandbox=banktransfer,stripe=stripe,coinbase=coinbase,cryptomus=cryptomus \
	./bin/streamcart serve

gen:
	$(GOA) gen github.com/streamcart/streamcart/design
	# The served document is Goa's, completed with what Goa cannot say (nullable properties, closed answer objects, every
	# error of each operation, the HTTP layer's answers, security, the Streamcart-Store header).
	$(GO) run ./api/cmd/openapidoc gen/http/openapi3.json api/httpapi/openapi3.json

# CI fails when the committed gen/ is not what `goa gen` makes of design/.
check-gen: gen
	@git diff --exit-code --stat -- gen api/httpapi/openapi3.json
	@test -z "$$(git status --porcelain -- gen)" || { git status --porcelain -- gen; echo "gen/ is stale: run make gen and commit"; exit 1; }

# The throwaway-address list (api/disposable/domains.txt) is the pinned mailchecker release's,
# unedited: refresh.sh fetches that version with npm and compares.
check-disposable:
	api/disposable/refresh.sh --check

# The served OpenAPI document: 0 errors under Redocly's recommended rules (redocly.yaml), and a
# TypeScript client generated from it that the widget's response schemas must accept (tsc fails
# on drift: widget/openapi/check.ts). Offline: no telemetry, no update check.
lint-openapi: node_modules/.installed
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true node_modules/.bin/redocly lint --config redocly.yaml api/httpapi/openapi3.json
	node_modules/.bin/openapi-typescript api/httpapi/openapi3.json -o widget/openapi/openapi.gen.ts
	node_modules/.bin/tsc -p widget/openapi/tsconfig.json --noEmit

test-go: $(STRIPE_MOCK)
	$(GO) vet ./...
	# api/app's integration tests take about 10 minutes under -race on 2 cores: above go test's
	# default per-package limit. -pgo=off: the tests of api/cmd/streamcart (a main package with a
	# default.pgo) would otherwise compile every package once more, under -race with the profile,
	# for the same behaviour. The tests that start the binary build it as make build does.
	STREAMCART_STRIPE_MOCK=$(CURDIR)/$(STRIPE_MOCK) $(GO) test -race -pgo=off -count=1 -timeout 45m ./...

# staticcheck's default checks with zero findings; staticcheck.conf files say what is off and why.
# gen/ is Goa's output, never edited by hand: a finding there cannot be mended where it is (the
# playlist's encoder, for one, sets a context value it never reads), so staticcheck reads the rest.
lint-go: $(STATICCHECK)
	$(STATICCHECK) $$($(GO) list ./... | grep -v '/gen/')

test-widget: node_modules/.installed
	$(NPM) test -w widget
	$(NPM) run test:console -w widget

# No import cycle in the widget's source; type-only imports count, since they tie two files together
# as tightly for a reader.
check-cycles: node_modules/.installed
	node_modules/.bin/madge --circular --no-spinner --extensions ts,tsx --ts-config widget/tsconfig.json widget/src

# ESLint (eslint.config.js: typescript-eslint, react-hooks, jsx-a11y) with zero warnings, and Prettier's
# check of the TypeScript and JavaScript of widget/, storybook/ and examples/. `npm run lint:fix` applies
# every automatic fix of both.
lint-ts: node_modules/.installed
	$(NPM) run lint

# Builds the static Storybook (from the widget's source) and opens every story in Chromium.
test-storybook: node_modules/.installed
	$(NPM) test -w storybook

test-e2e: build $(STRIPE_MOCK)
	$(NPM) run e2e -w examples/checkout

# Lighthouse (mobile, simulated throttling, Debian's Chromium) on /checkout/ of the built binary:
# prints performance, CLS, TBT and accessibility and the API requests on load, and writes the
# reports to bin/lighthouse/. Scores depend on the machine: reported, never asserted.
# LIGHTHOUSE_RUNS=3 for a median.
LIGHTHOUSE_RUNS ?= 1
lighthouse: build
	node examples/checkout/bench/lighthouse.mjs $(LIGHTHOUSE_RUNS) /checkout/

# The npm package as users get it: custom-elements.json is what the Custom Elements Manifest
# analyzer makes of the element's JSDoc (committed, so it must be current), then publint and
# @arethetypeswrong/cli on the packed tarball (ESM only: the CommonJS resolutions are not offered).
# The package is built first: publint reads lib/, which only the React host's build made before.
lint-package: node_modules/.installed
	$(NPM) run build:package -w widget
	cd widget && ../node_modules/.bin/cem analyze
	@git diff --exit-code --stat -- widget/custom-elements.json || { echo "widget/custom-elements.json is stale: run npm run analyze -w widget and commit"; exit 1; }
	cd widget && ../node_modules/.bin/publint --strict && ../node_modules/.bin/attw --pack . --profile esm-only

test: deps check-gen check-disposable lint-openapi lint-go test-go test-widget check-cycles lint-ts test-storybook test-e2e lighthouse lint-package

# The crash trial of api/faulttest for SOAK (a Go duration): two replicas on a fresh PostgreSQL
# database, SIGKILLed at random while 16 buyers order and pay; prints zero lost, duplicated and
# half-written orders, or fails. (A short version runs in test-go.)
SOAK ?= 3m
soak:
	set -o pipefail; STREAMCART_SOAK=$(SOAK) $(GO) test -count=1 -v -timeout 0 -run '^TestKillReplicasDuringOrders$$' ./api/faulttest/ | grep -E '^(soak:|--- |ok|FAIL|panic)|_test.go'

size: widget
	$(NPM) run size -w widget

clean:
	rm -rf bin widget/dist/*.js widget/dist/*.map widget/dist/assets widget/console/dist/assets widget/console/dist/index.html widget/console/dist/favicon.svg widget/lib examples/react-host/dist storybook/storybook-static node_modules/.installed
