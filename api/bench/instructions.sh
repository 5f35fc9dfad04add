#!/usr/bin/env bash
# Instructions per order of the shop process, counted by callgrind, which the neighbours on a
# shared machine do not change (wall-clock and CPU time do): the shop runs under
# `valgrind --tool=callgrind`, api/bench/orders places warm-up orders, the counters are zeroed
# with no order in flight, exactly N orders are placed by 16 clients, the counters are dumped
# with none in flight; instructions ÷ N. On PostgreSQL the same window also gives the database
# backends' CPU time per order (from /proc, at valgrind's slowed rate: compare builds, not
# machines) and the statements, transactions and rows per order (pg_stat_database).
# Callgrind counts user-space instructions only; under it the shop runs ~50× slower, so SQLite's
# group commit sees groups of one or two: compare builds with it, not CPU time. Go's
# asynchronous preemption (a signal) is off under valgrind, whose callgrind asserts on it, and so
# is its use of RDTSCP, an instruction Debian's valgrind 3.19 does not know (SIGILL in the
# runtime's lock spinning on CPUs that have it).
# Usage: api/bench/instructions.sh BINARY sqlite|postgres [orders] [warm-up orders]
# PostgreSQL: STREAMCART_BENCH_POSTGRES as for orders.sh. STREAMCART_BENCH_KEEP=FILE keeps the
# window's callgrind dump (callgrind_annotate FILE: where the instructions went).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$1; backend=$2; n=${3:-600}; warm=${4:-200}
pg=${STREAMCART_BENCH_POSTGRES:-postgres://postgres@127.0.0.1:5432}
tmp=$(mktemp -d)
dbname=""
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  [ -n "$dbname" ] && psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS $dbname WITH (FORCE)" >/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
cp "$bin" "$tmp/streamcart"
go build -o "$tmp/orders" ./api/bench/orders
case $backend in
  sqlite) db="$tmp/shop.db" ;;
  postgres)
    dbname="streamcart_instr_$$"
    psql -q "$pg/postgres" -c "CREATE DATABASE $dbname" >/dev/null
    db="$pg/$dbname?sslmode=disable" ;;
  *) echo "backend: sqlite or postgres" >&2; exit 2 ;;
esac
. api/bench/freeport.sh
port=$(freeport)
STREAMCART_DB="$db" STREAMCART_TRUST_PROXY=true STREAMCART_RATE_LIMITS=off STREAMCART_GEO_DB= \
  STREAMCART_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
  GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$tmp/streamcart" serve --addr "127.0.0.1:$port" \
  2>"$tmp/serve.log" &
shop=$!
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do
  kill -0 $shop 2>/dev/null || { tail -5 "$tmp/serve.log" >&2; exit 1; }
  sleep 0.5
done
# The mark: zero or dump the counters; on PostgreSQL also note the database backends' CPU ticks
# (user + system, summed) and pg_stat_database's transactions and rows, once the backends have
# flushed them (an idle backend does within 10 s).
cat >"$tmp/mark" <<EOF
#!/usr/bin/env bash
set -e
case \$1 in
  start) callgrind_control -z $shop >/dev/null ;;
  stop) callgrind_control -d $shop >/dev/null ;;
esac
[ -z "$dbname" ] && exit 0
sleep 11
ticks=0
for p in \$(pgrep -f " $dbname " || true); do
  f=(\$(sed 's/.*) //' /proc/\$p/stat 2>/dev/null)) || continue
  ticks=\$((ticks + f[11] + f[12]))
done
echo "\$1 \$ticks \$(psql -Atq "$pg/postgres" -c "SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = '$dbname'")" >>"$tmp/pg"
EOF
chmod +x "$tmp/mark"
"$tmp/orders" --targets "http://127.0.0.1:$port" --clients 16 --count "$n" --warmup-orders "$warm" --mark "$tmp/mark"
total=$(grep -h '^totals:' "$tmp"/cg.out.* | tail -1 | awk '{print $2}')
[ -n "${STREAMCART_BENCH_KEEP:-}" ] && cp "$(ls "$tmp"/cg.out.* | tail -1)" "$STREAMCART_BENCH_KEEP"
echo "$(basename "$bin") $backend: $total instructions for $n orders: $((total / n)) per order"
if [ -n "$dbname" ]; then
  cat "$tmp/pg" >&2
  awk -v n="$n" '/^start/ {t=$2; split($3,a,"|")} /^stop/ {split($3,b,"|");
    printf "backends %.0f µs CPU per order (valgrind-slowed rate), %.2f transactions, %.2f rows inserted, %.2f updated per order\n",
      ($2-t)*10000/n, (b[1]-a[1])/n, (b[2]-a[2])/n, (b[3]-a[3])/n}' "$tmp/pg"
fi
