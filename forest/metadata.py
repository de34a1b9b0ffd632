"""What a page states about its article without a feed: JSON-LD, microdata, meta tags and ``<time>``; dates in ISO 8601.

Small code rather than a library: htmldate (trafilatura's) guesses dates from URLs and
free text as well, and extruct parses every syntax into a generic graph; forest reads
only the page's explicit statements, in a fixed order, and leaves guessing to no one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from typing import Any

from lxml import etree

from forest.limits import loads_json

# Searched in the page's bytes (parsing removes <script>; no decoding of the whole page just to find one).
_JSON_LD = re.compile(
    rb"""<script[^>]*type\s*=\s*["']?application/ld\+json["']?[^>]*>(.*?)</script\s*>""", re.IGNORECASE | re.DOTALL
)
# JSON-LD types whose headline, author and date are the article's (schema.org's Article and
# its subtypes); a WebPage's or an Organization's name is not the article's title.
_ARTICLE_TYPE = re.compile(r"(Article|BlogPosting|Posting|Report|NewsArticle|LiveBlogPosting)$")
# The places microdata, <time> and rel=author state a date or an author, tried in this order
# (the page's own statement of the publication date first, any <time> last); each place's first
# element in the page is the one read.  Found in one walk of the tree in Python, where an XPath
# per place walked the whole tree six times.
_DATE_PLACES = ("datePublished", "dateCreated", "pubdate", "datetime")
_AUTHOR_PLACES = ("author", "rel")
# Longer than this, an "author" element is a bio box, not a name.
MAX_AUTHOR = 100
_ITEMPROP_NAME = etree.XPath(".//*[@itemprop='name']")

# Dates a page may print; the feed's date is compared by calendar day.
_DATE_FORMATS = (
    "%Y-%m-%d", "%d %B %Y", "%d %b %Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%b %d %Y",
    "%d.%m.%Y", "%Y/%m/%d", "%A, %d %B %Y", "%A, %B %d, %Y", "%a, %d %b %Y",
)
_ORDINAL = re.compile(r"(\d)(st|nd|rd|th)\b", re.IGNORECASE)
_DIGIT = re.compile(r"\d")
# A time zone written as a name after a timestamp ("2024-04-16 09:15 EST"): the names US and
# European pages use, at their standard offsets.
_ZONES = {"UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6,
          "PST": -8, "PDT": -7, "CET": 1, "CEST": 2, "BST": 1, "EET": 2, "EEST": 3}
_ZONE_NAME = re.compile(r"\s*\b([A-Z]{1,4})$")
_OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})$")


def normalize_date(value: str) -> str:
    """An ISO 8601 form of a date or timestamp: ``YYYY-MM-DD``, or a timestamp with the UTC offset the
    page states (a zone name read as its offset), or the text itself when it is not a date it can
    read ('' stays '').

    The offset is kept, not converted to UTC: the calendar day is then the one the page prints
    ("2025-12-18T19:30:00-05:00" is December 18th where it was published, the 19th in UTC).
    """
    value = " ".join(value.split())
    if not value:
        return ""
    parsed = parse_date(value)
    if parsed is None:
        return value
    return parsed.isoformat()


def parse_date(value: str) -> date | datetime | None:
    """A date or timestamp from ISO 8601, RFC 2822, a zone-named timestamp or a written date; None if none."""
    text = value.strip()
    if not _DIGIT.search(text):  # every form below has one; learning tries every short text of a page
        return None
    iso = text[:-1] + "+00:00" if text.endswith(("Z", "z")) else text
    try:
        if len(iso) == 10:
            return date.fromisoformat(iso)
        return datetime.fromisoformat(iso)
    except ValueError:
        pass
    named = _ZONE_NAME.search(text)
    if named and named.group(1) in _ZONES:
        base = parse_date(text[: named.start()])
        if isinstance(base, datetime) and base.tzinfo is None:
            return base.replace(tzinfo=timezone(timedelta(hours=_ZONES[named.group(1)])))
    cleaned = _ORDINAL.sub(r"\1", text)
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).date()
        except ValueError:
            continue
    try:
        return parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        pass
    # A short text that holds one written date among other words ("Posted on Sat 11 February 2017",
    # "8:43 AM, April 19, 2013"): a byline's, read as its day.
    if len(text) <= MAX_DATED_TEXT:
        found = [day for day, _, _ in written_dates(text)]
        if len(set(found)) == 1:
            return found[0]
    return None


def json_ld_fields(html: str | bytes) -> dict[str, str]:
    """Title (``headline``), author and date (``datePublished``) from a page's JSON-LD, where present.

    Objects of an article type (``Article``, ``NewsArticle``, ``BlogPosting``...) are read
    first, anywhere in the page's scripts, lists and ``@graph``; then any object with a
    headline or a publication date.  Broken JSON is skipped: sites ship trailing commas
    and raw newlines in strings.
    """
    found: dict[str, str] = {}
    # Most pages have none: a substring test spares encoding and scanning the whole page.
    if (b"ld+json" not in html) if isinstance(html, bytes) else ("ld+json" not in html):
        return found
    data_bytes = html.encode("utf-8", errors="replace") if isinstance(html, str) else html
    nodes: list[Mapping[str, object]] = []
    for match in _JSON_LD.finditer(data_bytes):
        try:
            # Bounded depth: a page's JSON-LD nested 100,000 deep raised RecursionError (issue 15, case 4).
            data = loads_json(match.group(1).strip().decode("utf-8", errors="replace"), strict=False)
        except ValueError:
            continue
        nodes.extend(_json_nodes(data))
    for node in sorted(nodes, key=lambda n: not _is_article(n)):  # stable: page order within each kind
        if not (_is_article(node) or "datePublished" in node or "headline" in node):
            continue
        title = node.get("headline") or node.get("name")
        author = _json_author(node.get("author"))
        published = normalize_date(str(node.get("datePublished") or node.get("dateCreated") or ""))
        for name, value in (("title", title), ("author", author), ("date", published)):
            if isinstance(value, str) and value.strip() and name not in found:
                found[name] = " ".join(value.split())
    return found


def microdata_fields(root: etree._Element) -> dict[str, str]:
    """Author and date from microdata (``itemprop``), ``rel=author`` and ``<time datetime>``, where present."""
    first = _places(root)
    found: dict[str, str] = {}
    for dated in (first[place] for place in _DATE_PLACES if place in first):
        stamp = " ".join((dated.get("datetime") or dated.get("content") or _text(dated)).split())
        if stamp and parse_date(stamp) is not None:
            found["date"] = normalize_date(stamp)
            break
    for credited in (first[place] for place in _AUTHOR_PLACES if place in first):
        names = [_text(e) for e in _ITEMPROP_NAME(credited)]
        author = " ".join((credited.get("content") or next((n for n in names if n), "") or _text(credited)).split())
        if author and not is_url(author) and len(author) <= MAX_AUTHOR:
            found["author"] = author
            break
    return found


def _places(root: etree._Element) -> dict[str, etree._Element]:
    """The first element of each place of _DATE_PLACES and _AUTHOR_PLACES (``itemprop`` anywhere;
    ``<time pubdate>`` anywhere; ``<time datetime>`` and ``rel=author`` in the body)."""
    first: dict[str, etree._Element] = {}
    body = root.find("body")
    for element in root.iter(etree.Element):
        get = element.get
        itemprop, rel, tag = get("itemprop"), get("rel"), element.tag
        if itemprop is None and rel is None and tag != "time":
            continue
        if itemprop in ("datePublished", "dateCreated", "author"):
            first.setdefault(itemprop, element)
        in_body = body is not None and any(a is body for a in element.iterancestors())
        if rel == "author" and in_body:
            first.setdefault("rel", element)
        if tag == "time":
            if get("pubdate") is not None:
                first.setdefault("pubdate", element)
            if get("datetime") is not None and in_body:
                first.setdefault("datetime", element)
    return first


def is_url(value: str) -> bool:
    return value.startswith(("http://", "https://", "//"))


def _text(element: etree._Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _is_article(node: Mapping[str, object]) -> bool:
    kind = node.get("@type")
    kinds = kind if isinstance(kind, list) else [kind]
    return any(isinstance(k, str) and _ARTICLE_TYPE.search(k) is not None for k in kinds)


def _json_nodes(data: object) -> Iterator[Mapping[str, object]]:
    """Every object in a JSON-LD document, through lists and ``@graph`` (bounded depth), in document order."""
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > 4:
            continue
        if isinstance(node, list):
            stack.extend((n, depth + 1) for n in reversed(node))
        elif isinstance(node, dict):
            yield node
            if "@graph" in node:
                stack.append((node["@graph"], depth + 1))


def _json_author(value: object) -> str | None:
    names: list[str] = []
    for item in value if isinstance(value, list) else [value]:
        if isinstance(item, str) and not is_url(item):
            names.append(item)
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            names.append(str(item["name"]))
    return ", ".join(n.strip() for n in names if n.strip()) or None


# --- dates a page prints -------------------------------------------------------------------

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
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
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
)
# 12/28/2005 or 28/12/2005: month first on American English pages, else day first (unless a number over 12 says).
_SLASHED = re.compile(r"\b(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y>\d{4})\b")
_DAY_FIRST_ENGLISH = ("en-gb", "en-au", "en-nz", "en-ie", "en-in", "en-za")
# Years a publication date can have: the web's, to next year (a page stamped ahead of a reader's clock).
FIRST_YEAR = 1991
# A text longer than this is a paragraph that mentions a date, not a dateline or a byline.
MAX_DATED_TEXT = 120
# The window around the headline a printed date is looked for in, in characters of the page's
# text before the headline's start and after its end: a dateline above the headline ("Page last
# updated at 02:18 GMT, Tuesday, 10 March 2009 ... Headline"), a byline below it ("Headline /
# Sat 11 February 2017 / By ..."); wider, a related story's or a comment's date is met.
# Re-measure with `python -m eval.fields --split dev` (date right on wcxb_dev, date found on big9).
DATE_BEFORE = 300
DATE_AFTER = 800
# A date said to be an update's ("Updated", "Last modified") is the publication date only when no other is near.
_UPDATED = re.compile(r"(updated?|modified|aktualisiert|mis à jour|mise à jour|actualizado|aggiornato)\W*(\w+\W+){0,3}$",
                      re.IGNORECASE)
_BODY_TEXTS = etree.XPath("//body//text()")


def written_dates(text: str, lang: str = "") -> list[tuple[date, int, int]]:
    """The calendar dates ``text`` prints, with where each starts and ends, in text order.

    :param lang: the page's language (``<html lang>``), which says whether 03/04/2014 is
        March or April.
    """
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
    for match in _SLASHED.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        a, b = int(match.group("a")), int(match.group("b"))
        first_is_day = a > 12 or (day_first and b <= 12)
        day = _valid(int(match.group("y")), b if first_is_day else a, a if first_is_day else b)
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


def visible_date(root: etree._Element, headlines: Iterable[str]) -> str | None:
    """The publication date a page prints beside its headline (``YYYY-MM-DD``), for pages that state none
    a machine reads; None when the headline is not found or no date is printed near it.

    The headline is the first ``<h1>`` whose text is one of ``headlines`` (the page's title, its
    parts), else the first text of the page that is one, else an ``<h1>`` the title holds, else the
    page's only ``<h1>``.  The date is one in a short text (a dateline or a byline, not a paragraph
    that mentions a date) within DATE_BEFORE characters before the headline or DATE_AFTER after it:
    the one sharing the deepest container with the headline (the article's header, not the page's),
    then the nearest; an update's date only when no other is there.  The first date of the page is
    not the article's: a masthead prints today's, an archive's banner its capture dates, a footer
    its copyright, a sidebar its related stories'.
    """
    wanted = {" ".join(h.split()).casefold() for h in headlines if h and sum(c.isalnum() for c in h) >= 3}
    if root.find("body") is None or not wanted:
        return None
    nodes = _BODY_TEXTS(root)
    texts = [str(t) for t in nodes]
    starts: list[int] = []
    offset = 0
    for text in texts:
        starts.append(offset)
        offset += len(text) + 1
    anchor = _headline_span(root, nodes, texts, starts, wanted)
    if anchor is None:
        return None
    start, end, headline = anchor
    # Keyed by the elements themselves: holding them keeps lxml's proxies (and so their identity) alive.
    lineage = {a: depth for depth, a in enumerate(reversed([headline, *headline.iterancestors()]))}
    joined = " ".join(texts)
    lang = root.get("lang") or ""
    best: tuple[tuple[bool, int, int], date] | None = None
    for node, text, at in zip(nodes, texts, starts):
        if at + len(text) < start - DATE_BEFORE or at > end + DATE_AFTER:
            continue
        if len(" ".join(text.split())) > MAX_DATED_TEXT or not _DIGIT.search(text):
            continue
        for day, s, e in written_dates(text, lang):
            if at + e <= start:
                distance, limit = start - (at + e), DATE_BEFORE
            else:
                distance, limit = max(0, at + s - end), DATE_AFTER
            if distance > limit:
                continue
            shared = _shared(_owner(node), lineage)
            # Above the headline, a dateline shares the article's header with it; a masthead's date
            # (today's) shares only the page, or a part that holds the site's navigation.
            if at + e <= start and (shared.tag in ("body", "html") or next(shared.iter("nav"), None) is not None):
                continue
            updated = _UPDATED.search(joined[max(0, at + s - 40): at + s]) is not None
            rank = (updated, -lineage[shared], distance)
            if best is None or rank < best[0]:
                best = (rank, day)
    return best[1].isoformat() if best else None


def _owner(node: Any) -> etree._Element:
    """The element a text node (an lxml smart string) is text of."""
    parent = node.getparent()
    return parent.getparent() if node.is_tail and parent.getparent() is not None else parent


def _shared(element: etree._Element, lineage: dict[etree._Element, int]) -> etree._Element:
    """The deepest ancestor-or-self of ``element`` in ``lineage`` (the headline's ancestors, by depth)."""
    for a in (element, *element.iterancestors()):
        if a in lineage:
            return a
    return next(iter(lineage))


def _headline_span(
    root: etree._Element, nodes: list[Any], texts: list[str], starts: list[int], wanted: set[str]
) -> tuple[int, int, etree._Element] | None:
    """Where the headline is in the body's texts joined by spaces (its start and end offsets), and its element."""
    h1s = [(h, _text(h).casefold()) for h in root.iter("h1")]
    h1s = [(h, text) for h, text in h1s if text]
    chosen = next((h for h, text in h1s if text in wanted), None)
    if chosen is None:
        for node, text, at in zip(nodes, texts, starts):
            if " ".join(text.split()).casefold() in wanted:
                return at, at + len(text), _owner(node)
        # A headline the title holds with words around it ("Garnix Blog: Hardware-Attested Nix
        # Builds"); else the page's only <h1>.
        chosen = next((h for h, text in h1s if len(text.split()) >= 2 and any(text in w for w in wanted)), None)
        if chosen is None and len(h1s) == 1:
            chosen = h1s[0][0]
    if chosen is None:
        return None
    inside = [i for i, node in enumerate(nodes) if _within(node, chosen)]
    if not inside:
        return None
    return starts[inside[0]], starts[inside[-1]] + len(texts[inside[-1]]), chosen
def _within(node: Any, element: etree._Element) -> bool:
    """Whether a text node (an lxml smart string) is text of ``element``."""
    owner = node.getparent()
    if owner is element:
        return not node.is_tail
    return owner is not None and any(a is element for a in owner.iterancestors())
