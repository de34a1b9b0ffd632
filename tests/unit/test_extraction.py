"""Extraction with a wrapper: plausibility, drift, no classifier on the hot path, and the fallbacks (with a stub classifier)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from lxml import etree

from forest.article.render import render
from forest.config import Settings
from forest.errors import StoreError
from forest.extraction import extract
from forest.learning.induce import Inducer
from forest.learning.quality import fit_quality
from forest.model import Page
from forest.wrapper import Wrapper
from patterns.model import Pattern
from patterns.text import Block, text_blocks

sys.path.insert(0, str(Path(__file__).parent))
from test_induce import ARTICLES, story_page  # noqa: E402

WRAPPER_ALONE = Settings(classifier=False)


@dataclass(frozen=True)
class Prediction:
    block: Block
    element: etree._Element
    probability: float
    is_content: bool


class StubClassifier:
    """Says every block whose text contains one of ``boilerplate`` is boilerplate."""

    def __init__(self, *boilerplate: str) -> None:
        self.boilerplate = boilerplate

    def predict_blocks(self, root: etree._Element) -> list[Prediction]:
        body = root.find("body")
        predictions = []
        for block in text_blocks([body]):
            noise = any(word in block.text for word in self.boilerplate)
            predictions.append(Prediction(block, body, 0.0 if noise else 1.0, not noise))
        return predictions


@pytest.fixture(scope="module")
def wrapper():  # type: ignore[no-untyped-def]
    pages = [Page(story_page(i), url=f"http://courier.test/{i}") for i in range(5)]
    return Inducer(WRAPPER_ALONE).fit(pages, site="courier.test").wrapper_


class RefusingClassifier:
    """A classifier that fails the test if it is ever asked."""

    def predict_blocks(self, root: etree._Element) -> list[Prediction]:
        raise AssertionError("the classifier ran on a page the wrapper fits")


def test_a_fitting_wrapper_never_runs_the_classifier(wrapper) -> None:  # type: ignore[no-untyped-def]
    article = extract(wrapper, story_page(5), settings=Settings(), classifier=RefusingClassifier())
    assert article.method == "wrapper"
    assert all(sentence in article.text for sentence in ARTICLES[5][1])


def test_the_shipped_classifier_is_not_loaded_for_a_fitting_wrapper(wrapper, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import forest.classifier.page as page

    def refuse(*args: object) -> None:
        raise AssertionError("a shipped classifier was loaded on the hot path")

    # Both shipped models load through this one cached reader (forest.classifier.page.load_default).
    monkeypatch.setattr(page, "_cached", refuse)
    assert extract(wrapper, story_page(5), settings=Settings()).method == "wrapper"


def test_the_structure_is_built_only_when_asked(wrapper, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import forest.extraction.extractor as extractor

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the structure was built for a text-only extraction")

    with monkeypatch.context() as patched:
        patched.setattr(extractor.structure, "build", refuse)
        plain = extract(wrapper, story_page(5), settings=WRAPPER_ALONE)
    assert plain.document is None and plain.html == "" and "html" not in plain.to_dict()
    asked = extract(wrapper, story_page(5), settings=replace(WRAPPER_ALONE, html=True))
    assert asked.document is not None and asked.document.text == asked.text == plain.text
    assert asked.to_dict()["html"] == asked.html and "<p>" in asked.html


def test_a_page_no_pattern_fits_goes_to_the_classifier(wrapper) -> None:  # type: ignore[no-untyped-def]
    page = story_page(5, template="b")
    article = extract(wrapper, page, settings=WRAPPER_ALONE, classifier=StubClassifier("Copyright", "Home"))
    assert article.method == "classifier" and article.notes
    assert ARTICLES[5][1][1] in article.text and "Copyright" not in article.text


def test_a_page_no_pattern_fits_is_read_as_a_page_of_an_unknown_site(wrapper) -> None:  # type: ignore[no-untyped-def]
    # Even a classifier that takes most of the article for boilerplate: the site's statistics say
    # nothing trustworthy about a page its patterns do not explain, so no weaker method overrules it.
    page = story_page(5, template="b")
    confused = StubClassifier("Courier", *ARTICLES[5][1])
    article = extract(wrapper, page, settings=WRAPPER_ALONE, classifier=confused)
    cold = extract(None, page, settings=WRAPPER_ALONE, classifier=confused)
    assert article.method == cold.method == "classifier" and article.text == cold.text
    assert article.notes and article.site == wrapper.site


def test_on_a_site_whose_learning_distrusted_the_classifier_a_page_no_pattern_fits_is_still_the_classifiers(wrapper) -> None:  # type: ignore[no-untyped-def]
    # Learning found the classifier contradicting J x U on the site's pages (a shop's product pages): a
    # page no pattern fits is another template's (its search page), read as an unknown site's page is.
    distrusted = replace(wrapper, classifier_agrees=False)
    old = story_page(5, template="b")
    modern = old.replace("<head>", '<head><meta name="viewport" content="width=device-width">')
    for page in (old, modern):
        article = extract(distrusted, page)
        assert article.method == "classifier" and article.text == extract(None, page).text
    # With the classifier off, no model reads it: FOREST's region of the page alone does.
    alone = extract(distrusted, old, settings=WRAPPER_ALONE)
    assert alone.method == "page" and all(sentence in alone.text for sentence in ARTICLES[5][1])


def test_a_classifier_that_keeps_an_article_of_the_sites_size_is_not_overruled(wrapper) -> None:  # type: ignore[no-untyped-def]
    # A photo strip the sample never showed: the classifier rejects most of the page's region
    # (the captions) but keeps the whole story, as long as the site's stories: its text wins.
    captions = "".join(f"<font>Caption {k}: the {w} seen from the river bank at dusk</font><br>"
                       for k, w in enumerate(["harbour", "quay", "crane", "pier"] * 3))
    page = story_page(5, template="b").replace('<div class="text">', f'<div class="text">{captions}')
    article = extract(wrapper, page, settings=WRAPPER_ALONE, classifier=StubClassifier("Caption", "Copyright", "Home"))
    assert article.method == "classifier"
    assert all(sentence in article.text for sentence in ARTICLES[5][1]) and "Caption" not in article.text


def test_without_a_wrapper_the_classifier_decides_alone() -> None:
    # No site statistics tell whether FOREST's single-page region is plausible.
    article = extract(None, story_page(5, template="b"), settings=WRAPPER_ALONE, classifier=StubClassifier("Copyright"))
    assert article.method == "classifier" and "Copyright" not in article.text


class Unsure:
    """Labels nothing content: the article's block p = 0.2, shorter blocks p = 0.4."""

    def predict_blocks(self, root: etree._Element) -> list[Prediction]:
        body = root.find("body")
        return [Prediction(b, body, 0.2 if b.words > 20 else 0.4, False) for b in text_blocks([body])]


LOOSE_STORY = (
    "<html><head><title>Bridge</title></head><body><div id='side'><blockquote>Archive</blockquote>"
    "<ul><li><a href='/2019/11'>November</a></li><li><a href='/2019/10'>October</a></li></ul></div>"
    "<div id='main'><p>Harbour bridge to be rebuilt</p>"
    "<img src='bridge.jpg'>The harbour council met on Monday and agreed to rebuild the old stone bridge"
    " before winter, after engineers found cracks in two of its arches.<div><a href='#'>Share</a></div></div></body></html>"
)


@pytest.mark.parametrize(("region", "method"), [("//blockquote", "classifier"), ("//div[@id='main']", "page")])
def test_when_neither_finds_an_article_the_classifiers_likeliest_prose_is_kept(
    region: str, method: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The classifier keeps nothing (its article block p = 0.2) and FOREST's region of the page is
    # a heading ("Archive", a month menu's): the likeliest prose block, by p x words, is the guess.
    monkeypatch.setattr("forest.extraction.extractor._best_single_page_region", lambda root, settings: root.xpath(region))
    article = extract(None, LOOSE_STORY, settings=Settings(), classifier=Unsure())
    assert article.method == method and "engineers found cracks" in article.text and "Archive" not in article.text
    # A region of MIN_CLASSIFIED_WORDS words or more is kept, as before.
    assert ("Harbour bridge to be rebuilt" in article.text) is (method == "page")


def test_without_a_classifier_the_page_alone_is_scored(wrapper) -> None:  # type: ignore[no-untyped-def]
    article = extract(wrapper, story_page(5, template="b"), settings=WRAPPER_ALONE)
    assert article.method == "page"
    assert ARTICLES[5][1][1] in article.text


def test_a_page_no_pattern_fits_still_loses_the_sites_learned_boilerplate(wrapper) -> None:  # type: ignore[no-untyped-def]
    # The share box the site's exclusions name sits inside the region J x U finds on the page alone.
    page = story_page(5, template="b").replace(
        '<div class="text">', '<div class="text"><div class="share">Share this story with your friends today</div>')
    learned = replace(wrapper, exclusions=("//div[@class='share']",))
    article = extract(learned, page, settings=WRAPPER_ALONE)
    assert article.method == "page" and ARTICLES[5][1][1] in article.text and "Share this" not in article.text
    # Where the classifier's labels contradicted J x U on the sample, the site's cleanup was learned
    # from the main pattern's template alone, and is not carried to pages of another template.
    unlike = replace(learned, classifier_agrees=False)
    assert "Share this" in extract(unlike, page, settings=WRAPPER_ALONE).text


def test_whether_the_classifier_agreed_is_stored_and_read_from_older_notes(wrapper) -> None:  # type: ignore[no-untyped-def]
    disputed = replace(wrapper, classifier_agrees=False)
    assert Wrapper.from_dict(disputed.to_dict()).classifier_agrees is False
    older = wrapper.to_dict()
    del older["classifier_agrees"]
    assert Wrapper.from_dict(older).classifier_agrees is True
    older["notes"] = ["the classifier's labels were not used: on the sample pages it labels boilerplate 96% of the regions' terms"]
    assert Wrapper.from_dict(older).classifier_agrees is False
    with pytest.raises(StoreError, match="classifier_agrees"):
        Wrapper.from_dict(older | {"classifier_agrees": "false"})


def test_a_match_far_larger_than_the_learned_regions_is_drift(wrapper) -> None:  # type: ignore[no-untyped-def]
    # The sample regions held about 50 words; this page's region holds about 450.
    padded = story_page(5).replace("</p>", " " + "word " * 400 + "</p>", 1)
    drifted = extract(wrapper, padded, settings=WRAPPER_ALONE)
    assert drifted.method == "page" and "learned region sizes" in drifted.notes[0]
    main = wrapper.patterns[0]
    longer = replace(wrapper, patterns=(replace(main, terms=200),))  # had the samples been longer
    assert extract(longer, padded, settings=WRAPPER_ALONE).method == "wrapper"


def test_an_articles_text_starts_with_its_headline_where_the_region_leaves_it_out(wrapper) -> None:  # type: ignore[no-untyped-def]
    # The courier's pattern is its story's paragraphs: the <h1> above them is not in the region.
    title, paragraphs = ARTICLES[5]
    article = extract(wrapper, story_page(5), settings=WRAPPER_ALONE)
    assert article.method == "wrapper" and article.title == title
    assert article.text.split("\n")[0] == title and article.text.count(title) == 1
    with_html = extract(wrapper, story_page(5), settings=replace(WRAPPER_ALONE, html=True))
    assert with_html.text == article.text and with_html.html.startswith(f"<h1>{title}</h1>")
    assert render(with_html, "text").count(title) == 1  # printed once, as the title


def test_a_region_that_starts_with_the_headline_does_not_repeat_it(wrapper) -> None:  # type: ignore[no-untyped-def]
    title, paragraphs = ARTICLES[5]
    page = story_page(5).replace(f"<p>{paragraphs[0]}</p>", f"<p>{title}</p><p>{paragraphs[0]}</p>", 1)
    article = extract(wrapper, page, settings=WRAPPER_ALONE)
    assert article.method == "wrapper" and article.text.count(title) == 1


def test_a_region_whose_headline_prints_other_quotes_than_the_title_does_not_repeat_it(wrapper) -> None:  # type: ignore[no-untyped-def]
    # Kotaku: the <title> prints "Isn't", the headline "Isn’t"; the words are the same, and printed once.
    title, paragraphs = ARTICLES[5]  # "Observatory volunteers log meteor shower"
    straight, curly = title.replace("volunteers", "volunteers'"), title.replace("volunteers", "volunteers’")
    page = story_page(5).replace(f"<p>{paragraphs[0]}</p>", f"<p>{curly}</p><p>{paragraphs[0]}</p>", 1)
    page = page.replace(f"<title>{title}", f"<title>{straight}").replace(f'<h1 class="headline">{title}', f'<h1 class="headline">{straight}')
    article = extract(wrapper, page, settings=WRAPPER_ALONE)
    assert article.method == "wrapper" and article.title == straight
    assert article.text.split("\n")[0] == curly and article.text.count("meteor shower") == 1


def test_a_region_that_starts_with_the_headline_does_not_get_a_title_decorated_otherwise(wrapper) -> None:  # type: ignore[no-untyped-def]
    # A section's decoration the sample's titles never showed is not stripped from this title,
    # but the region's headline line is a good part of it: the headline is there already.
    title, paragraphs = ARTICLES[5]
    page = story_page(5).replace(f"<p>{paragraphs[0]}</p>", f"<p>{title}</p><p>{paragraphs[0]}</p>", 1)
    page = page.replace(f"<title>{title} | Daily Courier", f"<title>{title} | Weather desk | Courier Weekend")
    article = extract(wrapper, page, settings=WRAPPER_ALONE)
    assert "Weather desk" in article.title and "Weather desk" not in article.text
    assert article.text.count(title) == 1
    # A line that is only the site's name is not the headline.
    named = page.replace(f"<p>{title}</p>", "<p>Courier Weekend</p>", 1)
    assert extract(wrapper, named, settings=WRAPPER_ALONE).text.startswith(f"{title} | Weather desk")


def shell_page(i: int) -> str:
    """The courier's story served as a shell its scripts fill: all of it inside <noscript>."""
    return story_page(i).replace("<body>", '<body><div id="app">Loading</div><noscript>').replace("</body>", "</noscript></body>")


def test_a_page_its_scripts_fill_is_read_as_a_browser_without_scripts_shows_it(wrapper) -> None:  # type: ignore[no-untyped-def]
    cold = extract(None, shell_page(5), classifier=StubClassifier("Copyright"))
    assert cold.method == "classifier" and ARTICLES[5][1][1] in cold.text
    # What <noscript> holds on a page that shows its article is not read.
    page = story_page(5).replace("<body>", "<body><noscript>Please enable JavaScript to read the comments</noscript>")
    assert "enable JavaScript" not in extract(wrapper, page, settings=WRAPPER_ALONE).text
    # A site of shells learns its wrapper from what they serve without scripts, and extracts with it.
    pages = [Page(shell_page(i), url=f"http://courier.test/{i}") for i in range(5)]
    shells = Inducer(WRAPPER_ALONE).fit(pages, site="courier.test")
    article = extract(shells.wrapper_, shell_page(5), settings=WRAPPER_ALONE)
    assert article.method == "wrapper" and ARTICLES[5][1][1] in article.text
    # A relearn weighs it on the pages as learning read them (forest.learning.quality).
    assert fit_quality(shells.wrapper_, pages) > 0.5


def test_a_title_every_page_states_alike_is_the_sites_name_not_the_headline() -> None:
    def named(i: int) -> str:
        return story_page(i).replace("<head>", '<head><meta property="og:title" content="The Daily Courier">')

    site = Inducer(WRAPPER_ALONE).fit([Page(named(i), url=f"http://courier.test/{i}") for i in range(5)], site="courier.test")
    article = extract(site.wrapper_, named(5), settings=WRAPPER_ALONE)
    assert article.title == ARTICLES[5][0] and "title" in site.wrapper_.fields
    # One page's og:title is its own: read as before.
    assert extract(None, named(5), settings=WRAPPER_ALONE).title == "The Daily Courier"


def test_a_region_shorter_than_the_sites_is_kept_where_the_classifier_finds_no_article(wrapper) -> None:  # type: ignore[no-untyped-def]
    # Learned from pages ten times as long, this page's region is too short to be plausible: a note.
    main = wrapper.patterns[0]
    learned_long = replace(wrapper, patterns=(replace(main, terms=20 * main.terms),))
    page = story_page(5)
    # With no classifier to find an article, the site's region beats FOREST's region of the page alone.
    article = extract(learned_long, page, settings=WRAPPER_ALONE)
    assert article.method == "wrapper" and ARTICLES[5][1][0] in article.text
    assert "Most read" not in article.text and article.notes
    # A classifier that finds an article's worth of words still reads the page.
    assert extract(learned_long, page, settings=WRAPPER_ALONE, classifier=StubClassifier("Copyright", "Home")).method == "classifier"


BOXED = Wrapper("courier.test", (Pattern("//div[@id='post']", 1.0, 1, 3, terms=30),), parts=frozenset({"div.body"}))
STORY = ("Dock workers returned to the cranes on Monday after a nine day strike over night shift pay, "
         "and the port said the backlog of ships would clear by the end of the month.")


def _boxed_page(box: str) -> str:
    return f'<html><body><h1>Strike ends</h1><div id="post"><div class="body"><p>{STORY}</p></div>{box}</div></body></html>'


class ParagraphClassifier(StubClassifier):
    """StubClassifier, each prediction's element its paragraph (or heading)."""

    def predict_blocks(self, root: etree._Element) -> list[Prediction]:
        predictions = []
        for element in root.find("body").iter("p", "h1"):
            block = text_blocks([element])[0]
            noise = any(word in block.text for word in self.boilerplate)
            predictions.append(Prediction(block, element, 0.0 if noise else 1.0, not noise))
        return predictions


def test_a_box_the_sample_never_had_is_judged_by_the_classifier() -> None:
    page = _boxed_page('<div class="slideshow"><p>Photo: Jane Doe for the Courier</p></div>')
    article = extract(BOXED, page, classifier=ParagraphClassifier("Photo"))
    assert article.method == "wrapper" and STORY in article.text and "Jane Doe" not in article.text
    # Only the unseen box is judged: the region's own paragraphs are the wrapper's, whatever the classifier says.
    assert STORY in extract(BOXED, page, classifier=ParagraphClassifier("Photo", "Dock")).text
    # A box the sample had is the wrapper's to keep too.
    seen = replace(BOXED, parts=frozenset({"div.body", "div.slideshow"}))
    assert "Jane Doe" in extract(seen, page, classifier=ParagraphClassifier("Photo")).text
    # A region whose boxes the sample all had runs no classifier at all.
    assert extract(seen, page, classifier=RefusingClassifier()).method == "wrapper"
    # Nor does any region of a wrapper learned without the classifier, which knows no box.
    assert "Jane Doe" in extract(replace(BOXED, parts=None), page, classifier=RefusingClassifier()).text


def test_a_region_mostly_of_boxes_the_sample_never_had_is_not_the_wrappers() -> None:
    listing = " ".join(f"<p>Harbour crane model {i} with a lifting capacity of {i * 10} tonnes, in stock.</p>" for i in range(12))
    article = extract(BOXED, _boxed_page(f'<div class="listing">{listing}</div>'), classifier=StubClassifier("Copyright"))
    assert article.method == "classifier" and article.notes
