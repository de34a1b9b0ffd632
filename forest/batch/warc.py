"""The HTML pages of a WARC file, one response record at a time, with FastWARC.

FastWARC (part of resiliparse) rather than warcio: it parses WARC and its gzip, zstd and
lz4 members in C++ several times faster than warcio's pure Python, which matters when
reading is a share of the per-page budget (forest extracts a page in about 2 ms); it
decodes chunked and gzip HTTP payloads, gives the HTTP charset directly, and Common
Crawl's cc-pyspark offers it as its fast parser.  It is an optional extra (``[warc]``):
without it, a WARC input is one line saying how to install it.

FastWARC trusts each record's Content-Length and stops at the first record it cannot
parse: a record whose length runs past the next record swallows it, a record cut short
comes out short, and a corrupt gzip member ends the file.  So each record of an
uncompressed file is checked to end where the next one starts (two reads of a few bytes),
the last gzip member to end where the file does, and after a record that cannot be read
whole, reading starts again at the next record the file holds: the next line starting
``WARC/1.`` (uncompressed) or the next gzip member that starts a record.  The bad record
is an ``error`` item with its own offset.
"""

from __future__ import annotations

import io
import os
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import IO, Any

from forest.batch.item import Item
from forest.errors import ForestError
from forest.limits import open_file

__all__ = ["HTML_TYPES", "read_warc", "warc_items"]

# The response Content-Types that are pages; a record without one is read as a page too.
HTML_TYPES = frozenset({"text/html", "application/xhtml+xml", "application/xml", "text/xml", "text/plain"})
INSTALL_HINT = "pip install 'forest-extract[warc]'"
# How far a record's headers may reach before their blank line: far beyond real ones
# (about 1 KB); a record whose headers are longer is read as one that cannot be read whole.
MAX_HEADER_BYTES = 1 << 20
# Bytes read at a time when searching for the next record after a bad one.
_SCAN = 1 << 20
_GZIP_MAGIC = b"\x1f\x8b\x08"


def _archive(stream: IO[bytes]) -> Any:
    try:
        from fastwarc.warc import ArchiveIterator
    except ImportError as exc:
        raise ForestError(f"reading WARC files needs FastWARC: {INSTALL_HINT}") from exc
    # fsspec_args=False: a local path or an open stream, never a network URL behind forest's back.
    # Every record type: each one is checked to end where the next starts (see the module's docstring).
    return ArchiveIterator(stream, parse_http=True, fsspec_args=False)


def _response_type() -> Any:
    from fastwarc.warc import WarcRecordType

    return WarcRecordType.response


def read_warc(path: str, *, max_bytes: int = 10_000_000) -> Iterator[Item]:
    """The pages of the WARC file at ``path`` (see :func:`warc_items`); a file that cannot be read is one error item.

    :raises ForestError: if FastWARC is not installed.
    """
    try:
        stream = open_file(path)
    except OSError as exc:
        yield Item(path, "error", error=f"cannot read {path}: {exc.strerror or exc}")
        return
    except ForestError as exc:  # not a regular file: a FIFO would block, a device never end
        yield Item(path, "error", error=" ".join(str(exc).split()))
        return
    with stream:
        yield from warc_items(stream, path, max_bytes=max_bytes)


class _Bytes:
    """Reads at any offset of the WARC being parsed without moving the stream FastWARC reads from."""

    def __init__(self, read_at: Callable[[int, int], bytes], size: int) -> None:
        self.read_at = read_at
        self.size = size
        self.gzip = read_at(0, 2) == _GZIP_MAGIC[:2]

    @classmethod
    def of(cls, stream: IO[bytes]) -> _Bytes | None:
        """Random access to ``stream``'s bytes: a file's (pread) or a BytesIO's; None for a pipe or another stream."""
        if isinstance(stream, io.BytesIO):
            view = stream.getbuffer()
            return cls(lambda offset, size: bytes(view[offset:offset + size]), len(view))
        try:
            fd = stream.fileno()
            size = os.fstat(fd).st_size
            os.pread(fd, 1, 0)
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            return None
        return cls(lambda offset, length: os.pread(fd, length, offset), size)

    def plain_end(self, offset: int, content_length: int) -> int | None:
        """Where the uncompressed record at ``offset`` ends (the next one starts), or None when it is not whole:
        its block runs past the end of the file, or is not followed by the next record (its length is wrong)."""
        if content_length < 0:
            return None
        head = self.read_at(offset, 8192)
        blank = head.find(b"\r\n\r\n")
        if blank < 0:
            head = self.read_at(offset, MAX_HEADER_BYTES)
            blank = head.find(b"\r\n\r\n")
        if blank < 0:
            return None
        end = offset + blank + 4 + content_length
        if end > self.size:
            return None
        tail = self.read_at(end, 64)
        # The spec's CRLF CRLF after the block; writers differ in the blank lines they put
        # there, so the next record's start after blank lines also shows the length right.
        rest = tail.lstrip(b"\r\n")
        if tail.startswith(b"\r\n\r\n") or rest.startswith(b"WARC/") or (not rest and end + len(tail) == self.size):
            return end + len(tail) - len(rest)
        return None

    def padding(self, offset: int) -> bool:
        """Whether the file holds only blank lines or NUL bytes from ``offset`` to its end (as some writers leave)."""
        return self.size - offset <= 4096 and not self.read_at(offset, 4096).strip(b"\r\n\t \x00")

    def plain_start(self, offset: int) -> int:
        """Where the uncompressed record FastWARC read at ``offset`` starts: after any stray
        version lines before its own (garbage "WARC/1.1" lines that FastWARC reads past)."""
        head = self.read_at(offset, 1024)
        while head.startswith(b"WARC/"):
            line = head.find(b"\n") + 1
            if line <= 0 or not head[line:].startswith(b"WARC/"):
                break
            offset, head = offset + line, head[line:]
        return offset

    def next_plain(self, start: int) -> int | None:
        """The offset of the first ``WARC/1.`` at or after ``start``, or None.

        Not only at the start of a line: garbage before a record need not end with one.
        """
        position = start
        while position < self.size:
            found = self.read_at(position, _SCAN + 7).find(b"WARC/1.")
            if found >= 0:
                return position + found
            position += _SCAN
        return None

    def inflated_size(self, offset: int, length: int) -> int:
        """The bytes the gzip member at ``offset`` must inflate to, its record's headers and a
        block of ``length`` bytes (the CRLF CRLF after it not counted); -1 when not known."""
        if length < 0:
            return -1
        # Real headers are under 1 KB: a little of the member first, all the headers may hold only if need be.
        for read, most in ((4096, 16384), (1 << 16, MAX_HEADER_BYTES)):
            try:
                head = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(self.read_at(offset, read), most)
            except zlib.error:
                return -1
            blank = head.find(b"\r\n\r\n")
            if blank >= 0:
                return blank + 4 + length
        return -1

    def ends_member(self, end: int, inflated: int) -> bool:
        """Whether a gzip member of ``inflated`` bytes (and the CRLF CRLF after its block) ends at ``end``:
        its trailer's size field (the inflated size, modulo 2**32) says so."""
        if inflated < 0:
            return True
        size = int.from_bytes(self.read_at(end - 4, 4), "little")
        # Writers put CRLF CRLF after the block, as the spec says; a few put less.
        return (size - inflated) % (1 << 32) in (0, 2, 4)

    def after_member(self, offset: int) -> int | None:
        """Where to read again after a bad record at ``offset`` of a gzip file: the end of its member, else the next member."""
        end = self.member_end(offset)
        return end if end is not None and end > offset else self.next_record(offset + 1)

    def member_end(self, offset: int) -> int | None:
        """Where the gzip member at ``offset`` ends, or None when it cannot be decompressed to its end."""
        inflate = zlib.decompressobj(zlib.MAX_WBITS | 16)
        position = offset
        try:
            while not inflate.eof:
                chunk = self.read_at(position, _SCAN)
                if not chunk:
                    return None
                inflate.decompress(chunk)
                position += len(chunk)
        except zlib.error:
            return None
        return position - len(inflate.unused_data)

    def next_member(self, start: int) -> int | None:
        """The offset of the first gzip member header at or after ``start``, or None.

        A member that does not inflate to a WARC record is not skipped: read there, it
        becomes an error item, so that a corrupt record has its own.
        """
        position = start
        while position < self.size:
            chunk = self.read_at(position, _SCAN + 3)
            found = chunk.find(_GZIP_MAGIC)
            if found < 0:
                position += _SCAN
                continue
            candidate = position + found
            # The flags byte's three high bits are reserved (zero): a chance match in deflate data rarely has them so.
            if found + 3 < len(chunk) and chunk[found + 3] & 0xE0 == 0:
                return candidate
            position = candidate + 1
        return None

    def next_record(self, start: int) -> int | None:
        return self.next_member(start) if self.gzip else self.next_plain(start)


def warc_items(stream: IO[bytes], name: str, *, max_bytes: int = 10_000_000) -> Iterator[Item]:
    """One item per HTML response record of the WARC in ``stream``, in file order.

    The item's source is ``NAME#OFFSET`` (the record's offset in the file, as Common Crawl's
    index gives it), its URL the record's ``WARC-Target-URI``, its charset the HTTP
    ``Content-Type``'s.  Records that are not pages (another content type, a status other
    than 2xx) are ``skip`` items; a record over ``max_bytes`` is cut there (and refused by
    the parser).  A record that cannot be read whole (cut short, a Content-Length past the
    next record, a corrupt gzip member) is an ``error`` item with its offset, and reading
    goes on at the next record (in a file or a BytesIO; other streams end there).

    :raises ForestError: if FastWARC is not installed.
    """
    data = _Bytes.of(stream)
    start: int | None = stream.tell() if data is not None else 0
    while start is not None:
        if data is not None:
            stream.seek(start)
        start = yield from _records(_archive(stream), name, max_bytes, data, start)


def _records(records: Iterable[Any], name: str, max_bytes: int, data: _Bytes | None, start: int) -> Generator[Item, None, int | None]:
    """The items of the records FastWARC reads from ``start``; returns where to read again after a bad record, or None."""
    response = _response_type()
    previous: int | None = None  # the offset of the last record read
    after = start  # where it ends (uncompressed files)
    inflated = -1  # the bytes its gzip member must inflate to (-1: not known)
    pending: Item | None = None  # the last page, held until the next record shows the one before was whole
    iterator = iter(records)
    while True:
        offset: int | None = None
        try:
            record = next(iterator)
            offset = record.stream_pos
            length = _block_length(record)
            if data is not None and data.gzip:
                if previous is not None and not data.ends_member(offset, inflated):
                    # The record before is not its member: its Content-Length runs on into the next members.
                    yield from _others(pending, name, previous)
                    yield _bad(name, previous, "its Content-Length does not match its gzip member")
                    return data.after_member(previous)
                end: int | None = 0
                inflated = data.inflated_size(offset, length)
                if length < 0:
                    yield from _flush(pending)
                    yield _bad(name, offset, "no readable Content-Length")
                    return data.after_member(offset)
            elif data is not None:
                offset = data.plain_start(offset)
                end = data.plain_end(offset, length)
                if end is None:
                    yield from _flush(pending)
                    yield _bad(name, offset, "record cut short, or its Content-Length is missing or runs past the next record")
                    return data.next_record(offset + 1)
            else:
                end = 0
            item = _item(record, name, offset, max_bytes, response)
        except StopIteration:
            break
        except (OSError, ValueError) as exc:
            return (yield from _unreadable(exc, name, data, pending, offset, previous, after, start, inflated))
        previous, after = offset, end or after
        if item is not None:
            yield from _flush(pending)
            pending = item
    if data is not None and data.gzip and previous is not None:
        # FastWARC reads a gzip member cut short as a short record: the last one must end where the file does.
        member = data.member_end(previous)
        if member is None or not data.ends_member(member, inflated):
            yield from _others(pending, name, previous)
            yield _bad(name, previous, "record cut short (its gzip member ends early)" if member is None
                       else "its Content-Length does not match its gzip member")
            return data.after_member(previous)
        after = member
    yield from _flush(pending)
    if data is not None and after < data.size and not data.padding(after):
        # FastWARC stopped before the end of the file without a word: what follows is no record it can read.
        yield _bad(name, after, "bytes that are not a WARC record")
        return data.next_record(after + 1)
    return None


def _unreadable(
    exc: Exception, name: str, data: _Bytes | None, pending: Item | None, offset: int | None, previous: int | None,
    after: int, start: int, inflated: int,
) -> Generator[Item, None, int | None]:
    """The error item of the record FastWARC failed on, and where to read again."""
    why = " ".join(str(exc).split())
    if data is not None and data.gzip and offset is None and previous is not None:
        # Between two records of a gzip file: the last one read left bytes of its member
        # unread (its Content-Length is short), or the next member is corrupt.
        end = data.member_end(previous)
        if end is not None and inflated >= 0 and not data.ends_member(end, inflated):
            yield from _others(pending, name, previous)
            yield _bad(name, previous, "its Content-Length does not match its gzip member")
            return end  # the next member, bad or not, is read on its own from there
    yield from _flush(pending)
    if data is None:
        position = offset if offset is not None else previous if previous is not None else start
        yield _bad(name, position, f"not a readable WARC file after offset {position} ({why})")
        return None
    # The record being read, else the one after the last read.
    bad = offset if offset is not None else start if previous is None else data.member_end(previous) if data.gzip else after
    bad = bad if bad is not None else previous if previous is not None else start
    if previous is not None and bad > previous and data.padding(bad):
        return None  # blank lines after the last record, which FastWARC takes for the start of another
    yield _bad(name, bad, f"not a readable WARC file ({why})" if previous is None else f"unreadable record ({why})")
    return data.next_record(bad + 1)


def _others(pending: Item | None, name: str, offset: int) -> Iterator[Item]:
    """``pending``, unless it is the record at ``offset`` (which turned out bad)."""
    if pending is not None and pending.source != f"{name}#{offset}":
        yield pending


def _block_length(record: Any) -> int:
    """The record's Content-Length as its header says (FastWARC's ``content_length`` is the HTTP body's, once parsed)."""
    value = (record.headers.get("Content-Length") or "").strip()
    return int(value) if value.isdigit() else -1


def _flush(item: Item | None) -> Iterator[Item]:
    if item is not None:
        yield item


def _bad(name: str, offset: int, why: str) -> Item:
    return Item(f"{name}#{offset}", "error", error=f"{name}#{offset}: {why}")


def _item(record: Any, name: str, offset: int, max_bytes: int, response: Any) -> Item | None:
    """The item of a record: None for a record that is no response (a warcinfo, a request)."""
    if record.record_type != response:
        return None
    source = f"{name}#{offset}"
    url = record.headers.get("WARC-Target-URI") or None
    status = record.http_headers.status_code if record.http_headers is not None else 200
    content_type = (record.http_content_type or "").lower()
    if not 200 <= (status or 0) < 300 or (content_type and content_type not in HTML_TYPES):
        return Item(source, "skip", url=url)
    return Item(source, "bytes", data=record.reader.read(max_bytes + 1), url=url, charset=record.http_charset or None)
