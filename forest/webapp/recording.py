"""An httpx transport that keeps a copy of every document forest downloads, so a job's pages can be shown later."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass

import httpx

from forest.webapp.jobs import now

# Compressed bytes decoded at a time: a gzip piece this size inflates to a few MB at most.
_PIECE = 4096


@dataclass(frozen=True, slots=True)
class Download:
    """One response as the fetcher received it (body content-decoded)."""

    url: str
    status: int
    content_type: str
    fetched_at: str
    body: bytes


class RecordingTransport(httpx.BaseTransport):
    """Wraps a transport and records each response whose body is at most ``max_bytes``.

    The body passes through unchanged, chunk by chunk: forest's fetcher still
    enforces its own size cap and timeouts.  A body over ``max_bytes`` is not kept
    (the fetcher refuses it anyway).  Thread-safe: the fetcher fetches sample pages
    from several threads through one client.
    """

    def __init__(self, inner: httpx.BaseTransport, *, max_bytes: int) -> None:
        self._inner = inner
        self._max_bytes = max_bytes
        self._lock = threading.Lock()
        self._downloads: list[Download] = []

    @property
    def downloads(self) -> list[Download]:
        with self._lock:
            return list(self._downloads)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self._inner.handle_request(request)
        return httpx.Response(
            status_code=response.status_code,
            headers=response.headers,
            stream=_Tee(response, request, self),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._inner.close()

    def _keep(self, request: httpx.Request, response: httpx.Response, raw: bytes) -> None:
        # The raw bytes may be gzip or brotli encoded: let httpx decode them as the client did,
        # in small pieces, and give up past the cap (a compression bomb is not kept).
        pieces = (raw[i:i + _PIECE] for i in range(0, len(raw), _PIECE))
        decoding = httpx.Response(response.status_code, headers=response.headers, stream=_Pieces(pieces))
        parts: list[bytes] = []
        size = 0
        try:
            for part in decoding.iter_bytes():
                size += len(part)
                if size > self._max_bytes:
                    return
                parts.append(part)
        except httpx.DecodingError:
            return
        body = b"".join(parts)
        content_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        download = Download(str(request.url), response.status_code, content_type, now(), body)
        with self._lock:
            self._downloads.append(download)


class _Pieces(httpx.SyncByteStream):
    def __init__(self, pieces: Iterator[bytes]) -> None:
        self._pieces = pieces

    def __iter__(self) -> Iterator[bytes]:
        return self._pieces


class _Tee(httpx.SyncByteStream):
    """Yields the inner response's raw chunks and keeps a copy while it is under the cap."""

    def __init__(self, response: httpx.Response, request: httpx.Request, owner: RecordingTransport) -> None:
        self._response = response
        self._request = request
        self._owner = owner

    def __iter__(self) -> Iterator[bytes]:
        chunks: list[bytes] | None = []
        size = 0
        for chunk in self._response.stream:  # type: ignore[union-attr]
            if chunks is not None:
                size += len(chunk)
                if size > self._owner._max_bytes:
                    chunks = None  # too large to keep; the fetcher decides what to do with it
                else:
                    chunks.append(chunk)
            yield chunk
        if chunks is not None:
            self._owner._keep(self._request, self._response, b"".join(chunks))

    def close(self) -> None:
        self._response.close()
