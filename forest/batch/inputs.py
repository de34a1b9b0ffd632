"""What a batch reads: files, directories, lists of URLs or paths, and WARC files, expanded into pages in order.

Expansion streams: a directory is walked (sorted, so the order is the same every time),
a WARC file read one record at a time, and a file's bytes are read only when the page is
extracted (in the worker).  Only a list read from stdin (``-i -``) and a page read from
stdin (``-``) are kept in memory, because stdin cannot be read twice and ``--learn``
reads the inputs twice.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from forest.batch.item import Item

__all__ = ["HTML_SUFFIXES", "WARC_SUFFIXES", "Inputs", "Item", "is_url", "is_warc"]

# What counts as an HTML page when a directory is walked.
HTML_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
# FastWARC detects the compression from the bytes; the name only says "this is a WARC".
WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4")
STDIN = "-"
# The longest line of an input list read: a path is at most 4,096 bytes (PATH_MAX) and
# URLs stay well under 64 KB; a longer line means the list is no list (/dev/zero, a binary
# file), and it is read no further rather than into memory whole.
MAX_LIST_LINE = 65_536


def is_url(argument: str) -> bool:
    return argument.lower().startswith(("http://", "https://"))


def is_warc(path: str) -> bool:
    return path.lower().endswith(WARC_SUFFIXES)


class Inputs:
    """The pages of a batch's arguments and ``-i`` lists, in order; iterable more than once.

    :param arguments: files, directories, WARC files, URLs, or ``-`` (a page on stdin).
    :param lists: files holding one URL or path per line (``-``: stdin); blank lines and
        lines starting with ``#`` are skipped.
    :param stdin: where ``-`` reads from (default: ``sys.stdin.buffer``).
    """

    def __init__(self, arguments: Sequence[str], lists: Sequence[str] = (), *, stdin: IO[bytes] | None = None) -> None:
        self._stdin = stdin
        self._stdin_page: bytes | None = None
        self._stdin_lines: list[str] | None = None
        self._arguments = list(arguments)
        self._lists = list(lists)

    def single(self) -> bool:
        """Whether the inputs are one page (one file, URL or ``-``, no directory, WARC or list)."""
        if self._lists or len(self._arguments) != 1:
            return False
        argument = self._arguments[0]
        return argument == STDIN or is_url(argument) or not (is_warc(argument) or os.path.isdir(argument))

    def has_urls(self) -> bool:
        """Whether any argument is a URL (lists are not read for this)."""
        return any(is_url(a) for a in self._arguments)

    def __iter__(self) -> Iterator[Item]:
        for argument in self._arguments:
            yield from self._expand(argument)
        for name in self._lists:
            error: str | None = None
            try:
                for line in self._read_list(name):
                    entry = line.strip()
                    if entry and not entry.startswith("#"):
                        yield from self._expand(entry)
            except OSError as exc:
                error = f"cannot read the list {name}: {exc.strerror or exc}"
            except _LongLine as exc:
                error = str(exc)
            if error is not None:
                yield Item(name, "error", error=error)

    def _stream(self) -> IO[bytes]:
        return self._stdin if self._stdin is not None else sys.stdin.buffer

    def _read_list(self, name: str) -> Iterator[str]:
        """The lines of the list ``name``, read as they are used (a list of millions of URLs is not held in memory)."""
        if name != STDIN:
            # A FIFO is a list as good as a file (`-i <(find ...)`): only its lines are bounded.
            with open(name, "rb") as file:
                yield from _lines(file, name)
            return
        if self._stdin_lines is None:
            # Kept: stdin cannot be read twice, and --learn reads the inputs twice.
            self._stdin_lines = []
            self._stdin_lines.extend(_lines(self._stream(), name))
        yield from self._stdin_lines

    def _expand(self, argument: str) -> Iterator[Item]:
        if argument == STDIN:
            if self._stdin_page is None:
                self._stdin_page = self._stream().read()
            yield Item(STDIN, "bytes", data=self._stdin_page)
        elif is_url(argument):
            yield Item(argument, "url", url=argument)
        elif os.path.isdir(argument):
            yield from _walk(argument)
        elif is_warc(argument):
            from forest.batch.warc import read_warc

            yield from read_warc(argument)
        else:
            yield Item(argument, "file")


class _LongLine(ValueError):
    """A line of an input list too long to be a URL or a path: not a list (a device, a binary file)."""


def _lines(stream: IO[bytes], name: str) -> Iterator[str]:
    """The lines of a list, bytes that are not UTF-8 kept as surrogate escapes (so that a file so named still opens).

    :raises _LongLine: at a line over MAX_LIST_LINE bytes.
    """
    while line := stream.readline(MAX_LIST_LINE + 1):
        if len(line) > MAX_LIST_LINE:
            raise _LongLine(f"{name}: a line of over {MAX_LIST_LINE:,} bytes: not a list of URLs or paths")
        yield line.decode("utf-8", "surrogateescape").rstrip("\r\n")


def _walk(directory: str) -> Iterator[Item]:
    """The HTML files under ``directory``, recursively, in sorted order (symbolic links to directories not followed)."""
    for root, dirs, files in os.walk(directory, onerror=None):
        dirs.sort()
        for name in sorted(files):
            if name.lower().endswith(HTML_SUFFIXES):
                yield Item(str(Path(root) / name), "file")
