#!/usr/bin/env bash
# content serve under load: one `content serve --workspace examples` (release build), each endpoint driven in turn
# by h2load over HTTP/1.1 (Debian's nghttp2-client) with the same number of connections, one request at a time on
# each, for a fixed time after a warm-up. The framework floor, a trivial route of the same server, is measured in the
# same run. Prints req/s, p50 and p99 latency (from h2load's per-request log) and the ratio to the floor.
# Build first (README, "Install"):
# swift build -c release --static-swift-stdlib --product content -Xlinker -no-pie -Xlinker --no-export-dynamic
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root="$here/.."
content=${CONTENT:-"$root/.build/release/content"}
connections=${CONNECTIONS:-64}
duration=${DURATION:-8s}
missing=()
[ -x "$content" ] || missing+=("$content (build it as above, or set CONTENT)")
command -v h2load > /dev/null || missing+=("h2load (Debian: nghttp2-client)")
if [ ${#missing[@]} -gt 0 ]; then
    printf 'load: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
work=$(mktemp -d)
"$content" serve --workspace "$root/examples" --aem-port 9671 --dataconnect-port 9672 --resource-port 9673 \
    2> "$work/serve.log" &
serve=$!
trap 'kill $serve 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 200); do
    grep -q "dataconnect emulator on" "$work/serve.log" && grep -q "aem emulator on" "$work/serve.log" && break
    sleep 0.1
done
# A server already on these ports would be measured instead of this one: stop rather than report its figures.
if ! kill -0 "$serve" 2> /dev/null || ! grep -q "dataconnect emulator on" "$work/serve.log"; then
    echo "load: content serve did not start on ports 9671-9673 (is another server on them?):" >&2
    cat "$work/serve.log" >&2
    exit 1
fi

name="projects/bench/locations/us-central1/services/content-sample/connectors/movies"
printf '{"operationName":"listMoviesByGenre","variables":{"genre":"Sci-Fi"}}' > "$work/query.json"
printf '{"operationName":"createMovie","variables":{"title":"Load","genre":"Load","releaseYear":2026}}' \
    > "$work/mutation.json"
# The persisted query adventures-all, sent ad hoc: the same GraphQL, parsed, validated and run on every request.
python3 - "$root/examples/aem/queries/wknd-shared/adventures-all.graphql" "$work/adhoc.json" <<'PY'
import json, sys
open(sys.argv[2], "w").write(json.dumps({"query": open(sys.argv[1]).read()}))
PY

floor=""
run() {
    local label=$1
    shift
    # h2load appends to its log: each run starts from an empty one.
    rm -f "$work/run.log"
    h2load --h1 -c "$connections" -m 1 -D "$duration" --warm-up-time=1s --log-file="$work/run.log" "$@" \
        > "$work/run.out"
    local rate
    rate=$(grep -o '[0-9.]* req/s' "$work/run.out" | head -1 | cut -d' ' -f1)
    [ -n "$floor" ] || floor=$rate
    sort -n -k3 "$work/run.log" | awk -v label="$label" -v rate="$rate" -v floor="$floor" \
        -v failed="$(grep -o '[0-9]* failed' "$work/run.out" | head -1)" '{ d[NR] = $3 } END {
        printf "%-44s %10.0f req/s  p50 %7.2f ms  p99 %7.2f ms  %5.1f%% of the floor (%s)\n",
            label, rate, d[int(NR * 0.50)] / 1000, d[int(NR * 0.99)] / 1000, 100 * rate / floor, failed }'
}
echo "examples workspace, $connections connections, one request at a time on each, $duration each:"
run "floor: GET adapter route" "http://127.0.0.1:9673/mfp/api/adapters/JavaAdapter/users"
run "AEM persisted adventures-all (16 items)" "http://127.0.0.1:9671/graphql/execute.json/wknd-shared/adventures-all"
run "AEM ad-hoc GraphQL of the same query" -d "$work/adhoc.json" -H 'content-type: application/json' \
    "http://127.0.0.1:9671/content/cq:graphql/wknd-shared/endpoint.json"
run "Data Connect listMoviesByGenre" -d "$work/query.json" -H 'content-type: application/json' \
    "http://127.0.0.1:9672/v1/$name:executeQuery"
run "Data Connect createMovie" -d "$work/mutation.json" -H 'content-type: application/json' \
    "http://127.0.0.1:9672/v1/$name:executeMutation"
