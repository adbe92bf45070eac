#!/usr/bin/env python3
"""`keccakx sum URL` against the transfer it rides on, in the same run.

    python3 bench/remote/bench.py --keccakx target/release/keccakx --out bench/results/remote-DATE.json

Sources, all on 127.0.0.1: nginx serving a page-cached file (the Python
range server of tests/remote when nginx is not installed), and moto's S3
server (an object of --s3-mib). Peers, alternated round by round:
- `curl -o /dev/null URL`: the server's bare transfer rate;
- `keccakx sum -a kt128 URL` (parallel ranged GETs) and `-a sha3-256 URL`
  (one streamed GET);
- `curl URL | keccakx sum -a kt128` and `-a sha3-256`, `curl URL | openssl
  dgst -sha3-256`;
- `keccakx sum -a kt128 FILE`, `-a sha3-256 FILE`: the same bytes from the
  page cache (the hash's own rate: a ceiling for the URL's);
- `curl -r` of one part (`--part-mib`, the object's first): the server's
  bare rate for one ranged GET, to compare with its whole-object rate.
Each figure is the median of --rounds; the JSON keeps every time, and for
each run the CPU seconds of the client's processes (user + system) and of
the server's processes, from which bench/NOTES.md works out the ceiling
on this machine's cores. The digests of every peer are checked against the
local file's.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT / "tests" / "remote"))
MIB = 1 << 20


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen | None = None, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited ({proc.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), 0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def start_nginx(root: Path, tmp: Path):
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not nginx:
        return None, None
    port = free_port()
    conf = tmp / "nginx.conf"
    conf.write_text(f"""
worker_processes 2;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root};
    }}
}}
""")
    proc = subprocess.Popen([nginx, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    wait_port(port, proc)
    return proc, port


def start_moto(tmp: Path):
    port = free_port()
    log = open(tmp / "moto.log", "wb")
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    wait_port(port, proc)
    return proc, port


def stop(proc):
    if proc is None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        proc.kill()


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of process `pid` and its children."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    try:
        for t in os.listdir(f"/proc/{pid}/task"):
            pids += [int(c) for c in open(f"/proc/{pid}/task/{t}/children").read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            f = open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()
            total += (int(f[11]) + int(f[12])) / tick
        except OSError:
            pass
    return total


def timed(cmd: str, env: dict, server=None) -> tuple[float, str, float, float]:
    """Wall seconds, digest, the command's CPU seconds, the server's CPU seconds."""
    s0 = proc_cpu(server.pid) if server is not None else 0.0
    r0 = os.times()
    t = time.perf_counter()
    r = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, env=env, timeout=600)
    dt = time.perf_counter() - t
    r1 = os.times()
    cpu = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
    scpu = (proc_cpu(server.pid) - s0) if server is not None else 0.0
    if r.returncode != 0:
        raise RuntimeError(f"{cmd}: exit {r.returncode}: {r.stderr.decode()[-2000:]}")
    out = r.stdout.decode().strip()
    digest = out.split()[-1] if "openssl" in cmd else (out.split()[0] if out else "")
    return dt, digest, cpu, scpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keccakx", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mib", type=int, default=1024, help="size of the file nginx serves")
    ap.add_argument("--s3-mib", type=int, default=256, help="size of the S3 object")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--part-mib", type=int, default=8, help="size of the one ranged GET timed with curl -r")
    a = ap.parse_args()
    load_at_start = os.getloadavg()
    kx = os.path.abspath(a.keccakx)
    tmp = Path(tempfile.mkdtemp(prefix="kx-remote-bench-"))
    procs = []
    try:
        www = tmp / "www"
        www.mkdir()
        data_path = www / "data.bin"
        with open(data_path, "wb") as f:
            for _ in range(a.mib):
                f.write(os.urandom(MIB))
        small = www / "s3.bin"
        with open(data_path, "rb") as f:
            small.write_bytes(f.read(a.s3_mib * MIB))
        subprocess.run(["cat", str(data_path), str(small)], stdout=subprocess.DEVNULL, check=True)
        # nginx's workers run as an unprivileged user: let them read the files.
        for p in (tmp, www):
            p.chmod(0o755)
        for p in (data_path, small):
            p.chmod(0o644)

        nginx, port = start_nginx(www, tmp)
        http_proc = nginx
        if nginx is not None:
            procs.append(nginx)
            http_server = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip().replace("nginx version: ", "")
        else:
            from servers import serve_http

            srv, _ = serve_http(www)
            port = srv.server_address[1]
            http_server = "tests/remote/servers.py (nginx not installed)"
        moto, mport = start_moto(tmp)
        procs.append(moto)
        import boto3

        s3 = boto3.client("s3", endpoint_url=f"http://127.0.0.1:{mport}", region_name="us-east-1",
                          aws_access_key_id="bench", aws_secret_access_key="bench")
        s3.create_bucket(Bucket="bench")
        s3.upload_file(str(small), "bench", "s3.bin")
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
        env.update(AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION="us-east-1",
                   AWS_ENDPOINT_URL=f"http://127.0.0.1:{mport}")

        sources = {
            "http": dict(url=f"http://127.0.0.1:{port}/data.bin", curl=f"http://127.0.0.1:{port}/data.bin",
                         file=data_path, mib=a.mib, server=http_server, proc=http_proc),
            "s3": dict(url="s3://bench/s3.bin", curl=f"http://127.0.0.1:{mport}/bench/s3.bin",
                       file=small, mib=a.s3_mib, server="moto " + __import__("moto").__version__, proc=moto),
        }
        have_openssl = shutil.which("openssl") is not None
        results = {}
        for name, src in sources.items():
            peers = {
                "curl -o /dev/null": f"curl -sf -o /dev/null {src['curl']}",
                "keccakx sum -a kt128 URL": f"{kx} sum -a kt128 {src['url']}",
                "keccakx sum -a sha3-256 URL": f"{kx} sum -a sha3-256 {src['url']}",
                "curl | keccakx sum -a kt128": f"curl -sf {src['curl']} | {kx} sum -a kt128",
                "curl | keccakx sum -a sha3-256": f"curl -sf {src['curl']} | {kx} sum -a sha3-256",
                "keccakx sum -a kt128 FILE": f"{kx} sum -a kt128 {src['file']}",
                "keccakx sum -a sha3-256 FILE": f"{kx} sum -a sha3-256 {src['file']}",
                "curl -r (one part) -o /dev/null": f"curl -sf -r 0-{a.part_mib * MIB - 1} -o /dev/null {src['curl']}",
            }
            if have_openssl:
                peers["curl | openssl dgst -sha3-256"] = f"curl -sf {src['curl']} | openssl dgst -sha3-256"
            want = {
                "kt128": timed(f"{kx} sum -a kt128 {src['file']}", env)[1],
                "sha3-256": timed(f"{kx} sum -a sha3-256 {src['file']}", env)[1],
            }
            times = {p: [] for p in peers}
            cpus = {p: [] for p in peers}
            server_cpus = {p: [] for p in peers}
            order = list(peers)
            for r in range(a.rounds):
                for p in order[r % len(order):] + order[: r % len(order)]:
                    dt, digest, cpu, scpu = timed(peers[p], env, src["proc"])
                    if "kt128" in p and digest != want["kt128"]:
                        raise RuntimeError(f"{p}: digest {digest} != {want['kt128']}")
                    if "sha3-256" in p and digest != want["sha3-256"]:
                        raise RuntimeError(f"{p}: digest {digest} != {want['sha3-256']}")
                    times[p].append(dt)
                    cpus[p].append(cpu)
                    server_cpus[p].append(scpu)
            size = src["mib"] * MIB
            sizes = {p: a.part_mib * MIB if p.startswith("curl -r") else size for p in peers}
            med = {p: statistics.median(t) for p, t in times.items()}
            rate = {p: sizes[p] / med[p] / 1e6 for p in peers}
            bare = rate["curl -o /dev/null"]
            results[name] = {
                "server": src["server"],
                "bytes": size,
                "bytes_per_peer": sizes,
                "times_s": times,
                "median_s": med,
                "client_cpu_s": cpus,
                "server_cpu_s": server_cpus,
                "median_client_cpu_s": {p: statistics.median(v) for p, v in cpus.items()},
                "median_server_cpu_s": {p: statistics.median(v) for p, v in server_cpus.items()},
                "rate_MBps": rate,
                "ratio_to_bare": {p: rate[p] / bare for p in peers},
            }
            print(f"{name} ({src['server']}, {src['mib']} MiB, median of {a.rounds}):")
            for p in peers:
                c, sc = statistics.median(cpus[p]), statistics.median(server_cpus[p])
                print(f"  {p:34s} {rate[p]:9.1f} MB/s  {rate[p] / bare:6.3f}x bare"
                      f"   cpu: client {c:.2f} s, server {sc:.2f} s")
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True).stdout.strip()
        cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "")
        rep = {
            "bench": "remote",
            "commit": commit,
            "machine": {"cpu": cpu, "cores": os.cpu_count(), "platform": platform.platform(),
                        "loadavg_at_start": load_at_start, "loadavg_at_end": os.getloadavg()},
            "command": " ".join([os.path.relpath(sys.executable, ROOT) if sys.executable.startswith(str(ROOT))
                                 else "python3", os.path.relpath(__file__, ROOT), *sys.argv[1:]]),
            "keccakx": os.path.relpath(kx, ROOT) if kx.startswith(str(ROOT)) else kx,
            "rounds": a.rounds,
            "settings": {k: os.environ.get(k) for k in ("KECCAKX_OBJECT_JOBS", "KECCAKX_OBJECT_PART")},
            "part_mib": a.part_mib,
            "sources": results,
            "target": {"name": "keccakx sum -a kt128 URL / curl -o /dev/null (nginx)", "need": 0.9,
                       "value": results["http"]["ratio_to_bare"]["keccakx sum -a kt128 URL"]},
        }
        Path(a.out).write_text(json.dumps(rep, indent=1) + "\n")
        print(f"wrote {a.out}")
    finally:
        for p in procs:
            stop(p)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
