"""Issue 42, item 5: a WARC record that cannot be read whole is an error record with its own offset, counted as
failed, and no later record the file still holds is lost."""

from __future__ import annotations

import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from eval.warc import WarcPage, response_record
from forest.batch.warc import warc_items
from forest.cli import cli
from forest.demo import ExampleSite

pytest.importorskip("fastwarc", reason="reading WARC files needs FastWARC (the [warc] extra)")


def page(index: int) -> WarcPage:
    body = "".join(f"<p>Record {index} tells of the harbour, sentence {n}, with words enough for a paragraph.</p>" for n in range(8))
    return WarcPage(f"http://harbour.test/{index}.html",
                    f"<html><head><title>Record {index}</title></head><body><article>{body}</article></body></html>".encode())


RECORDS = [response_record(page(i)) for i in range(5)]


def offsets(records: list[bytes]) -> list[int]:
    starts, at = [], 0
    for record in records:
        starts.append(at)
        at += len(record)
    return starts


def extract(path: Path, db: Path) -> tuple[int, list[dict[str, object]], str]:
    result = CliRunner().invoke(cli, ["extract", "--db", str(db), "--jobs", "1", str(path)])
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()], result.stderr


def test_a_content_length_past_the_end_of_the_file_loses_no_later_record(tmp_path: Path, db: Path) -> None:
    bad = RECORDS[1].replace(b"\r\nContent-Length: ", b"\r\nContent-Length: 9", 1)  # the WARC header's, not the HTTP one's
    records = [RECORDS[0], bad, *RECORDS[2:]]
    path = tmp_path / "crawl.warc"
    path.write_bytes(b"".join(records))
    status, out, summary = extract(path, db)
    starts = offsets(records)
    assert [r["source"] for r in out] == [f"{path}#{at}" for at in starts]
    assert "error" in out[1] and str(out[1]["error"]).startswith(f"{path}#{starts[1]}: record cut short")
    assert [r.get("title") for r in out] == ["Record 0", None, "Record 2", "Record 3", "Record 4"]
    assert summary.startswith("forest: 5 pages in ") and "4 wrapper" not in summary and ", 1 failed" in summary
    assert status == 0


def test_a_truncated_last_record_is_an_error_not_an_empty_article(tmp_path: Path, db: Path) -> None:
    records = [RECORDS[0], RECORDS[1], RECORDS[2][: len(RECORDS[2]) // 2]]
    path = tmp_path / "cut.warc"
    path.write_bytes(b"".join(records))
    status, out, summary = extract(path, db)
    assert [r.get("title") for r in out[:2]] == ["Record 0", "Record 1"]
    assert out[2] == {"source": f"{path}#{offsets(records)[2]}", "error": out[2].get("error")}
    assert "cut short" in str(out[2]["error"])
    assert ", 1 failed" in summary and status == 0


def test_a_corrupt_gzip_member_in_the_middle_is_an_error_at_its_own_offset(tmp_path: Path, db: Path) -> None:
    members = [gzip.compress(record) for record in RECORDS]
    corrupt = bytearray(members[2])
    corrupt[len(corrupt) // 2] ^= 0xFF
    corrupt[len(corrupt) // 2 + 1] ^= 0xFF
    members[2] = bytes(corrupt)
    path = tmp_path / "crawl.warc.gz"
    path.write_bytes(b"".join(members))
    status, out, summary = extract(path, db)
    starts = offsets(members)
    assert [r["source"] for r in out] == [f"{path}#{at}" for at in starts]
    assert [r.get("title") for r in out] == ["Record 0", "Record 1", None, "Record 3", "Record 4"]
    assert "unreadable record" in str(out[2]["error"])
    assert ", 1 failed" in summary and status == 0


def test_a_gzip_file_cut_in_its_last_member_ends_with_an_error_for_that_record(tmp_path: Path, db: Path) -> None:
    members = [gzip.compress(record) for record in RECORDS[:3]]
    members[2] = members[2][:-30]
    path = tmp_path / "cut.warc.gz"
    path.write_bytes(b"".join(members))
    status, out, summary = extract(path, db)
    assert [r.get("title") for r in out] == ["Record 0", "Record 1", None]
    assert out[2]["source"] == f"{path}#{offsets(members)[2]}" and "cut short" in str(out[2]["error"])
    assert ", 1 failed" in summary


def test_every_bad_record_of_a_file_is_reported_and_the_rest_read_from_a_stream_in_memory() -> None:
    # As the Spark job reads a WARC (a BytesIO): a wrong length in the first record and garbage between two others.
    first = RECORDS[0].replace(b"\r\nContent-Length: ", b"\r\nContent-Length: 1", 1)
    records = [first, RECORDS[1], b"garbage that is no record\r\n", RECORDS[2], RECORDS[3]]
    items = list(warc_items(io.BytesIO(b"".join(records)), "mem.warc"))
    starts = offsets(records)
    assert [(i.source, i.kind) for i in items] == [
        (f"mem.warc#{starts[0]}", "error"), (f"mem.warc#{starts[1]}", "bytes"), (f"mem.warc#{starts[2]}", "error"),
        (f"mem.warc#{starts[3]}", "bytes"), (f"mem.warc#{starts[4]}", "bytes"),
    ]


def test_a_fifo_named_like_a_warc_file_is_an_error_record_not_a_hang(tmp_path: Path, example: ExampleSite) -> None:
    fifo = tmp_path / "crawl.warc.gz"
    os.mkfifo(fifo)
    # A subprocess with a deadline: opening a FIFO once waited for a writer, forever.
    result = subprocess.run([sys.executable, "-m", "forest", "extract", "--jobs", "1", str(fifo), str(example.held_out)],
                            capture_output=True, text=True, timeout=60, env={**os.environ, "FOREST_DB": str(tmp_path / "f.db")})
    failed, page = (json.loads(line) for line in result.stdout.splitlines())
    assert failed == {"source": str(fifo), "error": f"{fifo}: not a regular file (a FIFO); forest reads only regular files"}
    assert page["method"] == "classifier" and result.returncode == 0


@pytest.mark.parametrize("gzipped", [False, True])
def test_blank_lines_after_the_last_record_are_no_error(gzipped: bool) -> None:
    records = [gzip.compress(r) if gzipped else r for r in RECORDS[:2]]
    items = list(warc_items(io.BytesIO(b"".join(records) + b"\r\n\r\n"), "padded.warc"))
    assert [(i.source, i.kind) for i in items] == [(f"padded.warc#{at}", "bytes") for at in offsets(records)]
