"""A page is parsed once (issue 41): extracting a file of a learned site parses it once, and only its
span's part where the wrapper learned one; learning from k files parses each file once.

Every lxml parse forest makes of a page goes through ``lxml.html.document_fromstring``
(forest.html.parse_html, and the head-only read of forest.page); the tests count its calls by
what they were given: the whole page (its menu, before the article, is in it), the article's
part, or the head alone.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from forest.batch import Inputs, Options, Summary, run_batch
from forest.config import Settings
from forest.html import canonical_url, parse_html
from forest.page import ParsedPage
from forest.service.pages import extract_page, group_by_site, learn_pages
from forest.storage import WrapperStore
from span_site import STORY, learned, story
from test_induce import NAV

SITE = "courier.test"


def canonical_page(i: int) -> bytes:
    """Story ``i`` of the span site, naming its URL only by its canonical link (as a saved file does)."""
    return story(i).replace("<head>", f'<head><link rel="canonical" href="http://{SITE}/{i}">', 1).encode()



def whole(seen: list[str]) -> list[str]:
    return [text for text in seen if NAV in text]


def store_with(path: Path, span: bool) -> Path:
    wrapper = learned() if span else replace(learned(), span=("", ""))
    assert any(wrapper.span) == span
    with WrapperStore(path) as store:
        store.save(SITE, wrapper.to_dict())
    return path


@pytest.fixture(autouse=True)
def learned_first() -> None:
    learned()  # learned (and its pages parsed) before any test counts


def test_a_learned_sites_file_is_parsed_only_in_its_span(tmp_path: Path, parsed: list[str]) -> None:
    db = store_with(tmp_path / "forest.db", span=True)
    with WrapperStore(db) as store:
        article = extract_page(canonical_page(5), store=store, settings=Settings(classifier=False))
    assert (article.method, article.site, article.url) == ("wrapper", SITE, f"http://{SITE}/5")
    # The site is read from the head alone; then only the head and the span's part are parsed.
    assert whole(parsed) == []
    assert len([text for text in parsed if STORY in text]) == 1
    assert len(parsed) <= 2


def test_a_learned_sites_file_without_a_span_is_parsed_whole_once(tmp_path: Path, parsed: list[str]) -> None:
    db = store_with(tmp_path / "forest.db", span=False)
    with WrapperStore(db) as store:
        article = extract_page(canonical_page(5), store=store, settings=Settings(classifier=False))
    assert (article.method, article.site) == ("wrapper", SITE)
    assert len(whole(parsed)) == 1
    # Besides it, at most the head, read for the site before the wrapper is known.
    assert all("<body" not in text for text in parsed if NAV not in text)
    assert len(parsed) <= 2


def test_a_batch_of_files_parses_each_in_its_span_only(tmp_path: Path, parsed: list[str]) -> None:
    db = store_with(tmp_path / "forest.db", span=True)
    files = []
    for i in (5, 6):
        files.append(tmp_path / f"{i}.html")
        files[-1].write_bytes(canonical_page(i))
    results = list(run_batch(Inputs([str(f) for f in files]), Options(db=db, settings=Settings(classifier=False)), Summary()))
    assert [r.article.method if r.article else r.error for r in results] == ["wrapper", "wrapper"]
    assert whole(parsed) == []
    assert len([text for text in parsed if STORY in text]) == 2


def test_learning_from_k_files_parses_each_file_once(tmp_path: Path, parsed: list[str]) -> None:
    k = 5
    sources = [(f"{i}.html", canonical_page(i)) for i in range(k)]
    settings = Settings(classifier=False)
    groups, skipped = group_by_site(sources, settings=settings)
    assert skipped == [] and list(groups) == [SITE]
    with WrapperStore(tmp_path / "forest.db") as store:
        wrapper, report = learn_pages(groups[SITE][0], site=SITE, settings=settings, store=store)
    assert len(report.used) == k and any(wrapper.span)
    # Each file's whole page once (learning's tree); the span's search parses only parts of them.
    assert sorted(whole(parsed)) == sorted(story(i).replace("<head>", f'<head><link rel="canonical" href="http://{SITE}/{i}">', 1)
                                           for i in range(k))


# Pieces a page's head or body may hold around its canonical link: the head-only reading must
# give the answer the whole tree gives, wherever they sit (forest.page.ParsedPage.canonical).
_PIECES = [
    '<link rel="canonical" href="http://a.test/1">', '<link rel="CANONICAL" href="http://b.test/2">',
    '<link rel="canonical" href="">', '<meta property="og:url" content="http://c.test/3">',
    '<meta name="description" content="x">', "<noscript><link rel=canonical href=http://d.test/4></noscript>",
    "<!-- <link rel=canonical href=http://e.test/5> -->", "<script>var s = '<body>';</script>",
    "<div>early</div>", "<title>t</title>", "<p>text</p>", '<template><meta property="og:url" content="http://f.test/6"></template>',
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=5), st.lists(st.sampled_from(_PIECES), max_size=5), st.booleans())
# A "<body>" in a script is no body tag: the head read alone ended there and lost the og:url after it.
@example(head=['<meta name="description" content="x">', "<script>var s = '<body>';</script>",
               '<meta property="og:url" content="http://c.test/3">'], body=[], as_bytes=False)
def test_the_canonical_link_read_from_the_head_is_the_whole_trees(head: list[str], body: list[str], as_bytes: bool) -> None:
    text = f"<html><head>{''.join(head)}</head><body>{''.join(body)}<p>the article</p></body></html>"
    page = ParsedPage(text.encode() if as_bytes else text)
    assert page.canonical() == canonical_url(parse_html(text))
