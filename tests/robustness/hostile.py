"""A raw-socket HTTP server on 127.0.0.1 whose routes misbehave on purpose (trickling, bombs, huge delays)."""

from __future__ import annotations

import socket
import socketserver
import threading
import time
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager

# A route writes the whole response itself, headers included, on a raw socket.
Route = Callable[[socket.socket, threading.Event], None]


def trickle(data: bytes, stop: threading.Event, sock: socket.socket, *, every: float = 0.2) -> None:
    """Send ``data`` one byte at a time, ``every`` seconds apart, until done, stopped or disconnected."""
    for i in range(len(data)):
        if stop.wait(every):
            return
        try:
            sock.sendall(data[i:i + 1])
        except OSError:
            return


def send(sock: socket.socket, data: bytes) -> None:
    try:
        sock.sendall(data)
    except OSError:
        pass


def ok(body: bytes, content_type: bytes = b"text/html", extra: bytes = b"") -> bytes:
    return (b"HTTP/1.1 200 OK\r\nContent-Type: " + content_type + b"\r\nContent-Length: %d\r\n" % len(body)
            + extra + b"Connection: close\r\n\r\n" + body)


def gzip_bomb(size: int, layers: int = 2) -> bytes:
    """``size`` zero bytes gzipped ``layers`` times, built in chunks so the test never holds ``size`` bytes."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    chunk = b"\0" * 1_048_576
    parts = [compressor.compress(chunk) for _ in range(size // len(chunk))]
    data = b"".join(parts) + compressor.flush()
    for _ in range(layers - 1):
        outer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        data = outer.compress(data) + outer.flush()
    return data


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        server: HostileServer = self.server  # type: ignore[assignment]
        request = b""
        self.request.settimeout(5)
        try:
            while b"\r\n\r\n" not in request and len(request) < 65536:
                piece = self.request.recv(4096)
                if not piece:
                    return
                request += piece
        except OSError:
            return
        path = request.split(b" ", 2)[1].decode("latin-1") if request.count(b" ") >= 2 else "/"
        server.hits.append(path)
        route = server.routes.get(path.split("?", 1)[0])
        if route is None:
            send(self.request, b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        route(self.request, server.stop)


class HostileServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, routes: dict[str, Route]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.routes = routes
        self.hits: list[str] = []
        self.stop = threading.Event()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}{path}"


@contextmanager
def serve(routes: dict[str, Route]) -> Iterator[HostileServer]:
    """Run a HostileServer in a thread; on exit, stop every trickling route and close it."""
    server = HostileServer(routes)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.stop.set()
        server.shutdown()
        server.server_close()
        thread.join(5)
        time.sleep(0)  # let handler threads see the stop event
