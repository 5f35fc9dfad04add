#!/usr/bin/env bash
# Load test: wrk against the Streamcart binary and against a plain net/http server serving the
# same JSON, in the same run. Usage: api/bench/load.sh [seconds] [connections]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}; conns=${2:-64}
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
go build -o "$tmp/streamcart" ./api/cmd/streamcart
go build -o "$tmp/plain" ./api/bench/plain
STREAMCART_DB="$tmp/s.db" STREAMCART_RATE_LIMITS=off "$tmp/streamcart" serve --addr 127.0.0.1:18089 2>/dev/null &
until curl -sf http://127.0.0.1:18089/readyz >/dev/null; do sleep 0.1; done
api=http://127.0.0.1:18089/checkout/api
quote='{"pid":3,"billingCycle":"annually","currency":"GBP","extraConnections":2,"proxyProtection":true,"promoCode":"WELCOME10"}'
curl -sf "$api/products" >"$tmp/products.json"
curl -sf -H 'Content-Type: application/json' -d "$quote" "$api/quote" >"$tmp/quote.json"
cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.body = '$quote'
wrk.headers["Content-Type"] = "application/json"
LUA
rps() { wrk -t2 -c"$conns" -d"${secs}s" "$@" | awk '/Requests\/sec/ {print $2}'; }
"$tmp/plain" --addr 127.0.0.1:18090 --file "$tmp/products.json" & p1=$!
"$tmp/plain" --addr 127.0.0.1:18091 --file "$tmp/quote.json" & p2=$!
sleep 0.5
echo "bytes: products $(wc -c <"$tmp/products.json"), quote $(wc -c <"$tmp/quote.json")"
a=$(rps "$api/products"); b=$(rps http://127.0.0.1:18090/)
echo "GET /products  streamcart ${a} req/s  plain ${b} req/s  ratio $(awk "BEGIN{printf \"%.2f\", $a/$b}")"
c=$(rps -s "$tmp/post.lua" "$api/quote"); d=$(rps -s "$tmp/post.lua" http://127.0.0.1:18091/)
echo "POST /quote    streamcart ${c} req/s  plain ${d} req/s  ratio $(awk "BEGIN{printf \"%.2f\", $c/$d}")"
