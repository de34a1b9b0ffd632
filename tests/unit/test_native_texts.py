"""The body's native text list (forest._texts.BodyTexts, read by forest.bylines) against its reference, the
XPath ``//body//text()`` and lxml's smart strings it replaced (:class:`ReferenceTexts`): equal texts, owners,
first texts and counts, and equal printed dates and authors (forest.bylines.printed_fields) over hand-made
and generated pages and a fixed sample of every shared dataset's pages (``-m bench``: all of them).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html

from dataset_pages import dataset_pages, skip_without_datasets
from forest import bylines
from forest._texts import BodyTexts, head_metas, occurrences
from forest.errors import ParseError
from forest.fields import headlines
from forest.html import _head_first, parse_html

_BODY_TEXTS = etree.XPath("//body//text()")
_BEFORE = etree.XPath("count(preceding::text()[ancestor::body])")
_INSIDE = etree.XPath("count(.//text())")
_NAMED = etree.XPath("//body//*[@class or @id or @itemprop or @rel or @data-testid]")


class ReferenceTexts(bylines._Texts):
    """forest.bylines' texts as the XPath and lxml's smart strings read them: the reference of the native list."""

    __slots__ = ("nodes", "_first", "_named", "_elements")

    def __init__(self, root: etree._Element) -> None:  # the native list is not made
        self.root = root
        self.nodes: list[Any] = _BODY_TEXTS(root)
        self.texts = list(self.nodes)
        starts = [0]
        for text in self.texts:
            starts.append(starts[-1] + len(text) + 1)
        self.starts = starts[:-1]
        self._joined = self._years = None
        self._first: dict[etree._Element, int] | None = None
        self._named: list[str] | None = None
        self._elements: list[etree._Element] = []

    def owner(self, i: int) -> etree._Element:
        node = self.nodes[i]
        parent = node.getparent()
        return parent.getparent() if node.is_tail and parent.getparent() is not None else parent

    def before(self, element: etree._Element) -> int:
        return int(_BEFORE(element))

    def inside(self, element: etree._Element) -> int:
        return int(_INSIDE(element))

    def first_text(self, element: etree._Element) -> int | None:
        if self._first is None:
            self._first = {}
            for i, node in enumerate(self.nodes):
                if not node.is_tail:
                    self._first.setdefault(node.getparent(), i)
        return next((self._first[e] for e in element.iter(etree.Element) if e in self._first), None)

    def named(self) -> list[str]:
        if self._named is None:
            self._elements = _NAMED(self.root)
            self._named = [" ".join(filter(None, (e.get("class"), e.get("id"), e.get("itemprop"), e.get("rel"), e.get("data-testid"))))
                           .casefold() for e in self._elements]
        return self._named

    def name(self, k: int) -> str:
        return self.named()[k]

    def named_element(self, k: int) -> etree._Element:
        self.named()
        return self._elements[k]

    def named_with(self, words: tuple[str, ...]) -> list[int]:
        return [k for k, name in enumerate(self.named()) if any(word in name for word in words)]

    def lines(self, shortest: int, longest: int, wanted: set[str]) -> list[int]:
        return [k for k, text in enumerate(self.texts) if shortest <= len(text) < longest]

    def digits(self, indexes: range) -> list[int]:
        return [i for i in indexes if bylines._DIGIT.search(self.texts[i])]

    def openings(self, indexes: range, *, inner: bool) -> list[int]:
        return list(indexes)


def reference_printed(root: etree._Element, titles: list[str], **flags: bool) -> dict[str, str | None]:
    """printed_fields over the reference's texts."""
    return bylines._printed(root, ReferenceTexts(root), titles, **{"date": True, "author": True, "beside_byline": True, **flags})


FLAGS: list[dict[str, bool]] = [{}, {"author": False, "beside_byline": False}, {"date": False}, {"author": False}]


def check_texts(root: etree._Element, most: int | None = None) -> None:
    """The texts, their owners, and each element's first text and counts (of ``most`` elements spread over the page:
    the reference's counts are an XPath over the page each)."""
    native, reference = BodyTexts(root), ReferenceTexts(root)
    assert native.texts == reference.texts
    assert all(type(text) is str for text in native.texts)  # plain strings: no parent proxy each
    assert list(native.starts) == reference.starts
    assert len(native) == len(reference.texts)
    assert all(native.owner(i) is reference.owner(i) for i in range(len(native)))
    elements = list(root.getroottree().iter(etree.Element))
    for element in elements[:: max(1, len(elements) // most) if most else 1]:
        assert native.first_text(element) == reference.first_text(element)
        assert native.before(element) == reference.before(element)
        assert native.inside(element) == reference.inside(element)
    assert native.named() == reference.named()
    assert all(native.named_element(k) is reference.named_element(k) for k in range(len(native.named())))


def check_printed(root: etree._Element, titles: list[str], flagged: list[dict[str, bool]] = FLAGS) -> None:
    for flags in flagged:
        assert bylines.printed_fields(root, titles, **flags) == reference_printed(root, titles, **flags)


def xml(page: str) -> etree._Element:
    return etree.fromstring(page, etree.XMLParser(strip_cdata=False))


@pytest.mark.parametrize(
    "root",
    [
        lxml_html.document_fromstring("<html><body><p>one<b>two</b>three<!-- c -->four</p>five</body></html>"),
        lxml_html.document_fromstring("<html><head><title>t</title></head><body></body></html>"),
        # No body: nothing is listed, and every count of an element is the XPath's.
        xml("<html><head><title>t</title></head><div>x<p>y</p></div></html>"),
        # Nested bodies: their texts once, in document order; the head's never.
        xml("<html><head><title>t</title></head><body>a<div><body>b<body>c</body>d</body>e</div>f</body>g</html>"),
        # A text after a comment or a processing instruction is a tail: its owner is still its parent.
        xml("<html><body><p><!--c-->after comment<?pi data?>after pi<b>b</b>tail<![CDATA[cdata]]></p><?pi x?>t</body></html>"),
        # Two bodies side by side, and one in a namespace (not XPath's "body").
        xml("<r xmlns:x='urn:x'><body>one</body><x:body>not</x:body><body><p>two</p></body></r>"),
        xml("<html><body>\u00e9\u4e2d\U0001F600 <p>\xa0</p></body></html>"),
        # Names: an entity in a value (read by lxml), empty values, a namespaced class (no name), case to fold.
        etree.fromstring("<!DOCTYPE html [<!ENTITY e 'Author'>]><html xmlns:x='urn:x'><body><p class='By &e; x' id=''>a</p>"
                         "<p class='' rel='AUTHOR \u00df'>b</p><p x:class='not'>c</p><p data-testid='byl'/></body></html>",
                         etree.XMLParser(resolve_entities=False)),
    ],
    ids=["html", "empty-body", "no-body", "nested-bodies", "tails", "side-by-side", "unicode", "names"],
)
def test_the_native_texts_equal_the_reference(root: etree._Element) -> None:
    check_texts(root)


def test_built_trees_with_empty_texts_equal_the_reference() -> None:
    html = etree.Element("html")
    body = etree.SubElement(html, "body")
    body.text = ""
    div = etree.SubElement(body, "div")
    div.text, div.tail = "", ""
    etree.SubElement(div, "p").text = "words"
    etree.SubElement(div, "span").tail = "a tail"
    check_texts(html)
    check_printed(html, ["words"])


def test_a_subtree_taken_out_counts_as_the_reference() -> None:
    root = xml("<html><body><div><p>a</p><body><p>b<i>c</i></p>d</body></div><p>e</p></body></html>")
    taken = root.find("body/div")
    assert taken is not None
    parent = taken.getparent()
    assert parent is not None
    parent.remove(taken)
    native, reference = BodyTexts(root), ReferenceTexts(root)
    for element in taken.iter(etree.Element):
        assert native.before(element) == reference.before(element)
        assert native.inside(element) == reference.inside(element)


def test_an_owner_out_of_range_is_refused() -> None:
    with pytest.raises(IndexError):
        BodyTexts(lxml_html.document_fromstring("<html><body>one</body></html>")).owner(1)


# Generated markup: texts (some blank, some of bylines and dates), comments, processing instructions,
# CDATA, and <body> elements anywhere (nested, beside each other, or none).
TAGS = ["div", "p", "span", "a", "b", "h1", "body", "section", "small", "time"]
WORDS = ["word", " ", "\n  ", "", "By Ana Lima", "March 3, 2014", "Posted on 2014-03-03", "The orchard path", "\xe9t\xe9",
         "12/28/2005 3:33 PM, by Rui Costa", "Tue, Apr 14 5:13 PM", "\u00a9 2015", "&amp;"]
CLASSES = ["", " class='author'", " class='post-date'", " id='byline'", " class='comment'", " itemprop='author'"]
LEAVES = ["<!--c-->", "<?pi data?>", "<![CDATA[cdata 2014-03-03]]>", "<br/>"]
texts = st.lists(st.sampled_from(WORDS), max_size=3).map(" ".join)
leaves = texts | st.sampled_from(LEAVES)
fragments = st.recursive(
    leaves,
    lambda inner: st.builds(lambda tag, attributes, children: f"<{tag}{attributes}>{''.join(children)}</{tag}>",
                            st.sampled_from(TAGS), st.sampled_from(CLASSES), st.lists(inner, max_size=4)),
    max_leaves=25,
)
documents = st.builds(lambda head, parts: f"<html>{head}{''.join(parts)}</html>",
                      st.sampled_from(["", "<head><title>The orchard path | Site</title></head>"]), st.lists(fragments, max_size=4))
TITLES = st.sampled_from([[], ["The orchard path"], ["The orchard path", "Site"], ["word"], ["By Ana Lima"]])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, TITLES)
def test_generated_documents_read_as_the_reference(page: str, titles: list[str]) -> None:
    root = xml(page)
    check_texts(root)
    check_printed(root, titles)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents, TITLES)
def test_generated_html_pages_read_as_the_reference(page: str, titles: list[str]) -> None:
    for root in (lxml_html.document_fromstring(page or "<html></html>"), _parsed(page)):
        if root is not None:
            check_texts(root)
            check_printed(root, titles)


def _parsed(page: str) -> etree._Element | None:
    try:
        return parse_html(page)
    except ParseError:
        return None


def check_page(html: str, most: int | None = None) -> bool:
    root = _parsed(html)
    if root is None:
        return False
    assert head_metas(root) == reference_head_metas(root)
    check_texts(root, most)
    check_printed(root, headlines(root))
    check_printed(root, [], [{}])  # no headline: the whole page's bylines, dates and names are read
    return True


# --- The head's meta tags (forest._texts.head_metas, what forest.html.head_metas reads) ------------


def reference_head_metas(root: etree._Element) -> list[tuple[str | None, str | None, str | None, str | None]]:
    """forest.html.head_metas as it read them before: each element's proxy and its get()."""
    return [(m.get("property"), m.get("name"), m.get("itemprop"), m.get("content")) for m in _head_first(root, "meta")]


META_ATTRIBUTES = ["", " property='og:title'", " name='author'", " NAME='Date'", " itemprop='datePublished'", " content='x &amp; y'",
                   " content=''", " content='caf\u00e9 \u201cquoted\u201d'", " content=unquoted", " name='a' name='b'", " content"]
metas = st.lists(st.sampled_from(META_ATTRIBUTES), max_size=4).map(lambda a: f"<meta{''.join(a)}>")
head_parts = st.lists(metas | st.sampled_from(["<title>t</title>", "<link rel='x'>", "<META content='upper'>"]), max_size=4)
body_parts = st.lists(metas | st.sampled_from(["<p>text</p>", "<div><meta name='inner' content='1'></div>", "<svg><meta/></svg>"]),
                      max_size=4)
meta_pages = st.builds(lambda head, body, with_head: (f"<html><head>{''.join(head)}</head>" if with_head else "<html>")
                       + f"<body>{''.join(body)}</body></html>", head_parts, body_parts, st.booleans())


@settings(max_examples=200, deadline=None)
@given(meta_pages)
def test_the_head_s_meta_tags_are_read_as_the_proxies_read_them(page: str) -> None:
    for root in (lxml_html.document_fromstring(page), _parsed(page)):
        if root is not None:
            assert head_metas(root) == reference_head_metas(root)


def test_meta_tags_of_a_page_without_a_head_are_the_whole_page_s() -> None:
    root = lxml_html.document_fromstring("<html><body><meta name='a' content='1'><div><meta property='p'></div></body></html>")
    assert head_metas(root) == [(None, "a", None, "1"), ("p", None, None, None)] == reference_head_metas(root)
    assert head_metas(lxml_html.document_fromstring("<html><head><title>t</title></head><body><p>x</p></body></html>")) == []


@pytest.mark.datasets
def test_a_sample_of_every_dataset_reads_as_the_reference() -> None:
    skip_without_datasets()
    checked = sum(check_page(html, most=50) for pages in dataset_pages(every=False).values() for html in pages)
    assert checked > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_reads_as_the_reference() -> None:
    skip_without_datasets()
    for pages in dataset_pages(every=True).values():
        for html in pages:
            check_page(html, most=300)


# The sieves in C before the search's tests in Python: each keeps every text the test in Python would read, on
# texts of the characters where case, casefold and Unicode's digits and spaces differ from ASCII's.
CHARACTERS = list("writenposdaubyvBYWRTPSDA ,|•·—–-:.1٣\n\t\xa0\u3000ßſKİﬅ\u0130é東ΐ") + ["\U0001F600"]
any_text = st.lists(st.sampled_from(CHARACTERS), max_size=14).map("".join)
some_texts = st.lists(st.one_of(any_text, st.sampled_from(["  By Ana", "WRITTEN by", "x, by Rui", "Aut", "ſtory", "ﬅory"])),
                      min_size=1, max_size=12)


def _native_of(texts: list[str]) -> BodyTexts:
    html = etree.Element("html")
    body = etree.SubElement(html, "body")
    for text in texts:
        etree.SubElement(body, "p").text = text
    native = BodyTexts(html)
    assert native.texts == list(_BODY_TEXTS(html))
    return native


@settings(max_examples=300, deadline=None)
@given(some_texts, st.booleans())
def test_the_byline_sieve_keeps_every_text_the_search_reads(texts: list[str], inner: bool) -> None:
    native = _native_of(texts)
    kept = set(native.openings(0, len(native), 4 * bylines.MAX_BYLINE, bylines._BYLINE_STARTS,
                               bylines.MAX_BYLINE if inner else -1, bylines._INNER_SEPARATORS))
    for i, text in enumerate(native.texts):
        opens = text.lstrip()[:8].casefold().startswith(bylines._BYLINE_STARTS)
        by = inner and len(text) <= bylines.MAX_BYLINE and bylines._INNER_BY.search(text) is not None
        if opens or by:
            assert i in kept


@settings(max_examples=300, deadline=None)
@given(some_texts, st.lists(any_text, max_size=3), st.integers(0, 6))
def test_the_headline_sieve_keeps_every_text_that_states_one(texts: list[str], more: list[str], shortest: int) -> None:
    native = _native_of(texts)
    wanted = {" ".join(t.split()).casefold() for t in [*native.texts[:2], *more]} - {""}
    if not wanted:
        return
    lengths = {len(w) for w in wanted}
    kept = set(native.lines(shortest, 480, bytes(n in lengths for n in range(max(lengths) + 1))))
    for i, text in enumerate(native.texts):
        if shortest <= len(text) < 480 and " ".join(text.split()).casefold() in wanted:
            assert i in kept


@settings(max_examples=200, deadline=None)
@given(some_texts)
def test_the_digit_sieve_keeps_the_texts_with_a_digit(texts: list[str]) -> None:
    native = _native_of(texts)
    assert native.digits(0, len(native)) == [i for i, text in enumerate(native.texts) if bylines._DIGIT.search(text)]


@given(any_text)
def test_three_letters_or_digits_are_read_as_isalnum_counts_them(text: str) -> None:
    assert (bylines._THREE_ALNUM.search(text) is not None) == (sum(c.isalnum() for c in text) >= 3)


NAMES = ["author", "AUTH", "or", "Byl", "shopbylink", "x byl\ny", "post-Date", "a\nb", "", "updated-time meta", "\u00df \u1e9e",
         "contributor-name", "time", "\u212aelvin date"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["class", "id", "rel", "itemprop", "data-testid", "title"]), st.sampled_from(NAMES)),
                max_size=8))
def test_the_names_searched_at_once_are_those_searched_one_by_one(attributes: list[tuple[str, str]]) -> None:
    html = etree.Element("html")
    body = etree.SubElement(html, "body")
    for name, value in attributes:
        etree.SubElement(body, "span", {name: value})
    texts, reference = bylines._Texts(html), ReferenceTexts(html)
    assert [texts.name(k) for k in range(len(reference.named()))] == reference.named()
    assert texts.named() == reference.named()
    for words in (bylines._HINT_WORDS, bylines._DATE_HINTS, ("ss", "or")):
        assert texts.named_with(words) == reference.named_with(words)


def _found_one_by_one(text: str, words: tuple[str, ...]) -> list[int]:
    """Every place a str.find of each word finds it: the reference of forest._texts.occurrences."""
    found = set()
    for word in words:
        at = text.find(word)
        while at >= 0:
            found.add(at)
            at = text.find(word, at + 1)
    return sorted(found)


# Pieces of texts of each str width (ASCII, Latin-1, UCS-2, UCS-4) around the words searched for.
_PIECES = st.lists(st.sampled_from(["osted", "Posted on ", "ublié", "OSTED", "ubli", "é", "\u2019", "\U0001f600", " ", "x", "o",
                                    "ublication date", "\0", "date", "dat"]), max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(_PIECES, st.lists(st.sampled_from(["osted", "ublié", "OSTED", "o", "ublication date", "date", "da"]), min_size=1, max_size=5,
                         unique=True).map(tuple))
def test_the_words_found_in_one_pass_are_those_found_one_by_one(text: str, words: tuple[str, ...]) -> None:
    assert occurrences(text, words) == _found_one_by_one(text, words)


def test_words_the_one_pass_cannot_search_for_are_refused() -> None:
    with pytest.raises(ValueError):
        occurrences("text", ("été",))
    with pytest.raises(ValueError):
        occurrences("text", ("",))
    with pytest.raises(ValueError):
        occurrences("text", tuple(f"w{n}" for n in range(33)))


def _posted_by_find(texts: bylines._Texts, lang: str) -> str | None:
    """forest.bylines._posted as it read the page's text before the one pass: a str.find loop of each stem."""
    joined = texts.joined()
    days = set()
    for stem in bylines._POSTED_STEMS:
        at = joined.find(stem)
        while at > 0:
            match = bylines._POSTED_WORDS.match(joined, at - 1)
            if match is not None:
                after = joined[match.end(): match.end() + bylines._DATE_CHARS + 24]
                start = 0
                for lead in (bylines._CLOCK_FIRST, bylines._WEEKDAY_FIRST, bylines._CLOCK_FIRST):
                    start = opened.end() if (opened := lead.match(after, start)) else start
                found = bylines.written_dates(after[start: start + bylines._DATE_CHARS], lang)
                if found and found[0][1] == 0:
                    days.add(found[0][0])
            at = joined.find(stem, at + len(stem))
    return days.pop().isoformat() if len(days) == 1 else None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Posted on March 3, 2014", "posted: 12/28/2005", "Published 2014-03-03", "osted 5 May 2020", "by Ana",
                                 "Posted on 4 April 2019", "Veröffentlicht am 3. März 2014", "POSTED ON Jan 1, 2001", "x"]),
                min_size=1, max_size=5))
def test_the_posted_date_read_in_one_pass_is_the_one_read_stem_by_stem(texts: list[str]) -> None:
    native = bylines._Texts(_page_of(texts))
    assert bylines._posted(native, "en") == _posted_by_find(native, "en")


def _page_of(texts: list[str]) -> etree._Element:
    html = etree.Element("html")
    body = etree.SubElement(html, "body")
    for text in texts:
        etree.SubElement(body, "p").text = text
    return html
