#!/usr/bin/env bash
# Times `content config validate` on configurations with many keys: 10,000 and 40,000 `headers:` entries and
# 40,000 top-level keys (an error after reading them all). Linear decoding keeps each under a second; the
# quadratic decoder this replaced took 12 s and 61 s.
#
#   bash Benchmarks/yaml-keys.sh [path/to/content]
set -euo pipefail
content=${1:-.build/release/content}
content=$(cd "$(dirname "$content")" && pwd)/$(basename "$content")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for count in 10000 40000; do
  mkdir -p "$work/headers-$count"
  {
    printf 'backends:\n  w:\n    type: resource\n    url: http://127.0.0.1:1/\n    headers:\n'
    for ((i = 0; i < count; i++)); do printf '      X-H%d: v\n' "$i"; done
  } > "$work/headers-$count/content.yaml"
done
mkdir -p "$work/keys-40000"
{
  printf 'backends:\n  w:\n    type: resource\n    url: http://127.0.0.1:1/\n'
  for ((i = 0; i < 40000; i++)); do printf '  k%d: v\n' "$i"; done
} > "$work/keys-40000/content.yaml"
hyperfine --warmup 1 --runs 5 -i \
  -n 'headers: 10,000' "cd $work/headers-10000 && $content config validate" \
  -n 'headers: 40,000' "cd $work/headers-40000 && $content config validate" \
  -n '40,000 backends keys' "cd $work/keys-40000 && $content config validate"
