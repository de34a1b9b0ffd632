"""Issue 42, items 3, 4, 7 and 10: feeds under the pages' limits, only regular files read (size checked first),
valid UTF-8 output whatever the input list holds, and extraction from a read-only database.

The WARC records of item 5 are in tests/batch/test_issue42_warc.py.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings as hypothesis_settings, strategies as st
from lxml import etree

from forest.cli import cli
from forest.demo import ExampleSite
from forest.errors import FeedError, ParseError
from forest.limits import MAX_ATTRIBUTES, MAX_DEPTH, MAX_START_TAGS, read_file, xml_depth
from forest.net.feed import MAX_REFERENCES, parse_feed
from forest.storage import WrapperStore

FEED_URL = "http://feeds.test/rss.xml"
# Memory a CLI run in a subprocess may map: forest needs some 300 MB; reading a device or a
# 2 GB file whole, as forest once did, fails here with a MemoryError instead of taking the machine's memory.
CHILD_MEMORY = 1 << 30


def feed(*, attributes: int = 0, depth: int = 0, padding: int = 0) -> bytes:
    """An RSS feed with one item, whose <item> has ``attributes`` attributes and holds ``depth`` nested elements."""
    attrs = "".join(f" a{i}='x'" for i in range(attributes))
    nested = "<x>" * depth + "</x>" * depth
    return (
        "<?xml version='1.0' encoding='utf-8'?><rss version='2.0'><channel><title>Feeds</title>"
        f"<link>http://feeds.test/</link><item{attrs}><title>One</title><link>http://feeds.test/1.html</link>"
        f"<description>{'w ' * padding}{nested}</description></item></channel></rss>"
    ).encode()


# --- 3. feeds -----------------------------------------------------------------------


@pytest.mark.parametrize("attributes", [MAX_ATTRIBUTES + 1, 40_000])
def test_a_feed_with_too_many_attributes_on_one_element_is_refused_fast(attributes: int) -> None:
    body = feed(attributes=attributes)
    start = time.perf_counter()
    with pytest.raises(FeedError) as refused:
        parse_feed(body, FEED_URL)
    # feedparser took 23 s over 40,000 attributes; the check before it takes milliseconds.
    assert time.perf_counter() - start < 1.0
    message = str(refused.value)
    assert "\n" not in message and message.startswith(FEED_URL)
    assert f"{attributes:,} attributes" in message and "MAX_ATTRIBUTES" in message


def test_a_feed_nested_too_deep_is_refused_before_parsing() -> None:
    start = time.perf_counter()
    with pytest.raises(FeedError, match="MAX_DEPTH"):
        parse_feed(feed(depth=MAX_DEPTH + 1), FEED_URL)
    assert time.perf_counter() - start < 1.0


def test_a_feed_over_the_page_size_limit_is_refused() -> None:
    body = feed(padding=600)
    with pytest.raises(FeedError, match=r"feed is .* MB, over the .* limit \(Settings.max_page_bytes\)"):
        parse_feed(body, FEED_URL, max_bytes=len(body) - 1)


def test_a_feed_with_more_elements_than_a_page_may_have_is_refused_before_parsing() -> None:
    items = b"".join(b"<item><title>T</title><link>http://feeds.test/%d.html</link></item>" % i for i in range(MAX_START_TAGS // 3 + 1))
    start = time.perf_counter()
    with pytest.raises(FeedError, match="MAX_START_TAGS"):
        parse_feed(feed().replace(b"</channel>", items + b"</channel>"), FEED_URL)
    assert time.perf_counter() - start < 1.0


def test_a_feed_of_millions_of_references_is_refused_before_parsing() -> None:
    body = feed().replace(b"<description>", b"<description>" + b"&amp;" * (MAX_REFERENCES + 1))
    start = time.perf_counter()
    with pytest.raises(FeedError, match="500,001 character and entity references.*MAX_REFERENCES"):
        parse_feed(body, FEED_URL)
    assert time.perf_counter() - start < 1.0
    assert parse_feed(body.replace(b"&amp;", b"", 2), FEED_URL).items  # at the limit: read


@pytest.mark.parametrize("content_type", ["application/rss+xml", "text/xml", "application/xml; charset=utf-8"])
def test_a_feed_no_declared_charset_decodes_is_read_without_a_whole_document_detector(
    content_type: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Undecodable bytes sent feedparser to chardet, which read the whole feed in Python: 81 s over 8 MB.
    chardet = pytest.importorskip("chardet", reason="feedparser calls chardet only when it is installed")

    def refuse(data: bytes) -> None:
        raise AssertionError(f"chardet ran over {len(data):,} bytes")

    monkeypatch.setattr(chardet, "detect", refuse)
    body = feed().replace(b"<title>One</title>", "<title>Café ÿ</title>".encode("utf-8", "surrogateescape")
                          .replace(b"\xc3\xbf", b"\xff") + b"<!-- \x81\xfe -->" * 100_000)
    start = time.perf_counter()
    parsed = parse_feed(body, FEED_URL, {"Content-Type": content_type})
    assert time.perf_counter() - start < 2.0
    assert parsed.items[0].meta.title == "Café �"


def test_a_feed_its_charset_label_cannot_decode_is_read_without_a_whole_document_detector(monkeypatch: pytest.MonkeyPatch) -> None:
    # forest reads "shift_jis" as its superset cp932, which holds "\x87\x40" (a circled 1); feedparser decodes with the label.
    chardet = pytest.importorskip("chardet", reason="feedparser calls chardet only when it is installed")
    monkeypatch.setattr(chardet, "detect", lambda data: pytest.fail(f"chardet ran over {len(data):,} bytes"))
    body = feed().replace(b"encoding='utf-8'", b"encoding='shift_jis'").replace(b"One", b"\x87\x40")
    parsed = parse_feed(body, FEED_URL, {"Content-Type": "application/rss+xml; charset=shift_jis"})
    assert parsed.items[0].meta.title == "\u2460"


def test_an_undeclared_feed_in_utf8_served_as_text_is_read_as_utf8() -> None:
    body = feed().replace(b"<?xml version='1.0' encoding='utf-8'?>", b"").replace(b"One", "Café".encode())
    assert parse_feed(body, FEED_URL, {"Content-Type": "text/xml"}).items[0].meta.title == "Café"


@pytest.mark.parametrize("date", ["0000-01-01T00:00:00Z", "9999-12-31T23:59:59-01:00"])
def test_a_date_no_calendar_holds_is_kept_as_the_feed_wrote_it(date: str) -> None:
    body = feed().replace(b"<title>One</title>", f"<title>One</title><pubDate>{date}</pubDate>".encode())
    assert parse_feed(body, FEED_URL).items[0].meta.published == date


def test_a_feed_within_the_limits_is_read() -> None:
    # Nesting to the limit, attributes to the limit, unclosed HTML and CDATA that a depth count must not take for elements.
    body = feed(attributes=MAX_ATTRIBUTES, depth=MAX_DEPTH - 5).replace(
        b"<title>One</title>", b"<title>One</title><![CDATA[" + b"<p>" * 400 + b"]]><!--" + b"<br>" * 400 + b"-->")
    parsed = parse_feed(body, FEED_URL)
    assert [item.link for item in parsed.items] == ["http://feeds.test/1.html"]


@hypothesis_settings(max_examples=60, deadline=None)
@given(st.recursive(st.just(""), lambda inner: st.lists(inner, max_size=3).map(lambda kids: "<e>" + "".join(kids) + "</e>"),
                    max_leaves=40))
def test_xml_depth_counts_as_an_xml_parser_nests(document: str) -> None:
    document = document or "<e/>"
    root = etree.fromstring(document)
    deepest = max(sum(1 for _ in element.iterancestors()) + 1 for element in root.iter())
    assert xml_depth(document) == min(deepest, MAX_DEPTH + 1)


# --- 4. file inputs ------------------------------------------------------------------


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CHILD_MEMORY, CHILD_MEMORY))


def forest_cli(*args: object, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`python -m forest ARGS` in a subprocess with bounded memory and time: a hang or a read of a device must fail the test, not stop it."""
    return subprocess.run(
        [sys.executable, "-m", "forest", *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=60,
        preexec_fn=_limit_memory, env={**os.environ, "FOREST_DB": str(cwd / "forest.db")},
    )


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "x.html"
    os.mkfifo(path)
    return path


def test_a_fifo_named_like_a_page_is_a_one_line_error_not_a_hang(tmp_path: Path, fifo: Path) -> None:
    result = forest_cli("extract", fifo, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"error: {fifo}: not a regular file (a FIFO); forest reads only regular files\n"


def test_a_fifo_in_a_directory_is_an_error_record_and_the_other_pages_are_read(
    tmp_path: Path, fifo: Path, example: ExampleSite
) -> None:
    shutil.copy(example.held_out, tmp_path / "a.html")
    result = forest_cli("extract", "--jobs", 1, tmp_path, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page, failed = (json.loads(line) for line in result.stdout.splitlines())
    assert page["source"] == str(tmp_path / "a.html") and page["method"] == "classifier"
    assert failed == {"source": str(fifo), "error": f"{fifo}: not a regular file (a FIFO); forest reads only regular files"}
    assert "1 failed" in result.stderr


@pytest.mark.parametrize(("target", "kind"), [("/dev/zero", "a character device"), ("/dev/null", "a character device")])
def test_a_link_to_a_device_is_refused_unread(tmp_path: Path, target: str, kind: str) -> None:
    link = tmp_path / "z.html"
    link.symlink_to(target)
    result = forest_cli("extract", link, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == f"error: {link}: not a regular file ({kind}); forest reads only regular files\n"


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.html"
    with open(huge, "wb") as file:
        file.truncate(2_000_000_000)  # sparse: 2 GB that takes no disk
    for args in (("extract", huge), ("extract", "--jobs", 1, huge, huge)):
        result = forest_cli(*args, cwd=tmp_path)
        assert "Traceback" not in result.stderr and "MemoryError" not in result.stderr + result.stdout
        assert result.returncode == 1
        assert "page is 2000.0 MB, over the 10 MB limit (Settings.max_page_bytes)" in result.stderr + result.stdout


def test_learning_from_files_skips_a_fifo(tmp_path: Path, fifo: Path, example_pages: list[Path]) -> None:
    result = forest_cli("learn", fifo, *example_pages, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"skipped {fifo}: not a regular file (a FIFO); forest reads only regular files" in result.stdout
    assert "learned example.test" in result.stdout


def test_a_list_that_is_no_list_is_an_error_record_not_read_into_memory(tmp_path: Path, example: ExampleSite) -> None:
    listing = tmp_path / "urls.txt"
    listing.symlink_to("/dev/zero")
    result = forest_cli("extract", "--jobs", 1, example.held_out, "-i", listing, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    page, failed = (json.loads(line) for line in result.stdout.splitlines())
    assert page["method"] == "classifier"
    assert failed == {"source": str(listing), "error": f"{listing}: a line of over 65,536 bytes: not a list of URLs or paths"}


def test_read_file_reads_a_regular_file_and_no_more_than_the_limit(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b"<p>hello</p>")
    assert read_file(page, max_bytes=100) == b"<p>hello</p>"
    with pytest.raises(ParseError, match="over the"):
        read_file(page, max_bytes=5)
    with pytest.raises(ParseError, match=r"not a regular file \(a directory\)"):
        read_file(tmp_path, max_bytes=100)
    with pytest.raises(FileNotFoundError):
        read_file(tmp_path / "missing.html", max_bytes=100)


# --- 7. output is valid UTF-8 --------------------------------------------------------


def test_jsonl_output_is_valid_utf8_when_the_input_list_holds_undecodable_bytes(
    tmp_path: Path, db: Path, example: ExampleSite
) -> None:
    raw = os.fsencode(tmp_path)
    with open(raw + b"/caf\xe9.html", "wb") as file:
        file.write(example.held_out.read_bytes())
    listing = tmp_path / "list.txt"
    listing.write_bytes(raw + b"/caf\xe9.html\n" + raw + b"/missing\xff.html\n")
    out = tmp_path / "out.jsonl"
    runner = CliRunner()
    for extra in ((), ("-o", out)):
        result = runner.invoke(cli, ["extract", "--db", str(db), "--jobs", "1", "-i", str(listing), *map(str, extra)])
        assert result.exit_code == 0, result.output
        written = out.read_bytes() if extra else result.stdout_bytes
        page, failed = (json.loads(line) for line in written.decode("utf-8").splitlines())
        assert page["source"] == f"{tmp_path}/caf\\xe9.html" and page["method"] == "classifier"
        assert failed["source"] == f"{tmp_path}/missing\\xff.html"
        assert failed["error"] == f"cannot read {tmp_path}/missing\\xff.html: No such file or directory"


# --- 10. a read-only database ---------------------------------------------------------


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` (a file or a directory) made read-only: by its mode, or for root, who ignores modes, immutable."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("running as root, which ignores file modes, and chattr +i is not available here")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


@pytest.fixture
def learned(tmp_path: Path, example_pages: list[Path]) -> Path:
    """A database in its own directory holding the example site, closed cleanly (no -wal or -shm file beside it)."""
    db = tmp_path / "store" / "forest.db"
    db.parent.mkdir()
    result = CliRunner().invoke(cli, ["learn", "--db", str(db), *map(str, example_pages)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in db.parent.iterdir()) == ["forest.db"]
    return db


def counters(db: Path) -> tuple[int, int]:
    with contextlib.closing(sqlite3.connect(f"{db.resolve().as_uri()}?immutable=1", uri=True)) as conn:
        row = conn.execute("SELECT pages_extracted, misses FROM sites WHERE site = 'example.test'").fetchone()
    return int(row[0]), int(row[1])


@pytest.mark.parametrize("what", ["file", "directory"])
def test_extracting_works_from_a_read_only_database_and_counts_nothing(
    learned: Path, example: ExampleSite, what: str
) -> None:
    runner = CliRunner()
    before = counters(learned)
    with read_only(learned if what == "file" else learned.parent):
        one = runner.invoke(cli, ["extract", "--db", str(learned), "--format", "json", str(example.held_out)])
        assert one.exit_code == 0, one.output
        assert json.loads(one.stdout)["method"] == "wrapper"
        batch = runner.invoke(cli, ["extract", "--db", str(learned), "--jobs", "1", str(example.held_out), str(example.held_out)])
        assert batch.exit_code == 0, batch.output
        assert [json.loads(line)["method"] for line in batch.stdout.splitlines()] == ["wrapper", "wrapper"]
        with WrapperStore.for_extraction(learned) as store:
            assert store.readonly and store.info("example.test") is not None
    assert counters(learned) == before


def test_extracting_from_a_writable_database_counts_the_pages(learned: Path, example: ExampleSite) -> None:
    pages, misses = counters(learned)
    result = CliRunner().invoke(cli, ["extract", "--db", str(learned), "--jobs", "1", str(example.held_out), str(example.held_out)])
    assert result.exit_code == 0, result.output
    assert counters(learned) == (pages + 2, misses)
    with WrapperStore.for_extraction(learned) as store:
        assert not store.readonly
