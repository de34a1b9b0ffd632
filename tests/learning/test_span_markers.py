"""The span's markers scanned in C (forest.learning._inline.start_markers) against their reference, the
regex's own scan (``forest.learning.span._MARKER.finditer``): the same matches at the same places, on
generated markup (non-ASCII characters IGNORECASE folds to ASCII among them) and on a fixed sample of every
shared dataset's pages (``-m bench``: all of them)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_pages import dataset_pages
from forest.html import BODY_TAG
from forest.learning._inline import start_markers
from forest.learning.span import _MARKER


def reference(text: str, start: int) -> list[tuple[str, int]]:
    return [(m.group(), m.start()) for m in _MARKER.finditer(text, start)]


# The characters the pattern reads, and some it folds: "\u017f" (long s) and "\u0131" (dotless i) match "s"
# and "i" under IGNORECASE, "\u212a" (Kelvin) a letter; "\x1c" and "\x85" are \s; "\u00e9" is \w.
PIECES = ["<", ">", "</", "<div", "<a", "<p:x", "<h-1", " ", "\t", "\n", "\x1c", "\x85", "\u3000", "id", "ID", "Id",
          "class", "CLASS", "Class", "cla\u017f\u017f", "\u0131d", "\u212a", "=", " = ", '"', "'", "x", "-", "_", ":",
          "\u00e9", "data-id", "xid", "_class", "-class", "1", "<div class", "<span id", '"a b"', "'c'", '"<x>"']
markup = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=800, deadline=None)
@given(markup, st.integers(min_value=-2, max_value=60))
def test_generated_markup_has_the_regex_markers(text: str, start: int) -> None:
    assert start_markers(text, start, _MARKER) == reference(text, max(start, 0))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_has_the_regex_markers(text: str) -> None:
    assert start_markers(text, 0, _MARKER) == reference(text, 0)


def test_hand_made_tags() -> None:
    # An unquoted value is no marker, nor a tag whose value holds a "<" (the tag ends there for the pattern).
    text = ("<body><div  class = 'story' id=x><p id=unquoted><a href='/' data-class=\"n\" class=\"nav\">"
            "<span title='x' ID=\"s\"><i:b class='' ><div class=\"a<b\" id='ok'><div claſs='folded'>"
            "<div\u00e9 class='wide'><E x='\u00e9' id='after-wide'>")
    found = start_markers(text, 6, _MARKER)
    assert found == reference(text, 6)
    assert [marker for marker, _ in found] == [
        "<div  class = 'story'", "<a href='/' data-class=\"n\" class=\"nav\"", "<span title='x' ID=\"s\"",
        "<i:b class=''", "<div claſs='folded'", "<div\u00e9 class='wide'", "<E x='\u00e9' id='after-wide'",
    ]


def _check(pages: list[str]) -> int:
    checked = 0
    for text in pages:
        body = BODY_TAG.search(text)
        start = body.end() if body else len(text)
        assert start_markers(text, start, _MARKER) == reference(text, start)
        checked += 1
    return checked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_has_the_regex_markers() -> None:
    pages = [page for found in dataset_pages(every=False).values() for page in found]
    if not pages:
        pytest.skip("the shared datasets are not here (../shared/datasets or $FOREST_DATASETS)")
    assert _check(pages) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_has_the_regex_markers() -> None:
    for pages in dataset_pages(every=True).values():
        _check(pages)
