# Sourced by the benchmark scripts: starts one `content serve --workspace examples` with SERVICE on PORT and the
# other services on free ports, waits until SERVICE listens, and stops it and removes $work when the script exits.
# Needs: $content (the binary), $root (the repository), $port, $service (aem or dataconnect), $script (for messages).
work=$(mktemp -d)
ports=(--aem-port 0 --dataconnect-port 0 --resource-port 0)
case "$service" in
    aem) ports[1]=$port ;;
    dataconnect) ports[3]=$port ;;
esac
"$content" serve --workspace "$root/examples" "${ports[@]}" 2> "$work/serve.log" &
serve=$!
trap 'kill $serve 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q "$service emulator on" "$work/serve.log" && break; sleep 0.1; done
if ! grep -q "$service emulator on" "$work/serve.log"; then
    echo "$script: content serve did not start $service on port $port within 10 s (set PORT to another):" >&2
    cat "$work/serve.log" >&2
    exit 1
fi
