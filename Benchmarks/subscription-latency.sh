#!/usr/bin/env bash
# How soon a subscribed client sees a mutation's result, on one content serve: a client subscribes to getMovieByKey
# (a single-entity query, refreshed after each single-entity mutation of its table) over ConnectorStreamService
# (gRPC, as the iOS and Android SDKs subscribe; then the web SDK's WebSocket when Python's websockets is installed),
# and another client changes the movie's rating MUTATIONS times through the unary ExecuteMutation, one after the
# other. For each mutation it records the time from sending the mutation to receiving the new result on the stream:
# an upper bound of the time from the commit, which happens before the mutation is answered. Prints p50, p99 and
# the worst of each transport, and how many results came before the mutation's own answer.
# Needs python3 with grpcio and grpcio-tools (PyPI). Build first (README, "Install"):
# swift build -c release --static-swift-stdlib --product content -Xlinker -no-pie -Xlinker --no-export-dynamic
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root="$here/.."
content=${CONTENT:-"$root/.build/release/content"}
mutations=${MUTATIONS:-200}
port=${PORT:-9699}
if [ ! -x "$content" ]; then
    echo "subscription-latency: missing $content (build it as above, or set CONTENT)" >&2
    exit 1
fi
if ! python3 -c 'import grpc, grpc_tools' 2> /dev/null; then
    echo "subscription-latency: needs python3 with grpcio and grpcio-tools (pip install grpcio grpcio-tools)" >&2
    exit 1
fi
service=dataconnect
script=subscription-latency
# shellcheck source=serve-examples.sh
source "$here/serve-examples.sh"
protos="$root/Sources/ContentDataConnectWire/Protos"
(cd "$protos" && python3 -m grpc_tools.protoc -I . --python_out="$work" --grpc_python_out="$work" \
    connector_service.proto connector_stream_service.proto graphql_error.proto graphql_response_extensions.proto \
    google/rpc/code.proto)
python3 - "$work" "127.0.0.1:$port" "$mutations" <<'PY'
import base64, json, queue, sys, threading, time, warnings
warnings.filterwarnings("ignore", category=DeprecationWarning)
work, target, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, work)
import grpc
from google.protobuf import json_format, struct_pb2
import connector_service_pb2 as pb
import connector_service_pb2_grpc as rpc
import connector_stream_service_pb2 as spb
import connector_stream_service_pb2_grpc as srpc

NAME = "projects/bench/locations/us-central1/services/content-sample/connectors/movies"
MOVIE = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"
def encode(data):
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
USER = encode({"alg": "none"}) + "." + encode({"sub": "bench", "email_verified": True}) + "."

def struct(values):
    value = struct_pb2.Struct()
    value.update(values)
    return value

def rating_of(data):
    return ((data or {}).get("movie") or {}).get("rating")

arrivals = queue.Queue()

def grpc_stream(channel):
    requests = queue.Queue()
    def generate():
        while True:
            yield requests.get()
    subscribe = spb.StreamRequest(name=NAME, request_id="bench")
    subscribe.subscribe.CopyFrom(spb.ExecuteRequest(operation_name="getMovieByKey",
                                                    variables=struct({"key": {"id": MOVIE}})))
    requests.put(subscribe)
    call = srpc.ConnectorStreamServiceStub(channel).Connect(generate())
    def read():
        for response in call:
            arrivals.put((time.perf_counter(), rating_of(json_format.MessageToDict(response.data))))
    threading.Thread(target=read, daemon=True).start()

def websocket_stream():
    from websockets.sync.client import connect
    socket = connect(f"ws://{target}/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/bench/"
                     "locations/us-central1/services/content-sample")
    socket.send(json.dumps({"name": NAME, "requestId": "bench",
                            "subscribe": {"operationName": "getMovieByKey", "variables": {"key": {"id": MOVIE}}}}))
    def read():
        for message in socket:
            result = json.loads(message)["result"]
            arrivals.put((time.perf_counter(), rating_of(result.get("data"))))
    threading.Thread(target=read, daemon=True).start()

def measure(label, open_stream, channel):
    while not arrivals.empty():
        arrivals.get()
    open_stream()
    arrivals.get(timeout=10)  # the first result
    unary = rpc.ConnectorServiceStub(channel)
    latencies, early = [], 0
    for index in range(count):
        rating = round(1 + (index % 80) / 10 + (0.05 if label == "websocket" else 0), 2)
        request = pb.ExecuteMutationRequest(name=NAME, operation_name="updateMovieRating",
                                            variables=struct({"id": MOVIE, "rating": rating}))
        sent = time.perf_counter()
        unary.ExecuteMutation(request, metadata=[("x-firebase-auth-token", USER)], timeout=10)
        answered = time.perf_counter()
        while True:
            arrived, seen = arrivals.get(timeout=10)
            if seen == rating:
                break
        latencies.append((arrived - sent) * 1000)
        early += arrived < answered
    latencies.sort()
    pick = lambda share: latencies[min(len(latencies) - 1, int(len(latencies) * share))]
    print(f"{label:9} {count} mutations: mutation sent to new result received p50 {pick(0.5):.2f} ms, "
          f"p99 {pick(0.99):.2f} ms, worst {latencies[-1]:.2f} ms; {early} results came before the mutation's answer")

channel = grpc.insecure_channel(target)
measure("grpc", lambda: grpc_stream(channel), channel)
try:
    import websockets  # noqa: F401
    measure("websocket", websocket_stream, channel)
except ImportError:
    print("websocket: skipped (pip install websockets)")
PY
