#!/usr/bin/env bash
# Times `content format` against jq and against Python (orjson + csv) turning one AEM response into CSV,
# with wall time from bash's microsecond clock and peak resident memory from GNU time. Build content first:
# swift build -c release --static-swift-stdlib --product content -Xlinker -no-pie -Xlinker --no-export-dynamic
# (on Linux; README, "Install")
#
#   Benchmarks/compare-format.sh              # a 100 MB response, each tool run 5 times
#   SIZE_MB=10 Benchmarks/compare-format.sh   # a smaller one
#   RUNS=15 Benchmarks/compare-format.sh      # more runs, for a machine whose speed wanders
#
# The runs take turns (content, jq, Python, content, ...), so a slow spell of the machine falls on all three;
# each line gives the fastest and the median wall time, and the largest peak memory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
content=${CONTENT:-"$here/../.build/release/content"}
size_mb=${SIZE_MB:-100}

# Everything the comparison runs, checked before a 100 MB file is written.
missing=()
[ -x "$content" ] || missing+=("$content (build it as above, or set CONTENT)")
command -v jq > /dev/null || missing+=(jq)
[ -x /usr/bin/time ] || missing+=("GNU time at /usr/bin/time (Debian: apt-get install time)")
python3 -c 'import orjson' 2> /dev/null || missing+=("python3 with orjson (pip install orjson)")
if [ ${#missing[@]} -gt 0 ]; then
    printf 'compare-format: missing %s\n' "${missing[@]}" >&2
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
input="$work/aem-${size_mb}mb.json"
python3 "$here/make-aem-response.py" --megabytes "$size_mb" > "$input"
# Write the new file out now, not while the tools run: the kernel flushing 100 MB of dirty pages in the
# background takes a core away from whichever tool is running.
sync
fields=title,activity,price,tripLength,primaryImage._dynamicUrl
echo "input: $(du -m "$input" | cut -f1) MB, $(nproc) cores, $(uname -sm)"

runs=${RUNS:-5}

# Runs one tool, appending "seconds KiB" to $work/<label>.times and keeping its output for the line count.
# Wall time comes from bash's microsecond clock (GNU time's %e has 10 ms steps); peak memory from GNU time.
measure() {
    local label=$1
    shift
    local start=$EPOCHREALTIME
    /usr/bin/time -f "%M" -o "$work/time" "$@" > "$work/$label.out"
    local end=$EPOCHREALTIME
    echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }') $(cat "$work/time")" >> "$work/$label.times"
}

# Prints "best median" seconds of one tool.
best_and_median() {
    sort -n "$work/$1.times" | awk '
        { seconds[NR] = $1 }
        END { printf "%s %s\n", seconds[1], NR % 2 ? seconds[(NR + 1) / 2] : (seconds[NR / 2] + seconds[NR / 2 + 1]) / 2 }'
}

report() {
    local label=$1
    local kib
    kib=$(awk '$2 > kib { kib = $2 } END { print kib }' "$work/$label.times")
    read -r best median <<< "$(best_and_median "$label")"
    printf "%-8s best %6.3f s  median %6.3f s  %8d KiB peak  %d lines\n" \
        "$label" "$best" "$median" "$kib" "$(wc -l < "$work/$label.out")"
}

# Prints how many times faster content is than another tool, on the medians and on the best runs.
ratio() {
    read -r best median <<< "$(best_and_median content)"
    read -r other_best other_median <<< "$(best_and_median "$1")"
    awk -v label="$1" -v b="$best" -v m="$median" -v ob="$other_best" -v om="$other_median" \
        'BEGIN { printf "content is %.1fx %s on the medians, %.1fx on the best runs\n", om / m, label, ob / b }'
}

for _ in $(seq "$runs"); do
    measure content "$content" format "$input" -o csv --items data.adventureList.items --fields "$fields"
    measure jq jq -r '.data.adventureList.items[]
        | [.title, .activity, .price, .tripLength, .primaryImage._dynamicUrl] | @csv' "$input"
    measure python python3 "$here/format-with-python.py" "$input"
done
echo "$runs runs each"
report content
report jq
report python
ratio jq
ratio python
# The speed means nothing if the answers differ: content's CSV must be Python's, byte for byte.
if cmp -s "$work/content.out" "$work/python.out"; then
    echo "content and Python wrote the same CSV"
else
    echo "compare-format: content's CSV differs from Python's" >&2
    exit 1
fi
