"""Fuzz `forest extract FILE.warc`: damaged WARC files, and a count of the records the batch loses.

Run ``python -m eval.fuzz --kind warc --cases 300``.  Each case writes a WARC file of two
to six response records of the shipped pages (forest/examples, tests/data/red_like), some
mutated by the page mutator, among request, metadata, non-HTML and 404 records; half the
files gzip each record as its own member.  Then zero to three defects (seeded): a
Content-Length too long (running into the next record, or past the end of the file) or
too short, a file cut inside its last record, a corrupt gzip member in the middle,
garbage between records, a bad header.  The CLI runs on the file (``--format jsonl
--jobs 1``) in the worker, with a store that holds the example site's wrapper.

Each response record is judged by its offset, the ``#OFFSET`` of the ``source`` of the
output lines: a record the file still holds whole must give a line (an article or an
error), and its article if neither the record nor its page was touched; a record that
cannot be read whole (cut short, its gzip member corrupt, its Content-Length unreadable)
must give an error line.  A record that does not is lost.
Every output line must be JSON in valid UTF-8, the summary's failure count must match
the error lines, and the stored wrapper must not change.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval.fuzz.harness import Handler
from eval.fuzz.pages import mutate
from eval.warc import WarcPage, response_record

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "forest" / "examples" / "example.test").glob("*.html")) + sorted(
    (ROOT / "tests" / "data" / "red_like").glob("*/*.html")
)
SITE = "example.test"
_CANONICAL = re.compile(rb'<link rel="canonical" href="([^"]+)"')
_CONTENT_LENGTH = re.compile(rb"Content-Length: (\d+)\r\n")
# What a record must give: "article" its article (an undamaged record of an unmutated page), "whole" an
# article or an error (a record of a mutated page, or whose own header is odd), "cut" an error, "none"
# nothing in particular (not a page, or no longer a record).
ARTICLE, WHOLE, CUT, NONE = "article", "whole", "cut", "none"
DEFECTS = ("long", "long-past-eof", "short", "cut-last", "corrupt-member", "garbage", "bad-header")


@dataclass
class Record:
    """One record as written: its bytes (uncompressed), what it must give, and the defects applied to it."""

    data: bytes
    expect: str
    defects: list[str]


def warc_record(kind: str, url: str, body: bytes) -> bytes:
    """A WARC record of type ``kind`` (eval.warc writes the responses)."""
    if kind == "response":
        return response_record(WarcPage(url, body))
    if kind in ("png", "404"):
        page = WarcPage(url, body, charset=None, content_type="image/png") if kind == "png" else WarcPage(url, body, status="404 Not Found")
        return response_record(page)
    block = b"GET / HTTP/1.1\r\nHost: example.test\r\n\r\n" if kind == "request" else b"fetchTimeMs: 12\r\n"
    content_type = "application/http; msgtype=request" if kind == "request" else "application/warc-fields"
    headers = (f"WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
               f"Content-Type: {content_type}\r\nContent-Length: {len(block)}\r\n\r\n").encode()
    return headers + block + b"\r\n\r\n"


def _url(page: bytes, index: int) -> str:
    found = _CANONICAL.search(page)
    return found.group(1).decode() if found else f"http://{SITE}/fuzz/{index}.html"


def make_warc(rng: random.Random) -> tuple[bytes, bool, list[tuple[int, str, str]]]:
    """A damaged WARC file: its bytes, whether it is gzipped, and ``(offset, expectation, defects)`` per record."""
    compress = rng.random() < 0.5
    records: list[Record] = []
    for index in range(rng.randint(2, 6)):
        page = rng.choice(SHIPPED).read_bytes()
        body = mutate(page, rng) if rng.random() < 0.3 else page
        records.append(Record(warc_record("response", _url(page, index), body), ARTICLE if body == page else WHOLE, []))
        if rng.random() < 0.2:
            kind = rng.choice(("request", "metadata", "png", "404"))
            records.append(Record(warc_record(kind, _url(page, index), b"\x89PNG\r\n" if kind == "png" else page), NONE, []))
    garbage: dict[int, bytes] = {}
    cut = False
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        defect = rng.choice(DEFECTS if compress else [d for d in DEFECTS if d != "corrupt-member"])
        index = len(records) - 1 if defect == "cut-last" else rng.randrange(len(records))
        record = records[index]
        record.defects.append(defect)
        broken = False
        if defect in ("long", "long-past-eof", "short"):
            found = _CONTENT_LENGTH.search(record.data)
            length = int(found.group(1)) if found else 0
            new = {"long": length + rng.randint(1, 3000), "long-past-eof": length + 10_000_000,
                   "short": max(0, length - rng.randint(1, max(1, length)))}[defect]
            record.data = _CONTENT_LENGTH.sub(b"Content-Length: %d\r\n" % new, record.data, count=1)
            # Past the end of the file, the record cannot be read whole.  Too long but within the
            # file, it reads into the records after it (a gzip reader may read on into the next
            # member as one stream): it may give an article or an error, and the records after it,
            # still whole in the file, must be found.
            broken = defect == "long-past-eof"
        elif defect == "cut-last":
            cut = True  # where, and so whether the record is cut at all, is decided as the file is written
        elif defect == "corrupt-member":
            broken = True
        elif defect == "garbage":
            garbage[index] = rng.choice((
                b"\x00" * 100, b"garbage\r\n\r\n", b"WARC/1.1\r\n", b"\x1f\x8b\x08\x00junk",
                bytes(rng.randrange(256) for _ in range(rng.randint(1, 2000)))))
        else:  # bad-header
            record.data, state = _bad_header(record.data, rng)
            broken = state == CUT
            if state == NONE:  # no longer a WARC record at all: nothing to ask of it
                record.expect = NONE
        if record.expect == ARTICLE:
            record.expect = WHOLE
        if broken and record.expect == WHOLE:
            record.expect = CUT
    out = bytearray()
    written: list[tuple[int, Record, int | None]] = []
    for number, record in enumerate(records):
        offset = len(out)
        data = record.data
        ends = _block_end(data)
        block = data.index(b"\r\n\r\n") + 4
        last_byte = min(ends if ends is not None else len(data), len(data) - 4) - 1
        if cut and number == len(records) - 1 and last_byte > block:
            # Cut inside the block its header declares: the file ends before the record does.
            data = data[: rng.randint(block + 1, last_byte)]
            record.expect = CUT if record.expect in (ARTICLE, WHOLE) else record.expect
        if compress and data is not record.data:
            # A gzip stream cut there: it inflates to exactly the bytes kept, then ends without its trailer.
            deflate = zlib.compressobj(9, zlib.DEFLATED, 31)
            member = deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH)
        else:
            member = gzip.compress(data, mtime=0) if compress else data
        if "corrupt-member" in record.defects:
            member = _corrupt(member, rng)
        out += member + garbage.get(number, b"")
        written.append((offset, record, ends))
    expectations = []
    for offset, record, ends in written:
        if not compress and ends is not None and offset + ends > len(out) and record.expect in (ARTICLE, WHOLE):
            record.expect = CUT  # its Content-Length runs past the end of the file
        expectations.append((offset, record.expect, "+".join(record.defects) or "intact"))
    return bytes(out), compress, expectations


def _block_end(data: bytes) -> int | None:
    """Where the block a record's WARC header declares ends (None: no readable Content-Length)."""
    head_end = data.find(b"\r\n\r\n")
    found = _CONTENT_LENGTH.search(data[: head_end + 2]) if head_end >= 0 else None
    return head_end + 4 + int(found.group(1)) if found else None


def _bad_header(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """A damaged WARC header, and what the record must give now: WHOLE, CUT (its length unreadable) or NONE (not a record)."""
    end = data.index(b"\r\n\r\n")
    head, rest = data[:end] + b"\r\n", data[end + 2:]
    choice = rng.randrange(7)
    if choice == 0:
        bad = rng.choice((b"abc", b"-5", b"", b"1e3", b"99999999999999999999999"))
        return _CONTENT_LENGTH.sub(b"Content-Length: " + bad + b"\r\n", head, count=1) + rest, CUT
    if choice == 1:
        return _CONTENT_LENGTH.sub(b"", head, count=1) + rest, CUT
    if choice == 2:
        return head + b"X-Long: " + b"v" * rng.choice((1_000, 100_000)) + b"\r\n" + rest, WHOLE
    if choice == 3:
        return head + b"X-Bytes: \xff\xfe\xc3\x00\r\n" + rest, WHOLE
    if choice == 4:
        uri = rng.choice((b"javascript:", b"http://[::1/", b"  ", b"http://\xff/", b"x" * 10_000))
        return head.replace(b"WARC-Target-URI: ", b"WARC-Target-URI: " + uri, 1) + rest, WHOLE
    if choice == 5:
        return head + b"no colon on this line\r\n" + rest, WHOLE
    return head.replace(b"WARC/1.1", rng.choice((b"WARC/9.9", b"WARX/1.1", b"warc/1.1")), 1) + rest, NONE


def _corrupt(member: bytes, rng: random.Random) -> bytes:
    """``member`` with a run of its deflate data overwritten (the gzip header and trailer kept)."""
    out = bytearray(member)
    start = rng.randint(10, max(10, len(out) // 2))
    for at in range(start, min(len(out) - 8, start + rng.randint(4, 64))):
        out[at] = rng.randrange(256)
    return bytes(out)


def cases(count: int, *, seed: int) -> Iterator[tuple[str, str, Any]]:
    """``count`` cases ``(label, "warc"|"warc.gz", (file bytes, suffix, expectations))``; they depend on ``seed`` alone."""
    rng = random.Random(seed)
    for _ in range(count):
        data, compress, expectations = make_warc(rng)
        defects = ",".join(sorted({d for _, _, d in expectations if d != "intact"})) or "intact"
        suffix = ".warc.gz" if compress else ".warc"
        yield defects, suffix[1:], (data, suffix, expectations)


# --- the worker ----------------------------------------------------------------------------------


def setup() -> Handler:
    """A store holding the example site's wrapper; each case runs the CLI on its file."""
    from click.testing import CliRunner

    from forest.cli import cli
    from forest.demo import example_site
    from forest.model import Page
    from forest.service.pages import learn_pages
    from forest.storage import WrapperStore

    directory = Path(tempfile.mkdtemp(prefix="forest-fuzz-warc-"))
    db = directory / "fuzz.db"
    with WrapperStore(db) as store:
        pages = [Page(p.read_text(encoding="utf-8"), site=SITE) for p in example_site().sample]
        learn_pages(pages, site=SITE, store=store)
        wrapper = store.get(SITE)
    runner = CliRunner()

    def handle(payload: tuple[bytes, str, list[tuple[int, str, str]]]) -> tuple[str, str]:
        data, suffix, expectations = payload
        path = directory / f"case{suffix}"
        path.write_bytes(data)
        result = runner.invoke(cli, ["extract", "--db", str(db), "--format", "jsonl", "--jobs", "1", str(path)])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        problem = _bad_output(result.exit_code, result.stdout_bytes, result.stderr)
        if problem:
            return "bad output", problem
        lines = [json.loads(line) for line in result.stdout_bytes.decode("utf-8").splitlines() if line.strip()]
        outputs: dict[int, list[bool]] = {}
        for line in lines:
            where = str(line.get("source", "")).rpartition("#")[2]
            if where.isdigit():
                outputs.setdefault(int(where), []).append("error" in line)
        lost = []
        for offset, expect, defects in expectations:
            given = outputs.get(offset, [])
            if expect in (ARTICLE, WHOLE) and not given:
                lost.append(f"#{offset} ({defects}): no line")
            elif expect == ARTICLE and all(given):
                lost.append(f"#{offset} ({defects}): an error, not its article")
            elif expect == CUT and not any(given):
                lost.append(f"#{offset} ({defects}): " + ("an article, not an error" if given else "no line"))
        with WrapperStore(db) as store:
            if store.find(SITE) != wrapper:
                return "changed", f"{SITE}'s stored wrapper"
        if lost:
            return "lost", "; ".join(lost)
        failed = re.search(r", (\d+) failed", result.stderr)
        errors = sum(1 for line in lines if "error" in line)
        if failed and int(failed.group(1)) != errors:
            return "bad output", f"the summary says {failed.group(1)} failed, the output holds {errors} errors"
        return "ok", ""

    return handle


def _bad_output(exit_code: int, stdout: bytes, stderr: str) -> str:
    """Why the CLI's answer is wrong (a traceback, an exit status other than 0 or 1, a line that is not JSON), or ''."""
    if exit_code not in (0, 1):
        return f"exit status {exit_code}"
    if "Traceback" in stderr:
        return "a traceback on stderr: " + stderr[-500:]
    last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
    if exit_code == 1 and not last.startswith("error: "):
        return f"exit status 1 without a one-line error: {stderr[-300:]!r}"
    try:
        text = stdout.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"output is not UTF-8 ({exc})"
    for line in text.splitlines():
        if line.strip():
            try:
                json.loads(line)
            except json.JSONDecodeError as exc:
                return f"an output line is not JSON ({exc}): {line[:200]!r}"
    return ""

