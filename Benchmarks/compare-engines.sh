#!/usr/bin/env bash
# The Data Connect emulator on SQLite and on PostgreSQL, side by side in one run, against the framework floor (a
# trivial route of the same server): 64 connections (h2load --h1, from Debian's nghttp2-client), each sending one
# request at a time, for listMoviesByGenre (a query) and createMovie (a mutation) on the examples workspace. Prints
# req/s, p50/p99 latency from h2load's per-request log, and how many cores the server process used meanwhile (its
# user and system time from /proc over the wall time).
#
# PostgreSQL: the server CONTENT_BENCH_POSTGRES names (its tables for the sample are dropped and made again), or
# else a throwaway cluster started here from Debian's postgresql package (initdb, as the user postgres when run as
# root), stopped and removed at the end. Build first (README, "Install"):
# swift build -c release --static-swift-stdlib --product content -Xlinker -no-pie -Xlinker --no-export-dynamic
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root="$here/.."
content=${CONTENT:-"$root/.build/release/content"}
connections=${CONNECTIONS:-64}
queries=${QUERIES:-20000}
mutations=${MUTATIONS:-10000}
floor_requests=${FLOOR:-100000}
missing=()
[ -x "$content" ] || missing+=("$content (build it as above, or set CONTENT)")
command -v h2load > /dev/null || missing+=("h2load (Debian: nghttp2-client)")
pg_bin=$(compgen -G '/usr/lib/postgresql/*/bin' | sort -V | tail -1 || true)
if [ -z "${CONTENT_BENCH_POSTGRES:-}" ] && [ -z "$pg_bin" ]; then
    missing+=("PostgreSQL (Debian: postgresql), or CONTENT_BENCH_POSTGRES=postgresql://…")
fi
if [ ${#missing[@]} -gt 0 ]; then
    printf 'compare-engines: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
work=$(mktemp -d)
pids=()
pg_dir=""
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    wait 2> /dev/null || true
    if [ -n "$pg_dir" ]; then
        as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop > /dev/null 2>&1 || true
        rm -rf "$pg_dir"
    fi
    rm -rf "$work"
}
trap cleanup EXIT
as_postgres() { if [ "$(id -u)" = 0 ]; then (cd "$pg_dir" && runuser -u postgres -- "$@"); else "$@"; fi; }
url=${CONTENT_BENCH_POSTGRES:-}
if [ -z "$url" ]; then
    pg_dir=$(mktemp -d)
    if [ "$(id -u)" = 0 ]; then chown postgres "$pg_dir"; fi
    as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -U postgres -A trust > /dev/null
    as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w \
        -o "-c listen_addresses='' -k $pg_dir -p 55439" start > /dev/null
    url="postgresql://postgres@/postgres?host=$pg_dir&port=55439"
fi

# Starts content serve with Data Connect on $1 and the sample adapters on $2, with any further flags.
start() {
    local port=$1 resource=$2 log=$3
    shift 3
    "$content" serve --workspace "$root/examples" --aem-port 0 --dataconnect-port "$port" \
        --resource-port "$resource" "$@" 2> "$log" &
    pids+=($!)
    for _ in $(seq 200); do grep -q "dataconnect emulator on" "$log" && return 0; sleep 0.1; done
    echo "compare-engines: content serve did not start:" >&2
    cat "$log" >&2
    exit 1
}
start 9611 9612 "$work/sqlite.log"
sqlite_pid=${pids[-1]}
start 9621 9622 "$work/postgres.log" --postgres "$url" --reset --postgres-pool 32
postgres_pid=${pids[-1]}
ticks_per_second=$(getconf CLK_TCK)
# User plus system time of a process, in clock ticks.
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

name="projects/bench/locations/us-central1/services/content-sample/connectors/movies"
printf '{"operationName":"listMoviesByGenre","variables":{"genre":"Sci-Fi"}}' > "$work/query.json"
printf '{"operationName":"createMovie","variables":{"title":"Bench","genre":"Bench","releaseYear":2026}}' \
    > "$work/mutation.json"

percentiles() {
    sort -n -k3 "$1" | awk '{ d[NR] = $3 } END {
        printf "p50 %6.2f ms, p99 %6.2f ms", d[int(NR * 0.50)] / 1000, d[int(NR * 0.99)] / 1000 }'
}
run() {
    local label=$1 requests=$2 server=$3
    shift 3
    local before started
    # h2load appends to its log: each run starts from an empty one.
    rm -f "$work/run.log"
    before=$(ticks "$server")
    started=$(date +%s.%N)
    h2load --h1 -n "$requests" -c "$connections" -m 1 --log-file="$work/run.log" "$@" > "$work/run.out"
    local cores rate failed
    cores=$(awk -v t="$(( $(ticks "$server") - before ))" -v hz="$ticks_per_second" -v s="$started" -v e="$(date +%s.%N)" \
        'BEGIN { printf "%.2f", t / hz / (e - s) }')
    rate=$(grep -o '[0-9.]* req/s' "$work/run.out" | head -1)
    failed=$(grep -o '[0-9]* failed' "$work/run.out" | head -1)
    printf '%-32s %14s, %s, server %s cores (%s)\n' "$label" "$rate" "$(percentiles "$work/run.log")" "$cores" \
        "$failed"
}
echo "examples workspace, $connections connections, one request at a time on each:"
run "floor: GET adapter route" "$floor_requests" "$sqlite_pid" \
    "http://127.0.0.1:9612/mfp/api/adapters/JavaAdapter/users"
for engine in sqlite postgres; do
    port=$([ "$engine" = sqlite ] && echo 9611 || echo 9621)
    server=$([ "$engine" = sqlite ] && echo "$sqlite_pid" || echo "$postgres_pid")
    base="http://127.0.0.1:$port/v1/$name"
    run "$engine: listMoviesByGenre" "$queries" "$server" -d "$work/query.json" \
        -H 'content-type: application/json' "$base:executeQuery"
    run "$engine: createMovie" "$mutations" "$server" -d "$work/mutation.json" \
        -H 'content-type: application/json' "$base:executeMutation"
done
