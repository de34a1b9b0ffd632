"""Reading a page from its span never changes its article, wherever the page puts the span's markers."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from forest.config import Settings
from forest.extraction import extract

sys.path.insert(0, str(Path(__file__).parents[1] / "unit"))
from span_site import STORY, learned, page  # noqa: E402

WORDS = st.lists(st.sampled_from("harbour crane frost orchard library river road the a of and".split()), min_size=1, max_size=30)
PARAGRAPHS = st.lists(WORDS.map(" ".join), min_size=1, max_size=8)
ALONE = Settings(classifier=False)


@settings(max_examples=150, deadline=None)
@given(paragraphs=PARAGRAPHS, footer=st.integers(-1, 8), related=st.integers(-1, 8), nested=st.integers(-1, 8))
def test_the_span_gives_the_whole_pages_article(paragraphs: list[str], footer: int, related: int, nested: int) -> None:
    # The related list and the footer (where spans end) after the story or inside it; maybe a second
    # story-body tag (where the span starts) inside it too.
    if 0 <= nested < len(paragraphs):
        paragraphs = [*paragraphs[:nested], f"{STORY}{paragraphs[nested]}</div>", *paragraphs[nested + 1:]]
    html = page("A headline", paragraphs, footer_at=footer if 0 <= footer <= len(paragraphs) else None,
                related_at=related if 0 <= related <= len(paragraphs) else None)
    wrapper = learned()
    spanned, whole = extract(wrapper, html, settings=ALONE), extract(replace(wrapper, span=("", "")), html, settings=ALONE)
    assert (spanned.text, spanned.title, spanned.method, spanned.confidence) == (whole.text, whole.title, whole.method, whole.confidence)
