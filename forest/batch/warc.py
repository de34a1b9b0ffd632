"""The HTML pages of a WARC file, one response record at a time, with FastWARC.

FastWARC (part of resiliparse) rather than warcio: it parses WARC and its gzip, zstd and
lz4 members in C++ several times faster than warcio's pure Python, which matters when
reading is a share of the per-page budget (forest extracts a page in about 2 ms); it
decodes chunked and gzip HTTP payloads, gives the HTTP charset directly, and Common
Crawl's cc-pyspark offers it as its fast parser.  It is an optional extra (``[warc]``):
without it, a WARC input is one line saying how to install it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO, Any

from forest.batch.item import Item
from forest.errors import ForestError

__all__ = ["HTML_TYPES", "read_warc", "warc_items"]

# The response Content-Types that are pages; a record without one is read as a page too.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml", "application/xml", "text/xml", "text/plain"})
INSTALL_HINT = "pip install 'forest-extract[warc]'"


def _archive(stream: IO[bytes] | str) -> Any:
    try:
        from fastwarc.warc import ArchiveIterator, WarcRecordType
    except ImportError as exc:
        raise ForestError(f"reading WARC files needs FastWARC: {INSTALL_HINT}") from exc
    # fsspec_args=False: a local path or an open stream, never a network URL behind forest's back.
    return ArchiveIterator(stream, record_types=WarcRecordType.response, parse_http=True, fsspec_args=False)


def read_warc(path: str, *, max_bytes: int = 10_000_000) -> Iterator[Item]:
    """The pages of the WARC file at ``path`` (see :func:`warc_items`); a file that cannot be read is one error item.

    :raises ForestError: if FastWARC is not installed.
    """
    try:
        stream = open(path, "rb")
    except OSError as exc:
        yield Item(path, "error", error=f"cannot read {path}: {exc.strerror or exc}")
        return
    with stream:
        yield from warc_items(stream, path, max_bytes=max_bytes)


def warc_items(stream: IO[bytes], name: str, *, max_bytes: int = 10_000_000) -> Iterator[Item]:
    """One item per HTML response record of the WARC in ``stream``, in file order.

    The item's source is ``NAME#OFFSET`` (the record's offset in the file, as Common Crawl's
    index gives it), its URL the record's ``WARC-Target-URI``, its charset the HTTP
    ``Content-Type``'s.  Records that are not pages (another content type, a status other
    than 2xx) are ``skip`` items; a record over ``max_bytes`` is cut there (and refused by
    the parser).  A file that is not a WARC, or is cut short, ends with an ``error`` item.

    :raises ForestError: if FastWARC is not installed.
    """
    records: Iterable[Any] = _archive(stream)
    position = 0
    try:
        for record in records:
            position = record.stream_pos
            source = f"{name}#{position}"
            status = record.http_headers.status_code if record.http_headers is not None else 200
            content_type = (record.http_content_type or "").lower()
            if not 200 <= (status or 0) < 300 or (content_type and content_type not in HTML_TYPES):
                yield Item(source, "skip", url=record.headers.get("WARC-Target-URI"))
                continue
            data = record.reader.read(max_bytes + 1)
            yield Item(source, "bytes", data=data, url=record.headers.get("WARC-Target-URI") or None,
                       charset=record.http_charset or None)
    except (OSError, ValueError) as exc:
        yield Item(f"{name}#{position}", "error", error=f"{name}: not a readable WARC file after offset {position} ({exc})")
