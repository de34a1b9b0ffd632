"""Learning compiles the classifier's labels on the sample into the wrapper, and guards what it stores (small hand-made sites)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from lxml import etree

from forest.classifier.blocks import walk
from forest.classifier.predictor import BlockPrediction
from forest.config import Settings
from forest.extraction import extract
from forest.learning.consensus import PageLabels, SampleParts, _PageParts, _steps_below_anchor, consensus_exclusions
from forest.learning.induce import Inducer, _guarded_choice
from forest.model import Page
from forest.service.pages import learn_pages
from forest.storage import WrapperStore
from patterns.dom import PageIndex, index_page
from patterns.ranking import evaluate, score_page
from keywords.tfidf import tfidf_keywords

STORIES = [
    ("Harbour crane strike ends",
     "Dock workers at the northern harbour returned to the cranes on Monday after a nine day strike over night shift pay."),
    ("Orchard growers count frost damage",
     "Apple growers in the valley lost up to a third of their blossom to the late frost that settled in the low rows."),
    ("Library opens map room",
     "The city library opened a map room holding three centuries of surveys, coastal charts and estate plans drawn by hand."),
    ("Cyclists welcome river road lanes",
     "Painted cycle lanes now run the full length of the river road from the stone bridge to the old mill by the weir."),
    ("School kitchens switch to local produce",
     "Twelve school kitchens now buy carrots, cabbages and potatoes from farms within thirty miles of the town."),
    ("Observatory volunteers log meteor shower",
     "Volunteers at the hill observatory logged more than two hundred meteors under clear skies over the reservoir."),
]
NAV = '<ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul>'
FOOTER = '<div id="footer"><p>Copyright the Valley Courier, published every morning except Sunday on the market square.</p></div>'


def page(i: int, *, extra: str = "") -> str:
    title, lead = STORIES[i]
    follow_up = "said the {} story would be followed up next week in the paper."
    sentences = [lead] + [f"{word.capitalize()} {follow_up.format(title.lower())}" for word in lead.split()[:10]]
    paragraphs = "".join(f"<p>{s}</p>" for s in sentences[:5]) + "<h2>What happens next</h2>" + "".join(f"<p>{s}</p>" for s in sentences[5:])
    # The caption names the story once: too dense in its keywords for J x U alone to cut it,
    # less dense than the story.
    caption = (
        f'<div class="caption">Photograph of the {title.split()[0].lower()} by our staff photographer number {i} '
        "taken for the weekend picture desk and the archive</div>"
    )
    return (
        f"<html><head><title>{title}</title></head><body>{NAV}"
        f'<div id="main"><div class="story"><h1>{title}</h1>{caption}{paragraphs}{extra}</div></div>{FOOTER}</body></html>'
    )


class StubClassifier:
    """Labels a block boilerplate when ``rule(page number, block text)`` says so; the page number
    is read from the caption, so that labels can differ between pages."""

    def __init__(self, rule: Callable[[int, str], bool]) -> None:
        self.rule = rule

    def predict_blocks(self, root: etree._Element, *, confined: bool = True, landmarks: bool = True, typed: bool = True) -> list[BlockPrediction]:
        tree = walk(root.find("body"))
        number = next((int(b.text.split("number ")[1].split()[0]) for b in tree.blocks if "number " in b.text), -1)
        out = []
        for j, block in enumerate(tree.blocks):
            rejected = self.rule(number, block.text)
            out.append(BlockPrediction(j, block, tree.elements[int(tree.owner[j])], 0.0 if rejected else 1.0, not rejected))
        return out


def learn(pages: list[str], rule: Callable[[int, str], bool]) -> Inducer:
    sample = [Page(html, url=f"http://courier.test/{i}") for i, html in enumerate(pages)]
    return Inducer(Settings(), classifier=StubClassifier(rule)).fit(sample, site="courier.test")


def menus(number: int, text: str) -> bool:
    return text in ("Home", "News", "Sport") or text.startswith("Copyright")


def test_a_part_the_classifier_rejects_across_the_sample_becomes_an_exclusion() -> None:
    pages = [page(i) for i in range(5)]
    assert "//div[@class='caption']" not in learn(pages, menus).wrapper_.exclusions
    # One page's labels keep the caption (page 2): the site's consensus still cuts it.
    wrapper = learn(pages, lambda n, t: menus(n, t) or ("Photograph" in t and n != 2)).wrapper_
    assert "//div[@class='caption']" in wrapper.exclusions
    article = extract(wrapper, page(5), settings=Settings(classifier=False))
    assert article.method == "wrapper" and "Photograph" not in article.text and STORIES[5][1] in article.text


def test_code_the_classifier_rejects_across_the_sample_is_kept() -> None:
    def code(i: int) -> str:
        return f'<pre class="listing">gauge = read(station_{i}); if gauge > limit: alert(town, level_{i})</pre>'

    pages = [page(i, extra=code(i)) for i in range(5)]
    wrapper = learn(pages, lambda n, t: menus(n, t) or "gauge" in t or "Photograph" in t).wrapper_
    assert "//div[@class='caption']" in wrapper.exclusions  # the labels are read on this site ...
    assert not any("listing" in exclusion for exclusion in wrapper.exclusions)  # ... and the code stays
    assert "alert(town, level_5)" in extract(wrapper, page(5, extra=code(5)), settings=Settings(classifier=False)).text


def test_one_pages_rejection_is_not_a_consensus() -> None:
    promo = '<div class="promo">Subscribe to the morning briefing for more stories from the valley</div>'
    pages = [page(i, extra=promo if i == 0 else "") for i in range(5)]
    wrapper = learn(pages, lambda n, t: menus(n, t) or "Subscribe" in t).wrapper_
    assert "//div[@class='promo']" not in wrapper.exclusions


def test_a_part_dense_in_keywords_stays_whatever_the_classifier_says() -> None:
    # The summary repeats the article's lead: FOREST's evidence outranks the labels.
    pages = [page(i, extra=f'<div class="summary">{STORIES[i][1]}</div>') for i in range(5)]
    wrapper = learn(pages, lambda n, t: menus(n, t) or t in {s[1] for s in STORIES}).wrapper_
    assert not any("labels were not used" in note for note in wrapper.notes)  # trusted on this site ...
    assert "//div[@class='summary']" not in wrapper.exclusions  # ... but not against the keywords


def test_a_box_naming_the_story_is_cut_unless_its_keywords_are_far_denser() -> None:
    # A fact box names the story's subject among its own words (a company card, a gallery's
    # captions): a little denser in the keywords than the story, and boilerplate on every page.
    def box(i: int, fillers: int) -> str:
        title, lead = STORIES[i]
        named = " ".join((title.split() + lead.split())[:4])
        return f'<div class="facts">Fact file: {named} {" ".join("listed in the county register".split()[:fillers])}</div>'

    def rejecting(n: int, t: str) -> bool:
        return menus(n, t) or t.startswith("Fact file")

    card = learn([page(i, extra=box(i, 4)) for i in range(5)], rejecting).wrapper_
    assert "//div[@class='facts']" in card.exclusions
    # Half the words of the box are the story's keywords: FOREST's evidence outranks the labels.
    dense = learn([page(i, extra=box(i, 2)) for i in range(5)], rejecting).wrapper_
    assert "//div[@class='facts']" not in dense.exclusions


def test_a_list_of_links_is_cut_however_dense_its_keywords() -> None:
    # "More on this story": headlines that repeat the article's keywords, each a link.
    def related(i: int) -> str:
        title = STORIES[i][0]
        items = "".join(f'<li><a href="/{i}/{n}">{title} {word}</a></li>' for n, word in enumerate(("update", "reaction", "pictures")))
        return f'<ul class="related">{items}</ul>'

    def rejecting(n: int, t: str) -> bool:
        return menus(n, t) or t.startswith(STORIES[n][0])

    wrapper = learn([page(i, extra=related(i)) for i in range(5)], rejecting).wrapper_
    assert "//ul[@class='related']" in wrapper.exclusions
    # The same headlines as plain text are FOREST's evidence, as the summary above.
    plain = learn([page(i, extra=related(i).replace("<a ", "<span ").replace("</a>", "</span>")) for i in range(5)], rejecting).wrapper_
    assert "//ul[@class='related']" not in plain.exclusions


def test_a_few_links_under_a_label_are_a_list_of_links() -> None:
    # "Filed under:" and three topics named after the story: its keywords, densely, and 3 of 5 terms in links.
    def topics(i: int) -> str:
        links = ", ".join(f'<a href="/topic/{word}">{word}</a>' for word in STORIES[i][0].split()[:3])
        return f'<div class="filed">Filed under: {links}</div>'

    wrapper = learn([page(i, extra=topics(i)) for i in range(5)], lambda n, t: menus(n, t) or t.startswith("Filed under")).wrapper_
    assert "//div[@class='filed']" in wrapper.exclusions


def test_a_part_around_a_part_already_cut_is_not_cut_again() -> None:
    # The same promotion named twice, by its wrapper and by itself: one exclusion cuts it, and the
    # text it holds counts once against the share of the region consensus may cut.
    promo = ('<div id="promo-wrap"><div class="promo">Subscribe to the morning briefing for more stories '
             "from the valley, delivered before breakfast</div></div>")
    wrapper = learn([page(i, extra=promo) for i in range(5)], lambda n, t: menus(n, t) or t.startswith("Subscribe")).wrapper_
    named = {"//div[@class='promo']", "//div[@id='promo-wrap']"}
    assert len(named & set(wrapper.exclusions)) == 1


def test_a_classifier_that_contradicts_the_keywords_is_not_used() -> None:
    # It rejects the story's paragraphs, where the keywords are, and keeps the caption: as on a product or reference site.
    rule = lambda n, t: menus(n, t) or " said the " in t or t in {s[1] for s in STORIES}  # noqa: E731
    wrapper = learn([page(i) for i in range(5)], rule).wrapper_
    assert any("labels were not used" in note for note in wrapper.notes)
    assert "//div[@class='caption']" not in wrapper.exclusions


def item(i: int) -> str:
    """An item page: its description around a list of specifications, which hold none of its keywords."""
    title, lead = STORIES[i]
    more = " ".join(f"{word.capitalize()} said the {title.lower()} story would be followed up next week." for word in lead.split()[:6])
    specs = "".join(f"<li>{name}: {value + i}</li>" for name, value in (("Weight in kilograms", 2), ("Width in centimetres", 30)))
    return (
        f"<html><head><title>{title}</title></head><body>{NAV}<div id='item'><h1>{title}</h1><section>{lead}</section>"
        f"<ul class='specs'>{specs}</ul><div class='more'>{more}</div></div>{FOOTER}</body></html>"
    )


def test_where_the_classifier_contradicts_the_keywords_keyword_poor_parts_are_kept() -> None:
    # On a site of articles, a keyword-poor part inside the region is boilerplate; where the
    # classifier rejects the description (a product site), it is the item's specifications.
    assert "//ul[@class='specs']" in learn([item(i) for i in range(5)], menus).wrapper_.exclusions
    wrapper = learn([item(i) for i in range(5)], lambda n, t: menus(n, t) or " said the " in t or t in {s[1] for s in STORIES}).wrapper_
    assert any("labels were not used" in note for note in wrapper.notes)
    article = extract(wrapper, item(5), settings=Settings(classifier=False))
    assert article.method == "wrapper" and "Weight in kilograms: 7" in article.text



NOTICES = "weather tide timetable ferry parking council meeting market stall opening hours bus route".split()


def blog_post(i: int, notices: int) -> str:
    """A story followed by keyword-poor notices the classifier keeps and a reader's reply it rejects."""
    notes = "".join(f"<p>The {NOTICES[(i + j) % len(NOTICES)]} notice {j} for week {i + j} is pinned at the town hall.</p>"
                    for j in range(notices))
    reply = f'<p class="reply">Posted by reader number {i} on the morning of day {i}. Verify your comment before it goes up.</p>'
    return page(i, extra=notes + reply)


@pytest.mark.parametrize(("notices", "cut"), [(20, True), (12, False)], ids=["an article's pages", "an item's pages"])
def test_where_the_classifier_contradicts_the_keywords_on_an_articles_pages_its_labels_still_cut_parts(
    notices: int, cut: bool
) -> None:
    # It rejects the story's dense paragraphs (not trusted on the site), but they are under half of
    # the region (consensus.MIN_ITEM_SHARE): the reply it rejects on every page is cut part by part.
    # Where it rejects most of the region, as on an item's pages, nothing is cut by its labels.
    rule = lambda n, t: menus(n, t) or "reader" in t or " said the " in t or t in {s[1] for s in STORIES}  # noqa: E731
    wrapper = learn([blog_post(i, notices) for i in range(5)], rule).wrapper_
    assert not wrapper.classifier_agrees
    assert ("//p[@class='reply']" in wrapper.exclusions) is cut
    article = extract(wrapper, blog_post(5, notices), settings=Settings(classifier=False))
    assert article.method == "wrapper" and STORIES[5][1] in article.text and ("Verify your comment" in article.text) is not cut


SHIPPING = "Ships from the valley store within two working days"


@pytest.mark.parametrize(
    ("rule", "kept"),
    [
        (menus, False),  # trusted: the line every item repeats is the template's
        (lambda n, t: menus(n, t) or " said the " in t or t in {s[1] for s in STORIES}, True),  # 85% rejected
        (lambda n, t: t not in {s[0] for s in STORIES}, True),  # all but the headline rejected
    ],
    ids=["trusted", "description rejected", "all but the headline rejected"],
)
def test_where_the_classifier_rejects_most_of_an_items_region_its_repeated_lines_are_content(
    rule: Callable[[int, str], bool], kept: bool
) -> None:
    items = [item(i).replace("<ul class='specs'>", f"<p>{SHIPPING}</p><ul class='specs'>") for i in range(6)]
    wrapper = learn(items[:5], rule).wrapper_
    assert wrapper.classifier_agrees is not kept and (SHIPPING in wrapper.template_blocks) is not kept
    article = extract(wrapper, items[5], settings=Settings(classifier=False))
    assert article.method == "wrapper" and (SHIPPING in article.text) is kept


def test_a_classifier_that_keeps_almost_nothing_of_the_region_is_not_used() -> None:
    # It keeps the headline alone, as on an item page unlike its training pages: the headline holds
    # the keywords as densely as the rest, so only the share it rejects shows it is lost here.
    wrapper = learn([page(i) for i in range(5)], lambda n, t: t != STORIES[n][0]).wrapper_
    assert any("unlike its training pages" in note for note in wrapper.notes)
    assert "//div[@class='caption']" not in wrapper.exclusions
    article = extract(wrapper, page(5), settings=Settings(classifier=False))
    assert article.method == "wrapper" and STORIES[5][1] in article.text


def test_without_pages_there_is_nothing_to_cut() -> None:
    assert consensus_exclusions([], [], SampleParts.of([], [])) == []


def scored(htmls: list[str]):  # type: ignore[no-untyped-def]
    indexes = [index_page(etree.HTML(h).find("body")) for h in htmls]
    texts = [" ".join(t for terms in ix.terms for t in terms) for ix in indexes]
    return [score_page(ix, kw) for ix, kw in zip(indexes, tfidf_keywords(texts))]


def test_a_menu_region_is_refused_and_the_choice_made_again() -> None:
    archive = "<select id='archive'>" + "".join(f"<option>{m} 2024</option>" for m in ("January", "February", "March")) + "</select>"
    pages = scored([page(i, extra=archive) for i in range(4)])
    story, menu = evaluate(pages, "//div[@class='story']"), evaluate(pages, "//select[@id='archive']")
    # Whatever the scores say, a dropdown is never the article.
    menu = type(menu)(menu.pattern, tuple(10 * s + 1 for s in story.page_scores), menu.page_terms)
    choice, refused = _guarded_choice([menu, story], pages, max_alternates=0)
    assert refused == 1 and choice.patterns[0].pattern.xpath == "//div[@class='story']"


def test_the_whole_body_is_refused() -> None:
    pages = scored([page(i) for i in range(4)])
    body, story = evaluate(pages, "//body"), evaluate(pages, "//div[@class='story']")
    body = type(body)(body.pattern, tuple(10 * s + 1 for s in story.page_scores), body.page_terms)
    choice, refused = _guarded_choice([body, story], pages, max_alternates=0)
    assert refused == 1 and choice.patterns[0].pattern.xpath == "//div[@class='story']"


@pytest.mark.parametrize(
    ("landmark", "refused"),
    [
        ("<footer>{}</footer>", 1),
        ("<div role='contentinfo'>{}</div>", 1),
        ("<nav>{}</nav>", 1),
        ("<div role='navigation'>{}</div>", 1),
        ("{}", 0),  # the same sentence, in no landmark: its scores choose it
    ],
)
def test_a_footer_or_navigation_region_is_refused(landmark: str, refused: int) -> None:
    # A site footer's legal text is sentence-like and the same on every page: scores may rank it first.
    pages = scored([page(i).replace(FOOTER, landmark.format(FOOTER)) for i in range(4)])
    footer, story = evaluate(pages, "//div[@id='footer']"), evaluate(pages, "//div[@class='story']")
    footer = type(footer)(footer.pattern, tuple(10 * s + 1 for s in story.page_scores), footer.page_terms)
    choice, n = _guarded_choice([footer, story], pages, max_alternates=0)
    assert n == refused and choice.patterns[0].pattern.xpath == ("//div[@class='story']" if refused else "//div[@id='footer']")


def test_past_the_refusal_limit_no_refused_region_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("forest.learning.induce.MAX_REFUSED", 0)
    pages = scored([page(i) for i in range(4)])
    body, story = evaluate(pages, "//body"), evaluate(pages, "//div[@class='story']")
    body = type(body)(body.pattern, tuple(10 * s + 1 for s in story.page_scores), body.page_terms)
    choice, refused = _guarded_choice([body, story], pages, max_alternates=1)
    assert refused == 1 and choice.patterns == () and set(choice.assignment) == {-1}


def test_agreeing_with_the_classifier_never_brings_the_body_back() -> None:
    # The classifier keeps the long footer too: the body, cleaned, agrees with it best.
    footer = '<div id="footer"><p>' + " ".join([FOOTER.split("<p>")[1].split("</p>")[0]] * 6) + "</p></div>"
    wrapper = learn([page(i).replace(FOOTER, footer) for i in range(5)], lambda n, t: False).wrapper_
    root = etree.HTML(page(5).replace(FOOTER, footer))
    assert root.find("body") not in root.xpath(wrapper.main.xpath)


def test_a_wrapper_from_one_page_says_so_and_lowers_its_confidence() -> None:
    inducer = learn([page(0)], menus)
    assert any("learned from 1 usable page" in note for note in inducer.wrapper_.notes)
    article = extract(inducer.wrapper_, page(5), settings=Settings(classifier=False))
    assert article.method == "wrapper" and article.confidence <= 0.34


def test_a_relearn_that_does_worse_on_both_samples_is_kept_out(tmp_path: Path) -> None:
    good = [Page(page(i), url=f"http://courier.test/{i}") for i in range(5)]
    # A page of another layout: learned alone, its pattern fits none of the first sample.
    other = Page(
        "<html><body>" + NAV + "<table><tr><td class='text'>" + "".join(f"<font>{STORIES[5][1]} {w}</font><br>" for w in "abc")
        + "</td></tr></table>" + FOOTER + "</body></html>",
        url="http://courier.test/old/5",
    )
    settings = Settings(classifier=False)
    with WrapperStore(tmp_path / "f.db") as store:
        first, report = learn_pages(good, site="courier.test", settings=settings, store=store)
        assert report.version == 1
        kept, again = learn_pages([other], site="courier.test", settings=settings, store=store)
        assert kept == first and again.version == 1
        assert any("kept the stored wrapper (version 1)" in note for note in again.notes)
        assert store.info("courier.test").version == 1  # type: ignore[union-attr]
        better, third = learn_pages(good[:4], site="courier.test", settings=settings, store=store)
        assert third.version == 2


def test_a_comment_thread_is_no_evidence_against_the_classifier() -> None:
    # Readers quote the story, so the thread is as dense in its keywords as the story itself;
    # the classifier rejects the thread (rightly): that must not make it look like a product site.
    def thread(i: int) -> str:
        said = "".join(f'<div class="comment"><p>Reader {k} wrote: {STORIES[i][1]}</p></div>' for k in range(6))
        return f'<div id="comments">{said}</div>'

    pages = [page(i, extra=thread(i)) for i in range(5)]
    wrapper = learn(pages, lambda n, t: menus(n, t) or t.startswith("Reader")).wrapper_
    assert not any("labels were not used" in note for note in wrapper.notes)
    assert wrapper.comments == "//div[@id='comments']"
    article = extract(wrapper, page(5, extra=thread(5)), settings=Settings(classifier=False))
    assert article.method == "wrapper" and "Reader" not in article.text and STORIES[5][1] in article.text


def test_a_thread_on_one_page_is_the_sites_when_the_classifier_rejects_it_there() -> None:
    thread = '<div id="comments"><p>Reader one wrote that the paper should cover the valley more often.</p></div>'
    pages = [page(i, extra=thread if i == 0 else "") for i in range(5)]
    # Its name alone, on one page of five, is a coincidence; with the classifier's labels it is the site's thread.
    assert learn(pages, menus).wrapper_.comments == ""
    assert learn(pages, lambda n, t: menus(n, t) or t.startswith("Reader")).wrapper_.comments == "//div[@id='comments']"


def test_numbered_containers_on_one_page_are_not_learned() -> None:
    # Each comment carries its own generated id: a name no other page will carry, so no rule of the site.
    comments = "".join(
        f'<div id="comment_{40748797 + k}"><p>Reader {k} wrote that the paper should cover the valley more often.</p></div>'
        for k in range(3)
    )
    pages = [page(i, extra=comments if i == 0 else "") for i in range(5)]
    wrapper = learn(pages, lambda n, t: menus(n, t) or t.startswith("Reader")).wrapper_
    assert wrapper.comments == ""
    assert not any("comment_" in x for x in wrapper.exclusions)


def test_parts_inside_a_region_are_each_keys_outermost_matches() -> None:
    # Nested parts of one key, anchored paths whose anchor sits outside the region, and the region
    # itself: the arrays must find what a walk over each key's matches finds.
    html = (
        "<html><body><div id='main'><div class='box'><p>a</p><div class='box'><p>b</p></div></div>"
        "<section class='side'><div class='box'><p>c</p></div><p>d</p></section></div>"
        "<div class='box'><p>e</p></div></body></html>"
    )
    root = etree.fromstring(html, etree.HTMLParser())
    index = index_page(root.find("body"))
    page = score_page(index, tfidf_keywords(["a b c d e"], k=5)[0])
    ids: dict[str, int] = {}
    parts = _PageParts.of(page, PageLabels((), (), ()), ids)
    names = {v: k for k, v in ids.items()}
    for node in range(len(index.elements)):
        keys, elements = parts.outermost([node])
        found = sorted((names[k], e) for k, e in zip(keys.tolist(), elements.tolist()))
        expected = []
        for key, matched in index.keys.items():
            steps = _steps_below_anchor(key)
            if steps is None:
                continue
            inside = [i for i in matched if node < i <= index.end[node] and node < _up(index, i, steps) <= index.end[node]]
            expected.extend((key, i) for i in index.outermost(inside))
        assert found == sorted(expected), index.elements[node].tag


def test_the_labelled_characters_of_elements_are_their_totals() -> None:
    # _PageParts.labelled, read from lists for the few elements a judged region holds, against the arrays' sums.
    html = ("<html><body><div id='main'><h1>Harbour crane strike ends</h1><p>Dock workers returned on Monday.</p>"
            "<div class='box'><p>Share this</p><p>Most read</p></div></div><p>Copyright the Courier</p></body></html>")
    index = index_page(etree.fromstring(html, etree.HTMLParser()).find("body"))
    page = score_page(index, tfidf_keywords(["harbour crane dock workers"], k=5)[0])
    texts = [e for e in index.elements if e.tag in ("h1", "p")]
    labels = PageLabels(tuple(e.text for e in texts), tuple(texts), tuple(e.tag == "h1" or "Dock" in e.text for e in texts))
    parts = _PageParts.of(page, labels, {})
    chosen = [[node] for node in range(len(index.elements))] + [[], [3, 5, 6], [1, 7]]
    for elements in chosen:
        totals = parts.totals(np.asarray(elements, dtype=np.int64)).sum(axis=0)
        assert parts.labelled(elements) == (int(totals[0]), int(totals[1]))
    assert parts.labelled([0]) == (len("Share this") + len("Most read") + len("Copyright the Courier"),
                                   len("Harbour crane strike ends") + len("Dock workers returned on Monday."))


def test_a_regions_tallies_are_the_dense_bincount_over_every_key_and_read_once() -> None:
    # _RegionParts keeps the keys a region's parts are of and their columns' sums: _consensus adds them
    # where it added one bincount over all the sample's keys per page (the reference, below).
    html = ("<html><body><div id='main'><h1>Harbour crane strike ends</h1><p>Dock workers returned on Monday.</p>"
            "<div class='box'><p>Share this</p><p><a href='/x'>Most read</a></p><img src='a.png'></div>"
            "<div class='box'><p class='x'>Crane news</p></div></div><p>Copyright the Courier</p></body></html>")
    index = index_page(etree.fromstring(html, etree.HTMLParser()).find("body"))
    page = score_page(index, tfidf_keywords(["harbour crane dock workers"], k=5)[0])
    texts = [e for e in index.elements if e.tag in ("h1", "p")]
    labels = PageLabels(tuple("".join(e.itertext()) for e in texts), tuple(texts), tuple(e.tag == "h1" or "Dock" in (e.text or "") for e in texts))
    ids: dict[str, int] = {}
    parts = _PageParts.of(page, labels, ids)
    n_keys = len(ids)
    for region in [[node] for node in range(len(index.elements))] + [[], [3, 5], [1, 2, 3]]:
        part = parts.region(region)
        keys, elements = parts.outermost(region)
        totals = parts.totals(elements)
        totals[parts.linked[elements], 4] = 0
        n_columns = totals.shape[1]
        bins = (keys[:, None] * n_columns + np.arange(n_columns)).ravel()
        dense = np.bincount(bins, weights=totals.ravel(), minlength=n_keys * n_columns).reshape(n_keys, n_columns).astype(np.int64)
        tallied = np.zeros_like(dense)
        tallied[part.present] += part.tallied
        assert (tallied == dense).all() and part.tallied.dtype == dense.dtype
        assert (part.present == np.flatnonzero(np.bincount(keys, minlength=n_keys) > 0)).all()
        assert (part.keys == keys).all() and (part.elements == elements).all()
        assert (part.total == parts.totals(np.asarray(region, dtype=np.int64)).sum(axis=0)).all()
        assert parts.region(list(region)) is part and not part.tallied.flags.writeable


def _up(index: PageIndex, i: int, steps: int) -> int:
    for _ in range(steps):
        i = index.parent[i]
    return i


def test_a_short_dateline_is_not_dense_by_two_of_its_words() -> None:
    # A dateline on five pages: 31 terms, 5 of them keywords (the story's month and year), all
    # boilerplate.  The rest of the region: 495 keywords in 3,969 terms.  Raw densities make the
    # dateline 1.29 times as dense as the rest (5/31 against 495/3969), over MIN_DENSITY_RATIO;
    # FOREST's J, Jeffreys' estimate less one standard deviation, does not:
    # J(5 of 31) = (5.5 - sqrt(5.5 * 26.5 / 31)) / 32 = 0.1041, J(495 of 3969) = 0.1196.
    from forest.learning.consensus import _cuttable

    region = np.array([2_000, 30_000, 500, 4_000, 0, 0, 0])
    dateline = [253, 0, 5, 31, 0, 0, 0]
    # A box as dense as the dateline but with the words to show it (100 keywords in 400 terms:
    # J = 0.229) is the article's evidence and stays.
    box = [2_000, 0, 100, 400, 0, 0, 0]
    assert _cuttable(np.array([dateline, box]), region).tolist() == [True, False]


def test_cut_steps_are_kept_per_key_and_the_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from forest.learning import consensus

    monkeypatch.setattr(consensus, "_CUT_STEPS", {})
    monkeypatch.setattr(consensus, "CUT_STEPS_KEPT", 3)
    keys = ["//div[@class='x']/div/p", "//figure", "//div[@id='a']/pre", "//p", "//div[@class='y']"]
    assert [consensus._cut_steps(key) for key in keys] == [2, 0, None, None, 0]
    assert len(consensus._CUT_STEPS) <= 3  # emptied when full, not grown
    assert [consensus._cut_steps(key) for key in keys] == [2, 0, None, None, 0]  # the same read from the cache
