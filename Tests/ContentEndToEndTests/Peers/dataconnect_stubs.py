"""What the Data Connect peers share: stubs generated from the service's own .proto files, and caller tokens."""
import base64
import json
import os
import subprocess
import sys


def generate(proto_dir, stub_dir):
    """Generates the Python stubs of every .proto file in proto_dir into stub_dir, and makes them importable."""
    subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", "-I", proto_dir, f"--python_out={stub_dir}",
         f"--grpc_python_out={stub_dir}"]
        + [name for name in os.listdir(proto_dir) if name.endswith(".proto")]
        + ["google/api/field_behavior.proto", "google/rpc/code.proto"],
        check=True)
    sys.path.insert(0, stub_dir)


def token(claims):
    """An unsigned Firebase ID token, which the emulator trusts as Firebase's own emulator does."""
    def encode(data):
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
    return encode({"alg": "none"}) + "." + encode(claims) + "."


def report(scenario, **fields):
    """One scenario's findings as a JSON line on stdout."""
    print(json.dumps({"scenario": scenario, **fields}, sort_keys=True), flush=True)
