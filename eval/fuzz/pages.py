"""Fuzz forest with mutated pages of the shared datasets: every page must give an article or a ForestError, in time and memory.

Run ``python -m eval.fuzz --kind pages --pages 5000`` (about 3 minutes on one core).  Per site with
enough pages, a wrapper is learned from its first pages and stored; then mutated pages
(seeded: the same ``--seed`` gives the same pages) go through ``extract_page`` with the
store, and every tenth case through ``learn_pages`` with three mutated pages.  Cases run
in a worker process so that a hang is killed at ``--timeout`` and memory is measured
apart from this one (eval.fuzz.harness).  The report counts tracebacks (any exception
that is not a ForestError), cases over the timeout, a stored wrapper that changed, and
the worker's peak memory.
"""

from __future__ import annotations

import random
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval.fuzz.harness import Handler, Report, Worker

# --- the mutator ------------------------------------------------------------------------

# Markup that broke forest once (issue 15) or that parsers are known to choke on.
HOSTILE_SNIPPETS: tuple[bytes, ...] = (
    b'<meta charset="rot13">', b'<meta charset=base64>', b"<meta charset=zlib>", b"<meta charset=hex>",
    b'<meta http-equiv="Content-Type" content="text/html; charset=uu">', b"<meta charset=punycode>",
    b"<meta charset=utf-7>", b"<meta charset=utf-16>", b"<meta charset=\x00>",
    b'<?xml version="1.0" encoding="bz2"?>', b'<?xml version="1.0" encoding="quopri"?>',
    b"\x0c", b"\x0b\x01\x02", b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\xc3", b"\xf4\x90\x80\x80",
    b'<link rel="canonical" href="http://[zz::1]/a">', b'<link rel="canonical" href="http://[::1">',
    b'<meta property="og:url" content="http://' + b"a" * 70 + b'.example/x">',
    b'<link rel="canonical" href="http://xn--' + b"9" * 80 + b'.com/">',
    b'<link rel="canonical" href="javascript:alert(1)">', b'<link rel="canonical" href="//">',
    b'<script type="application/ld+json">' + b"[" * 3000 + b"]" * 3000 + b"</script>",
    b'<script type="application/ld+json">{"headline": "\x00\x0c", "author": {"name": [[[{}]]]}}</script>',
    b'<script type="application/ld+json">{"@graph": [{"datePublished": "99999-99-99"}]}</script>',
    b"<title>", b"</body>", b"<body>", b"</html><html>", b"<!--", b"<![CDATA[", b"]]>", b"<?php ?>",
    b"&#0;", b"&#xD800;", b"&#x110000;", b"&#9999999999;", b"&nbsp;" * 50, b"&lol;",
    b"<div>" * 300, b"</div>" * 300, b"<table><tr><td>" * 50, b"<p>" * 2000,
    b"<p " + b" ".join(b"a%d=x" % i for i in range(900)) + b">attrs</p>",
    b"<svg><math><style><iframe><noscript><template>",
    b"<base href='http://[::1'>", b"<a href='http://\xff\xfe/'>link</a>",
)
_CHARSETS = ("shift_jis", "gb18030", "koi8-r", "utf-16-le", "cp1252", "latin-1")


def mutate(data: bytes, rng: random.Random, *, max_ops: int = 4) -> bytes:
    """A seeded mutation of page bytes: 1 to ``max_ops`` byte edits, hostile snippets, re-encodings, truncations."""
    for _ in range(rng.randint(1, max_ops)):
        data = rng.choice(_OPERATIONS)(data, rng)
    return data


def _flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    out = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def _insert_snippet(data: bytes, rng: random.Random) -> bytes:
    at = _tag_boundary(data, rng)
    return data[:at] + rng.choice(HOSTILE_SNIPPETS) + data[at:]


def _delete(data: bytes, rng: random.Random) -> bytes:
    if len(data) < 2:
        return data
    start = rng.randrange(len(data))
    return data[:start] + data[start + rng.randint(1, max(1, len(data) // 8)):]


def _duplicate(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    start = rng.randrange(len(data))
    piece = data[start:start + rng.randint(1, 4096)]
    times = rng.choice((1, 2, 10, 100))
    at = rng.randrange(len(data) + 1)
    # At most about 2 MB more: the cases test robustness, not the size cap.
    return data[:at] + piece * min(times, max(1, 2_000_000 // max(1, len(piece)))) + data[at:]


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)] if data else data


def _reencode(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", errors="replace")
    charset = rng.choice(_CHARSETS)
    body = text.encode(charset, errors="replace")
    # Half the time without saying so: the page has to be sniffed.
    if rng.random() < 0.5:
        return b"<meta charset=%s>" % charset.encode() + body if not charset.startswith("utf-16") else body
    return body


def _swap_tags(data: bytes, rng: random.Random) -> bytes:
    tags = [m.start() for m in re.finditer(rb"<[a-z]", data[:200_000])]
    if len(tags) < 2:
        return data
    at = rng.choice(tags)
    return data[:at + 1] + rng.choice((b"div", b"p", b"table", b"li", b"script", b"title", b"body", b"x")) + b" " + data[at + 1:]


def _control_run(data: bytes, rng: random.Random) -> bytes:
    at = _tag_boundary(data, rng)
    run = bytes(rng.choice((0x0C, 0x0B, 0x1B, 0x7F, 0x85, 0x00, 0x01)) for _ in range(rng.randint(1, 8)))
    return data[:at] + run + data[at:]


_OPERATIONS: tuple[Callable[[bytes, random.Random], bytes], ...] = (
    _flip, _insert_snippet, _insert_snippet, _insert_snippet, _delete, _duplicate, _truncate, _reencode,
    _swap_tags, _control_run,
)


def _tag_boundary(data: bytes, rng: random.Random) -> int:
    """A random position just after a '>' (where a snippet lands as markup), or anywhere."""
    if data and rng.random() < 0.8:
        for _ in range(8):
            at = data.find(b">", rng.randrange(len(data)))
            if at >= 0:
                return at + 1
    return rng.randrange(len(data) + 1)


# --- running cases in a worker -------------------------------------------------------------


def _setup() -> Handler:
    """The page worker's handler: ("base", site, pages) learns and stores a site; ("extract"|"learn", ...) runs one."""
    from forest.service.pages import extract_page, learn_pages
    from forest.model import Page
    from forest.storage import WrapperStore

    directory = tempfile.mkdtemp(prefix="forest-fuzz-")
    store = WrapperStore(Path(directory) / "fuzz.db")
    stored: dict[str, Any] = {}

    def handle(message: tuple[str, str, Any]) -> tuple[str, str]:
        kind, site, payload = message
        if kind == "base":
            stored.pop(site, None)
            learn_pages([Page(html, url=url, site=site) for html, url in payload], site=site, store=store)
            stored[site] = store.get(site)
        elif kind == "extract":
            data, url, name_site = payload
            extract_page(data, site=site if name_site else None, url=url, store=store)
        elif kind == "learn":
            learn_pages([Page(_text(data), url=url, site=site) for data, url in payload], site=site)
        elif kind == "check":
            changed = [s for s, wrapper in stored.items() if store.find(s) != wrapper]
            return ("changed", ", ".join(changed)) if changed else ("ok", "")
        return "ok", ""

    return handle


def _text(data: bytes) -> str:
    from forest.errors import ParseError
    from forest.html import decode

    try:
        return decode(data)
    except ParseError:
        return data.decode("utf-8", errors="replace")


# --- the command --------------------------------------------------------------------------


def _sites(datasets: Sequence[str]) -> dict[str, list[Any]]:
    from eval import datasets as store_of_datasets

    sites: dict[str, list[Any]] = {}
    for name in datasets:
        for site, samples in store_of_datasets.by_site(store_of_datasets.load(name), min_pages=6).items():
            sites[f"{name}/{site}"] = samples
    if not sites:
        raise SystemExit("no dataset site with 6 pages or more; are the datasets in ../shared/datasets?")
    return sites


@dataclass(frozen=True)
class Case:
    """One generated case: which site, what kind, and the worker message's payload."""

    number: int
    key: str
    site: str
    kind: str
    payload: Any
    base: list[tuple[str, str | None]]


def cases(pages: int, sites: dict[str, list[Any]], *, seed: int, learn_every: int = 10) -> Iterator[Case]:
    """The cases of a run, in order; they depend on ``seed`` alone, so a failing one can be replayed (--replay)."""
    rng = random.Random(seed)
    names = sorted(sites)
    per_site = max(1, pages // len(names))
    done = 0
    while done < pages:
        for key in names:
            if done >= pages:
                break
            samples = sites[key]
            site = samples[0].site
            base = [(s.html, s.url) for s in samples[:5]]
            for _ in range(min(per_site, pages - done)):
                sample = rng.choice(samples)
                data = mutate(sample.html.encode("utf-8"), rng)
                payload: Any
                if done % learn_every == learn_every - 1:
                    others = [mutate(s.html.encode("utf-8"), rng) for s in rng.sample(samples, 2)]
                    kind, payload = "learn", [(d, sample.url) for d in (data, *others)]
                else:
                    url = sample.url if rng.random() < 0.5 else None
                    kind, payload = "extract", (data, url, rng.random() < 0.75)
                done += 1
                yield Case(done, key, site, kind, payload, base)


def run(
    pages: int, *, datasets: Sequence[str], seed: int, timeout: float, learn_every: int = 10,
    progress: Callable[[int], None] | None = None,
) -> Report:
    """Fuzz ``pages`` mutated pages of ``datasets``; see the module docstring."""
    report = Report(kind="pages")
    started = time.monotonic()
    worker = Worker(timeout, _setup)
    current: Case | None = None
    try:
        for case in cases(pages, _sites(datasets), seed=seed, learn_every=learn_every):
            if current is None or case.key != current.key:
                if current is not None:
                    _check(worker, current, report)
                current = case
                # Learning the site is a case too, on unmutated pages; an error here only means no wrapper.
                worker.run(("base", case.site, case.base), timeout=max(timeout, 60.0))
            outcome = worker.run((case.kind, case.site, case.payload))
            report.pages += 3 if case.kind == "learn" else 1
            report.add(f"{case.key} case {case.number}", case.kind, outcome, timeout)
            if progress is not None:
                progress(case.number)
        if current is not None:
            _check(worker, current, report)
    finally:
        report.peak_mb = worker.peak_mb
        report.wall_seconds = time.monotonic() - started
        worker.close()
    return report


def _check(worker: Worker, case: Case, report: Report) -> None:
    check = worker.run(("check", case.site, None))
    if check.status == "changed":
        report.changed.append(f"{case.key}: {check.detail}")


def replay(number: int, *, datasets: Sequence[str], seed: int, pages: int, directory: Path) -> None:
    """Write case ``number`` of a run's pages to ``directory`` (one file per page) to debug it."""
    for case in cases(pages, _sites(datasets), seed=seed):
        if case.number == number:
            directory.mkdir(parents=True, exist_ok=True)
            datas = [d for d, _ in case.payload] if case.kind == "learn" else [case.payload[0]]
            for index, data in enumerate(datas):
                (directory / f"case{number}-{index}.html").write_bytes(data)
            print(f"case {number}: {case.kind} on {case.key} (site {case.site}), {len(datas)} page(s) in {directory}")
            return
    raise SystemExit(f"no case {number}")


def census(datasets: Sequence[str]) -> None:
    """Print, per dataset, the largest page's start tags and the most attributes on one element (forest.limits)."""
    from eval import datasets as store_of_datasets
    from forest.limits import most_attributes

    for name in datasets:
        samples = store_of_datasets.load(name)
        tags = max(sum(1 for _ in re.finditer(r"<[a-zA-Z]", s.html)) for s in samples)
        attributes = max(most_attributes(s.html, long_tag=0) for s in samples)
        print(f"{name}: {len(samples)} pages, at most {tags:,} start tags and {attributes:,} attributes on a tag")
