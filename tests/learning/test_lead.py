"""The standfirst a site prints between its headline and its region (forest.learning.lead), and its place in the article."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from lxml import etree

from forest.article.render import render
from forest.extraction import extract
from forest.html import parse_html
from forest.learning.lead import dense_prose, learn_lead
from forest.wrapper import Wrapper
from keywords.tfidf import tfidf_keywords
from patterns.dom import index_page
from patterns.model import Pattern
from patterns.ranking import score_page

TOPICS = ["apples", "brambles", "cedars", "dahlias", "elders"]
MAIN = "//div[@id='story-body']"


def _page(n: int, *, dek: bool = True, promo: str = "") -> str:
    topic = TOPICS[n]
    body = "".join(f"<p>The {topic} along path {k} need care this winter, says the keeper of the {topic} in note {k}.</p>"
                   for k in range(8))
    deck = f"<h2 class='deck'>Why the {topic} of the northern orchard need a keeper's care before the first frost comes</h2>" if dek else ""
    return (f"<html><head><title>Caring for {topic} | Courier</title></head><body><nav><a href='/'>Home</a></nav>"
            f"<div id='content'><div class='header'><h1>Caring for {topic}</h1>{deck}{promo}"
            f"<p class='byline'>By Ana Lima, staff writer of the Larkford Courier, on March {n + 1}, 2014</p></div>"
            f"<div id='story-body'>{body}</div></div></body></html>")


def _learned(pages: list[str], labelled: tuple[str, ...] = ("deck",)) -> str | None:
    trees = [parse_html(page) for page in pages]
    # The classifier's verdict, as learning reads it: the standfirst (and the body) content, the byline not.
    content = {element for tree in trees for element in tree.iter() if element.get("class") in labelled or element.tag == "p"
               and element.get("class") != "byline"}
    return learn_lead([(tree, tree.findtext(".//title") or "") for tree in trees], MAIN, content)


def _selects_the_deck(key: str | None) -> bool:
    tree = parse_html(_page(0))
    return key is not None and [e.get("class") for e in tree.xpath(key)] == ["deck"]


def test_the_standfirst_above_the_region_is_learned() -> None:
    assert _selects_the_deck(_learned([_page(n) for n in range(5)]))


def test_a_standfirst_two_sample_pages_print_is_learned_and_one_pages_is_not() -> None:
    # A site's articles print a standfirst, its blog posts none: a sample of five may hold two articles.
    assert _selects_the_deck(_learned([_page(n, dek=n < 2) for n in range(5)]))
    assert _learned([_page(n, dek=n < 1) for n in range(5)]) is None


def test_the_key_learned_is_the_same_in_every_process() -> None:
    # Several keys select the standfirst on every page (its tag, its class, its class token): the tie is
    # broken by their order on the page, never by a set's order, which follows Python's randomized hashing.
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from test_lead import _learned, _page; "
            "print(_learned([_page(n) for n in range(5)]))")
    learned = {subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], env={**os.environ, "PYTHONHASHSEED": str(seed)},
                              capture_output=True, text=True, check=True).stdout for seed in (1, 2, 3)}
    assert len(learned) == 1 and _selects_the_deck(learned.pop().strip())


def test_a_byline_the_classifier_labels_boilerplate_is_no_standfirst() -> None:
    assert _learned([_page(n, dek=False) for n in range(5)]) is None


def test_a_blurb_every_page_repeats_is_the_templates() -> None:
    promo = "<p class='promo'>Sign up for the Courier's weekly letter on the orchards and the gardens of Larkford</p>"
    pages = [_page(n, dek=False, promo=promo) for n in range(5)]
    assert _learned(pages, labelled=("promo",)) is None


def test_no_standfirst_is_learned_without_the_classifiers_labels() -> None:
    trees = [parse_html(_page(n)) for n in range(5)]
    assert learn_lead([(tree, "") for tree in trees], MAIN, set()) is None


def _wrapper(lead: str | None) -> Wrapper:
    fields = {"lead": lead} if lead else {}
    return Wrapper(site="courier.test", patterns=(Pattern(MAIN, score=3.0, support=5, level=4.0, terms=100),), fields=fields,
                   title_affixes=("", " | Courier"))


def test_extraction_puts_the_standfirst_under_the_headline_once() -> None:
    wrapper = Wrapper.from_dict(json.loads(json.dumps(_wrapper("//h2[@class='deck']").to_dict())))  # stored and read back
    article = extract(wrapper, _page(3))
    lines = article.text.split("\n")
    assert lines[:2] == ["Caring for dahlias", "Why the dahlias of the northern orchard need a keeper's care before the first frost comes"]
    assert lines[2].startswith("The dahlias along path 0")
    # The article's structure holds it too, as a paragraph under the headline (Markdown, HTML).
    markdown = render(article, "markdown")
    assert markdown.index("# Caring for dahlias") < markdown.index("Why the dahlias") < markdown.index("The dahlias along path 0")
    # A page without it reads as before.
    assert extract(wrapper, _page(3, dek=False)).text == extract(_wrapper(None), _page(3, dek=False)).text


def test_a_standfirst_the_region_holds_is_not_repeated() -> None:
    wrapper = Wrapper(site="courier.test", patterns=(Pattern("//div[@id='content']", score=3.0, support=5, level=4.0, terms=100),),
                      fields={"lead": "//h2[@class='deck']"}, title_affixes=("", " | Courier"))
    text = extract(wrapper, _page(3)).text
    assert text.count("Why the dahlias") == 1


def test_the_learned_place_survives_the_store() -> None:
    stored = _wrapper("//h2[@class='deck']").to_dict()
    assert Wrapper.from_dict(json.loads(json.dumps(stored))).fields["lead"] == "//h2[@class='deck']"
    assert etree.XPath(stored["fields"]["lead"])  # a valid XPath, as the store's schema checks


def _teased(n: int) -> str:
    # Ars Technica in 2009: the teaser sums the story up in its words above the region, in a promotion's
    # box the classifier labels boilerplate, beside a byline and a promotion every page repeats.
    topic = TOPICS[n]
    body = "".join(f"<p>The {topic} keeper counts the {topic} rows along path {k} before the frost this winter.</p>"
                   for k in range(8))
    return (f"<html><head><title>{topic}</title></head><body><div id='content'><div id='promo'>"
            f"<p class='teaser'>The {topic} keeper must count {topic} rows before the {topic} frost comes</p>"
            f"<p class='byline'>By Ana Lima, {topic} desk, March {n + 1}, 2009</p>"
            "<p class='house'>Subscribe to the Larkford Courier for the news of the town every single morning</p></div>"
            f"<div id='story-body'>{body}</div></div></body></html>")


def test_a_standfirst_as_dense_in_the_keywords_as_the_region_is_one_whatever_the_classifier_says() -> None:
    htmls = [_teased(n) for n in range(5)]
    indexes = [index_page(parse_html(html).find("body")) for html in htmls]
    texts = [" ".join(term for terms in index.terms for term in terms) for index in indexes]
    pages = [score_page(index, keywords) for index, keywords in zip(indexes, tfidf_keywords(texts))]
    regions = [[index.elements.index(index.elements[0].getroottree().find(".//div[@id='story-body']"))] for index in indexes]
    dense = dense_prose(pages, regions)
    assert {element.get("class") for element in dense} == {"teaser"}  # not the byline, nor the house ad
    trees = [index.elements[0].getroottree().getroot() for index in indexes]
    learned = learn_lead([(tree, tree.findtext(".//title") or "") for tree in trees], MAIN, dense)
    assert learned is not None and [e.get("class") for e in trees[0].xpath(learned)] == ["teaser"]

