"""forest.metadata.parse_date and forest.bylines.written_dates: their cheap tests before any format is tried change no reading."""

from __future__ import annotations

import re
from datetime import date, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest import bylines, metadata
from forest.bylines import written_dates
from forest.metadata import parse_date

_FORMATS = (*metadata._DATE_FORMATS, "%d %B, %Y", "%A %d %B %Y", "%m/%d/%Y", "%Y-%m-%dT%H:%M", "%B %Y", "%d %b. %Y")
_SPACES = ("  ", "\t", "\xa0", "\n ")
_AROUND = ("", "Posted on ", "By Ana Lima | ", " 10:30", " EST", " GMT", ", 5:13 PM", "Updated: ", " -- ", "1st ", " 3rd")


@st.composite
def _date_texts(draw: st.DrawFn) -> str:
    """A date written in a format a page may use, in another case, spacing and company."""
    text = draw(st.dates(date(1985, 1, 1), date(2035, 12, 31))).strftime(draw(st.sampled_from(_FORMATS)))
    if draw(st.booleans()):
        text = re.sub(r"\b0(\d)", r"\1", text)  # unpadded day and month
    if draw(st.booleans()):
        text = re.sub(r"\b(\d{1,2})\b(?=\s+[A-Za-z])", lambda m: m.group(1) + draw(st.sampled_from(["st", "nd", "th"])), text)
    case = draw(st.sampled_from([str, str.upper, str.lower, str.title]))
    text = case(text).replace(" ", draw(st.sampled_from([" ", *_SPACES])))
    return draw(st.sampled_from(_AROUND)) + text + draw(st.sampled_from(_AROUND))


_PIECES = st.one_of(
    st.sampled_from(["Fri", "Thursday", ",", " ", ".", "-", "/", ":", "Z", "T", "EST", "2005", "1991", "0", "00", "12", "31"]),
    st.sampled_from(["Jan", "March", "Sept", "mars", "Dec."]), st.integers(0, 40).map(str), st.text(max_size=4),
)
_TEXTS = st.one_of(_date_texts(), st.lists(_PIECES, max_size=10).map("".join), st.lists(_PIECES, max_size=10).map(" ".join))


def _first_format(text: str, formats: list[str] | tuple[str, ...]) -> str | None:
    for fmt in formats:
        try:
            datetime.strptime(text, fmt)
        except ValueError:
            continue
        return fmt
    return None


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_the_formats_prefilter_never_rejects_a_text_parse_date_reads(text: str) -> None:
    # The format strptime reads a text by is the same (a later reading, written_dates, would hide a miss).
    cleaned = metadata._ORDINAL.sub(r"\1", text.strip())
    assert _first_format(cleaned, metadata._formats_for(cleaned)) == _first_format(cleaned, metadata._DATE_FORMATS)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(metadata, "_formats_for", lambda _: list(metadata._DATE_FORMATS))
        every_format = parse_date(text)
    assert parse_date(text) == every_format


@settings(max_examples=400, deadline=None)
@given(_TEXTS, st.sampled_from(["", "en", "en-GB", "fr"]))
def test_the_year_prefilter_never_rejects_a_text_written_dates_reads(text: str, lang: str) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bylines, "_YEAR_DIGITS", re.compile(""))
        unfiltered = written_dates(text, lang)
    assert written_dates(text, lang) == unfiltered


@pytest.mark.parametrize("text", ["March 3, 2014", "3 March 2014", "2014-03-03", "03.03.2014", "2014/03/03",
                                  "Monday, 3 March 2014", "Monday, March 3, 2014", "Mon, 03 Mar 2014"])
def test_each_format_a_page_prints_is_still_read(text: str) -> None:
    assert parse_date(text) == date(2014, 3, 3)


def test_formats_for_keeps_only_those_a_text_can_meet() -> None:
    assert metadata._formats_for("5 comments") == []  # no year: strptime is not called
    assert metadata._formats_for("2014-03-03") == ["%Y-%m-%d"]  # the shape of no other format
    assert metadata._formats_for("Published: Thursday, January 17, 2008") == []  # a byline: written_dates reads it
    assert metadata._formats_for("Thursday,  17 January 2008") == ["%A, %d %B %Y", "%a, %d %b %Y"]  # spaces as strptime reads them
    assert "%d.%m.%Y" not in metadata._formats_for("March 3, 2014")
    assert all(not fmt.startswith(("%Y", "%d")) for fmt in metadata._formats_for("March 3, 2014"))


# The month and weekday names' alternations are written as trees of their prefixes (bylines._prefix_tree);
# their reference is the flat alternation of the names, longest first, that each stands for.
_FLAT_MONTH = "|".join(sorted(bylines._MONTHS, key=len, reverse=True))
_FLAT_WEEKDAY = "|".join(sorted(bylines.WEEKDAYS, key=len, reverse=True))
_MONTH_PATTERNS = [p for p in (*bylines._WRITTEN, bylines._YEARLESS) if bylines._MONTH in p.pattern]
_WEEKDAY_PATTERNS = [bylines._WEEKDAY_FIRST, bylines._YEARLESS, bylines._ALONE_REST]
_NAMES = sorted(bylines._MONTHS) + sorted(bylines.WEEKDAYS)
_MONTH_TEXTS = st.lists(st.one_of(
    st.sampled_from(_NAMES).map(lambda n: n.upper() if len(n) % 3 == 0 else n.title() if len(n) % 3 == 1 else n),
    st.sampled_from([" ", ". ", ", ", "3 ", " 12, 2014", " 2014", "st", "s", "o", "e", "0", "Mon ", "de ", "1 de ", " 5:13 PM"]),
), max_size=8).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_TEXTS, _MONTH_TEXTS))
def test_the_month_names_tree_matches_as_their_flat_alternation(text: str) -> None:
    assert len(_MONTH_PATTERNS) == 3 and all(bylines._WEEKDAY in p.pattern for p in _WEEKDAY_PATTERNS)
    for pattern in {*_MONTH_PATTERNS, *_WEEKDAY_PATTERNS}:
        flat = re.compile(pattern.pattern.replace(bylines._MONTH, _FLAT_MONTH).replace(bylines._WEEKDAY, _FLAT_WEEKDAY), pattern.flags)
        assert [(m.span(), m.groupdict()) for m in pattern.finditer(text)] == [(m.span(), m.groupdict()) for m in flat.finditer(text)]
        assert (pattern.fullmatch(text) is None) == (flat.fullmatch(text) is None)


def test_every_month_name_and_its_prefixes_match_as_before() -> None:
    for name in _NAMES:
        for text in (f"3 {name} 2014", f"{name} 3, 2014", f"{name[:-1]} 3, 2014", f"{name}x 3, 2014", f"Fri {name} 2, 5:13 PM",
                     f"{name}, Dec 2, 5:13 PM", f" {name} at 10:46 gmt", f"{name}. "):
            test_the_month_names_tree_matches_as_their_flat_alternation.hypothesis.inner_test(text)  # type: ignore[attr-defined]
