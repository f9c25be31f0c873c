#!/usr/bin/env bash
# Data Connect's listMoviesByGenre through the gRPC API and through REST, on the same port of one content serve,
# driven by one load generator (h2load, from Debian's nghttp2-client: HTTP/2 with prior knowledge for gRPC,
# --h1 for REST), with the same number of connections and requests. Prints req/s and the p50 and p99 latency of
# each from h2load's per-request log. Build first (README, "Install"):
# swift build -c release --static-swift-stdlib --product content -Xlinker -no-pie -Xlinker --no-export-dynamic
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root="$here/.."
content=${CONTENT:-"$root/.build/release/content"}
requests=${REQUESTS:-20000}
connections=${CONNECTIONS:-4}
port=${PORT:-9599}
missing=()
[ -x "$content" ] || missing+=("$content (build it as above, or set CONTENT)")
for tool in h2load python3; do command -v "$tool" > /dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
    printf 'compare-grpc: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
service=dataconnect
script=compare-grpc
# shellcheck source=serve-examples.sh
source "$here/serve-examples.sh"
name="projects/bench/locations/us-central1/services/content-sample/connectors/movies"
# The same request both ways: ExecuteQueryRequest { name, operation_name, variables { genre: "Sci-Fi" } } in
# protobuf's wire format behind gRPC's 5-byte frame header, and the REST body.
python3 - "$work" "$name" <<'PY'
import struct, sys
work, name = sys.argv[1], sys.argv[2]
def field(number, payload):
    data = payload.encode() if isinstance(payload, str) else payload
    return bytes([number << 3 | 2]) + varint(len(data)) + data
def varint(value):
    out = b""
    while value > 0x7F:
        out += bytes([value & 0x7F | 0x80])
        value >>= 7
    return out + bytes([value])
value = field(3, "Sci-Fi")                       # Value.string_value
entry = field(1, "genre") + field(2, value)      # Struct.fields map entry
message = field(1, name) + field(2, "listMoviesByGenre") + field(3, field(1, entry))
open(f"{work}/grpc.bin", "wb").write(b"\x00" + struct.pack(">I", len(message)) + message)
open(f"{work}/rest.json", "w").write('{"operationName":"listMoviesByGenre","variables":{"genre":"Sci-Fi"}}')
PY

# p50 and p99 of h2load's per-request log (third column: microseconds from request to response).
percentiles() {
    sort -n -k3 "$1" | awk '{ d[NR] = $3 } END {
        printf "p50 %.2f ms, p99 %.2f ms", d[int(NR * 0.50)] / 1000, d[int(NR * 0.99)] / 1000 }'
}
run() {
    local label=$1
    shift
    h2load -n "$requests" -c "$connections" -m 1 --log-file="$work/$label.log" "$@" > "$work/$label.out"
    local rate
    rate=$(grep -o '[0-9.]* req/s' "$work/$label.out" | head -1)
    local failed
    failed=$(grep -o '[0-9]* failed' "$work/$label.out" | head -1)
    printf '%-5s %s, %s (%s)\n' "$label" "$rate" "$(percentiles "$work/$label.log")" "$failed"
}
base="http://127.0.0.1:$port"
echo "listMoviesByGenre, $requests requests over $connections connections, one at a time on each:"
# Warm both paths once, then measure each in turn.
h2load -n 200 -c 1 -d "$work/grpc.bin" -H 'content-type: application/grpc' -H 'te: trailers' \
    "$base/google.firebase.dataconnect.v1.ConnectorService/ExecuteQuery" > /dev/null
run grpc -d "$work/grpc.bin" -H 'content-type: application/grpc' -H 'te: trailers' \
    "$base/google.firebase.dataconnect.v1.ConnectorService/ExecuteQuery"
run rest --h1 -d "$work/rest.json" -H 'content-type: application/json' "$base/v1/$name:executeQuery"
