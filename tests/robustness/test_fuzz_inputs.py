"""A few cases of each input kind of `python -m eval.fuzz` (feeds, WARC files, API bodies), and its harness.

The long runs stay a command (docs/robustness.md); these run the cases issue 42 found
(a 40,000-attribute feed, WARC records lost after a bad Content-Length, deeply nested
JSON bodies answered with a 500) and a handful of seeded ones, through the same worker
and report.
"""

from __future__ import annotations

import importlib.util
import random
import socket
import time
from typing import Any

import pytest

from eval.fuzz import api, feeds, warcs
from eval.fuzz.command import run_kind
from eval.fuzz.harness import Handler, loopback_only, run_cases
from forest.errors import FeedError

TIMEOUT = 10.0  # the fuzz command's per-case budget
# The API bodies go to `forest serve`'s app, which needs the web extra.
needs_web = pytest.mark.skipif(importlib.util.find_spec("starlette") is None,
                               reason="the API cases need the web extra: pip install -e '.[web]'")


def _failures(report: Any) -> list[str]:
    return report.tracebacks + report.slow + report.lost + report.changed


# --- the harness ------------------------------------------------------------------------------


def _misbehaving() -> Handler:
    def handle(payload: str) -> tuple[str, str]:
        if payload == "sleep":
            time.sleep(30)
        if payload == "raise":
            raise ValueError("a bug")
        if payload == "refuse":
            raise FeedError("not a feed", url="http://example.test/")
        if payload == "connect":
            socket.create_connection(("192.0.2.1", 80), timeout=1)
        return "ok", ""

    return handle


def test_the_harness_tells_a_hang_a_traceback_and_a_forest_error_apart() -> None:
    cases = [(p, "x", p) for p in ("ok", "sleep", "raise", "refuse", "connect", "ok")]
    report = run_cases("harness", cases, _misbehaving, timeout=1.0)
    assert report.statuses == {"ok": 2, "timeout": 1, "traceback": 2, "FeedError": 1}
    assert len(report.slow) == 1 and "case 2 sleep" in report.slow[0]
    # A connection anywhere but loopback fails in the worker, as in an outage.
    assert "case 5 connect" in report.tracebacks[1] and "loopback only" in report.tracebacks[1]
    assert report.failed(budget_mb=1024)


def test_loopback_only_refuses_names_and_other_addresses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", socket.getaddrinfo)
    monkeypatch.setattr(socket, "create_connection", socket.create_connection)
    loopback_only()
    with pytest.raises(socket.gaierror):
        socket.getaddrinfo("example.com", 80)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("10.0.0.1", 80), timeout=1)
    assert socket.getaddrinfo("127.0.0.1", 80)


@pytest.mark.parametrize("module", [feeds, warcs, api], ids=["feeds", "warc", "api"])
def test_cases_depend_on_the_seed_alone(module: Any) -> None:
    first = [payload for _, _, payload in module.cases(6, seed=5)]
    again = [payload for _, _, payload in module.cases(6, seed=5)]
    other = [payload for _, _, payload in module.cases(6, seed=6)]
    assert first == again and first != other


# --- feeds ------------------------------------------------------------------------------------


def test_a_feed_with_40000_attributes_on_one_element_is_parsed_or_refused_in_time() -> None:
    body = feeds.base_feeds()["example-rss2"].replace(b"<item>", b"<item" + b"".join(b" a%d='x'" % i for i in range(40_000)) + b">", 1)
    report = run_cases("feeds", [("40,000 attributes", "parse", ("parse", body, None))], feeds.setup, timeout=TIMEOUT)
    assert _failures(report) == []


def test_seeded_feed_cases_with_a_learn_over_loopback() -> None:
    report = run_kind("feeds", 10, seed=2, timeout=TIMEOUT)
    assert report.cases["learn"] == 1
    assert _failures(report) == []


# --- WARC files -------------------------------------------------------------------------------


def _warc(records: list[bytes]) -> tuple[bytes, list[int]]:
    offsets, out = [], b""
    for record in records:
        offsets.append(len(out))
        out += record
    return out, offsets


def test_a_content_length_past_the_end_loses_no_later_record() -> None:
    pages = [warcs.warc_record("response", f"http://example.test/{i}.html", p.read_bytes()) for i, p in enumerate(warcs.SHIPPED[:4])]
    pages[0] = pages[0].replace(b"Content-Length: ", b"Content-Length: 9999999", 1)
    data, offsets = _warc(pages)
    expectations = [(offsets[0], warcs.CUT, "long-past-eof")] + [(o, warcs.ARTICLE, "intact") for o in offsets[1:]]
    report = run_cases("warc", [("past EOF", "warc", (data, ".warc", expectations))], warcs.setup, timeout=TIMEOUT)
    assert _failures(report) == []


def test_a_truncated_last_record_is_an_error_record() -> None:
    pages = [warcs.warc_record("response", f"http://example.test/{i}.html", p.read_bytes()) for i, p in enumerate(warcs.SHIPPED[:2])]
    data, offsets = _warc(pages)
    data = data[: len(data) - 200]
    expectations = [(offsets[0], warcs.ARTICLE, "intact"), (offsets[1], warcs.CUT, "cut-last")]
    report = run_cases("warc", [("cut", "warc", (data, ".warc", expectations))], warcs.setup, timeout=TIMEOUT)
    assert _failures(report) == []


def test_seeded_damaged_warc_files() -> None:
    report = run_kind("warc", 12, seed=4, timeout=TIMEOUT)
    assert _failures(report) == []


def test_every_defect_is_made() -> None:
    rng = random.Random(1)
    made = {d for _ in range(200) for _, _, defects in warcs.make_warc(rng)[2] for d in defects.split("+")}
    assert made >= set(warcs.DEFECTS)


# --- API bodies -------------------------------------------------------------------------------


@needs_web
def test_the_listed_hostile_bodies_get_json_answers_under_500() -> None:
    bodies = [(name, b) for name, b in api.hostile_bodies() if len(b) < 1_000_000]  # the megabyte ones are the long run's
    cases = [(name, "/api/extract", ("/api/extract", "application/json", b)) for name, b in bodies]
    report = run_cases("api", cases, api.setup, timeout=TIMEOUT)
    assert _failures(report) == []


@needs_web
def test_seeded_api_bodies() -> None:
    cases = list(api.cases(2 * len(api.hostile_bodies()) + 15, seed=1))[-15:]  # past the listed ones: mutated bodies
    report = run_cases("api", cases, api.setup, timeout=TIMEOUT)
    assert _failures(report) == []


# --- the long run, under the bench marker -----------------------------------------------------


@pytest.mark.bench
@pytest.mark.parametrize("kind", ["feeds", "warc", "api"])
def test_fuzz_the_input_kinds(kind: str) -> None:
    report = run_kind(kind, 200, seed=3, timeout=TIMEOUT)
    assert _failures(report) == []
    assert report.peak_mb < 1024
