"""ConnectorStreamService.Connect on content serve's Data Connect port: subscriptions, their refreshes, data_etag,
resume, cancel, and refusals. Each scenario prints one JSON line for the Swift test to check.

TRANSPORT is how the stream is opened:
- grpc: Python's grpcio with stubs generated from the service's own .proto files, as the iOS and Android SDKs call it;
- websocket: the web SDK's form, with the websockets package: a WebSocket at /ws/<service>.Connect/{project}/
  locations/{location}/services/{service}, each request a StreamRequest in protobuf's JSON form as the web SDK
  writes it (the connector's name and the caller in the first request's headers), each response a text message
  {"result": StreamResponse}, as Firebase's emulator sends and the web SDK reads.
Unary calls (mutations made by "another client") go over gRPC in both.

The workspace is the sample's with a realtime.gql the test adds (pollGenres with @refresh(every), genreWatch with
@refresh(onMutationExecuted) and a condition).

Usage: dataconnect_stream_peer.py PROTO_DIR STUB_DIR HOST:PORT [TRANSPORT]
"""
import json
import queue
import sys
import threading
import warnings

from dataconnect_stubs import generate, report, token

# websockets warns about connections not opened in a with block; these are closed by hand.
warnings.filterwarnings("ignore", category=DeprecationWarning)

proto_dir, stub_dir, target = sys.argv[1], sys.argv[2], sys.argv[3]
transport = sys.argv[4] if len(sys.argv) > 4 else "grpc"
generate(proto_dir, stub_dir)

import grpc  # noqa: E402
from google.protobuf import empty_pb2, json_format, struct_pb2  # noqa: E402
import connector_service_pb2 as pb  # noqa: E402
import connector_service_pb2_grpc as rpc  # noqa: E402
import connector_stream_service_pb2 as spb  # noqa: E402
import connector_stream_service_pb2_grpc as srpc  # noqa: E402

NAME = "projects/p/locations/us-central1/services/content-sample/connectors/movies"
MOVIE = "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01"


USER = token({"sub": "peer", "user_id": "peer", "email": "peer@example.com", "email_verified": True})


def variables(values):
    struct = struct_pb2.Struct()
    struct.update(values)
    return struct


def summary(response):
    """The parts of a StreamResponse the test checks, from either transport."""
    return {
        "request_id": response.request_id,
        "data": json_format.MessageToDict(response.data) if response.HasField("data") else None,
        "etag": response.data_etag,
        "cancelled": response.cancelled,
        "errors": [{"message": error.message, "code": error.extensions.code} for error in response.errors],
    }


def stream_request(request_id, kind, operation=None, values=None, etag=""):
    request = spb.StreamRequest(request_id=request_id, data_etag=etag)
    if kind == "cancel":
        request.cancel.CopyFrom(empty_pb2.Empty())
    elif kind == "resume":
        request.resume.CopyFrom(spb.ResumeRequest())
    else:
        execute = spb.ExecuteRequest(operation_name=operation)
        if values is not None:
            execute.variables.CopyFrom(variables(values))
        getattr(request, kind).CopyFrom(execute)
    return request


class QueuedStream:
    """What both transports share: responses are read on a thread into a queue, and taken from it in order."""

    def __init__(self):
        self.responses = queue.Queue()

    def next(self, timeout=10):
        try:
            return self.responses.get(timeout=timeout)
        except queue.Empty:
            return None


class GRPCStream(QueuedStream):
    """One Connect call: requests go in through a queue, responses are read on a thread."""

    def __init__(self, channel, auth=None, reads=True):
        super().__init__()
        self.requests = queue.Queue()
        metadata = [("x-firebase-auth-token", auth)] if auth else []
        self.call = srpc.ConnectorStreamServiceStub(channel).Connect(self._requests(), metadata=metadata)
        if reads:
            threading.Thread(target=self._read, daemon=True).start()

    def _requests(self):
        while True:
            request = self.requests.get()
            if request is None:
                return
            yield request

    def _read(self):
        try:
            for response in self.call:
                self.responses.put(summary(response))
        except grpc.RpcError as error:
            self.responses.put({"rpc_error": error.code().name})

    def send(self, request_id, kind, operation=None, values=None, etag=""):
        request = stream_request(request_id, kind, operation, values, etag)
        request.name = NAME
        self.requests.put(request)

    def close(self):
        self.requests.put(None)


class WebSocketStream(QueuedStream):
    """One WebSocket in the web SDK's form, read on a thread."""

    def __init__(self, auth=None, reads=True, path=None):
        from websockets.sync.client import connect
        super().__init__()
        self.auth = auth
        self.first = True
        # Unread messages past a few frames stop the client reading its socket, so a client that never reads
        # pushes back on the server.
        self.socket = connect(f"ws://{target}{path or WS_PATH}", max_queue=4)
        if reads:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        from websockets.exceptions import ConnectionClosed
        try:
            for message in self.socket:
                if not isinstance(message, str):
                    self.responses.put({"framing": "binary"})
                    continue
                wrapped = json.loads(message)
                if set(wrapped) != {"result"}:
                    self.responses.put({"framing": sorted(wrapped)})
                    continue
                response = spb.StreamResponse()
                json_format.ParseDict(wrapped["result"], response)
                self.responses.put(summary(response))
        except ConnectionClosed:
            pass

    def send(self, request_id, kind, operation=None, values=None, etag=""):
        body = json_format.MessageToDict(stream_request(request_id, kind, operation, values, etag))
        # The web SDK names the connector and sends its version in the first request, and the caller in every one.
        headers = {"X-Goog-Api-Client": "gl-js/ fire/12.0.0"}
        if self.first:
            body["name"] = NAME
            headers["X-Client-Version"] = "web/12.0.0"
            self.first = False
        if self.auth:
            headers["X-Firebase-Auth-Token"] = self.auth
        body["headers"] = headers
        self.socket.send(json.dumps(body))

    def close(self):
        self.socket.close()


WS_PATH = "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/p/locations/us-central1/services/" \
    "content-sample"


def Stream(channel, auth=None, reads=True):
    return GRPCStream(channel, auth, reads) if transport == "grpc" else WebSocketStream(auth, reads)


channel = grpc.insecure_channel(target)
unary = rpc.ConnectorServiceStub(channel)

# A single-entity query: refreshed after a single-entity mutation of its table, sent only when it changed.
stream = Stream(channel, USER)
stream.send("movie", "subscribe", "getMovieByKey", {"key": {"id": MOVIE}})
first = stream.next()
stream.send("list", "subscribe", "listMoviesByGenre", {"genre": "Sci-Fi"})
listed = stream.next()
stream.send("rate", "execute", "updateMovieRating", {"id": MOVIE, "rating": 9.5})
executed = stream.next()
refreshed = stream.next()
# The same rating again changes nothing: no new result is sent.
stream.send("rate-again", "execute", "updateMovieRating", {"id": MOVIE, "rating": 9.5})
again = stream.next()
unchanged = stream.next(timeout=2)
report("single-entity", first=first, listed=listed, executed=executed, refreshed=refreshed, again=again,
       unchanged=unchanged)

# A client that holds the current result is not sent it; a mutation from another client (unary gRPC) refreshes.
stream.send("held", "subscribe", "getMovieByKey", {"key": {"id": MOVIE}}, etag=(refreshed or {}).get("etag", ""))
nothing = stream.next(timeout=2)
request = pb.ExecuteMutationRequest(name=NAME, operation_name="updateMovieRating",
                                    variables=variables({"id": MOVIE, "rating": 6.5}))
unary.ExecuteMutation(request, metadata=[("x-firebase-auth-token", USER)], timeout=10)
pushed = sorted([stream.next(), stream.next()], key=lambda response: (response or {}).get("request_id", ""))
report("data-etag", nothing=nothing, pushed=pushed)

# resume: the subscription's current result again, or only its etag when the client says it holds that result.
stream.send("movie", "resume")
current = stream.next()
stream.send("movie", "resume", etag=(current or {}).get("etag", ""))
held_current = stream.next()
report("resume", current=current, held=held_current)

# Cancel, resume of nothing, and requests that cannot be subscriptions.
stream.send("movie", "cancel")
cancelled = stream.next()
stream.send("gone", "resume")
resumed = stream.next()
stream.send("mutation", "subscribe", "createMovie", {"title": "x", "releaseYear": 1, "genre": "x"})
mutation = stream.next()
stream.send("unknown", "subscribe", "noSuchQuery")
unknown = stream.next()
report("refusals", cancelled=cancelled, resumed=resumed, mutation=mutation, unknown=unknown)
stream.close()

# Without a token, an operation that needs a user is refused on the stream, which stays open.
anonymous = Stream(channel)
anonymous.send("mine", "subscribe", "listMyReviews")
refused = anonymous.next()
anonymous.send("genres", "execute", "listGenres")
still = anonymous.next()
# One stream holds at most 100 subscriptions.
for index in range(100):
    anonymous.send(f"many-{index}", "subscribe", "listGenres")
held = sum(1 for _ in range(100) if (anonymous.next() or {}).get("data") is not None)
anonymous.send("one-too-many", "subscribe", "listGenres")
too_many = anonymous.next()
report("anonymous", refused=refused, still=still, held=held, too_many=too_many)
anonymous.close()

# @refresh(onMutationExecuted: { operation: "createMovie", condition: "mutation.variables.genre ==
# request.variables.genre" }): a new movie of the genre refreshes, one of another genre does not.
watcher = Stream(channel)
watcher.send("watch", "subscribe", "genreWatch", {"genre": "Peer"})
watched = watcher.next()
unary.ExecuteMutation(pb.ExecuteMutationRequest(
    name=NAME, operation_name="createMovie",
    variables=variables({"title": "Other Genre", "releaseYear": 2020, "genre": "Else"})), timeout=10)
other = watcher.next(timeout=2)
unary.ExecuteMutation(pb.ExecuteMutationRequest(
    name=NAME, operation_name="createMovie",
    variables=variables({"title": "Peer Genre", "releaseYear": 2021, "genre": "Peer"})), timeout=10)
matched = watcher.next()
report("on-mutation", watched=watched, other=other, matched=matched)
watcher.close()

# @refresh(every: { seconds: 1 }): a change no trigger names is seen by the next poll.
poller = Stream(channel)
poller.send("poll", "subscribe", "pollGenres")
polled = poller.next()
unary.ExecuteMutation(pb.ExecuteMutationRequest(
    name=NAME, operation_name="createMovie",
    variables=variables({"title": "Polled", "releaseYear": 2022, "genre": "Polka"})), timeout=10)
repolled = poller.next(timeout=15)
report("every", polled=polled, repolled=repolled)
poller.close()

# A client that subscribes and never reads: its answers back up on its own connection only. Mutations from others
# keep being answered, and a reading subscriber keeps getting each new result.
stalled = Stream(channel, reads=False)
for index in range(100):
    stalled.send(f"stalled-{index}", "subscribe", "getMovieByKey", {"key": {"id": MOVIE}})
reader = Stream(channel)
reader.send("reader", "subscribe", "getMovieByKey", {"key": {"id": MOVIE}})
reader.next()
answered = 0
seen = []
for index in range(40):
    rating = 1.0 + index / 10
    request = pb.ExecuteMutationRequest(name=NAME, operation_name="updateMovieRating",
                                        variables=variables({"id": MOVIE, "rating": rating}))
    try:
        unary.ExecuteMutation(request, metadata=[("x-firebase-auth-token", USER)], timeout=10)
        answered += 1
    except grpc.RpcError:
        pass
    response = reader.next()
    movie = ((response or {}).get("data") or {}).get("movie") or {}
    seen.append(movie.get("rating"))
report("never-reads", answered=answered, seen=seen)
reader.close()

if transport == "websocket":
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    def closed_with(path, message=None, origin=None):
        """The close code and reason of a WebSocket that sends `message` (or nothing) and waits."""
        headers = {"Origin": origin} if origin else None
        with connect(f"ws://{target}{path}", additional_headers=headers) as socket:
            if message is not None:
                socket.send(message)
            try:
                socket.recv(timeout=10)
                return {"code": None}
            except ConnectionClosed as closed:
                return {"code": closed.rcvd.code if closed.rcvd else None,
                        "reason": closed.rcvd.reason if closed.rcvd else None}
            except TimeoutError:
                return {"code": "open"}

    malformed = closed_with(WS_PATH, "not a request")
    wrong_type = closed_with(WS_PATH, json.dumps({"requestId": 7, "subscribe": "listGenres"}))
    other_service = closed_with(WS_PATH.replace("content-sample", "other"))
    other_path = closed_with("/ws/elsewhere")
    foreign = closed_with(WS_PATH, origin="https://evil.example")

    # The Flutter SDK sends a new token in a request of its own; the requests after it act as that caller.
    late = WebSocketStream()
    late.send("before", "subscribe", "listMyReviews")
    before = late.next()
    late.socket.send(json.dumps({"requestId": "auth", "headers": {"X-Firebase-Auth-Token": USER}}))
    late.send("after", "subscribe", "listMyReviews")
    after = late.next()
    late.close()

    # The path web SDK releases 12.12.0-12.17.1 open, before firebase-js-sdk 981204d8 moved it for server affinity:
    # the location alone, the service named by the first request.
    legacy_stream = WebSocketStream(
        path="/ws/google.firebase.dataconnect.v1.ConnectorStreamService/Connect/locations/us-central1")
    legacy_stream.send("legacy", "subscribe", "listGenres")
    legacy = legacy_stream.next()
    legacy_stream.close()

    # While a stream is open, the port still answers REST over HTTP/1.1.
    import urllib.request
    open_stream = WebSocketStream()
    open_stream.send("open", "subscribe", "listGenres")
    open_stream.next()
    rest = urllib.request.urlopen(urllib.request.Request(
        f"http://{target}/v1/{NAME}:executeQuery", json.dumps({"operationName": "listGenres"}).encode(),
        {"Content-Type": "application/json"}), timeout=10).status
    open_stream.close()
    report("websocket", malformed=malformed, wrong_type=wrong_type, other_service=other_service,
           other_path=other_path, foreign=foreign, before=before, after=after, legacy=legacy, rest=rest)
