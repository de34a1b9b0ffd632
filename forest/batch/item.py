"""One page of a batch, read or still to read: the value that goes from the inputs to the workers."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Item"]


@dataclass(frozen=True, slots=True)
class Item:
    """One page of a batch, not yet read (a file, a URL) or read (a WARC record, stdin).

    :param source: what the record's ``source`` says: the path, URL, ``-``, or ``WARC#offset``.
    :param kind: ``file``, ``url``, ``bytes`` (``data`` holds the page), or ``error``
        (the input could not be expanded: ``error`` says why).
    :param url: the page's URL: the URL itself, or a WARC record's target URI.
    :param charset: the charset of the HTTP response (a WARC record's Content-Type).
    """

    source: str
    kind: str
    data: bytes | None = None
    url: str | None = None
    charset: str | None = None
    error: str | None = None

    def read(self) -> bytes:
        """The page's bytes.

        :raises OSError: if its file cannot be read.
        """
        if self.data is not None:
            return self.data
        with open(self.source, "rb") as file:
            return file.read()
