"""Which shipped model reads a page forest extracts cold (forest.extraction.models): the modern model on a page of
today's web that does not call itself an article, the article model on every other page."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from lxml import etree

import forest.extraction.models as models
from forest.classifier.predictor import BlockPrediction
from forest.classifier.page import DEFAULT_MODEL, MODERN_MODEL, load_default
from forest.extraction import extract, extractor
from forest.html import parse_html
from forest.metadata import json_ld_declares_article

VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
WORDS = "A light trail bike for long days in the hills, with a frame that climbs well and descends with confidence."


def page(head: str) -> str:
    return (f"<html><head><title>Trail bike</title>{head}</head><body><main><h1>Trail bike 29</h1>"
            f"<p>{WORDS}</p><p>{WORDS}</p></main></body></html>")  # fmt: skip


def ld(value: object) -> str:
    return f'<script type="application/ld+json">{json.dumps(value)}</script>'


@pytest.mark.parametrize(
    ("head", "modern"),
    [
        (VIEWPORT, True),  # today's page, no declared type
        (VIEWPORT + '<meta property="og:type" content="product">', True),
        (VIEWPORT + '<meta name="og:type" content=" Article ">', False),  # og:type's name attribute, any case
        (VIEWPORT + ld({"@type": "NewsArticle", "headline": "Trail bike"}), False),
        (VIEWPORT + ld({"@graph": [{"@type": "WebPage"}, {"@type": ["ReportageNewsArticle"]}]}), False),
        (VIEWPORT + ld([{"@type": "BlogPosting"}]), False),
        (VIEWPORT + ld({"@type": "Article"}), False),
        # A forum's posting and a manual's article are not the article model's pages.
        (VIEWPORT + ld({"@type": "DiscussionForumPosting", "headline": "Which bike?"}), True),
        (VIEWPORT + ld({"@type": "TechArticle"}), True),
        (VIEWPORT + '<script type="application/ld+json">{"@type": "NewsArticle",</script>', True),  # broken JSON says nothing
        ('<meta name="Viewport" content="width=device-width">', True),
        ("", False),  # no viewport: a page older than phones' browsers
        ('<meta property="og:type" content="website">', False),
        ('<meta name="description" content="viewport">', False),
    ],
)
def test_the_page_picks_the_model(head: str, modern: bool) -> None:
    html = page(head)
    assert models.modern_non_article(parse_html(html), html) is modern


def test_a_page_without_a_head_is_read_by_the_article_model() -> None:
    html = f"<p>{WORDS}</p>"
    assert not models.modern_non_article(parse_html(html), html)


def test_json_ld_is_read_from_bytes_as_from_text() -> None:
    html = page(VIEWPORT + ld({"@type": "NewsArticle"}))
    assert json_ld_declares_article(html) and json_ld_declares_article(html.encode())
    assert not json_ld_declares_article(page(VIEWPORT))


def test_both_models_ship_and_differ() -> None:
    article, modern = load_default(), load_default(MODERN_MODEL)
    assert DEFAULT_MODEL.exists() and MODERN_MODEL.exists() and article is not modern
    assert models.page_classifier(parse_html(page("")), page("")) is article
    assert models.page_classifier(parse_html(page(VIEWPORT)), page(VIEWPORT)) is modern


@pytest.mark.parametrize(("head", "expected"), [(VIEWPORT, MODERN_MODEL), ("", DEFAULT_MODEL)])
def test_cold_extraction_reads_the_page_with_the_model_it_picks(
    head: str, expected: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[Path] = []

    def recorded(path: str | Path | None = None):  # type: ignore[no-untyped-def]
        asked.append(Path(path) if path is not None else DEFAULT_MODEL)
        return load_default(path)

    monkeypatch.setattr(models, "load_default", recorded)
    article = extract(None, page(head))
    assert asked == [expected] and article.method == "classifier"
    # A model the caller gives reads every page.
    asked.clear()
    extract(None, page(head), classifier=load_default())
    assert asked == []


def test_each_page_is_read_for_its_own_json_ld() -> None:
    # The last page's JSON-LD is kept for the next reader of the same source: never given to another page.
    article, other = page(VIEWPORT + ld({"@type": "NewsArticle"})), page(VIEWPORT + ld({"@type": "Product"}))
    assert json_ld_declares_article(article) and not json_ld_declares_article(other)
    assert json_ld_declares_article(article) and json_ld_declares_article(article.encode())
    assert not json_ld_declares_article(other.encode())


class _Labels:
    """A shipped model's stand-in: the article model's blocks, labelled content where ``keep`` says."""

    def __init__(self, keep: Callable[[str], bool]) -> None:
        self.keep, self.read = keep, 0

    def predict_blocks(self, root: etree._Element) -> list[BlockPrediction]:
        self.read += 1
        return [replace(p, is_content=self.keep(p.block.text)) for p in load_default().predict_blocks(root)]


ROUNDUP = " ".join(f"Pick {n} is a light trail bike for long days in the hills, with a frame that climbs well and "
                   "descends with confidence on rough ground." for n in range(3))


def roundup(paragraphs: int) -> str:
    body = "".join(f"<p>{ROUNDUP} Number {n}.</p>" for n in range(paragraphs))
    return f"<html><head><title>Best trail bikes</title></head><body><main><h1>Best trail bikes</h1>{body}</main></body></html>"


@pytest.mark.parametrize(("paragraphs", "reread"), [(12, True), (3, False)], ids=["misread", "too-little-prose"])
def test_a_page_the_article_model_misreads_is_read_again_by_the_modern_model(
    paragraphs: int, reread: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The article model keeps one paragraph of twelve (a roundup's among "Shop now" links); the modern model keeps them all.
    article, modern = _Labels(lambda text: text.endswith("Number 0.")), _Labels(lambda text: text.startswith("Pick"))
    monkeypatch.setattr(extractor, "shipped_model", lambda **kw: modern if kw["modern"] else article)
    text = extract(None, roundup(paragraphs)).text
    assert modern.read == int(reread)
    assert text.count("Number") == (paragraphs if reread else 1)


def test_a_page_the_article_model_reads_whole_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    article, modern = _Labels(lambda text: text.startswith("Pick")), _Labels(lambda text: False)
    monkeypatch.setattr(extractor, "shipped_model", lambda **kw: modern if kw["modern"] else article)
    assert extract(None, roundup(12)).text.count("Number") == 12 and modern.read == 0
    # Nor with a classifier the caller gives: it reads every page.
    assert "Number 0." in extract(None, roundup(12), classifier=_Labels(lambda text: text.endswith("Number 0."))).text  # type: ignore[arg-type]
    assert modern.read == 0


def test_a_page_the_article_model_finds_nothing_in_is_read_again_by_the_modern_model(monkeypatch: pytest.MonkeyPatch) -> None:
    article, modern = _Labels(lambda text: False), _Labels(lambda text: text.startswith("Pick"))
    monkeypatch.setattr(extractor, "shipped_model", lambda **kw: modern if kw["modern"] else article)
    found = extract(None, roundup(3))
    assert modern.read == 1 and found.method == "classifier" and found.text.count("Number") == 3


def test_a_caller_with_a_surer_guess_than_the_modern_model_keeps_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # A learned site's region, shorter than its sample's (forest.extraction.extractor._extract_tree): the
    # page the article model finds nothing in is not read again, and falls to the caller's guess.
    article, modern = _Labels(lambda text: False), _Labels(lambda text: text.startswith("Pick"))
    monkeypatch.setattr(extractor, "shipped_model", lambda **kw: modern if kw["modern"] else article)
    html = roundup(3)
    found = extractor._cold(parse_html(html), html, None, extractor.Settings(), None, False, reread_empty=False)
    assert modern.read == 0 and found.method != "classifier"
