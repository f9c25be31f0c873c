#!/usr/bin/env bash
# Sends `content serve` the requests that used to crash it or run for seconds to minutes, and prints how long each
# answer took and the server's resident memory before and after them all.
#
#   bash Benchmarks/hostile-requests.sh [path/to/content]
set -euo pipefail
content=${1:-.build/release/content}
log=$(mktemp)
"$content" serve --workspace examples --aem-port 0 --dataconnect-port 0 --resource-port 0 --admin-token bench 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null; rm -f "$log"' EXIT
until grep -q 'dataconnect emulator on' "$log" && grep -q 'aem emulator on' "$log"; do sleep 0.2; done
aem=$(grep -o 'aem emulator on [^ ]*' "$log" | awk '{print $4}')
dc=$(grep -o 'dataconnect emulator on [^ ]*' "$log" | awk '{print $4}')
endpoint="$aem/content/cq:graphql/wknd-shared/endpoint.json"
admin="$dc/v1/projects/demo/locations/us-central1/services/content-sample:executeGraphql"
rss() { awk '/VmRSS/ {print $2 / 1024 " MiB"}' "/proc/$server/status"; }
send() {
  local name=$1 url=$2 script=$3
  python3 -c "$script" > /tmp/hostile-body.json
  curl -s -H 'Expect:' -o /tmp/hostile-answer.json -w "%{http_code} %{time_total}" -H 'Content-Type: application/json' \
    -H 'Authorization: Bearer bench' --data-binary @/tmp/hostile-body.json "$url" |
    awk -v name="$name" -v size="$(wc -c < /tmp/hostile-body.json)" '{printf "%-44s %9d bytes  HTTP %s  %6.3f s\n", name, size, $1, $2}'
}
echo "resident before: $(rss)"
send 'nesting behind "#...\r" (3,000 levels)' "$endpoint" \
  'import json;n=3000;print(json.dumps({"query":"#\r{"+"adventureList{"*n+"x"+"}"*n+"}"}))'
send 'nesting behind "#...\r", Data Connect admin' "$admin" \
  'import json;n=3000;print(json.dumps({"query":"#\r{"+"movies{"*n+"id"+"}"*n+"}"}))'
send '100,000 aliases' "$endpoint" \
  'import json;print(json.dumps({"query":"{"+" ".join("a%d: adventureList{items{title}}"%i for i in range(100000))+"}"}))'
send '2,000 aliases' "$endpoint" \
  'import json;print(json.dumps({"query":"{"+" ".join("a%d: adventureList{items{title}}"%i for i in range(2000))+"}"}))'
send '20,000 unused fragments' "$endpoint" \
  'import json;print(json.dumps({"query":"{adventureList{items{title}}} "+" ".join("fragment f%d on Query{__typename}"%i for i in range(20000))}))'
send '10,000 duplicate directives' "$endpoint" \
  'import json;print(json.dumps({"query":"{adventureList @include(if:true)"+" @include(if:true)"*10000+"{items{title}}}"}))'
send '1,000,000 duplicate fields' "$endpoint" \
  'import json;print(json.dumps({"query":"{adventureList{items{"+"title "*1000000+"}}}"}))'
send '1,000 introspection aliases' "$endpoint" \
  'import json;print(json.dumps({"query":"{"+" ".join("s%d: __schema{types{name fields{name}}}"%i for i in range(1000))+"}"}))'
echo "resident after the refusals: $(rss)"
send '100 introspection aliases (allowed)' "$endpoint" \
  'import json;print(json.dumps({"query":"{"+" ".join("s%d: __schema{types{name fields{name}}}"%i for i in range(100))+"}"}))'
send '100 list aliases (allowed)' "$endpoint" \
  'import json;print(json.dumps({"query":"{"+" ".join("a%d: adventureList{items{title description{html}}}"%i for i in range(100))+"}"}))'
echo "resident after:  $(rss)"
