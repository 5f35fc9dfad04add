#!/usr/bin/env bash
# Orders/s at 16 clients (api/bench/orders) against: SQLite; PostgreSQL with one replica;
# PostgreSQL with two replicas on one database. Each run starts on a fresh database.
# Usage: api/bench/orders.sh [seconds] [clients]
# PostgreSQL: STREAMCART_BENCH_POSTGRES (default postgres://postgres@127.0.0.1:5432), which must
# allow CREATE DATABASE; the benchmark databases are dropped at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}; clients=${2:-16}
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
go build -o "$tmp/streamcart" ./api/cmd/streamcart
go build -o "$tmp/orders" ./api/bench/orders

# serve PORT DB: one replica as deployed behind a proxy (client addresses from X-Forwarded-For),
# default fraud limit, logs off the terminal.
serve() {
  STREAMCART_DB="$2" STREAMCART_TRUST_PROXY=true STREAMCART_GEO_DB= STREAMCART_SECRET_KEY="$key" \
    "$tmp/streamcart" serve --addr "127.0.0.1:$1" 2>>"$tmp/serve.log" &
  until curl -sf "http://127.0.0.1:$1/readyz" >/dev/null; do sleep 0.1; done
}
stop() { kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; }
# newdb NAME: creates a fresh database and sets db to its URL (no subshell: dbs must remember it).
newdb() {
  local d="streamcart_bench_$$_$1"
  dbs+=("$d")
  psql -q "$pg/postgres" -c "CREATE DATABASE $d" >/dev/null
  db="$pg/$d?sslmode=disable"
}
key=$(head -c 32 /dev/urandom | base64)
run() { "$tmp/orders" --clients "$clients" --duration "${secs}s" --targets "$1"; }

echo "nproc $(nproc), load $(cut -d' ' -f1-3 /proc/loadavg), $clients clients, ${secs}s each"
serve 18089 "$tmp/s.db"
echo -n "SQLite, 1 process:          "; run http://127.0.0.1:18089
stop
newdb one; serve 18089 "$db"
echo -n "PostgreSQL, 1 replica:      "; run http://127.0.0.1:18089
stop
newdb two; serve 18089 "$db"; serve 18092 "$db"
echo -n "PostgreSQL, 2 replicas:     "; run http://127.0.0.1:18089,http://127.0.0.1:18092
stop
