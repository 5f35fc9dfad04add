#!/usr/bin/env bash
# Instructions per GET /checkout/api/products of a streamcart binary and of plain net/http
# (api/bench/plain) serving the same bytes, counted by callgrind, which neighbours on a shared
# machine do not change (wrk's req/s do): the read ratio's evidence when no quiet machine is at
# hand. Each server runs under `valgrind --tool=callgrind` (Go's asynchronous preemption and its
# RDTSCP use off, see instructions.sh); 2,000 warm-up requests, counters zeroed, 4 s idle dumped
# (the background: tickers, jobs), N requests on 4 keep-alive connections dumped; the figure is
# (window − idle × window's length ÷ 4 s) ÷ N. plain+headers is plain sending the list's header
# lines too (api/bench/plain --headers): the part of the gap that is net/http writing them.
# Usage: api/bench/readinstr.sh BINARY [N=4000]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "$1"); n=${2:-4000}
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/plain" ./api/bench/plain
go build -o "$tmp/hits" ./api/bench/hits
. api/bench/freeport.sh
# count NAME URL CMD...: runs CMD under callgrind and prints NAME's instructions per request.
count() {
  local name=$1 url=$2 pid t0 t1 idle work
  shift 2
  GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.%p" "$@" \
    >/dev/null 2>"$tmp/$name.log" &
  pid=$!
  until curl -sf "$url" >/dev/null 2>&1; do
    kill -0 $pid 2>/dev/null || { tail -5 "$tmp/$name.log" >&2; exit 1; }
    sleep 0.5
  done
  "$tmp/hits" --n 2000 --c 4 "$url"
  sleep 1
  callgrind_control -z $pid >/dev/null 2>&1
  sleep 4
  callgrind_control -d idle $pid >/dev/null 2>&1
  callgrind_control -z $pid >/dev/null 2>&1
  t0=$(date +%s.%N)
  "$tmp/hits" --n "$n" --c 4 "$url"
  t1=$(date +%s.%N)
  callgrind_control -d work $pid >/dev/null 2>&1
  kill $pid; wait $pid 2>/dev/null || true
  idle=$(grep -h '^summary:' "$tmp/$name.$pid.1" | awk '{print $2}')
  work=$(grep -h '^summary:' "$tmp/$name.$pid.2" | awk '{print $2}')
  awk -v w="$work" -v i="$idle" -v s="$(echo "$t1 - $t0" | bc)" -v n="$n" -v name="$name" \
    'BEGIN {printf "%s: %.0f instructions per request (window %.1f s, background %.0f per request)\n", name, (w - i*s/4)/n, s, i*s/4/n}'
}
port=$(freeport)
STREAMCART_DB="$tmp/shop.db" STREAMCART_RATE_LIMITS=off "$bin" serve --addr "127.0.0.1:$port" >/dev/null 2>&1 &
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.2; done
curl -sf "http://127.0.0.1:$port/checkout/api/products" >"$tmp/products.json"
kill %1; wait 2>/dev/null || true
rm -f "$tmp"/shop.db*
echo "bytes: $(wc -c <"$tmp/products.json")"
port=$(freeport)
count plain "http://127.0.0.1:$port/" "$tmp/plain" --addr "127.0.0.1:$port" --file "$tmp/products.json"
port=$(freeport)
count plain+headers "http://127.0.0.1:$port/" "$tmp/plain" --headers --addr "127.0.0.1:$port" --file "$tmp/products.json"
port=$(freeport)
STREAMCART_DB="$tmp/shop.db" STREAMCART_RATE_LIMITS=off \
  count streamcart "http://127.0.0.1:$port/checkout/api/products" "$bin" serve --addr "127.0.0.1:$port"
