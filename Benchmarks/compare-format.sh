#!/usr/bin/env bash
# Times `content format` against jq and against Python (orjson + csv) turning one AEM response into CSV,
# with wall time and peak resident memory from GNU time. Build content first:
# swift build -c release --static-swift-stdlib
#
#   Benchmarks/compare-format.sh              # a 100 MB response
#   SIZE_MB=10 Benchmarks/compare-format.sh   # a smaller one
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
content=${CONTENT:-"$here/../.build/release/content"}
size_mb=${SIZE_MB:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input="$work/aem-${size_mb}mb.json"
python3 "$here/make-aem-response.py" --megabytes "$size_mb" > "$input"
fields=title,activity,price,tripLength,primaryImage._dynamicUrl
echo "input: $(du -m "$input" | cut -f1) MB, $(nproc) cores, $(uname -sm)"

measure() {
    local label=$1
    shift
    /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out"
    read -r seconds kib < "$work/time"
    printf '%-8s %7.2f s  %8d KiB peak  %d lines\n' "$label" "$seconds" "$kib" "$(wc -l < "$work/out")"
}

measure content "$content" format "$input" -o csv --items data.adventureList.items --fields "$fields"
measure jq jq -r '.data.adventureList.items[]
    | [.title, .activity, .price, .tripLength, .primaryImage._dynamicUrl] | @csv' "$input"
measure python python3 "$here/format-with-python.py" "$input"
