"""Real parts on loopback for the keccakx.distributed tests (make
test-cluster): a `dask scheduler` and `dask worker` processes, a moto S3
server process, the `keccakx` CLI built from this worktree. Every process
is started here on a free 127.0.0.1 port, bounded by timeouts, and stopped
(terminate, then kill) at the end, even when a test fails."""

from __future__ import annotations

import atexit
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VENV_BIN = Path(sys.executable).parent
CHUNK = 8192

#: Seed for the random sizes and part sizes (printed, and settable to replay).
SEED = int(os.environ.get("KECCAKX_TEST_SEED", str(random.SystemRandom().randrange(2**32))), 0)

_started: list = []


def pytest_report_header(config):
    return f"keccakx distributed tests: KECCAKX_TEST_SEED={SEED}"


def _stop(p: subprocess.Popen):
    if p.poll() is None:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(10)


@atexit.register
def _stop_all():
    for p in _started:
        _stop(p)


def start(args, log: Path, env=None) -> subprocess.Popen:
    """A background process in its own process group, output to ``log``."""
    f = open(log, "wb")
    p = subprocess.Popen(args, stdout=f, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    f.close()
    _started.append(p)
    return p


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, log: Path, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited ({proc.returncode}) before listening:\n{log.read_text()[-3000:]}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listened on 127.0.0.1:{port} within {timeout} s:\n{log.read_text()[-3000:]}")


class DaskCluster:
    """`dask scheduler` and `dask worker` processes on loopback."""

    def __init__(self, tmp: Path, workers: int, name: str):
        self.tmp = tmp
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        dask = str(VENV_BIN / "dask")
        # The tests' own modules, for functions they run on the scheduler.
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]))
        slog = tmp / f"{name}-scheduler.log"
        self.scheduler = start(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard",
             "--idle-timeout", "900"],
            slog,
            env=env,
        )
        wait_port(self.port, self.scheduler, slog)
        self.workers = []
        for i in range(workers):
            wlog = tmp / f"{name}-worker{i}.log"
            # --no-nanny: one process per worker, so that killing it loses
            # the worker (and its results) for real.
            self.workers.append(
                start(
                    [dask, "worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                     "--host", "127.0.0.1", "--memory-limit", "0", "--death-timeout", "60",
                     "--name", f"{name}-w{i}"],
                    wlog,
                    env=env,
                )
            )
        from distributed import Client

        self.client = Client(self.address, timeout=60, set_as_default=False)
        self.client.wait_for_workers(workers, timeout=120)

    def close(self):
        try:
            self.client.close(timeout=10)
        except Exception:
            pass
        for p in [*self.workers, self.scheduler]:
            _stop(p)


@pytest.fixture(scope="session")
def tmp_session(tmp_path_factory):
    return tmp_path_factory.mktemp("cluster")


@pytest.fixture(scope="session")
def cluster(tmp_session):
    """A real scheduler and two workers (one thread each)."""
    c = DaskCluster(tmp_session, 2, "main")
    yield c
    c.close()


@pytest.fixture(scope="session")
def keccakx_bin():
    """`keccakx` built from this worktree (make test-cluster builds it)."""
    path = os.environ.get("KECCAKX_BIN") or str(ROOT / "target" / "release" / "keccakx")
    if not os.access(path, os.X_OK):
        pytest.fail(f"the keccakx CLI is not built at {path}: run `make build-cli` (make test-cluster does)")
    return path


@pytest.fixture(scope="session")
def cluster_cli():
    path = VENV_BIN / "keccakx-cluster"
    if not path.exists():
        pytest.fail("keccakx-cluster is not installed in the venv (make test-cluster installs it)")
    return str(path)


BUCKET = "keccakx-test"


class S3Server:
    """A moto S3 server process with IAM enforcement: after three
    unauthenticated calls (creating a user, its policy and key) every
    request is checked against that user's policy, which allows all of S3
    but reading `BUCKET/secret`: a real permission error."""

    def __init__(self, tmp: Path):
        import boto3

        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        log = tmp / "moto.log"
        env = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="3")
        self.proc = start([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)], log, env=env)
        wait_port(self.port, self.proc, log)
        kw = dict(endpoint_url=self.endpoint, region_name="us-east-1", aws_access_key_id="setup",
                  aws_secret_access_key="setup")
        iam = boto3.client("iam", **kw)
        iam.create_user(UserName="hasher")
        policy = {
            "Version": "2012-10-17",
            "Statement": [
                {"Effect": "Allow", "Action": "s3:*", "Resource": "*"},
                {"Effect": "Deny", "Action": "s3:GetObject", "Resource": f"arn:aws:s3:::{BUCKET}/secret"},
            ],
        }
        iam.put_user_policy(UserName="hasher", PolicyName="all-but-secret", PolicyDocument=json.dumps(policy))
        key = iam.create_access_key(UserName="hasher")["AccessKey"]
        kw.update(aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
        self.s3 = boto3.client("s3", **kw)
        self.s3.create_bucket(Bucket=BUCKET)
        self.storage_options = {
            "key": key["AccessKeyId"],
            "secret": key["SecretAccessKey"],
            "client_kwargs": {"endpoint_url": self.endpoint, "region_name": "us-east-1"},
        }

    def put(self, name: str, data: bytes) -> str:
        self.s3.put_object(Bucket=BUCKET, Key=name, Body=data)
        return f"s3://{BUCKET}/{name}"

    def close(self):
        _stop(self.proc)


@pytest.fixture(scope="session")
def s3(tmp_session):
    server = S3Server(tmp_session)
    yield server
    server.close()


@pytest.fixture(scope="session")
def rng():
    return random.Random(SEED)


def keccakx_sum(bin_path: str, path, *args) -> bytes:
    """The digest `keccakx sum` prints for one local file."""
    out = subprocess.run([bin_path, "sum", *args, str(path)], capture_output=True, timeout=120, check=True)
    return bytes.fromhex(out.stdout.split(b" ")[0].decode())


def have(cmd: str) -> bool:
    return shutil.which(cmd) is not None
