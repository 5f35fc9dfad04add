#!/usr/bin/env bash
# Compares two streamcart binaries (e.g. the base commit's and this tree's) on the figures of
# issue 24, alternating them so both see the same machine:
#   1. GET /checkout/api/products ÷ plain net/http serving the same bytes (wrk -t2 -c64, as
#      load.sh), each binary then plain, [runs] times; with the server's CPU per request;
#   2. api/bench/orders.sh [seconds] 16 1 with each binary: orders/s and the CPU per order of the
#      shop and of PostgreSQL (SQLite, PostgreSQL with one replica, two replicas), [runs] times.
# The load average is printed before each measurement. Access lines go to /dev/null, as load.sh
# sends them; orders.sh appends them to a file.
# Each server first gets a 2-second warm-up run, not counted (the first runs of a fresh process
# were 10–15 % below the rest). COMPARE_ORDERS=0 stops after the read path.
# Usage: api/bench/compare.sh BASE_BIN NEW_BIN [seconds] [runs]
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 BASE_BIN NEW_BIN [seconds] [runs]" >&2; exit 2; }
base=$(realpath "$1"); new=$(realpath "$2"); secs=${3:-10}; runs=${4:-3}
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/plain" ./api/bench/plain
load() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
tck=$(getconf CLK_TCK)
cputicks() { awk '{print $14+$15}' "/proc/$1/stat"; }
# measure PID URL: "req/s cpu-µs-per-request" of a wrk run against URL served by PID.
measure() {
  local t0 t1 out n rps
  t0=$(cputicks "$1")
  out=$(wrk -t2 -c64 -d"${secs}s" "$2")
  t1=$(cputicks "$1")
  n=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  echo "$rps $(awk "BEGIN{printf \"%.1f\", ($t1-$t0)/$tck*1e6/$n}")"
}
up() { until curl -sf "$1" >/dev/null; do sleep 0.1; done; }

echo "== GET /checkout/api/products vs plain net/http (wrk -t2 -c64 -d${secs}s), nproc $(nproc)"
declare -A ratios
for name in base new; do
  bin=$base; [ "$name" = new ] && bin=$new
  port=$((18400 + ${#name})); pport=$((port + 10))
  STREAMCART_DB="$tmp/$name.db" STREAMCART_RATE_LIMITS=off "$bin" serve --addr "127.0.0.1:$port" 2>/dev/null &
  eval "${name}_pid=$!"
  up "http://127.0.0.1:$port/readyz"
  curl -sf "http://127.0.0.1:$port/checkout/api/products" >"$tmp/$name.json"
  "$tmp/plain" --addr "127.0.0.1:$pport" --file "$tmp/$name.json" &
  eval "${name}_plain=$!"
  up "http://127.0.0.1:$pport/"
done
for name in base new; do
  port=$((18400 + ${#name})); pport=$((port + 10))
  wrk -t2 -c64 -d2s "http://127.0.0.1:$port/checkout/api/products" >/dev/null
  wrk -t2 -c64 -d2s "http://127.0.0.1:$pport/" >/dev/null
done
cmp -s "$tmp/base.json" "$tmp/new.json" || echo "note: the two binaries answer different bytes ($(wc -c <"$tmp/base.json") / $(wc -c <"$tmp/new.json"))"
for run in $(seq "$runs"); do
  for name in base new; do
    port=$((18400 + ${#name})); pport=$((port + 10))
    pid_var=${name}_pid; plain_var=${name}_plain
    l=$(load)
    read -r a acpu < <(measure "${!pid_var}" "http://127.0.0.1:$port/checkout/api/products")
    read -r b bcpu < <(measure "${!plain_var}" "http://127.0.0.1:$pport/")
    r=$(awk "BEGIN{printf \"%.2f\", $a/$b}")
    ratios[$name]="${ratios[$name]:-} $r"
    echo "run $run $name ($l): streamcart $a req/s ($acpu µs CPU/req), plain $b req/s ($bcpu µs CPU/req), ratio $r"
  done
done
for name in base new; do echo "ratio $name:${ratios[$name]}"; done
kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true
[ "${COMPARE_ORDERS:-1}" = 0 ] && exit 0

echo "== orders: api/bench/orders.sh $secs 16 1, alternating"
for run in $(seq "$runs"); do
  for name in base new; do
    bin=$base; [ "$name" = new ] && bin=$new
    echo "-- run $run $name ($(load))"
    STREAMCART_BENCH_BIN=$bin api/bench/orders.sh "$secs" 16 1 2>&1 | grep -E '^(plain|SQLite|PostgreSQL|orders/s|CPU per)' || true
  done
done
echo "end ($(load))"
