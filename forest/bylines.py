"""Dates and authors a page prints by its headline, for pages that state them nowhere a machine reads.

A Pelican or Hugo theme prints "Sat 11 February 2017" under the headline and nothing else; an
old news page "By Ana Lima | March 3, 2014".  forest.metadata reads what pages state (meta tags,
JSON-LD, microdata); this reads what they print, near the headline: the first date of a page is
rarely the article's (a masthead prints today's, an archive's banner its capture dates, a footer
its copyright, a sidebar its related stories').  Elsewhere only a date the page says is its
publication's ("Posted on ..."), when it prints no other such.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from lxml import etree

from forest._texts import BodyTexts, occurrences

# Month names in the languages forest meets most (English, French, German, Spanish, Italian,
# Portuguese, Dutch), with their usual abbreviations; a written date needs a day and a year beside one.
# Abbreviations that are English words ("set", "out") are left out: "won 5 out 2017" is no date.
_MONTHS: dict[str, int] = {}
for _number, _names in enumerate((
    "january jan janvier janv januar jänner enero ene gennaio gen janeiro januari",
    "february feb febr février fév févr februar febrero febbraio fevereiro fev februari",
    "march mar mars märz marz marzo março maart mrt",
    "april apr avril avr abril aprile",
    "may mai mayo maggio mag maio mei",
    "june jun juin juni junio giugno giu junho",
    "july jul juillet juil juli julio luglio lug julho",
    "august aug août aout agosto ago augustus",
    "september sep sept septembre septiembre setiembre settembre sett setembro",
    "october oct octobre oktober okt octubre ottobre outubro",
    "november nov novembre noviembre novembro",
    "december dec décembre déc dezember dez diciembre dic dicembre dezembro",
), 1):
    for _name in _names.split():
        _MONTHS.setdefault(_name, _number)


def _prefix_tree(words: Iterable[str]) -> str:
    """An alternation of ``words`` as a tree of their common prefixes ("ma(?:r(?:s|ch|zo)?|y|i)..."), which
    matches what the flat alternation of them, longest first, matches, group for group: at a place the
    words that match are prefixes of one another, and both try them longest first (a continuation
    before the word's end).  sre tries a flat alternation's words one after another at each place a
    word may start: the month names' hundred, at every word of every text a date is searched in."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}

    def written(node: dict[str, Any]) -> str:
        branches = [re.escape(c) + written(child) for c, child in sorted(node.items()) if c]
        if not branches:
            return ""
        joined = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
        return f"(?:{joined})?" if "" in node else joined

    return written(tree)


_MONTH = _prefix_tree(_MONTHS)
_WRITTEN = (
    # 11 February 2017, 3 mars 2014, 3. März 2014, 3 de marzo de 2014, 1st Jan. 2024
    re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th|er|º)?\.?\s+(?:de\s+)?(?P<m>{_MONTH})\.?,?\s+(?:de\s+)?(?P<y>\d{{4}})\b",
               re.IGNORECASE),
    # March 3, 2014; Mar. 3rd 2014
    re.compile(rf"\b(?P<m>{_MONTH})\.?\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})\b", re.IGNORECASE),
    # 2014-03-03, 2014/03/03 (and the date of a timestamp)
    re.compile(r"\b(?P<y>\d{4})([-/])(?P<m>\d{1,2})\2(?P<d>\d{1,2})(?!\d)"),
    # 03.03.2014: day first wherever dots are written
    re.compile(r"\b(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4})\b"),
    # 2025.12.17: year first with dots (a version number has no four-digit year of the web first)
    re.compile(r"(?<![\d.])(?P<y>\d{4})\.(?P<m>\d{1,2})\.(?P<d>\d{1,2})(?![\d.]*\d)"),
)
# A date printed without its year but with a time ("Fri Sep 2, 5:13 PM ET", "Dec 10, 2:59 AM EST": an
# agency's dateline on a news portal), read by _yearless.  Without the time, it is a shop's delivery
# estimate as often ("Tue, Apr 14").
WEEKDAYS = {name: number for number, names in enumerate((
    "monday mon", "tuesday tue tues", "wednesday wed", "thursday thu thur thurs", "friday fri", "saturday sat", "sunday sun",
)) for name in names.split()}
_WEEKDAY = _prefix_tree(WEEKDAYS)
_WEEKDAY_FIRST = re.compile(rf"(?:{_WEEKDAY})\.?,?\s+", re.IGNORECASE)  # "Tuesday, " before a date
# A time of day before a date ("Posted: 6:12 PM Dec 30, 2007", "Posted at 10:30, 5 March 2014").
_CLOCK_FIRST = re.compile(r"(?:at\s+)?\d{1,2}:\d\d(?::\d\d)?\s*(?:[ap]\.?m\b\.?)?\s*(?:on\s+)?,?\s*", re.IGNORECASE)
_YEARLESS = re.compile(
    rf"\b(?:(?P<w>{_WEEKDAY})\.?,?\s+)?(?:(?P<m>{_MONTH})\.?\s+(?P<d>\d{{1,2}})|(?P<d2>\d{{1,2}})\s+(?P<m2>{_MONTH})\.?)"
    r"(?:st|nd|rd|th)?,?\s+(?:at\s+)?\d{1,2}:\d\d", re.IGNORECASE)
_COPYRIGHT = re.compile(r"(?:©|\(c\)|copyright)\s*(?:(?:19|20)\d\d\s*[-–]\s*)?((?:19|20)\d\d)\b", re.IGNORECASE)
# A date opening a long text, then a dash or a colon: a dateline leading the article's first paragraph
# ("April 5, 2005 -- A sea of humanity..."), where a date inside a paragraph is only mentioned.
_DATELINE_END = re.compile(r"\s*(?:--|—|–|-|:|\|)")
# What a date printed alone has around it (_alone): a weekday, a time of day, a zone's name (ET, EST, EDT...), punctuation.
_ALONE_REST = re.compile(rf"(?:[\s,.:|()\-–—]|\b(?:{_WEEKDAY}|at|on|[ap]\.?m|gmt|utc|bst|cet|cest|ist|[ecmp][sd]?t"
                         r"|\d{1,2}:\d\d(?::\d\d)?|\d{3,4}\s*hrs)\b)*", re.IGNORECASE)
_TIME_OF_DAY = re.compile(r"\d:\d\d|\d\s*hrs", re.IGNORECASE)
# A written date is no longer than this ("30 de septiembre de 2025", "Wednesday, 30 September 2025"):
# the text read after the words that open it, or at a paragraph's start.
_DATE_CHARS = 40
# Words that say the date after them is the publication's ("Posted on", "Published:"), wherever the
# page prints them: a blog's footer line under the post ("Posted on the 15/12/2025 at 19:00 by ...").
# Between those words and the date: punctuation and spaces, a no-break space among them, also as a
# page served in the wrong charset prints it ("Published:Ã‚Â Thursday, January 17, 2008").
_GAP = r"(?:\W|Ã‚Â|Â){0,3}"
_POSTED_WORDS = re.compile(r"\b(?:posted|published|publication date|publié|veröffentlicht|pubblicato|publicado)"
                     rf"\b(?:{_GAP}(?:on|the|le|am|el|il|em|in)\b)*{_GAP}", re.IGNORECASE)
# Each of those words but its first letter (upper or lower case), found by str.find.
_POSTED_STEMS = ("osted", "ublished", "ublication date", "ublié", "eröffentlicht", "ubblicato", "ublicado", "OSTED", "UBLISHED")
# An update's line ("Last Updated: Tuesday, 4 December 2007, 17:04 GMT", BBC's dateline), read as the
# publication's on a page with no <h1> that prints no "Posted on" line (see _date).
_UPDATED_WORDS = re.compile(rf"\b(?:last updated|updated|last modified|page updated)\b{_GAP}(?:on\b{_GAP})?", re.IGNORECASE)
_UPDATED_STEMS = ("pdated", "odified", "PDATED")
# 12/28/2005 or 28/12/2005: month first on American English pages, else day first (unless a number over 12 says).
_SLASHED = re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})\b")
# The same with a two-digit year, read only before a time of day, as a dateline prints it ("12/4/13 at
# 11:47 AM"): alone, "1/2/25" is as often a score, a fraction or a version.  Its century is the web's.
_SLASHED_SHORT = re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{2})(?=,?\s+(?:at\s+|@\s*)?\d{1,2}:\d\d)")
_DAY_FIRST_ENGLISH = ("en-gb", "en-au", "en-nz", "en-ie", "en-in", "en-za")
# Years a publication date can have: the web's, to next year (a page stamped ahead of a reader's clock).
FIRST_YEAR = 1991
# A text longer than this is a paragraph that mentions a date or a name, not a dateline or a byline.
MAX_BYLINE = 120
# The window around the headline a printed date or author is looked for in, in characters of the
# page's text before the headline's start and after its end: a dateline above the headline ("Page
# last updated at 02:18 GMT, Tuesday, 10 March 2009 ... Headline", with a BBC page's links between),
# a byline below it ("Headline / Sat 11 February 2017 / By ..."), or after a magazine's standfirst;
# wider, a related story's or a comment's is met.  Measured on wcxb_dev (dates right) and on big9's
# and l3s_gn1's dev sites (dates found): 300 before left BBC's datelines out; 2000 after rather than
# 800 found more on l3s_gn1 and gave one more wrong date on wcxb_dev.
# Re-measure with `python -m eval.fields --split dev` (date right on wcxb_dev, date found on big9 and l3s_gn1).
BEFORE_HEADLINE = 500
AFTER_HEADLINE = 2000
# How far after a byline's start (in characters of the page's text) a date printed beside it is read,
# where none is by the headline: a name and its separators, a date ("By Ana Lima and Rui Costa | ").
# Re-measure with `python -m eval.fields --dataset wcxb_dev --system cold` (date right, "found, no gold").
AFTER_BYLINE = 120
# Names of the containers of a byline that dates only itself: a review's, a testimonial's, a comment's.
_FEEDBACK = re.compile(r"review|testimon|testamon|comment|card")
# A date said to be an update's ("Updated", "Last modified") is the publication date only when no other is near.
_UPDATED = re.compile(r"(updated?|modified|aktualisiert|mis à jour|mise à jour|actualizado|aggiornato)\W*(\w+\W+){0,3}$",
                      re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# Three letters or digits (str.isalnum's characters: \w's but "_"), anywhere: what a title's part needs to be a headline.
_THREE_ALNUM = re.compile(r"[^\W_](?:[\W_]*[^\W_]){2}")
# The four digits of a year, which every written date above prints (_WRITTEN's and _SLASHED's \d{4}) but
# _SLASHED_SHORT's, which has slashes.
_YEAR_DIGITS = re.compile(r"\d{4}")

# The words a byline opens with ("By Ana Lima", "Written by", "Von", "Par"...), dropped from a name.
BYLINE = re.compile(r"^\s*(?:(?:written|posted|words|story|text|reported|report)\s+by|by|von|par|por|di|door|auteur|autor|author)"
                    r"\b[\s:]*", re.IGNORECASE)
# "by" after a separator, inside a short text: a dateline's byline ("12/28/2005 3:33:49 PM, by Anders Bylund").
_INNER_SEPARATORS = ",|•·—–"
_INNER_BY = re.compile(rf"[{_INNER_SEPARATORS}]\s*by\s+(?=\w)", re.IGNORECASE)
_CLOCK = re.compile(r"\d:\d\d")
# Their first letters, a cheaper test of a text before the pattern's (in C: _Texts.openings).
_BYLINE_STARTS = ("written", "posted", "words", "story", "text", "report", "by", "von", "par", "por", "di", "door", "aut")
# Elements that hold a byline by their names (class, id, itemprop, rel): trafilatura's author XPaths read the same
# hints; and BBC's class "byl", as a word ("shopbylink" is none), tested apart: a word boundary in the pattern
# of hints made every search of it slower.
_HINTS = ("author", "byline", "writer", "posted-by", "postedby", "submitted-by", "journalist", "screenname", "username",
          "reporter", "contributor")
# The elements with a name are listed in C (_Texts.named); the hints are found in all their names at
# once by str.find (_Texts.named_with), then checked by the patterns below (an XPath of contains()
# for each hint was five times slower than the patterns, and they were most of the search on pages
# that name thousands of elements).
_BYLINE_TAGS = frozenset({"a", "span", "div", "p", "address", "strong", "b", "em", "small", "li", "ul", "h3", "h4", "h5", "h6", "cite"})
# An element named for an author's picture, bio, title or links, or a comment's author: not the byline.
_NOT_BYLINE = re.compile(r"comment|reply|avatar|bio|desc|social|share|(?<!no)follow|image|photo|img|title|date|time|about|box")
# On names already lower-cased: a pattern of plain words, faster than any() of substring tests.
_HINT = re.compile("|".join(_HINTS))
# The words a name holds where _HINT or "byl" as a word (_BYL) is found in it.
_HINT_WORDS = (*_HINTS, "byl")
_BYL = re.compile(r"\bbyl\b")
# Where a byline's name ends: a separator, a number (a date, a count), or the words that follow names.
_NAME_END = re.compile(r"[|•·—–,;()\[\]@/\d]|\s-\s|\b(?:updated|published|posted|last|reviewed|edited|on|at|in|from|for|is|was|"
                       r"contributing|senior|staff\s+writers?|reporter|editor\s+at|read\s+more|follow)\b", re.IGNORECASE)
# Words of a page's interface, never of a name.
_NOT_NAMES = frozenset("share follow comments comment read reading min subscribe sign log login menu search view profile posts "
                       "all more email print tweet facebook twitter linkedin reply like home next previous about contact "
                       "clicking continuing using undefined null none category categories collection review reviews "
                       "account store visit hi human".split())
# The words that join two names, and the lower-case words a name may hold.
_AND = frozenset({"and", "&", "und", "et", "y", "e"})
_PARTICLES = _AND | frozenset({"de", "da", "di", "du", "del", "della", "der", "den", "van", "von", "la", "le", "bin", "al"})
# A name has at most this many words and characters ("Mary Ann de la Cruz Smith").
MAX_NAME_WORDS = 6
MAX_NAME = 60


def written_dates(text: str, lang: str = "") -> list[tuple[date, int, int]]:
    """The calendar dates ``text`` prints, with where each starts and ends, in text order.

    :param lang: the page's language (``<html lang>``), which says whether 03/04/2014 is
        March or April.
    """
    if not _YEAR_DIGITS.search(text) and "/" not in text:  # a year's four digits, or a short date's slashes: most texts hold neither
        return []
    found: list[tuple[date, int, int]] = []
    taken: list[tuple[int, int]] = []
    for pattern in _WRITTEN:
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e in taken):
                continue
            month = match.group("m")
            number = int(month) if month.isdigit() else _MONTHS.get(month.casefold().rstrip("."))
            day = _valid(int(match.group("y")), number, int(match.group("d")))
            if day is not None:
                found.append((day, match.start(), match.end()))
                taken.append((match.start(), match.end()))
    day_first = not lang.casefold().startswith("en") or lang.casefold().startswith(_DAY_FIRST_ENGLISH)
    century = date.today().year // 100 * 100
    for match in (*_SLASHED.finditer(text), *_SLASHED_SHORT.finditer(text)):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        a, b, year = int(match.group("a")), int(match.group("b")), int(match.group("y"))
        if year < 100:  # "13" is 2013, "98" 1998: the years FIRST_YEAR on
            year += century if century + year <= date.today().year + 1 else century - 100
        first_is_day = a > 12 or (day_first and b <= 12)
        day = _valid(year, b if first_is_day else a, a if first_is_day else b)
        if day is not None:
            found.append((day, match.start(), match.end()))
    return sorted(found, key=lambda f: f[1])


def _valid(year: int, month: int | None, day: int) -> date | None:
    if month is None or not FIRST_YEAR <= year <= date.today().year + 1:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def person_name(text: str, *, lower: bool = True) -> str | None:
    """The name a byline's text gives ("By Ana Lima | March 3, 2014" gives "Ana Lima"), or None
    when it reads as no name (too long, interface words, no letters).

    :param lower: accept a name that starts in lower case (a forum's user name); a byline found
        by its words alone ("By ...") must be capitalized ("By clicking you agree" is none).
    """
    text = BYLINE.sub("", " ".join(text.split()))
    end = _NAME_END.search(text)
    name = (text[: end.start()] if end else text).strip(" .:-'\"")
    words = name.split()
    while words and words[-1].casefold().rstrip(".") in _MONTHS:  # "Luke Kim December 17, 2025"
        words.pop()
    # Each name of several ("Tyler Marshall and Alissa J. Rubin") may be as long as one, when every
    # word is a name's (capitalized, or a particle): "Board Actions Open submenu LSC Code of Ethics and
    # Conduct" is a menu.
    names = 1 + sum(w.casefold() in _AND for w in words)
    if names > 1 and not all(w[0].isupper() or w.casefold() in _PARTICLES for w in words):
        names = 1
    if not words or len(words) > MAX_NAME_WORDS * names or len(name) > MAX_NAME * names or len(name) < 3:
        return None
    if len(words) == 1 and words[0].casefold().rstrip(".,") in WEEKDAYS:  # "Thu Apr 2, ..." on a byline's line
        return None
    if any(w.casefold() in _NOT_NAMES for w in words) or not all(any(c.isalpha() for c in w) for w in words):
        return None
    if not lower and not words[0][0].isupper():
        return None
    return " ".join(words)


class _Texts:
    """The body's text nodes in document order (:class:`forest._texts.BodyTexts`, in C), where each starts
    in them joined by spaces, and (read when first asked for) the body's elements with a name (class,
    id, itemprop...).  A text's element is made only when asked for (:meth:`owner`): the XPath this
    replaced made a string and an element for every text of the page, half a parse's time."""

    __slots__ = ("root", "texts", "starts", "_native", "_joined", "_years")

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self._native = BodyTexts(root)
        self.texts: list[str] = self._native.texts
        self.starts: Sequence[int] = self._native.starts
        self._joined: str | None = None
        self._years: list[tuple[int, int]] | None = None

    def owner(self, i: int) -> etree._Element:
        """The element text ``i`` is in (a tail's too: the element its element is in)."""
        return self._native.owner(i)

    def before(self, element: etree._Element) -> int:
        """How many of the texts are before ``element`` in document order."""
        return self._native.before(element)

    def inside(self, element: etree._Element) -> int:
        """How many text nodes ``element`` holds."""
        return self._native.inside(element)

    def first_text(self, element: etree._Element) -> int | None:
        """The index of the first text ``element`` holds, not counting tails before its first
        element's leading text (None: it holds none)."""
        return self._native.first_text(element)

    def named(self) -> list[str]:
        """The names (class, id, itemprop, rel, data-testid, lower-cased) of each element under the body with one,
        in document order; the element of the k-th is :meth:`named_element` (most are never made)."""
        return self._native.named()

    def name(self, k: int) -> str:
        """Name ``k`` of :meth:`named`, the list not made (a search reads the few names it finds)."""
        return self._native.name(k)

    def named_element(self, k: int) -> etree._Element:
        return self._native.named_element(k)

    def named_with(self, words: tuple[str, ...]) -> list[int]:
        """The indexes of the names that hold one of ``words``, in order: found in C in one pass over all the
        names joined (``names_joined``), not a pattern tried at every character of each name (a page may name
        thousands of elements, each with a dozen classes), nor a str.find of each word (twice the time)."""
        return self._native.named_with(words)

    def lines(self, shortest: int, longest: int, wanted: set[str]) -> list[int]:
        """The indexes of the texts from ``shortest`` to ``longest`` characters long (``longest`` not
        included) that may, their spaces joined and case-folded, be one of ``wanted``: by their length
        alone, in C (most of a page's texts are spaces between tags, or paragraphs)."""
        lengths = {len(w) for w in wanted}
        return self._native.lines(shortest, longest, bytes(n in lengths for n in range(max(lengths) + 1)))

    def digits(self, indexes: range) -> list[int]:
        """Those of ``indexes`` (a range of step 1) whose texts hold a digit (``_DIGIT``), found in C."""
        return self._native.digits(indexes.start, indexes.stop)

    def openings(self, indexes: range, *, inner: bool) -> list[int]:
        """Those of ``indexes`` (a range of step 1) :func:`_bylines` reads: the texts at most 4 * MAX_BYLINE long that
        may open with a byline's words (_BYLINE_STARTS, case-folded), or (``inner``) at most MAX_BYLINE
        long with a separator and "by" (_INNER_BY); found in C, for a test in Python of each text
        cost more than the rest of the search."""
        return self._native.openings(indexes.start, indexes.stop, 4 * MAX_BYLINE, _BYLINE_STARTS,
                                     MAX_BYLINE if inner else -1, _INNER_SEPARATORS)

    def joined(self) -> str:
        if self._joined is None:
            self._joined = " ".join(self.texts)
        return self._joined

    def copyrights(self) -> list[tuple[int, int]]:
        """Where the page's copyright notices are in its text, and the years they end with ("© 2005 The
        Associated Press", "© 2009-2026"), in text order."""
        if self._years is None:
            self._years = [(m.start(), int(m.group(1))) for m in _COPYRIGHT.finditer(self.joined())
                           if FIRST_YEAR <= int(m.group(1)) <= date.today().year]
        return self._years

    def around(self, start: int, end: int) -> range:
        """The indexes of the texts that may reach into ``start:end`` (texts this long at most: 4 * MAX_BYLINE)."""
        return range(max(0, bisect_left(self.starts, start - 4 * MAX_BYLINE)), bisect_right(self.starts, end))


@dataclass(frozen=True, slots=True)
class _Headline:
    """Where the headline is in the body's text (start and end offsets), and its element's ancestors by depth."""

    start: int
    end: int
    lineage: dict[etree._Element, int]  # the elements themselves: holding them keeps lxml's proxies, and so identity

    def distance(self, start: int, end: int) -> tuple[bool, int]:
        """Whether a text at ``start:end`` is before the headline, and how far from it."""
        if end <= self.start:
            return True, self.start - end
        return False, max(0, start - self.end)

    def shared(self, element: etree._Element) -> etree._Element:
        """The deepest container of ``element`` that holds the headline."""
        for a in (element, *element.iterancestors()):
            if a in self.lineage:
                return a
        return next(iter(self.lineage))

    def near(self, start: int, end: int) -> bool:
        before, distance = self.distance(start, end)
        return distance <= (BEFORE_HEADLINE if before else AFTER_HEADLINE)


class PageTexts:
    """A page's body texts, read when a search first asks for them and then shared: the printed date
    and author (:func:`printed_fields`) and the headline (forest.titles.headline_of) read the same
    texts, and reading them is a fifth of the printed fields' time.  Made for a tree as it is: a caller
    that changes the tree makes another."""

    __slots__ = ("root", "_texts")

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self._texts: _Texts | None = None

    def texts(self) -> _Texts:
        if self._texts is None:
            self._texts = _Texts(self.root)
        return self._texts

    @property
    def read(self) -> BodyTexts | None:
        """The native texts, where a search read them already (None: none did)."""
        return self._texts._native if self._texts is not None else None


def printed_fields(
    root: etree._Element, headlines: Iterable[str], *, date: bool = True, author: bool = True, beside_byline: bool = True,
    page: PageTexts | None = None,
) -> dict[str, str | None]:
    """:func:`visible_date` and :func:`visible_author` (those asked for), reading the page's text once.

    :param beside_byline: look for a date beside the byline where none is by the headline: finding
        the byline costs a search of the page's names and texts when the author is not asked for.
    :param page: the page's texts to read (and to share with the caller's other searches), for ``root``.
    """
    texts = page.texts() if page is not None else _Texts(root)
    return _printed(root, texts, headlines, date=date, author=author, beside_byline=beside_byline)


def _printed(root: etree._Element, texts: _Texts, headlines: Iterable[str], *, date: bool, author: bool,
             beside_byline: bool) -> dict[str, str | None]:
    headline = _headline(root, texts, headlines)
    byline = _Once(lambda: _byline(root, texts, headline))
    return {"date": _date(root, texts, headline, byline if beside_byline or author else _Once(lambda: None)) if date else None,
            "author": (found[1] if (found := byline()) else None) if author else None}


def visible_date(root: etree._Element, headlines: Iterable[str]) -> str | None:
    """The publication date a page prints beside its headline (``YYYY-MM-DD``); None when the
    headline is not found or no date is printed near it.

    The headline is found as :func:`_headline` says; on a page with no ``<h1>``, its first byline
    stands for it.  The date is one in a short text (a dateline or a byline, not a paragraph that
    mentions a date), or one opening a paragraph before a dash ("April 5, 2005 -- ..."), within
    BEFORE_HEADLINE characters before the headline or AFTER_HEADLINE after it: the one sharing the
    deepest container with the headline (the article's header, not the page's), then the nearest;
    an update's date only when no other is there, one whose year is inferred from a copyright
    notice (:func:`_yearless`) only when no dated one is.  Above the headline, a date in no
    container of the headline's but the page, or in one that holds the site's navigation, is a
    masthead's (today's).  With no date there (or no headline found), the date after "Posted on"
    or "Published" anywhere when the page prints one such day, else the first element named for a
    date that prints one, on a page with few such.
    """
    texts = _Texts(root)
    headline = _headline(root, texts, headlines)
    return _date(root, texts, headline, _Once(lambda: _byline(root, texts, headline)))


class _Once:
    """The page's byline (:func:`_byline`), found when first asked for: a date is looked for beside it
    only where none is by the headline, and the author may be known already."""

    __slots__ = ("_find", "_found", "_done")

    def __init__(self, find: Callable[[], tuple[int, str, etree._Element] | None]) -> None:
        self._find = find
        self._found: tuple[int, str, etree._Element] | None = None
        self._done = False

    def __call__(self) -> tuple[int, str, etree._Element] | None:
        if not self._done:
            self._found, self._done = self._find(), True
        return self._found


def _date(root: etree._Element, texts: _Texts, headline: _Headline | None, byline: _Once) -> str | None:
    unmarked = headline is None and next(root.iter("h1"), None) is None
    if unmarked:
        # No headline found on a page that marks none (no <h1>): its byline is where the article starts
        # ("By ANDY GELLER ... April 5, 2005 -- ").  A page with an <h1> that is not the title is
        # a product's, a listing's or a service's: a byline there is a card's.
        headline = _byline_anchor(texts)
    if headline is None:
        lang = root.get("lang") or ""
        # An update's line stands for the publication's on such a page only (BBC's 2007 pages print
        # "Last Updated: Tuesday, 4 December 2007" and no other date): a service's or a shop's pages,
        # which have an <h1>, print when they were last updated and no publication date.
        return _posted(texts, lang) or _dated_element(root, texts) or _beside_byline(texts, byline(), lang) or (
            (_posted(texts, lang, _UPDATED_WORDS, _UPDATED_STEMS) or _alone(texts, lang)) if unmarked else None)
    lang = root.get("lang") or ""
    best: tuple[tuple[bool, bool, int, int], date] | None = None
    inferred = 0  # texts with a date whose year is inferred
    for i in texts.digits(texts.around(headline.start - BEFORE_HEADLINE, headline.end + AFTER_HEADLINE)):
        text, at = texts.texts[i], texts.starts[i]
        if not headline.near(at, at + len(text)):
            continue
        yearless = False
        if len(text) > 4 * MAX_BYLINE or len(" ".join(text.split())) > MAX_BYLINE:
            dates = _dateline(text, lang)
        else:
            dates = written_dates(text, lang)
            if not dates and (dates := _yearless(text, at, texts)):
                yearless = True
                inferred += 1
        for day, s, e in dates:
            if not headline.near(at + s, at + e):
                continue
            before, distance = headline.distance(at + s, at + e)
            shared = headline.shared(texts.owner(i))
            if before and (shared.tag in ("body", "html") or next(shared.iter("nav"), None) is not None):
                continue
            updated = _UPDATED.search(texts.joined()[max(0, at + s - 40): at + s]) is not None
            # A date with its year printed before one whose year is inferred, wherever each is.
            rank = (updated, yearless, -headline.lineage[shared], distance)
            if best is None or rank < best[0]:
                best = (rank, day)
    if best is not None and best[0][1] and inferred > MAX_DATED_ELEMENTS:
        best = None  # a listing's stories' times ("7 March 12:46 PM EST - ..."), none the page's
    if best is None:
        return _posted(texts, lang) or _dated_element(root, texts) or _beside_byline(texts, byline(), lang)
    return best[1].isoformat()


def _alone(texts: _Texts, lang: str) -> str | None:
    """The day the page's timestamps printed alone state ("Monday, 31 December 2007, 10:46 GMT", "06.01.2008
    01:07": a date and a time of day, with at most a weekday and a zone), where they all state one: an
    old news page's dateline, on a page that marks no headline nor byline.  A date without its time is
    as often a masthead's today ("27 December 2006" atop a 2002 BBC page) or a link's; two such days (a
    story's and a list of stories') say none is the article's."""
    days = set()
    for i in _timed(texts):
        text = texts.texts[i]
        if len(text) > 4 * _DATE_CHARS or len(line := " ".join(text.split())) > 2 * _DATE_CHARS:
            continue
        found = written_dates(line, lang)
        if len(found) != 1:
            continue
        day, start, end = found[0]
        rest = f"{line[:start]} {line[end:]}"
        if _ALONE_REST.fullmatch(rest) is None or _TIME_OF_DAY.search(rest) is None:
            continue
        days.add(day)
        if len(days) > 1:
            return None
    return days.pop().isoformat() if days else None


def _timed(texts: _Texts) -> list[int]:
    """The indexes of the texts that may print a time of day ("10:46", "1530 hrs"), in order: found by
    str.find of a colon and of "rs" in the page's text (which _posted joined), where a pattern's scan
    of it, or a test of every text with a digit, cost twice as much or more."""
    joined, starts = texts.joined(), texts.starts
    found = set()
    for mark in (":", "rs"):  # "hrs" and "Hrs" hold "rs"
        at = joined.find(mark)
        while at > 0:
            if joined[at - 1].isdigit() or (mark == "rs" and joined[max(0, at - 5): at - 1].rstrip()[-1:].isdigit()):
                found.add(bisect_right(starts, at) - 1)
            at = joined.find(mark, at + 1)
    return sorted(found)


def _beside_byline(texts: _Texts, byline: tuple[int, str, etree._Element] | None, lang: str) -> str | None:
    """The date a short text prints right after the page's byline ("Written by Ana Lima / April 8, 2024",
    "Luke Kim December 17, 2025"), within AFTER_BYLINE characters of its start: a byline far below
    the headline (a standfirst, a hero image between) or with no headline found dates its article.
    A customer's review, a testimonial's card or a comment dates itself, not the page (a product's)."""
    if byline is None or any(_FEEDBACK.search(f"{a.get('class') or ''} {a.get('id') or ''}".casefold())
                             for a in (byline[2], *byline[2].iterancestors())):
        return None
    at = byline[0]
    end = at + AFTER_BYLINE
    for i in range(max(0, bisect_right(texts.starts, at) - 1), len(texts.texts)):
        start = texts.starts[i]
        if start > end:
            break
        text = texts.texts[i]
        if not _DIGIT.search(text) or len(" ".join(text.split())) > MAX_BYLINE:
            continue
        for day, s, _ in written_dates(text, lang):
            if at <= start + s <= end:
                return day.isoformat()
    return None


# An age printed in place of a date ("2 minutes ago", "1 hour, 19 minutes ago", "3 days ago", "6 hrs ago"):
# a news page of the 2000s printed that under its headline, relative to when it was served.
_AGE = re.compile(r"(?:\b(?:\d+|an?|one)\s+(?:days?|hours?|hrs?|minutes?|mins?)\b[\s,]*(?:and\s+)?)+ago\b", re.IGNORECASE)
_AGE_PART = re.compile(r"(\d+|an?|one)\s+([dhm])", re.IGNORECASE)
_AGE_UNITS = {"d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}


def printed_age(root: etree._Element, headlines: Iterable[str], *, page: PageTexts | None = None) -> timedelta | None:
    """How long before the page was served its article was published, where the page prints that by its
    headline in place of a date ("By DOUG SIMPSON, Associated Press Writer / 2 minutes ago"): the age in a
    short text near the headline (as :func:`visible_date` reads a date there), the one sharing the
    deepest container with it, then the nearest; else near the page's first byline (a page read from
    a wrapper's span may hold its title only in a related story's link).  None where none is printed
    there.  The caller knows when the page was served (an archived copy records it: forest.fields)."""
    texts = page.texts() if page is not None else _Texts(root)
    headline = _headline(root, texts, headlines)
    age = _age_near(texts, headline) if headline is not None else None
    if age is None and (byline := _byline_anchor(texts)) is not None:
        age = _age_near(texts, byline)
    return age


def _age_near(texts: _Texts, headline: _Headline) -> timedelta | None:
    best: tuple[tuple[int, int], timedelta] | None = None
    for i in texts.around(headline.start - BEFORE_HEADLINE, headline.end + AFTER_HEADLINE):
        text = texts.texts[i]
        if "ago" not in text.casefold() or len(" ".join(text.split())) > MAX_BYLINE:
            continue
        at = texts.starts[i]
        match = _AGE.search(text)
        if match is None or not headline.near(at + match.start(), at + match.end()):
            continue
        age = sum((_AGE_UNITS[unit.casefold()] * (int(n) if n.isdigit() else 1)
                   for n, unit in _AGE_PART.findall(match.group(0))), timedelta())
        rank = (-headline.lineage[headline.shared(texts.owner(i))], headline.distance(at + match.start(), at + match.end())[1])
        if best is None or rank < best[0]:
            best = (rank, age)
    return best[1] if best is not None else None


def _dateline(text: str, lang: str) -> list[tuple[date, int, int]]:
    """The date opening a long ``text`` and followed by a dash or a colon (a dateline), or none."""
    stripped = text.lstrip()
    lead = len(text) - len(stripped)
    found = written_dates(stripped[:_DATE_CHARS], lang)
    if found and found[0][1] == 0 and _DATELINE_END.match(stripped, found[0][2]):
        return [(found[0][0], lead, lead + found[0][2])]
    return []


def _yearless(text: str, at: int, texts: _Texts) -> list[tuple[date, int, int]]:
    """A date ``text`` (at ``at`` in the page's text) prints with a time and no year: with its weekday, in
    the latest copyright year whose calendar has that weekday; without, in the year of the first copyright
    notice after it (a story's own, "© 2005 The Associated Press", before the site's footer)."""
    # The time of day every such date prints ("March 7 12:46") has a colon: most texts have none.
    match = _YEARLESS.search(text) if ":" in text else None
    if match is None:
        return []
    month = _MONTHS.get((match.group("m") or match.group("m2")).casefold().rstrip("."))
    number = int(match.group("d") or match.group("d2"))
    notices = texts.copyrights()
    if match.group("w") is None:
        year = next((year for where, year in notices if where > at + match.end()), None)
        day = _valid(year, month, number) if year is not None else None
        return [(day, match.start(), match.end())] if day is not None else []
    weekday = WEEKDAYS[match.group("w").casefold()]
    for year in sorted({year for _, year in notices}, reverse=True):
        day = _valid(year, month, number)
        if day is not None and day.weekday() == weekday:
            return [(day, match.start(), match.end())]
    return []


def _posted(texts: _Texts, lang: str, words: re.Pattern[str] = _POSTED_WORDS, stems: tuple[str, ...] = _POSTED_STEMS) -> str | None:
    """The date printed after words that say it is the publication's ("Posted on", "Published:"),
    anywhere in the page, where all such say one day (a listing's or a thread's many say none)."""
    joined = texts.joined()
    days = set()
    # The stems found in C in one pass over the page's text (not a pattern tried at each of its
    # characters, nor a str.find of each stem: a pass each).  A stem the text opens with has no word's
    # first letter before it: that stem is not read there, nor after (as each stem's str.find loop read).
    stems = tuple(stem for stem in stems if not joined.startswith(stem))
    for at in occurrences(joined, stems) if stems else ():
        match = words.match(joined, at - 1)
        if match is not None:
            after = joined[match.end(): match.end() + _DATE_CHARS + 24]
            start = 0
            for lead in (_CLOCK_FIRST, _WEEKDAY_FIRST, _CLOCK_FIRST):  # a time and a weekday, in either order
                start = opened.end() if (opened := lead.match(after, start)) else start
            found = written_dates(after[start: start + _DATE_CHARS], lang)
            if found and found[0][1] == 0:
                days.add(found[0][0])
    return days.pop().isoformat() if len(days) == 1 else None


def _byline_anchor(texts: _Texts) -> _Headline | None:
    """The first byline of the page ("By Ana Lima") as where its article starts, for a page whose headline is not found."""
    found = _bylines(texts, range(len(texts.texts)))
    if not found:
        return None
    at, _, element = found[0]
    index = bisect_right(texts.starts, at) - 1
    return _Headline(at, at + len(texts.texts[index]), _lineage(element))


# Names of the elements that print an article's date ("post-date", "entry-meta", "published"), and of
# a blog theme's footer under its post ("post-footer": "August 9th, 2012 | Category: Recipes").
_DATE_HINTS = ("date", "time", "publish", "posted", "byline", "meta", "post-footer", "entry-footer")
_DATE_HINT = re.compile("|".join(_DATE_HINTS))
# A page whose date-named elements print more different dates than this is a listing, or has a
# related-stories box: its first date is no more the article's than any other.  Without this
# limit wcxb_dev gave dates on 6 more pages without one and none more right; re-measure with
# `python -m eval.fields --dataset wcxb_dev --system cold` (date right, and "found, no gold").
MAX_DATED_ELEMENTS = 3


def _dated_element(root: etree._Element, texts: _Texts) -> str | None:
    """The date of the first element named for one (``class="post-date"``) that prints one, where the
    page has few such dates (a listing's or a related-stories box's many are no article's)."""
    lang = root.get("lang") or ""
    days: list[date] = []
    for k in texts.named_with(_DATE_HINTS):
        hint = texts.name(k)
        if not _DATE_HINT.search(hint) or "comment" in hint:
            continue
        text = _text(texts.named_element(k))
        if not _DIGIT.search(text) or len(text) > MAX_BYLINE:
            continue
        found = {day for day, _, _ in written_dates(text, lang)}
        if len(found) == 1:
            days.append(found.pop())
    if not days or len(set(days)) > MAX_DATED_ELEMENTS:
        return None
    return days[0].isoformat()


def visible_author(root: etree._Element, headlines: Iterable[str]) -> str | None:
    """The author a page prints: a byline ("By Ana Lima") or an element named for one
    (``class="author-name"``, ``byline``, ``writer``...), not a comment's.

    Near the headline first (as :func:`visible_date`: sharing the deepest container with it, then
    the nearest); else the first in the page.
    """
    texts = _Texts(root)
    return _author(root, texts, _headline(root, texts, headlines))


def _author(root: etree._Element, texts: _Texts, headline: _Headline | None) -> str | None:
    found = _byline(root, texts, headline)
    return found[1] if found is not None else None


def _byline(root: etree._Element, texts: _Texts, headline: _Headline | None) -> tuple[int, str, etree._Element] | None:
    """The byline :func:`visible_author` reads: where it starts in the page's text, the name, its element."""
    # A byline known by its words alone ("By ...") is looked for by the headline first: a page with
    # no author named there is then read whole (a test of each of its texts costs a millisecond).
    window = (texts.around(headline.start - BEFORE_HEADLINE, headline.end + AFTER_HEADLINE) if headline is not None
              else range(len(texts.texts)))
    candidates = _bylines(texts, window, inner=headline is not None)
    for k in texts.named_with(_HINT_WORDS):
        hint = texts.name(k)
        if not (_HINT.search(hint) or ("byl" in hint and _BYL.search(hint))):
            continue
        element = texts.named_element(k)
        if element.tag not in _BYLINE_TAGS or _NOT_BYLINE.search(_HINT.sub("", hint)):
            continue
        if any("comment" in (a.get("class") or a.get("id") or "").casefold() for a in element.iterancestors()):
            continue
        # Its texts apart: a name and a date in elements of their own ("<p>Luke Kim</p><small>December
        # 17, 2025</small>") joined read "Luke KimDecember".
        text = " ".join(" ".join(element.itertext()).split())
        if not text:
            continue
        name: str | None
        if element.tag == "ul":  # a list of the authors, one in each item (JSON-LD's are joined so too)
            name = ", ".join(n for li in element.iterchildren("li") if (n := person_name(_text(li))))
        else:
            name = person_name(text) if len(text) <= MAX_BYLINE else None
            name = name or person_name(next(t for t in element.itertext() if t.strip()))
        if name:
            index = texts.first_text(element)
            candidates.append((texts.starts[index] if index is not None else 0, name, element))
    if not candidates and len(window) < len(texts.texts):
        candidates = _bylines(texts, range(len(texts.texts)))
    if not candidates:
        return None
    if headline is not None:
        near = [((-headline.lineage[headline.shared(element)], headline.distance(at, at + len(name))[1]), name, k)
                for k, (at, name, element) in enumerate(candidates) if headline.near(at, at + len(name))]
        if near:
            return candidates[min(near)[2]]
    return min(candidates, key=lambda c: c[0])


def _bylines(texts: _Texts, indexes: range, *, inner: bool = False) -> list[tuple[int, str, etree._Element]]:
    """``(offset, name, element)`` of the texts among ``indexes`` that open with a byline's words and a name,
    or (``inner``: by the headline, where a dateline is) print one after a date and a separator ("..., by Ana Lima")."""
    found = []
    for i in texts.openings(indexes, inner=inner):
        text = texts.texts[i]
        if len(text) > 4 * MAX_BYLINE:
            continue
        if not text.lstrip()[:8].casefold().startswith(_BYLINE_STARTS) or not BYLINE.match(text):
            # A dateline's "by" after the date ("12/28/2005 3:33:49 PM, by Anders Bylund").
            by = _INNER_BY.search(text) if inner and len(text) <= MAX_BYLINE else None
            # After a date or a time only: "A Career Guide for Actuaries, by Tom Miller" cites a book.
            dated = by is not None and (_CLOCK.search(text, 0, by.start()) or written_dates(text[: by.start()]))
            name = person_name(" ".join(text[by.end():].split()), lower=False) if by and dated else None
            if by is not None and name is not None:
                found.append((texts.starts[i] + by.end(), name, texts.owner(i)))
            continue
        line = " ".join(text.split())
        if len(line) > MAX_BYLINE:
            continue
        following = next((" ".join(t.split()) for t in texts.texts[i + 1: i + 3] if t.strip()), "")
        name = person_name(BYLINE.sub("", line) or following, lower=False)
        if name:
            found.append((texts.starts[i], name, texts.owner(i)))
    return found


def _headline(root: etree._Element, texts: _Texts, headlines: Iterable[str]) -> _Headline | None:
    """The headline: the first ``<h1>`` whose text is one of ``headlines`` (the page's title, its
    parts), else the first text of the page that is one, else an ``<h1>`` the title holds with
    words around it ("Garnix Blog: Hardware-Attested Nix Builds"), else the page's only ``<h1>``."""
    wanted = {" ".join(h.split()).casefold() for h in headlines if h and _THREE_ALNUM.search(h)}
    h1s = [(h, _text(h).casefold()) for h in root.iter("h1")]
    h1s = [(h, text) for h, text in h1s if text]
    if not wanted:
        # A page with no title at all (a copy saved without its head, a template's slip): its only <h1>
        # is its headline, as where the title names none of them.
        return _headline_at(texts, h1s[0][0]) if len(h1s) == 1 else None
    # The longest of the title's parts the page states: its headline, not the site's name the
    # title also holds ("Frank Bruni Found ... -- Daily Intelligencer" on a page that prints both).
    stated = [(len(text), 1, k, h) for k, (h, text) in enumerate(h1s) if text in wanted]
    # A text shorter than every part, spaces and all, states none; nor, where an <h1> states one, a text
    # no longer than that <h1>'s (the <h1> is preferred): most of the page's texts are not read.
    shortest = max((s[0] + 1 for s in stated), default=min(len(w) for w in wanted))
    stated += [(len(line), 0, k, None) for k in texts.lines(shortest, 4 * MAX_BYLINE, wanted)
               if shortest <= len(text := texts.texts[k]) < 4 * MAX_BYLINE and (line := " ".join(text.split()).casefold()) in wanted]
    chosen = None
    if stated:
        _, is_h1, k, found = max(stated, key=lambda s: (s[0], s[1], -s[2]))
        if not is_h1:
            at = texts.starts[k]
            return _Headline(at, at + len(texts.texts[k]), _lineage(texts.owner(k)))
        chosen = found
    if chosen is None:
        chosen = next((h for h, text in h1s if len(text.split()) >= 2 and any(text in w for w in wanted)), None)
        if chosen is None and len(h1s) == 1:
            chosen = h1s[0][0]
    if chosen is None:
        return None
    return _headline_at(texts, chosen)


def _headline_at(texts: _Texts, chosen: etree._Element) -> _Headline | None:
    """The headline printed by the element ``chosen`` (None: it prints no text of the body's)."""
    first, count = texts.before(chosen), texts.inside(chosen)
    if not count or first + count > len(texts.texts):
        return None
    last = first + count - 1
    return _Headline(texts.starts[first], texts.starts[last] + len(texts.texts[last]), _lineage(chosen))


def _lineage(element: etree._Element) -> dict[etree._Element, int]:
    return {a: depth for depth, a in enumerate(reversed([element, *element.iterancestors()]))}


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())
