"""Issue 38, criterion 4: each failure class seen on sites forest had never seen, as a small hand-made site.

Each site (tests/learning/failure_sites.py) is learned as a user learns it, with
``forest.learn_pages`` on its sample pages; its held-out pages are then extracted with the
wrapper and cold (``forest.extract`` with no wrapper: the classifier), and both are scored by
token F1 against the pages' hand-known article text.  Learning the site must do at least as
well as not learning it, and the boilerplate each class is about must not be in the article.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pytest
from failure_sites import CODE, CREDITS, Site, hexo, live_blog, loose_lede, playlist, scattered, short_page, slideshow

from eval.metrics import score
from forest import Article, Page, Wrapper, extract, learn_pages
from forest.extraction.extractor import _widened
from forest.html import parse_html
from forest.learning.containers import paragraph_containers
from keywords.tfidf import tfidf_terms
from patterns.choose import Choice
from patterns.dom import index_page
from patterns.ranking import evaluate, matches, score_page

# Every class's held-out pages average at least this F1 with the wrapper: a wrapper that only ties
# a poor cold path (the classifier keeps a playlist, a bio, a newsletter box) is no success either.
MIN_F1 = 0.9


@dataclass(frozen=True, slots=True)
class Extracted:
    wrapper: Article
    cold: Article
    wrapper_f1: float
    cold_f1: float


def _learned(site: Site) -> Wrapper:
    wrapper, _ = learn_pages([Page(page.html, url=page.url) for page in site.sample])
    return wrapper


def _extracted(site: Site) -> list[Extracted]:
    wrapper = _learned(site)
    found = []
    for page in site.held_out:
        learned, cold = extract(wrapper, page.html, url=page.url), extract(None, page.html, url=page.url)
        found.append(Extracted(learned, cold, score(learned.text, page.gold).f1, score(cold.text, page.gold).f1))
    return found


def _at_least_cold(found: list[Extracted]) -> None:
    """The wrapper's mean F1 over the held-out pages is at least the cold path's, and at least MIN_F1."""
    wrapper_f1 = sum(e.wrapper_f1 for e in found) / len(found)
    cold_f1 = sum(e.cold_f1 for e in found) / len(found)
    assert wrapper_f1 >= cold_f1, f"learned {wrapper_f1:.3f} < cold {cold_f1:.3f}"
    assert wrapper_f1 >= MIN_F1


def test_sign_up_and_related_video_boxes_in_a_hashed_class_live_blog_are_cut() -> None:
    """A live blog built with CSS-in-JS (``sc-fwko30-0 fDORXM main-wrapper``): the newsletter box and the
    related-video embed between its entries are not the article (the issue's F1 0.60 against 0.97 cold)."""
    found = _extracted(live_blog())
    _at_least_cold(found)
    for e in found:
        assert e.wrapper.method == "wrapper"
        for line in ("Sign up for the Livewire Daily email", "Please enter a valid email address", "SIGN UP",
                     "\u2715", "Related video:"):
            assert line not in e.wrapper.text


def test_a_video_playlist_among_the_region_nodes_is_cut() -> None:
    """The region is the story container's child divs, and one of them is a video playlist ("Caption",
    "4 stories you can't miss", then video blurbs that change from page to page): latimes.com 2017, 0.716
    against 0.874 cold.  (Its "Follow @x on Twitter" line, one per author, is still kept: nothing in the
    sample tells it from a byline, which some gold keeps.)"""
    found = _extracted(playlist())
    _at_least_cold(found)
    for e in found:
        assert "4 stories you can\u2019t miss" not in e.wrapper.text
        assert not re.search(r"\(\d:\d\d\)", e.wrapper.text)  # a video's running time


def test_a_node_left_out_of_the_pattern_comes_back_where_it_holds_most_of_the_region() -> None:
    """On a page where the node a pattern leaves out holds most of its region's text (another layout puts the
    article in the div that is a playlist on the sample's), the region is the pattern's without that predicate."""
    xpath = "//div[@class='main']/div[not(self::div[@class='side'])]"
    boxed = "<div class='main'><div>{}</div><div class='side'>{}</div></div>"
    long, short = "words of the article " * 40, "a playlist"
    assert _widened(parse_html(boxed.format(long, short)), xpath) == xpath
    assert _widened(parse_html(boxed.format(short, long)), xpath) == "//div[@class='main']/div"


def test_paragraphs_with_no_common_container_and_a_lede_outside_it_are_kept() -> None:
    """The story's paragraphs are split over several divs and its lede sits before them (bbc.co.uk 2005:
    main pattern ``//p``, recall 0.80): the wrapper keeps them all, and none of the sidebar's."""
    site = scattered()
    found = _extracted(site)
    _at_least_cold(found)
    for e, page in zip(found, site.held_out):
        assert score(e.wrapper.text, page.gold).r >= 0.95
        assert "SEE ALSO" not in e.wrapper.text and "Printable version" not in e.wrapper.text


def test_paragraphs_of_an_unnamed_container_with_a_loose_lede_are_kept() -> None:
    """The story's paragraphs are ``<p>`` elements of a ``<font>`` no attribute names, its lede a ``<b>`` outside
    them, a fact box and a pull quote tables between them, and a "SEE ALSO" column of summaries beside them."""
    site = loose_lede()
    found = _extracted(site)
    _at_least_cold(found)
    for e, page in zip(found, site.held_out):
        assert score(e.wrapper.text, page.gold).r >= 0.95
        assert "SEE ALSO" not in e.wrapper.text


def test_a_pattern_of_paragraphs_alone_becomes_their_container() -> None:
    """bbc.co.uk 2005's pattern was ``//p``: on the loose-lede site's sample pages, chosen so, it becomes the
    paragraphs' parents (no key names the ``<font>``): the story's holds the lede, the fact box and the quote too."""
    pages = [index_page(parse_html(page.html).find("body")) for page in loose_lede().sample]
    keywords = tfidf_terms([index.page_terms() for index in pages], k=20)
    scored = [score_page(index, terms) for index, terms in zip(pages, keywords)]
    choice = Choice((evaluate(scored, "//p"),), tuple(0 for _ in scored))
    xpath = paragraph_containers(choice, scored, "jxu").patterns[0].pattern.xpath
    assert xpath == "//p/parent::*"
    for page in scored:
        region = [page.index.elements[i] for i in page.index.outermost(matches(page.index, xpath))]
        assert [node.tag for node in region] == ["font", "div"]  # the story's, and the footer's as //p had it
        assert region[0].find("b") is not None and region[0].find("table") is not None


def test_code_inside_an_excluded_looking_figure_is_kept() -> None:
    """A Hexo blog's listings are ``<figure class="highlight plain">`` tables around a ``<pre>``, and some
    of their lines recur from post to post: code is never cut, as the README says."""
    site = hexo()
    found = _extracted(site)
    _at_least_cold(found)
    for e, page in zip(found, site.held_out):
        listings = [listing for listing in CODE if "\n".join(listing) in page.gold]
        assert listings
        for listing in listings:
            for line in filter(None, (line.strip() for line in listing)):
                assert line in e.wrapper.text


def test_a_short_page_of_a_learned_site_keeps_none_of_the_template() -> None:
    """Briefs of one or two paragraphs and a one-line note on a site learned from long features: the
    note fits no pattern and goes to the classifier, never to a weaker method, and whichever way a page
    is extracted the author bio, the newsletter box, the licence line and the footer are not kept (the
    issue's page that fell to FOREST on the page alone: F1 0.615, the classifier 0.923)."""
    found = _extracted(short_page())
    _at_least_cold(found)
    assert "classifier" in {e.wrapper.method for e in found}
    for e in found:
        assert e.wrapper.method in ("wrapper", "classifier")
        for line in ("is a contributing editor at The Quarterly", "Get The Quarterly in your inbox",
                     "Creative Commons", "reader-funded magazine"):
            assert line not in e.wrapper.text


def test_a_box_no_sample_page_had_is_judged_by_the_classifier() -> None:
    """A slideshow inside one page's story body, of a kind the sample never showed: the wrapper knows
    nothing of it, and the classifier's verdict on it stands (nypost.com 2017: its credits and
    captions kept, 0.918 against 0.990 cold)."""
    site = slideshow()
    wrapper = _learned(site)
    assert wrapper.parts is not None and not any("slide" in name for name in wrapper.parts)
    found = _extracted(site)
    _at_least_cold(found)
    for e in found:
        assert e.wrapper.method == "wrapper"
        for line in ("View Slideshow", *CREDITS):
            assert line not in e.wrapper.text
    # Without the sample's boxes to tell it apart, the slideshow is the region's as much as its paragraphs.
    blind = replace(wrapper, parts=None)
    blind_texts = [extract(blind, page.html, url=page.url).text for page in site.held_out]
    assert all(any(credit in text for credit in CREDITS) for text in blind_texts)


@pytest.mark.parametrize("make", [live_blog, playlist, scattered, loose_lede, hexo, short_page, slideshow])
def test_the_sites_are_small_and_varied(make: object) -> None:
    """Each site is 5 to 8 pages whose article texts share no paragraph: the template, not the text, repeats."""
    assert callable(make)
    site = make()
    assert 5 < len(site.pages) <= 8 and site.held_out
    paragraphs = [line for page in site.pages for line in page.gold.split("\n") if len(line.split()) > 12]
    assert len(set(paragraphs)) > 0.9 * len(paragraphs)
