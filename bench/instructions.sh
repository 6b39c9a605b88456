#!/usr/bin/env bash
# Instructions the service runs per decision, counted by valgrind's callgrind: a figure that does
# not move with the machine's load or the hypervisor's steal, unlike decisions/s, so a change to
# the decision path can be judged by a few percent (README "What a decision costs").
#
#   DATABASE_URL=postgres://user@127.0.0.1:5432/postgres bench/instructions.sh [DIST] [SECONDS]
#
# Starts `node DIST/src/cli.js serve` (DIST defaults to dist, built by `npm run build`) under
# callgrind on a fresh database it creates on that server (the role needs CREATEDB) and drops
# afterwards, warms it up with 40 s of load from bench/load-client.ts (4 connections, distinct
# transactions over 10,000 wallets), counts instructions over SECONDS (default 30) more, and
# prints instructions per decision: all threads, and the main thread (the event loop) alone.
# Needs valgrind (`apt-get install valgrind`); a run takes a few minutes, since callgrind runs the
# service about 50 times slower. Loopback only.
set -euo pipefail
: "${DATABASE_URL:?set DATABASE_URL to a Postgres server the bench may create a database on}"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
cd "$(dirname "$0")/.."
DIST=${1:-dist}
SECONDS_COUNTED=${2:-30}
PORT=${BENCH_PORT:-8093}
[ -f "$DIST/src/cli.js" ] || { echo "$DIST/src/cli.js is missing: npm run build" >&2; exit 2; }

DB="countersign_instructions_$$"
SERVER_URL=${DATABASE_URL%/*}
OUT=$(mktemp -d)
psql -q "$DATABASE_URL" -c "create database $DB"
cleanup() {
  [ -n "${SERVICE:-}" ] && kill "$SERVICE" 2>/dev/null && wait "$SERVICE" 2>/dev/null
  psql -q "$DATABASE_URL" -c "drop database if exists $DB with (force)" >/dev/null 2>&1 || true
  rm -rf "$OUT"
}
trap cleanup EXIT

# The example bundle with the example prices its dollar window needs, as `npm start` passes them.
DATABASE_URL="$SERVER_URL/$DB" COUNTERSIGN_POLICIES=policies COUNTERSIGN_PORT=$PORT COUNTERSIGN_HOST=127.0.0.1 \
  COUNTERSIGN_DECISION_TIMEOUT=60s \
  valgrind --tool=callgrind --separate-threads=yes --instr-atstart=no \
  --callgrind-out-file="$OUT/callgrind.out.%p" node --env-file=examples/quickstart/quickstart.env "$DIST/src/cli.js" serve >"$OUT/service.log" 2>&1 &
SERVICE=$!
for _ in $(seq 1 600); do curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break; sleep 0.5; done
curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null || { cat "$OUT/service.log" >&2; exit 1; }

load() { node --import tsx bench/load-client.ts "http://127.0.0.1:$PORT/v1/cosigner/webhook" "$1" 4 10000; }
load 40 >/dev/null
callgrind_control -i on "$SERVICE" >/dev/null 2>&1
RESULT=$(load "$SECONDS_COUNTED")
callgrind_control -d "$SERVICE" >/dev/null 2>&1
callgrind_control -i off "$SERVICE" >/dev/null 2>&1
sleep 3

DECISIONS=$(node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).requests' <<<"$RESULT")
NON2XX=$(node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).non2xx' <<<"$RESULT")
sum() { cat "$@" | awk '/^summary:/ { s += $2 } END { printf "%.0f", s }'; }
ALL=$(sum "$OUT"/callgrind.out.*.1-*)
MAIN=$(sum "$OUT"/callgrind.out.*.1-01)
echo "$DIST: $DECISIONS decisions ($NON2XX non-2xx) in ${SECONDS_COUNTED} s under callgrind"
echo "  $((ALL / DECISIONS)) instructions per decision, $((MAIN / DECISIONS)) of them on the main thread"
