#!/usr/bin/env bash
# The generated Data Connect client against plain AsyncHTTPClient, call for call: starts `content serve` over
# examples/ on a free port, then runs ClientOverhead against it (CALLS sequential calls, ROUNDS rounds, taking turns).
#   CALLS=1000 ROUNDS=5 Benchmarks/compare-client.sh
set -euo pipefail
cd "$(dirname "$0")/.."
calls="${CALLS:-1000}"
rounds="${ROUNDS:-5}"
content="${CONTENT:-.build/release/content}"
if [ ! -x "$content" ]; then
    echo "compare-client: $content is missing; build it first (the README's Install), or set CONTENT" >&2
    exit 2
fi
log="$(mktemp)"
if ! (cd Benchmarks && swift build -c release --product ClientOverhead >"$log" 2>&1); then
    cat "$log" >&2
    exit 1
fi
"$content" serve --workspace examples --aem-port 0 --dataconnect-port 0 --resource-port 0 2>"$log" &
serve=$!
trap 'kill "$serve" 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 1 50); do
    url="$(sed -n 's/^content: dataconnect emulator on //p' "$log")"
    [ -n "$url" ] && break
    sleep 0.1
done
if [ -z "$url" ]; then
    echo "compare-client: content serve did not start within 5 s:" >&2
    cat "$log" >&2
    exit 1
fi
Benchmarks/.build/release/ClientOverhead "$url" "$calls" "$rounds"
