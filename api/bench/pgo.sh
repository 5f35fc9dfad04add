#!/usr/bin/env bash
# Makes the CPU profile the streamcart binary is built with (profile-guided optimisation: hotter
# calls inlined, interface calls devirtualised; 2–5 % fewer instructions per product-list request,
# docs/benchmarks.md). `go build ./api/cmd/streamcart` (make build) picks up
# api/cmd/streamcart/default.pgo by itself; `make test`'s test binaries are built with -pgo=off,
# since a profile means every package the binary uses is compiled again (≈5 CPU minutes):
#   api/bench/pgo.sh api/cmd/streamcart/default.pgo
# The profile is four 10-second windows of api/bench/profserve (a shop served as `streamcart serve`
# serves it) under the loads the shop meets most, merged: GET /checkout/api/products (wrk), POST
# /checkout/api/quote (wrk), and orders (api/bench/orders) on SQLite and on PostgreSQL. Re-run it
# when the hot paths change much; a stale profile costs only the gain, never correctness.
# Usage: api/bench/pgo.sh OUT.pgo   (PostgreSQL at STREAMCART_BENCH_POSTGRES, default the local one)
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 OUT.pgo" >&2; exit 2; }
out=$(realpath -m "$1")
cd "$(dirname "$0")/../.."
pg=${STREAMCART_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS streamcart_pgo WITH (FORCE)" >/dev/null 2>&1; rm -rf "$tmp"' EXIT
go build -pgo=off -o "$tmp/profserve" ./api/bench/profserve
go build -o "$tmp/orders" ./api/bench/orders
addr=127.0.0.1:18189
cat >"$tmp/quote.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"pid":3,"billingCycle":"annually","currency":"GBP","extraConnections":2,"proxyProtection":true,"promoCode":"WELCOME10"}'
wrk.headers["Content-Type"] = "application/json"
LUA
# window NAME DB LOAD...: profiles seconds 2–12 of a fresh shop on DB while LOAD runs.
window() {
  local name=$1 db=$2; shift 2
  "$tmp/profserve" --addr "$addr" --db "$db" --after 2s --for 10s --cpuprofile "$tmp/$name.pprof" 2>/dev/null &
  local p=$!
  until curl -sf "http://$addr/readyz" >/dev/null; do kill -0 $p || exit 1; sleep 0.1; done
  "$@" >/dev/null
  sleep 1
  kill -INT $p; wait $p || true
  echo "$name: $(go tool pprof -top "$tmp/$name.pprof" 2>/dev/null | sed -n 's/^Duration: //p')"
}
window products "$tmp/p.db" wrk -t2 -c64 -d13s "http://$addr/checkout/api/products"
window quote "$tmp/q.db" wrk -t2 -c64 -d13s -s "$tmp/quote.lua" "http://$addr/checkout/api/quote"
window orders "$tmp/o.db" "$tmp/orders" --clients 16 --duration 13s --targets "http://$addr"
psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS streamcart_pgo WITH (FORCE)" -c "CREATE DATABASE streamcart_pgo"
window orders-postgres "$pg/streamcart_pgo" "$tmp/orders" --clients 16 --duration 13s --targets "http://$addr"
go tool pprof -proto "$tmp"/products.pprof "$tmp"/quote.pprof "$tmp"/orders.pprof "$tmp"/orders-postgres.pprof >"$out" 2>/dev/null
echo "wrote $out ($(wc -c <"$out") bytes)"
