"""Bounds on what one page, JSON document or URL may cost, checked before the expensive step runs."""

from __future__ import annotations

import bisect
import functools
import json
import os
import re
import stat
from typing import Any, BinaryIO

from forest._markup import markup_counts, most_outside_raw_text
from forest.errors import ParseError

# Start tags a page may have.  The largest page of the shared datasets has 14,396
# (`python -m eval.fuzz --census`, wceb2026); 100,000 leaves 7x headroom, and a page
# of that size parses, learns and extracts in a few seconds and well under 1 GB,
# where 1,000,000 sibling <p> took 145 s and 22 GB (issue 15, case 7).
MAX_START_TAGS = 100_000
# Attributes one element may carry.  libxml2 checks each new attribute against the
# element's others, so parsing is quadratic in them: 10,000 attributes parse in 0.09 s,
# 40,000 in 1.6 s, and 100,000 took 17 s (issue 15, case 8).  The most on one tag of
# the shared datasets is 667 (`python -m eval.fuzz --census`, l3s_gn1, prose such as
# "a<b ..." that HTML reads as a tag), so 5,000 leaves 7x headroom at ~20 ms of parsing.
MAX_ATTRIBUTES = 5_000
# A tag shorter than this cannot hold MAX_ATTRIBUTES attributes (each needs at least
# a space and a letter), so only longer ones are counted.
_LONG_TAG = 2 * MAX_ATTRIBUTES
# Elements open at once in a feed.  Pages need no such check: libxml2 itself reads a page
# no deeper than 256 (deeper elements are read as siblings, for lxml without huge_tree),
# but feedparser keeps every open element: 10,000 nested ones took 0.9 s and 100,000 took
# 8 s (`python -m eval.fuzz feeds`, case deep_nesting).  Real feeds nest 3-6 deep, an
# Atom entry's XHTML content some 20 more; the same 256 as pages leaves 10x headroom.
MAX_DEPTH = 256
# Nesting of a JSON document read from a page (JSON-LD) or a stored wrapper.  JSON-LD
# nests 3-6 deep and a wrapper 3; Python's json recursion would fail near 1,000 and
# any recursive walk of the result near the same depth.
MAX_JSON_DEPTH = 64
# Text blocks the per-block classifier is run on.  Its features take about 30 KB a
# block at their peak (20,000 sibling blocks: 670 MB peak RSS, 1.2 s), so a page with
# more blocks is extracted without it rather than with 1 GB or more of features.
MAX_CLASSIFIER_BLOCKS = 20_000

_START_TAG = re.compile(r"<[a-zA-Z]")
# What xml_depth reads: the start of a CDATA section or a comment (skipped whole), or a
# start or end tag with its name and, for an empty element ("<a/>"), the closing slash.
_XML_TOKEN = re.compile(r"<!\[CDATA\[|<!--|<(/?)([A-Za-z_][^\s/<>]*)[^<>]*?(/?)>")
# HTML elements without an end tag: unescaped HTML in a feed (which feedparser's loose
# parser reads) holds them unclosed, and they must not count as open.
_VOID_ELEMENTS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "meta", "param", "source",
                            "track", "wbr"})
# A tag with no '<' or '>' inside over _LONG_TAG characters.  [^<>] keeps the scan
# linear: a run without '>' full of '<a' would otherwise be rescanned from every '<a'.
_LONG_START_TAG = re.compile(rf"<[a-zA-Z][^<>]{{{_LONG_TAG},}}")
# One attribute of a tag: a name, then maybe a value; quoted values are consumed whole,
# so the spaces of an SVG path or of JSON in a data- attribute are not counted.
_ATTRIBUTE = re.compile(r"""[^\s"'<>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]*))?""")
_RAW_ELEMENTS = "script|style|textarea|title|xmp|noscript|template|iframe|noembed|noframes|plaintext"
_RAW_OPEN = re.compile(rf"<({_RAW_ELEMENTS})\b|<!--()", re.IGNORECASE)
_RAW_CLOSE = re.compile(rf"</({_RAW_ELEMENTS})\s*>|--()>", re.IGNORECASE)

# C0 controls other than tab, LF and CR, lone surrogates and the two non-characters
# U+FFFE and U+FFFF: XML 1.0 forbids them, and lxml refuses any text holding one.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids replaced by a space.

    lxml parses a form feed or a stray control character in HTML, but refuses the same
    character when forest writes text back into the tree (moving a tail), so they go first.
    A space, because HTML treats a form feed as whitespace and browsers show controls as nothing.
    """
    return _NOT_XML.sub(" ", text) if _NOT_XML.search(text) else text


def check_markup(text: str, *, source: str | None = None, xml: bool = False) -> None:
    """Refuse markup whose parse alone would cost far more than any real page's.

    :param xml: ``text`` is an XML document (a feed): every tag counts, also inside a
        ``<title>`` or CDATA (feedparser parses the HTML an entry holds too), and elements
        may nest at most MAX_DEPTH deep.  feedparser reads 100,000 start tags in some 3.5 s
        (25,000 four-element items), linear in them.
    :raises ParseError: over MAX_START_TAGS start tags, an element with over
        MAX_ATTRIBUTES attributes, or (XML) elements nested over MAX_DEPTH deep.
    """
    # One pass in C (forest._markup) counts the start tags as _START_TAG does and the attributes
    # of every tag _LONG_START_TAG finds as _ATTRIBUTE does, raw text or not; a page over the limit
    # by that count is scanned again for its long tags outside raw text, in C too (most_attributes'
    # regexes, its reference, took tens of milliseconds on the few pages of megabytes that hold a
    # script's "a<b ..." run: most of their cold extraction's time).  XML has no raw text.
    tags, bound = markup_counts(text, _LONG_TAG)
    if tags > MAX_START_TAGS:
        raise ParseError(
            f"{'feed' if xml else 'page'} has {tags:,} elements, over the {MAX_START_TAGS:,} forest reads "
            "(forest.limits.MAX_START_TAGS)",
            source=source,
        )
    attributes = (bound if xml else most_outside_raw_text(text, _LONG_TAG)) if bound > MAX_ATTRIBUTES else 0
    if attributes > MAX_ATTRIBUTES:
        raise ParseError(
            f"an element has {attributes:,} attributes, over the {MAX_ATTRIBUTES:,} forest reads "
            "(forest.limits.MAX_ATTRIBUTES)",
            source=source,
        )
    depth = xml_depth(text) if xml and text.count("<") > MAX_DEPTH else 0
    if depth > MAX_DEPTH:
        raise ParseError(
            f"elements nest over {MAX_DEPTH:,} deep, deeper than forest reads (forest.limits.MAX_DEPTH)",
            source=source,
        )


def check_size(size: int, max_bytes: int, *, source: str | None = None, what: str = "page") -> None:
    """Refuse a page (or ``what`` else) of ``size`` bytes over ``max_bytes`` (Settings.max_page_bytes).

    :raises ParseError: if it is over.
    """
    if size > max_bytes:
        raise ParseError(
            f"{what} is {size / 1e6:.1f} MB, over the {max_bytes / 1e6:.0f} MB limit (Settings.max_page_bytes)",
            source=source,
        )


def open_file(path: str | os.PathLike[str]) -> BinaryIO:
    """``path`` opened for reading in binary, when it is a regular file.

    A FIFO would block the first read until a writer comes (forever), and a device (a
    link to /dev/zero) never ends: neither is an input forest reads.

    :raises ParseError: if ``path`` is not a regular file.
    :raises OSError: if it cannot be opened.
    """
    # O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer.  fstat of the
    # open file, not stat of the name, so that nothing can be swapped in between.
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ParseError(f"not a regular file ({_file_kind(mode)}); forest reads only regular files",
                         source=os.fsdecode(path))
    return open(fd, "rb")  # noqa: SIM115 (returned open, for the caller's with)


def read_file(path: str | os.PathLike[str], *, max_bytes: int) -> bytes:
    """The bytes of the page file at ``path``: a regular file, its size checked before it is read.

    Every page forest reads from a file comes through here: a huge file or a device would
    otherwise be read whole into memory before the page's size limit could refuse it.

    :raises ParseError: if ``path`` is not a regular file, or is over ``max_bytes``.
    :raises OSError: if it cannot be opened or read.
    """
    with open_file(path) as file:
        check_size(os.fstat(file.fileno()).st_size, max_bytes, source=os.fsdecode(path))
        # A file that grew since fstat is read one byte past the limit, and the parser refuses it.
        return file.read(max_bytes + 1)


def _file_kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((kind for test, kind in kinds if test(mode)), "not a plain file")


def xml_depth(text: str) -> int:
    """How deep the elements of ``text`` nest outside comments and CDATA, counted up to MAX_DEPTH + 1.

    An end tag closes the innermost open element of its name and those inside it, as a
    forgiving parser does; one with no open element of its name closes nothing.
    """
    opened: list[str] = []
    deepest = position = 0
    while (match := _XML_TOKEN.search(text, position)) is not None:
        position = match.end()
        token = match.group()
        if token == "<!--" or token == "<![CDATA[":
            end = text.find("-->" if token == "<!--" else "]]>", position)
            position = len(text) if end < 0 else end
            continue
        name = match.group(2).lower()
        if match.group(1):
            if name in opened:
                del opened[len(opened) - 1 - opened[::-1].index(name):]
        else:
            deepest = max(deepest, len(opened) + 1)
            if deepest > MAX_DEPTH:
                break
            if not match.group(3) and name not in _VOID_ELEMENTS:
                opened.append(name)
    return deepest


def most_attributes(text: str, *, long_tag: int = _LONG_TAG, raw_text: bool = True) -> int:
    """The most attributes one start tag of ``text`` has outside scripts, comments and other raw
    text (0 when none counts); only tags with ``long_tag`` characters or more after ``<`` and its
    letter (by default, those long enough to hold MAX_ATTRIBUTES; 0: every tag).

    The reference of forest._markup's scans (check_markup runs them, not this), and the census's
    count (``python -m eval.fuzz --census``).

    :param raw_text: skip tags inside HTML's raw text (script, style, title, comments...);
        False counts every tag, as an XML parser reads them.
    """
    most = 0
    raw: list[tuple[int, int]] | None = None
    for match in _long_start_tags(long_tag).finditer(text):
        attributes = len(_ATTRIBUTE.findall(match.group())) - 1  # the first match is the tag's name
        if attributes <= most:
            continue
        if not raw_text:
            most = attributes
            continue
        # Script code, a comment or a <title> can hold "a<b ..." runs that look like a long tag.
        raw = raw if raw is not None else _raw_text_spans(text)
        index = bisect.bisect_right(raw, (match.start(), len(text))) - 1
        if index >= 0 and raw[index][0] < match.start() < raw[index][1]:
            continue
        most = attributes
    return most


@functools.lru_cache(maxsize=8)
def _long_start_tags(long_tag: int) -> re.Pattern[str]:
    # _LONG_START_TAG for another length: a tag with no '<' or '>' inside, ``long_tag`` characters or more.
    return _LONG_START_TAG if long_tag == _LONG_TAG else re.compile(rf"<[a-zA-Z][^<>]{{{long_tag},}}")


def _raw_kind(name: str | None) -> str:
    # The raw element a name IGNORECASE matched ("SCRIPT", and "ſcript", whose lower() is not "script"), or a comment's "--".
    if name is None:
        return "--"
    return name.lower() if name.isascii() else next(raw for raw in _RAW_ELEMENTS.split("|") if re.fullmatch(raw, name, re.IGNORECASE))


def _raw_text_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every comment and raw-text element (script, style, title...), in order, in one pass."""
    closes: dict[str, list[int]] = {}
    for match in _RAW_CLOSE.finditer(text):
        closes.setdefault(_raw_kind(match.group(1)), []).append(match.end())
    spans: list[tuple[int, int]] = []
    end = -1
    for match in _RAW_OPEN.finditer(text):
        if match.start() < end:
            continue  # inside the previous span: a "<script" in a comment opens nothing
        ends = closes.get(_raw_kind(match.group(1)), [])
        at = bisect.bisect_right(ends, match.end())
        end = ends[at] if at < len(ends) else len(text)
        spans.append((match.start(), end))
    return spans


def json_depth(value: Any) -> int:
    """How deep ``value`` nests (a scalar is 0, ``[1]`` is 1), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth + 1)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def loads_json(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH, strict: bool = True) -> Any:
    """``json.loads`` that refuses documents nested deeper than ``max_depth``.

    :param strict: as json.loads: False lets raw control characters into strings.

    :raises ValueError: for invalid JSON or nesting over ``max_depth`` (never RecursionError).
    """
    try:
        value = json.loads(text, strict=strict)
    except RecursionError as exc:
        raise ValueError(f"JSON nested deeper than Python can read (limit {max_depth})") from exc
    except TypeError as exc:
        raise ValueError(str(exc)) from exc
    # Each level opens with a bracket: a document with no more of them than the limit (most, a page's
    # JSON-LD) is spared the walk of its values.
    brackets = text.count("[") + text.count("{") if isinstance(text, str) else text.count(b"[") + text.count(b"{")
    depth = json_depth(value) if brackets > max_depth else 0
    if depth > max_depth:
        raise ValueError(f"JSON nested {depth} deep, over the limit of {max_depth}")
    return value


def classifiable(root: Any) -> bool:
    """Whether the per-block classifier may run on a parsed page: at most MAX_CLASSIFIER_BLOCKS elements.

    Elements bound blocks from above closely enough (a block needs an element to own it, and
    most own one or two).  They are the nodes ``root.iter()`` gives, counted in C over libxml2's
    nodes (forest.classifier._walk.count_nodes): a proxy per element cost as much as a tenth of the
    page's parse.
    """
    # Imported here: every road imports forest.limits to parse a page, and the limits sit below the
    # classifier, which a road that never classifies (a feed's parse) need not load.
    from forest.classifier._walk import count_nodes

    return bool(count_nodes(root, MAX_CLASSIFIER_BLOCKS) <= MAX_CLASSIFIER_BLOCKS)
