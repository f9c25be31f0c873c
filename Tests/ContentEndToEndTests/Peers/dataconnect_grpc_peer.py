"""An independent gRPC client of content serve's Data Connect port: Python's grpcio, with stubs that grpcio-tools
generates from the service's own .proto files (the corpus copy, not the project's). Each scenario prints one JSON
line, {"scenario": ..., ...}, for the Swift test to check.

Usage: dataconnect_grpc_peer.py PROTO_DIR STUB_DIR HOST:PORT [grpc | response-limit]
"""
import concurrent.futures
import json
import socket
import sys
import urllib.request

from dataconnect_stubs import generate, report, token

proto_dir, stub_dir, target = sys.argv[1], sys.argv[2], sys.argv[3]
generate(proto_dir, stub_dir)

import grpc  # noqa: E402
from google.protobuf import json_format, struct_pb2  # noqa: E402
import connector_service_pb2 as pb  # noqa: E402
import connector_service_pb2_grpc as rpc  # noqa: E402

NAME = "projects/p/locations/us-central1/services/content-sample/connectors/movies"
REST = f"http://{target}/v1/{NAME}"


USER = token({"sub": "peer-user", "user_id": "peer-user", "email": "peer@example.com", "email_verified": True})


def variables(values):
    struct = struct_pb2.Struct()
    struct.update(values)
    return struct


def call(stub, method, operation, values=None, auth=None):
    request_type = pb.ExecuteQueryRequest if method == "ExecuteQuery" else pb.ExecuteMutationRequest
    request = request_type(name=NAME, operation_name=operation)
    if values is not None:
        request.variables.CopyFrom(variables(values))
    metadata = [("x-firebase-auth-token", auth)] if auth else []
    try:
        response = getattr(stub, method)(request, metadata=metadata, timeout=10)
        return {"code": "OK", "data": json_format.MessageToDict(response.data) if response.HasField("data") else None,
                "errors": [json_format.MessageToDict(error) for error in response.errors],
                "extensions": json_format.MessageToDict(response.extensions)
                if response.HasField("extensions") else None}
    except grpc.RpcError as error:
        return {"code": error.code().name, "message": error.details()}


def rest(action, operation, values=None, auth=None):
    body = {"operationName": operation}
    if values is not None:
        body["variables"] = values
    headers = {"Content-Type": "application/json"}
    if auth:
        headers["X-Firebase-Auth-Token"] = auth
    request = urllib.request.Request(f"{REST}:{action}", json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return {"status": answer.status, "body": json.load(answer)}
    except urllib.error.HTTPError as error:
        return {"status": error.code, "body": json.load(error)}


channel = grpc.insecure_channel(target)
stub = rpc.ConnectorServiceStub(channel)

# Against a server started with `--limit response-bytes=N`: an answer past it and one within it, on both APIs.
if len(sys.argv) > 4 and sys.argv[4] == "response-limit":
    for scenario, genre in [("large", "Sci-Fi"), ("small", "No Such Genre")]:
        values = {"genre": genre}
        report(scenario, grpc=call(stub, "ExecuteQuery", "listMoviesByGenre", values),
               rest=rest("executeQuery", "listMoviesByGenre", values))
    sys.exit(0)

# The same operations through gRPC and REST, side by side.
cases = [
    ("query", "ExecuteQuery", "executeQuery", "listMoviesByGenre", {"genre": "Sci-Fi"}, None),
    ("wrong-type", "ExecuteQuery", "executeQuery", "listMoviesByGenre", {"genre": 5}, None),
    ("missing-variable", "ExecuteQuery", "executeQuery", "listMoviesByGenre", {}, None),
    ("unknown-operation", "ExecuteQuery", "executeQuery", "noSuchOperation", None, None),
    ("mutation-by-query", "ExecuteQuery", "executeQuery", "createMovie", None, None),
    ("user-without-token", "ExecuteQuery", "executeQuery", "listMyReviews", None, None),
    ("user-with-token", "ExecuteQuery", "executeQuery", "listMyReviews", None, USER),
    ("partial-error", "ExecuteMutation", "executeMutation", "addReview",
     {"movieId": "0b5c1b1e3a524c7e9d0b6f1e8a2c4d01", "rating": 4}, USER),
]
for scenario, method, action, operation, values, auth in cases:
    report(scenario, grpc=call(stub, method, operation, values, auth), rest=rest(action, operation, values, auth))

created = call(stub, "ExecuteMutation", "createMovie",
               {"title": "Peer Review", "releaseYear": 2026, "genre": "Peer", "rating": 7.5})
listed = call(stub, "ExecuteQuery", "listMoviesByGenre", {"genre": "Peer"})
report("mutation", created=created, listed=listed)

bad_name = pb.ExecuteQueryRequest(name="projects/p/connectors/movies", operation_name="listGenres")
try:
    stub.ExecuteQuery(bad_name, timeout=10)
    report("bad-name", code="OK")
except grpc.RpcError as error:
    report("bad-name", code=error.code().name, message=error.details())


# Another location is served, as Firebase's emulator ignores it; another service is not.
for scenario, name in [("other-location", NAME.replace("us-central1", "unused")),
                       ("other-service", NAME.replace("content-sample", "films"))]:
    try:
        answer = stub.ExecuteQuery(pb.ExecuteQueryRequest(name=name, operation_name="listGenres"), timeout=10)
        report(scenario, code="OK", data=json_format.MessageToDict(answer.data))
    except grpc.RpcError as error:
        report(scenario, code=error.code().name, message=error.details())


def raw_call(scenario, method, payload):
    """Sends bytes as they are to a method, and reports the status."""
    call = channel.unary_unary(f"/google.firebase.dataconnect.v1.ConnectorService/{method}",
                               request_serializer=lambda data: data, response_deserializer=lambda data: data)
    try:
        call(payload, timeout=10)
        report(scenario, code="OK")
    except grpc.RpcError as error:
        report(scenario, code=error.code().name)


# Bytes that are no ExecuteQueryRequest, and a method the service does not have.
raw_call("malformed", "ExecuteQuery", b"\xff\xff\xff\xff")
raw_call("unknown-method", "Nope", b"")

# Connections that open and then say nothing more: the HTTP/2 preface alone, half of it, half an HTTP/1.1 request.
silent = []
for opening in [b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", b"PRI * HTTP/2", b"POST /v1/ HTTP/1.1\r\nHost: x"]:
    for _ in range(10):
        connection = socket.create_connection(tuple(target.rsplit(":", 1)))
        connection.sendall(opening)
        silent.append(connection)


# 100 clients at once, each on its own connection, while REST answers too.
def one_client(index):
    own = grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
    result = call(rpc.ConnectorServiceStub(own), "ExecuteQuery", "listMoviesByGenre", {"genre": "Sci-Fi"})
    own.close()
    return result["code"] == "OK" and len(result["data"]["movies"]) == 3


with concurrent.futures.ThreadPoolExecutor(max_workers=100) as pool:
    grpc_results = list(pool.map(one_client, range(100)))
    rest_results = list(pool.map(lambda _: rest("executeQuery", "listGenres")["status"], range(20)))
report("concurrent", grpc_ok=sum(grpc_results), rest_statuses=sorted(set(rest_results)))
for connection in silent:
    connection.close()
