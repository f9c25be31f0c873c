"""ConnectorStreamService.Connect on content serve's Data Connect port, from Python's grpcio with stubs generated from
the service's own .proto files: subscriptions, their refreshes, data_etag, cancel, and refusals. Each scenario
prints one JSON line for the Swift test to check.

The workspace is the sample's with a realtime.gql the test adds (pollGenres with @refresh(every), genreWatch with
@refresh(onMutationExecuted) and a condition).

Usage: dataconnect_stream_peer.py PROTO_DIR STUB_DIR HOST:PORT
"""
import json
import queue
import sys
import threading

from dataconnect_stubs import generate, report, token

proto_dir, stub_dir, target = sys.argv[1], sys.argv[2], sys.argv[3]
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


class Stream:
    """One Connect stream: requests go in through a queue, responses are read on a thread."""

    def __init__(self, channel, auth=None):
        self.requests = queue.Queue()
        self.responses = queue.Queue()
        metadata = [("x-firebase-auth-token", auth)] if auth else []
        self.call = srpc.ConnectorStreamServiceStub(channel).Connect(self._requests(), metadata=metadata)
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
                self.responses.put(response)
        except grpc.RpcError as error:
            self.responses.put(error)

    def send(self, request_id, kind, operation=None, values=None, etag=""):
        request = spb.StreamRequest(name=NAME, request_id=request_id, data_etag=etag)
        if kind == "cancel":
            request.cancel.CopyFrom(empty_pb2.Empty())
        elif kind == "resume":
            request.resume.CopyFrom(spb.ResumeRequest())
        else:
            execute = spb.ExecuteRequest(operation_name=operation)
            if values is not None:
                execute.variables.CopyFrom(variables(values))
            getattr(request, kind).CopyFrom(execute)
        self.requests.put(request)

    def next(self, timeout=10):
        try:
            response = self.responses.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(response, grpc.RpcError):
            return {"rpc_error": response.code().name}
        return {
            "request_id": response.request_id,
            "data": json_format.MessageToDict(response.data) if response.HasField("data") else None,
            "etag": response.data_etag,
            "cancelled": response.cancelled,
            "errors": [{"message": error.message, "code": error.extensions.code} for error in response.errors],
        }

    def close(self):
        self.requests.put(None)


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
