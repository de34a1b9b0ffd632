"""A site's title decoration and the headline within a page's title (forest.titles), and their storage in the wrapper."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from forest.html import parse_html
from forest.titles import headline_of, learn_affixes, strip_affixes, title_parts
from forest.wrapper import Wrapper
from patterns.model import Pattern


@pytest.mark.parametrize(
    ("titles", "affixes", "first"),
    [
        (["Maps go on show | Larkford Courier", "Meteor record | Larkford Courier", "Frost | Larkford Courier"],
         ("", " | Larkford Courier"), "Maps go on show"),
        (["» My Essential Mac Setup :zenhabits", "» Simple living :zenhabits", "» Focus :zenhabits"],
         ("» ", " :zenhabits"), "My Essential Mac Setup"),
        (["AFP: Typhoon hits coast", "AFP: Markets fall", "AFP: Talks resume"], ("AFP: ", ""), "Typhoon hits coast"),
        (["The harbour story", "The orchard story", "The library story"], ("", ""), "The harbour story"),
        (["One | Site", "Two"], ("", ""), "One | Site"),
    ],
    ids=["suffix", "both", "prefix", "words-are-not-decoration", "too-few"],
)
def test_learn_and_strip_affixes(titles: list[str], affixes: tuple[str, str], first: str) -> None:
    assert learn_affixes(titles) == affixes
    assert strip_affixes(titles[0], affixes) == first


def test_a_title_that_is_all_decoration_is_kept() -> None:
    assert strip_affixes(" | Site", ("", " | Site")) == "| Site"


def test_the_headline_is_the_part_of_the_title_the_page_states_alone() -> None:
    root = parse_html("<html><body><span><strong>Boy killed by dog</strong></span><p>World</p></body></html>")
    assert headline_of(root, "Boy killed by dog - World - General - Camden Advertiser") == "Boy killed by dog"
    assert headline_of(root, "A title no element states - Site") == "A title no element states - Site"


def test_a_headline_with_a_dash_in_it_stays_whole() -> None:
    root = parse_html("<html><body><h1>Rival launch denied - report</h1><p>report</p></body></html>")
    assert headline_of(root, "Rival launch denied - report") == "Rival launch denied - report"


def test_affixes_and_comments_round_trip_and_old_records_read() -> None:
    wrapper = Wrapper("s.test", (Pattern("//article", 1.0, 1, 3),), title_affixes=("", " | S"), comments="//div[@id='comments']")
    again = Wrapper.from_dict(wrapper.to_dict())
    assert (again.title_affixes, again.comments) == (("", " | S"), "//div[@id='comments']")
    old = wrapper.to_dict()
    del old["title_affixes"], old["comments"]
    assert (Wrapper.from_dict(old).title_affixes, Wrapper.from_dict(old).comments) == (("", ""), "")


def _reference_title_parts(title: str) -> list[str]:
    # title_parts as written before its parts were tested by a pattern: a count of str.isalnum() characters.
    from forest.titles import _CUTS

    title = " ".join(title.split())
    cuts = list(_CUTS.finditer(title))
    parts = [title[: m.start()].strip() for m in cuts] + [title[m.end():].strip() for m in cuts]
    return [p for p in dict.fromkeys([title, *parts]) if sum(c.isalnum() for c in p) >= 3]


_TITLE_CHARS = st.one_of(
    st.sampled_from(list("ab1_ -|:/·—–»\t²½ⅷ٣éß中!.'")),  # separators, '_', digits and letters of other scripts
    st.characters(codec="utf-8"),
)


@settings(max_examples=400, deadline=None)
@given(st.text(_TITLE_CHARS, max_size=40))
def test_three_alnum_is_isalnum_count(text: str) -> None:
    from forest.titles import _THREE_ALNUM

    assert (_THREE_ALNUM.search(text) is not None) == (sum(c.isalnum() for c in text) >= 3)
    assert title_parts(text) == _reference_title_parts(text)
