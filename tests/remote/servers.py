"""Loopback servers for the object-URL tests and benchmark: an HTTP file
server with byte ranges, ETags and If-Match (Python's http.server has
none of these), and a TCP proxy that cuts connections in the middle of a
response. Also usable as a script: `python servers.py http DIR PORT`."""

from __future__ import annotations

import http.server
import os
import re
import socket
import socketserver
import struct
import sys
import threading
import time
from pathlib import Path

RANGE = re.compile(r"bytes=(\d*)-(\d*)$")


class Faults:
    """Misbehaviour by object name (the path's last segment), set by tests."""

    def __init__(self):
        self.status: dict[str, int] = {}  # name -> HTTP status for every request
        self.stall: dict[str, float] = {}  # name -> seconds to wait before a GET's body
        self.overwrite_after: dict[str, int] = {}  # name -> GETs served before the file is replaced
        self.head_size: dict[str, int] = {}  # name -> the size a HEAD reports (GETs stay true)
        self.served: dict[str, int] = {}  # name -> body bytes sent by GETs (for range-only readers)


class RangeHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root: Path
    faults: Faults

    def log_message(self, *args):
        pass

    def _file(self):
        name = self.path.split("?", 1)[0].lstrip("/")
        p = (self.root / name).resolve()
        if self.root.resolve() not in p.parents or not p.is_file():
            return None, name
        return p, name

    @staticmethod
    def etag(st: os.stat_result) -> str:
        return f'"{st.st_size:x}-{st.st_mtime_ns:x}-{st.st_ino:x}"'

    def _error(self, code: int):
        self.send_response(code)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self._serve(head=True)

    def do_GET(self):
        self._serve(head=False)

    def _serve(self, head: bool):
        p, name = self._file()
        base = name.rsplit("/", 1)[-1]
        code = self.faults.status.get(base)
        if code:
            return self._error(code)
        if p is None:
            return self._error(404)
        with open(p, "rb") as f:
            st = os.fstat(f.fileno())
            tag = self.etag(st)
            want = self.headers.get("If-Match")
            if want and want.strip() != "*" and tag not in [t.strip() for t in want.split(",")]:
                return self._error(412)
            size = st.st_size
            start, end = 0, size
            rng = self.headers.get("Range")
            status = 200
            if rng:
                m = RANGE.match(rng.strip())
                if not m or (not m.group(1) and not m.group(2)):
                    return self._error(416)
                if m.group(1):
                    start = int(m.group(1))
                    end = min(size, int(m.group(2)) + 1) if m.group(2) else size
                else:
                    start, end = max(0, size - int(m.group(2))), size
                if start >= size or start >= end:
                    self.send_response(416)
                    self.send_header("Content-Range", f"bytes */{size}")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                status = 206
            self.send_response(status)
            length = end - start
            if head and base in self.faults.head_size:
                length = self.faults.head_size[base]
            self.send_header("Content-Length", str(length))
            self.send_header("ETag", tag)
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Last-Modified", self.date_time_string(int(st.st_mtime)))
            if status == 206:
                self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
            self.end_headers()
            if head:
                return
            # Replaced before this answer's body is sent (the open file
            # still serves the old bytes): any later request, a resumed GET
            # included, finds the new object, whatever the timing of a cut.
            left = self.faults.overwrite_after.get(base)
            if left is not None:
                left -= 1
                self.faults.overwrite_after[base] = left
                if left == 0:
                    data = p.read_bytes()
                    tmp = p.with_name(p.name + ".new")
                    tmp.write_bytes(bytes([data[0] ^ 1]) + data[1:] if data else b"x")
                    os.replace(tmp, p)
            stall = self.faults.stall.get(base)
            if stall:
                time.sleep(stall)
            if end > start:
                self.wfile.flush()
                self.connection.sendfile(f, start, end - start)
                self.faults.served[base] = self.faults.served.get(base, 0) + end - start


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def serve_http(root: Path, port: int = 0) -> tuple[Server, Faults]:
    """A range-capable file server for `root` on 127.0.0.1, in a thread."""
    faults = Faults()
    handler = type("H", (RangeHandler,), {"root": Path(root), "faults": faults})
    srv = Server(("127.0.0.1", port), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv, faults


class CuttingProxy:
    """A TCP proxy to 127.0.0.1:`upstream` that resets the first `cuts`
    connections once `after` bytes of response have passed (an abortive
    close: the client sees a connection reset in the middle of a body)."""

    def __init__(self, upstream: int, after: int, cuts: int):
        self.upstream, self.after, self.cuts = upstream, after, cuts
        self.cut = 0
        self.lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._pipe, args=(c,), daemon=True).start()

    def _pipe(self, client: socket.socket):
        up = socket.create_connection(("127.0.0.1", self.upstream))
        with self.lock:
            doomed = self.cut < self.cuts
            if doomed:
                self.cut += 1

        def forward(src, dst, count):
            sent = 0
            try:
                while True:
                    data = src.recv(65536)
                    if not data:
                        break
                    if count and doomed and sent + len(data) > self.after:
                        dst.sendall(data[: max(0, self.after - sent)])
                        # Abortive close (RST); shutdown first wakes the
                        # other direction's thread, blocked in recv, so
                        # that the close is not deferred until it returns.
                        for s in (client, up):
                            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                            try:
                                s.shutdown(socket.SHUT_RDWR)
                            except OSError:
                                pass
                            s.close()
                        return
                    dst.sendall(data)
                    sent += len(data)
            except OSError:
                pass
            for s in (src, dst):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        threading.Thread(target=forward, args=(client, up, False), daemon=True).start()
        forward(up, client, True)

    def close(self):
        self.sock.close()


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "http":
        srv, _ = serve_http(Path(sys.argv[2]), int(sys.argv[3]))
        print(srv.server_address[1], flush=True)
        threading.Event().wait()
    sys.exit("usage: servers.py http DIR PORT")
