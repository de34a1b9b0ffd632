"""Pages of the shared datasets for the native passes' equality tests: every page, or a fixed sample of each dataset."""

from __future__ import annotations

import gzip
import itertools
import json
from collections.abc import Callable, Iterable, Iterator

from lxml import etree

# The sample: every STEP-th of a dataset's first SAMPLE * STEP records, read without loading the file.
SAMPLE, STEP = 8, 10


def dataset_pages(every: bool, *, sample: int = SAMPLE) -> dict[str, list[str]]:
    """Each available dataset's pages' HTML: all of them, or every STEP-th of its first ``sample`` * STEP."""
    from eval.datasets import available, load, resolve

    out: dict[str, list[str]] = {}
    for name in available():
        if every:
            out[name] = [s.html for s in load(name)]
            continue
        with gzip.open(resolve(name), "rt", encoding="utf-8") as lines:
            out[name] = [str(json.loads(line)["html"]) for line in itertools.islice(lines, 0, sample * STEP, STEP)]
    return out


def bodies(pages: Iterable[str]) -> Iterator[etree._Element]:
    """The ``<body>`` of each page that parses as forest parses pages (the others are left out)."""
    from forest.errors import ParseError
    from forest.html import parse_html

    for html in pages:
        try:
            body = parse_html(html).find("body")
        except ParseError:
            continue
        if body is not None:
            yield body


def roots(pages: Iterable[str]) -> list[etree._Element]:
    """Each page that parses as forest parses pages, whole (the others are left out); the calling
    test is skipped when there are none (the shared datasets are not on this machine)."""
    import pytest

    from forest.errors import ParseError
    from forest.html import parse_html

    found = []
    for html in pages:
        try:
            found.append(parse_html(html))
        except ParseError:
            continue
    if not found:
        pytest.skip("the shared datasets are not here (../shared/datasets or $FOREST_DATASETS)")
    return found


def body_of(page: str) -> etree._Element:
    """The ``<body>`` of a hand-written page, parsed by lxml alone (as the tests' fixed cases are)."""
    from lxml import html as lxml_html

    body = lxml_html.document_fromstring(page).find("body")
    assert body is not None
    return body


def skip_without_datasets() -> None:
    """Skip the calling test when the shared datasets are not on this machine."""
    import pytest

    from eval.datasets import available

    if not available():
        pytest.skip("the shared datasets are not here (../shared/datasets or $FOREST_DATASETS)")


def check_dataset_bodies(check: Callable[[etree._Element], object], every: bool) -> None:
    """Run ``check`` on the ``<body>`` of each page of every dataset that parses (:func:`bodies`): a fixed
    sample, or every page; the calling test is skipped without the datasets and fails when it checked none."""
    skip_without_datasets()
    checked = 0
    for pages in dataset_pages(every=every).values():
        for body in bodies(pages):
            check(body)
            checked += 1
    assert checked > 0


def generated_page(body: Iterable[str]) -> etree._Element | None:
    """A generated page's tree as forest parses it, its body the parts joined; None where forest refuses it."""
    from forest.errors import ParseError
    from forest.html import parse_html

    try:
        return parse_html(f"<html><head><title>t</title></head><body>{''.join(body)}</body></html>")
    except ParseError:
        return None
