"""One page of a batch, read or still to read: the value that goes from the inputs to the workers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from forest.limits import read_file

__all__ = ["Item", "ItemKind", "shown"]

# What an item is: a file or URL still to read, a page already read (``data``), a WARC record
# that is no page (not HTML, or not a 2xx response: counted as skipped, never extracted), or an
# input that could not be expanded (``error``).
ItemKind = Literal["file", "url", "bytes", "skip", "error"]

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class Item:
    """One page of a batch, not yet read (a file, a URL) or read (a WARC record, stdin).

    :param source: what the record's ``source`` says: the path, URL, ``-``, or ``WARC#offset``.
    :param kind: ``file``, ``url``, ``bytes`` (``data`` holds the page), ``skip`` (a WARC
        record that is not an HTML page with a 2xx status: counted, not extracted), or
        ``error`` (the input could not be expanded: ``error`` says why).
    :param url: the page's URL: the URL itself, or a WARC record's target URI.
    :param charset: the charset of the HTTP response (a WARC record's Content-Type).
    """

    source: str
    kind: ItemKind
    data: bytes | None = None
    url: str | None = None
    charset: str | None = None
    error: str | None = None

    def read(self, max_bytes: int) -> bytes:
        """The page's bytes.

        :param max_bytes: a file over this size is refused unread (Settings.max_page_bytes).
        :raises ParseError: if its file is not a regular file, or is over ``max_bytes``.
        :raises OSError: if its file cannot be read.
        """
        if self.data is not None:
            return self.data
        return read_file(self.source, max_bytes=max_bytes)


def shown(text: str) -> str:
    """``text`` as valid UTF-8, to print or write: a file name's byte that is not UTF-8 (read
    as a surrogate escape, so that the file can still be opened) becomes ``\\xNN``, and any
    other lone surrogate ``\\uNNNN``."""
    return _SURROGATE.sub(_escape, text) if _SURROGATE.search(text) else text


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"
