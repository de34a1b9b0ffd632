"""The markup guard's scan in C (forest._markup) against its reference, the guard's regular expressions.

``reference_check_markup`` below is how forest.limits.check_markup decided before the scan was
native: the start tags counted by ``_START_TAG`` (on a page long enough and with enough ``<``),
and the attributes of the long tags counted by ``most_attributes`` on every page with a run of
``_LONG_TAG`` characters without ``<``.  The native guard must refuse exactly the pages it refused,
with the same message: on generated markup (hypothesis), on crafted pages at the limits, and on a
fixed sample of every shared dataset's pages (``-m bench``: all of them).  ``markup_counts`` itself
must count the start tags as ``_START_TAG`` does and the most attributes of a long tag as
``_ATTRIBUTE`` finds them, at any ``long_tag``.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dataset_pages import dataset_pages, skip_without_datasets
from forest import limits
from forest._markup import markup_counts, most_outside_raw_text
from forest.errors import ParseError
from forest.limits import (
    _ATTRIBUTE,
    _LONG_TAG,
    _START_TAG,
    MAX_ATTRIBUTES,
    MAX_DEPTH,
    MAX_START_TAGS,
    check_markup,
    most_attributes,
    xml_depth,
)

# --- The reference: the guard in Python ---------------------------------------------------------


def _long_run(text: str) -> bool:
    # Whether text may hold a run of _LONG_TAG characters without a '<' (every window of half that has one, else).
    step = _LONG_TAG // 2
    return any(text.find("<", start, start + step) < 0 for start in range(0, len(text) - step + 1, step))


def reference_check_markup(text: str, *, source: str | None = None, xml: bool = False) -> None:
    """forest.limits.check_markup as it was before its scan was native."""
    if len(text) > 2 * MAX_START_TAGS and text.count("<") > MAX_START_TAGS:
        tags = sum(1 for _ in _START_TAG.finditer(text))
        if tags > MAX_START_TAGS:
            raise ParseError(
                f"{'feed' if xml else 'page'} has {tags:,} elements, over the {MAX_START_TAGS:,} forest reads "
                "(forest.limits.MAX_START_TAGS)",
                source=source,
            )
    long_tag = _long_run(text) and max(map(len, text.split("<"))) > _LONG_TAG
    attributes = most_attributes(text, raw_text=not xml) if long_tag else 0
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


def _verdict(check: object, text: str, xml: bool) -> str | None:
    try:
        check(text, source="s", xml=xml)  # type: ignore[operator]
    except ParseError as error:
        return str(error)
    return None


def assert_same_verdict(text: str) -> None:
    for xml in (False, True):
        assert _verdict(check_markup, text, xml) == _verdict(reference_check_markup, text, xml)


def reference_counts(text: str, long_tag: int) -> tuple[int, list[int]]:
    """The start tags, and the attributes _ATTRIBUTE finds in each tag _LONG_START_TAG would find with ``long_tag``."""
    long = re.compile(rf"<[a-zA-Z][^<>]{{{long_tag},}}")
    return len(_START_TAG.findall(text)), [len(_ATTRIBUTE.findall(m.group())) - 1 for m in long.finditer(text)]


def assert_bounded(text: str, long_tag: int) -> None:
    tags, bound = markup_counts(text, long_tag)
    expected_tags, attributes = reference_counts(text, long_tag)
    assert tags == expected_tags
    assert bound == max(attributes, default=-1)  # -1 exactly when no tag is long
    assert most_outside_raw_text(text, long_tag) == most_attributes(text, long_tag=long_tag)


# --- Generated markup ---------------------------------------------------------------------------

# Pieces of tags and text: names, values quoted and not, quotes left open, '=' and '/' runs,
# Python's whitespace beyond ASCII (\x1c, NBSP, U+2003), raw-text elements and comments, and
# characters that make the str 1, 2 or 4 bytes a character (é, U+0663, an emoji).
PIECES = ["<", ">", "<p", "<a", "<1", "</p>", " ", "\t", "\n", "\x1c", "\u00a0", "\u2003", "=", "==", "/", '"', "'", "a",
          "x=1", 'h="v w"', "k='q'", "é", "\u0663", "\U0001f600", "<script>", "</script>", "<!--", "-->", "<title>",
          "</title>", "b<c"]  # fmt: skip
markup = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(markup, st.integers(0, 12))
def test_the_scan_counts_start_tags_and_bounds_each_long_tags_attributes(text: str, long_tag: int) -> None:
    assert_bounded(text, long_tag)


# Raw text as the reference's patterns read it: any case, the letters beyond ASCII that IGNORECASE folds
# to a raw name's ("ſ", "İ", "ı"), a name that goes on ("<scripts"), spaces before a close's '>', runs of
# dashes, every raw element, and a "<script" inside a comment.
RAW_PIECES = ["<SCRIPT>", "</Script >", "<ſcript>", "</ſcript>", "<scripts>", "<script_", "<scriptő", "</script\t>",
              "<style", "</STYLE\n>", "<İframe>", "</ıframe>", "<textarea>", "</textarea>", "<xmp>", "</xmp>",
              "<noscript>", "</noscript>", "<template>", "</template>", "<noembed>", "</noembed>", "<noframes>",
              "</noframes>", "<plaintext>", "</plaintext>", "<title", "</title >", "--->", "<!---->", "-", "--", "<!-"]
# Tags of a few attributes each, which the raw text around them hides from the count, or not.
attributed = st.builds(lambda name, n: f"<{name}" + " a" * n + ">", st.sampled_from(["p", "i", "s"]), st.integers(1, 8))
raw_markup = st.lists(st.one_of(st.sampled_from(PIECES + RAW_PIECES), attributed, attributed), max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(raw_markup, st.integers(0, 12))
def test_the_second_scan_skips_the_long_tags_in_raw_text_as_the_reference_does(text: str, long_tag: int) -> None:
    assert_bounded(text, long_tag)


@pytest.mark.parametrize(
    ("text", "most"),
    [
        ("<p a a>", 2),
        ("<script><p a a></script><p a>", 1),  # the script's tag is text
        ("<SCRIPT><p a a></Script ><p a>", 1),
        ("<ſcript><p a a></script\t><p a>", 1),  # IGNORECASE reads "ſ" as "s", and \s a tab
        ("<İframe><p a a></ıframe><p a>", 1),
        ("<scripts><p a a>", 2),  # no raw name: "scripts" goes on
        ("<script_<p a a>", 2),
        ("<script><p a a></script x><p a>", 0),  # "</script x>" closes nothing: the script runs to the end
        ("<!-- <p a a> --><p a>", 1),
        ("<!--<script>--><p a a>", 2),  # a "<script" in a comment opens nothing
        ("<!---><p a a>", 2),  # "<!--->" is a whole comment: its "--" and ">" close it
        ("<!--<p a a>", 0),  # an unclosed comment runs to the end
        ("<title><p a a></title ><p a>", 1),
    ],
)
def test_raw_text_hides_the_tags_the_reference_says_it_hides(text: str, most: int) -> None:
    assert most_attributes(text, long_tag=1) == most
    assert most_outside_raw_text(text, 1) == most


# Long tags (over _LONG_TAG characters) with many attributes, a few around MAX_ATTRIBUTES.
attribute = st.sampled_from([" a", " a=1", ' b="x y"', " c='z'", " =", " d=e=f", "  \u00a0g", ' h="', " i/"])
long_tags = st.builds(
    lambda name, attr, count, inside: ("<script>" if inside else "") + f"<{name}" + attr * count + ">" + ("</script>" if inside else ""),
    st.sampled_from(["p", "div", "x"]),
    attribute,
    st.sampled_from([1, 2_000, MAX_ATTRIBUTES - 1, MAX_ATTRIBUTES, MAX_ATTRIBUTES + 1, 3 * MAX_ATTRIBUTES]),
    st.booleans(),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(long_tags, markup), min_size=1, max_size=3).map("".join))
def test_the_guard_refuses_what_the_reference_refuses(text: str) -> None:
    assert_same_verdict(text)
    assert_bounded(text, _LONG_TAG)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "<",
        "<p",
        "<html><body><p>text</p></body></html>",
        # Start tags at the limit and one over.
        "<p>" * MAX_START_TAGS,
        "<p>" * (MAX_START_TAGS + 1),
        "<a" * (MAX_START_TAGS + 1),  # a run of '<a' with no '>'
        # Attributes at the limit and one over; over, but inside a script (HTML reads it as code, XML as tags).
        "<div" + " a" * MAX_ATTRIBUTES + ">",
        "<div" + " a" * (MAX_ATTRIBUTES + 1) + ">",
        "<script>x<div" + " a" * (MAX_ATTRIBUTES + 1) + "</script>",
        # Runs a quoted value joins: many words, few attributes.
        "<div data-x=\"" + " w" * (3 * MAX_ATTRIBUTES) + "\">",
        # A long text without '<' (a long article paragraph): no tag in it.
        "<p>" + "word " * 20_000 + "</p>",
        # Nesting (feeds only).
        "<a>" * (MAX_DEPTH + 1),
    ],
    ids=["empty", "lt", "open", "small", "tags-at", "tags-over", "runs-over", "attrs-at", "attrs-over", "attrs-script",
         "quoted", "long-text", "deep"],  # fmt: skip
)
def test_pages_at_the_limits_get_the_references_verdict(text: str) -> None:
    assert_same_verdict(text)
    assert_bounded(text, _LONG_TAG)


def test_no_page_is_read_by_the_regexes(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(text: str, **kw: object) -> int:
        raise AssertionError("the guard read a page with most_attributes' regexes")

    monkeypatch.setattr(limits, "most_attributes", refused)
    check_markup("<p" + " a" * 2_000 + " " * _LONG_TAG + ">")  # long, but few attributes
    check_markup("<svg><path d='" + " 1,2" * (3 * MAX_ATTRIBUTES) + "'/></svg>")  # many words, one attribute
    check_markup("<script>x<div" + " a" * (MAX_ATTRIBUTES + 1) + "</script>")  # over by the first scan, inside a script
    with pytest.raises(ParseError, match="attributes"):
        check_markup("<div" + " a" * (MAX_ATTRIBUTES + 1) + ">")


def test_a_negative_long_tag_is_refused() -> None:
    with pytest.raises(ValueError):
        markup_counts("<p>", -1)
    with pytest.raises(ValueError):
        most_outside_raw_text("<p>", -1)


# --- The shared datasets' pages -----------------------------------------------------------------


def _check_pages(every: bool) -> int:
    checked = 0
    for pages in dataset_pages(every).values():
        for html in pages:
            assert_same_verdict(html)
            assert_bounded(html, _LONG_TAG)
            checked += 1
    return checked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_gets_the_references_verdict() -> None:
    skip_without_datasets()
    assert _check_pages(every=False) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_gets_the_references_verdict() -> None:
    skip_without_datasets()
    assert _check_pages(every=True) > 0
