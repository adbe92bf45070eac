"""Fixtures for `keccakx sum URL`: a moto S3 server (with one object that
its IAM policy refuses: a real 403), a range-capable HTTP server, and the
same bytes on disk. Every server listens on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).parent))
from servers import serve_http  # noqa: E402

BUCKET = "kx-remote"
MIB = 1 << 20
SEED = int(os.environ.get("KECCAKX_TEST_SEED", "37"))
BIG = int(os.environ.get("KECCAKX_REMOTE_BIG", str(100 * MIB + 12345)))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def keccakx_bin():
    path = os.environ.get("KECCAKX_BIN") or str(ROOT / "target" / "release" / "keccakx")
    if not os.access(path, os.X_OK):
        pytest.fail(f"the keccakx CLI is not built at {path}")
    return path


@pytest.fixture(scope="session")
def tmp_session(tmp_path_factory):
    return tmp_path_factory.mktemp("remote")


class S3:
    """moto's server; after three unauthenticated calls (a user, its policy
    and its key) every request is checked against the policy, which
    allows S3 except reading `secret`."""

    def __init__(self, tmp: Path):
        import boto3

        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        log = open(tmp / "moto.log", "wb")
        env = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="3")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError((tmp / "moto.log").read_text()[-3000:])
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        kw = dict(endpoint_url=self.endpoint, region_name="us-east-1",
                  aws_access_key_id="setup", aws_secret_access_key="setup")
        iam = boto3.client("iam", **kw)
        iam.create_user(UserName="hasher")
        policy = {"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*"},
            {"Effect": "Deny", "Action": "s3:GetObject", "Resource": f"arn:aws:s3:::{BUCKET}/secret"},
        ]}
        iam.put_user_policy(UserName="hasher", PolicyName="p", PolicyDocument=json.dumps(policy))
        key = iam.create_access_key(UserName="hasher")["AccessKey"]
        self.key, self.secret = key["AccessKeyId"], key["SecretAccessKey"]
        kw.update(aws_access_key_id=self.key, aws_secret_access_key=self.secret)
        self.s3 = boto3.client("s3", **kw)
        self.s3.create_bucket(Bucket=BUCKET)

    def env(self, endpoint: str | None = None) -> dict:
        """The standard AWS variables a user would set for this server."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env.update(AWS_ACCESS_KEY_ID=self.key, AWS_SECRET_ACCESS_KEY=self.secret,
                   AWS_DEFAULT_REGION="us-east-1", AWS_ENDPOINT_URL=endpoint or self.endpoint)
        return env

    def put(self, name: str, data: bytes) -> str:
        self.s3.put_object(Bucket=BUCKET, Key=name, Body=data)
        return f"s3://{BUCKET}/{name}"

    def close(self):
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.proc.kill()


@pytest.fixture(scope="session")
def s3(tmp_session):
    server = S3(tmp_session)
    yield server
    server.close()


@pytest.fixture(scope="session")
def objects(s3, tmp_session):
    """name -> bytes for objects of 0, 1, 8191-8193 bytes and a few MiB,
    on disk (served over HTTP too) and in S3."""
    rng = random.Random(SEED)
    sizes = [0, 1, 8191, 8192, 8193, 3 * MIB + rng.randint(1, 99999)]
    root = tmp_session / "www"
    root.mkdir()
    out = {}
    for n in sizes:
        name = f"o{n}.bin"
        data = rng.randbytes(n)
        (root / name).write_bytes(data)
        s3.put(f"data/{name}", data)
        out[name] = data
    return out


@pytest.fixture(scope="session")
def www(objects, tmp_session):
    srv, faults = serve_http(tmp_session / "www")
    srv.faults = faults
    yield srv
    srv.shutdown()
