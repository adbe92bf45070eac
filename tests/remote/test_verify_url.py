"""`keccakx verify --range` on object-store URLs (an HTTP server with
ranges, moto's S3 server): the outboard is local, the data is read by
ranged GETs of only the chunks asked for; damage in the object is found
in the range that holds it and not elsewhere."""

from __future__ import annotations

import subprocess

from conftest import MIB

CHUNK = 8192


def run(bin_path, args, env=None):
    return subprocess.run([bin_path, *args], capture_output=True, env=env, timeout=120)


def big_name(objects):
    return next(n for n, d in objects.items() if len(d) > MIB)


def outboard_of(bin_path, tmp, name, data):
    f = tmp / f"verify-{name}"
    f.write_bytes(data)
    ob = tmp / f"verify-{name}.kto"
    r = run(bin_path, ["sum", "-a", "kt128", "--outboard", str(ob), str(f)])
    assert r.returncode == 0, r.stderr
    return r.stdout.split()[0].decode(), ob


def test_verify_range_reads_only_that_range(keccakx_bin, www, objects, tmp_session):
    name = big_name(objects)
    digest, ob = outboard_of(keccakx_bin, tmp_session, name, objects[name])
    url = f"http://127.0.0.1:{www.server_address[1]}/{name}"
    start, end = 5 * CHUNK + 100, 5 * CHUNK + 100 + 20000
    www.faults.served.pop(name, None)
    r = run(keccakx_bin, ["verify", "--digest", digest, "--outboard", str(ob),
                          "--range", f"{start}..{end}", url])
    assert r.returncode == 0, r.stderr
    assert b"OK (bytes 40960..65536)" in r.stdout, r.stdout
    served = www.faults.served.get(name, 0)
    # Only the chunks holding the range: 3 chunks of 8192.
    assert 0 < served <= 3 * CHUNK, served
    # Without --range: every byte, each once.
    www.faults.served.pop(name, None)
    r = run(keccakx_bin, ["verify", "--digest", digest, "--outboard", str(ob), url])
    assert r.returncode == 0, r.stderr
    assert www.faults.served.get(name, 0) == len(objects[name])


def test_verify_url_locates_damage(keccakx_bin, s3, objects, tmp_session):
    name = big_name(objects)
    data = objects[name]
    digest, ob = outboard_of(keccakx_bin, tmp_session, name, data)
    k = 7
    bad = bytearray(data)
    bad[k * CHUNK + 4321] ^= 0x20
    url = s3.put(f"damaged/{name}", bytes(bad))
    env = s3.env()
    args = ["verify", "--digest", digest, "--outboard", str(ob)]
    hit = run(keccakx_bin, [*args, "--range", f"{6 * CHUNK}..{9 * CHUNK}", url], env=env)
    assert hit.returncode == 1, hit.stderr
    assert f"bytes {k * CHUNK}..{(k + 1) * CHUNK} damaged (chunk {k})".encode() in hit.stdout
    assert hit.stdout.count(b"damaged (chunk") == 1
    miss = run(keccakx_bin, [*args, "--range", f"{20 * CHUNK}..{21 * CHUNK}", url], env=env)
    assert miss.returncode == 0, miss.stdout + miss.stderr
    # A URL needs its outboard named; writing one needs a local file.
    r = run(keccakx_bin, ["verify", "--digest", digest, url], env=env)
    assert r.returncode == 2 and b"--outboard" in r.stderr
    r = run(keccakx_bin, ["sum", "-a", "kt128", "--outboard", str(tmp_session / "u.kto"), url], env=env)
    assert r.returncode == 2 and b"local file" in r.stderr
