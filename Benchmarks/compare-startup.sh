#!/usr/bin/env bash
# Times short commands, where start-up dominates: `content --version`, and 16 WKND adventures as JSON
# from a local `content serve`, against `curl -s … | jq .` for the same request. Build first:
# swift build -c release --static-swift-stdlib --product content -Xlinker -no-pie -Xlinker --no-export-dynamic
# (on Linux; README, "Install")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root="$here/.."
content=${CONTENT:-"$root/.build/release/content"}
runs=${RUNS:-20}
port=${PORT:-4599}
missing=()
[ -x "$content" ] || missing+=("$content (build it as above, or set CONTENT)")
for tool in curl jq bc; do command -v "$tool" > /dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
    printf 'compare-startup: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
service=aem
script=compare-startup
# shellcheck source=serve-examples.sh
source "$here/serve-examples.sh"
cat > "$work/content.yaml" <<YAML
backends:
  wknd:
    type: aem
    url: http://127.0.0.1:$port
    configuration: wknd-shared
YAML
url="http://127.0.0.1:$port/graphql/execute.json/wknd-shared/adventures-all"

average() {
    local label=$1
    shift
    local start end
    start=$(date +%s%N)
    for _ in $(seq "$runs"); do "$@" > /dev/null; done
    end=$(date +%s%N)
    printf '%-34s %6.1f ms per run (%d runs)\n' "$label" "$(echo "($end - $start) / $runs / 1000000" | bc -l)" "$runs"
}

average "content --version" "$content" --version
average "content aem adventures -o json" \
    "$content" aem adventures --config "$work/content.yaml" -o json --no-cache
average "curl -s … | jq ." bash -c "curl -s '$url' | jq ."
