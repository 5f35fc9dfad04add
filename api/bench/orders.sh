#!/usr/bin/env bash
# Orders/s at 16 clients (api/bench/orders) against: SQLite; PostgreSQL with one replica;
# PostgreSQL with two replicas on one database. Each run starts on a fresh database. First, the
# anchor: the same load generator against a bare net/http server (api/bench/plain) answering
# with the bytes of a real order answer, i.e. what this machine's HTTP allows at the moment.
# Every line gives the load average before it and the CPU per order of Streamcart, of its
# PostgreSQL backends and of the load generator in the measured window; rounds repeats the set.
# Usage: api/bench/orders.sh [seconds] [clients] [rounds]
# PostgreSQL: STREAMCART_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432), which must
# allow CREATE DATABASE; the benchmark databases are dropped at the end. STREAMCART_BENCH_BIN
# runs that streamcart binary instead of building this tree's (to compare two commits).
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}; clients=${2:-16}; rounds=${3:-1}
pg=${STREAMCART_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
tmp=$(mktemp -d)
dbs=()
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  for d in "${dbs[@]}"; do psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
if [ -n "${STREAMCART_BENCH_BIN:-}" ]; then cp "$STREAMCART_BENCH_BIN" "$tmp/streamcart"; else go build -o "$tmp/streamcart" ./api/cmd/streamcart; fi
go build -o "$tmp/orders" ./api/bench/orders
go build -o "$tmp/plain" ./api/bench/plain

. api/bench/freeport.sh
# up PID URL: waits until URL answers, failing if PID exited first (its port was taken, say).
up() {
  until curl -sf "$2" >/dev/null; do
    kill -0 "$1" 2>/dev/null || { echo "server for $2 exited; log:" >&2; tail -3 "$tmp/serve.log" >&2; exit 1; }
    sleep 0.1
  done
}
# serve DB: one replica as deployed behind a proxy (client addresses from X-Forwarded-For),
# default fraud limit, logs off the terminal; appends its base URL to targets.
targets=""
serve() {
  local port; port=$(freeport)
  STREAMCART_DB="$1" STREAMCART_TRUST_PROXY=true STREAMCART_RATE_LIMITS=off STREAMCART_GEO_DB= STREAMCART_SECRET_KEY="$key" \
    "$tmp/streamcart" serve --addr "127.0.0.1:$port" 2>>"$tmp/serve.log" &
  up $! "http://127.0.0.1:$port/readyz"
  targets="${targets:+$targets,}http://127.0.0.1:$port"
}
stop() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; targets=""; }
# newdb NAME: creates a fresh database and sets db to its URL and dbname to its name (no
# subshell: dbs must remember it).
newdb() {
  dbname="streamcart_bench_$$_$1"
  dbs+=("$dbname")
  psql -q "$pg/postgres" -c "CREATE DATABASE $dbname" >/dev/null
  db="$pg/$dbname?sslmode=disable"
}
key=$(head -c 32 /dev/urandom | base64)
# run [flags]: the load generator against targets; --cpu flags name this run's processes only.
run() { "$tmp/orders" --clients "$clients" --duration "${secs}s" --targets "$targets" "$@"; }
shop=(--cpu "streamcart=$tmp/streamcart")
load() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }

# The anchor's answer: one real order, placed on a throwaway SQLite shop.
serve "$tmp/anchor.db"
api=$targets/checkout/api
token=$(curl -sf -H 'Content-Type: application/json' -d '{"email":"anchor@example.com"}' "$api/session" | sed -n 's/.*"token":"\([^"]*\)".*/\1/p')
curl -sf -H 'Content-Type: application/json' -H "Authorization: Bearer $token" -H 'Idempotency-Key: anchor' \
  -d '{"pid":2,"billingCycle":"monthly"}' "$api/orders" >"$tmp/order.json"
stop

echo "nproc $(nproc), $clients clients, ${secs}s each, order answer $(wc -c <"$tmp/order.json") bytes"
for round in $(seq "$rounds"); do
  [ "$rounds" -gt 1 ] && echo "round $round"
  port=$(freeport)
  "$tmp/plain" --addr "127.0.0.1:$port" --file "$tmp/order.json" &
  up $! "http://127.0.0.1:$port/"
  targets="http://127.0.0.1:$port"
  echo "plain net/http anchor ($(load)):"; run --anchor --cpu "plain=$tmp/plain"
  stop
  serve "$tmp/s$round.db"
  echo "SQLite, 1 process ($(load)):"; run "${shop[@]}"
  stop
  newdb "one$round"; serve "$db"
  echo "PostgreSQL, 1 replica ($(load)):"; run "${shop[@]}" --cpu "postgres= $dbname "
  stop
  newdb "two$round"; serve "$db"; serve "$db"
  echo "PostgreSQL, 2 replicas ($(load)):"; run "${shop[@]}" --cpu "postgres= $dbname "
  stop
done
