"""A site's comment containers: learned together, cut whatever their length, left out of the region sizes."""

from __future__ import annotations

import random

import pytest
from lxml import html as lxml_html

from forest import region
from forest.config import Settings
from forest.extraction import extract
from forest.learning.comments import COMMENT_SECTIONS, CommentNamed, comments_named_so, learn_comments
from forest.learning.induce import Inducer
from forest.model import Page
from forest.wrapper import Wrapper
from patterns.model import Pattern
from span_site import learned, page
from test_induce import ARTICLES

SITE = "blog.test"
WORDS = "harbour trawler quay fishermen tide crane cargo pier orchard apple blossom frost growers cider pruning harvest".split()
N_COMMENTS = 12


def _sentence(rng: random.Random, topic: list[str]) -> str:
    return " ".join(rng.choice([*topic, "the", "and", "of", "residents", "council"]) for _ in range(14)).capitalize() + "."


def _page(i: int) -> tuple[str, list[str]]:
    """A short post followed, in the same container, by a thread five times its length; and the thread's sentences."""
    rng = random.Random(i)
    topic = WORDS[(i * 3) % len(WORDS):][:6]
    article = "".join(f"<p>{_sentence(rng, topic)} {_sentence(rng, topic)}</p>" for _ in range(3))
    said = [_sentence(rng, topic) for _ in range(N_COMMENTS)]
    thread = "".join(f'<li class="comment"><p class="who">Reader {k}</p><p>{s}</p></li>' for k, s in enumerate(said))
    html = f"""<html><head><title>Story {i}</title></head><body>
<nav><a href="/">Home</a> <a href="/news/">News</a></nav>
<div class="responsive-grid"><p>Our layout grid holds this sidebar text on every page of the site.</p></div>
<div id="post"><h1>Story {i} about the {topic[0]}</h1>{article}
<div id="comments"><h3>{N_COMMENTS} comments</h3><ol class="commentlist">{thread}</ol></div>
<div id="respond"><h3>Leave a reply</h3><form><p>Your name and email address will not be published.</p></form></div>
</div><footer>The Blog, 2024. All rights reserved.</footer></body></html>"""
    return html, said


def _tree(i: int) -> lxml_html.HtmlElement:
    return lxml_html.document_fromstring(_page(i)[0])


def _named(pages: list[tuple[lxml_html.HtmlElement, list[lxml_html.HtmlElement]]]) -> list[tuple[CommentNamed, list[lxml_html.HtmlElement]]]:
    return [(CommentNamed.of(root), region) for root, region in pages]


def test_every_recurring_comment_container_is_learned_the_thread_first() -> None:
    pages = [(root, root.xpath("//div[@id='post']/p")) for root in map(_tree, range(4))]
    # The list holds the most text: it is the thread extraction reads; the reply form is cut too.
    # A "responsive" layout class does not name a comment container.
    assert learn_comments(_named(pages)) == ("//div[@id='comments']", "//div[@id='respond']")


def test_a_container_on_one_page_only_is_not_the_sites() -> None:
    pages = [(root, root.xpath("//div[@id='post']/p")) for root in map(_tree, range(4))]
    for root, _ in pages[1:]:
        for element in root.xpath("//div[@id='respond']"):
            element.getparent().remove(element)
    assert learn_comments(_named(pages)) == ("//div[@id='comments']",)


def test_the_thread_is_cut_even_when_it_outweighs_the_article() -> None:
    html, said = _page(9)
    plain = Wrapper(SITE, (Pattern("//div[@id='post']", 1.0, 1, 3, terms=100),), exclusions=("//div[@id='comments']",))
    _, kept = region.select(lxml_html.document_fromstring(html), plain, "//div[@id='post']")
    # As an ordinary exclusion, a part holding most of the region is taken for a wrapper div and kept ...
    assert said[0] in region.to_text(kept)
    threaded = Wrapper(SITE, plain.patterns, exclusions=plain.exclusions, comments="//div[@id='comments']")
    _, cut = region.select(lxml_html.document_fromstring(html), threaded, "//div[@id='post']")
    # ... the site's learned thread is cut whatever its length.
    assert not any(s in region.to_text(cut) for s in said)
    assert "Story 9 about" in region.to_text(cut)


@pytest.fixture(scope="module")
def wrapper() -> Wrapper:
    pages = [Page(_page(i)[0], url=f"https://{SITE}/{i}.html", site=SITE) for i in range(5)]
    return Inducer(Settings()).fit(pages, SITE).wrapper_


def test_region_sizes_are_learned_as_extraction_measures_them(wrapper: Wrapper) -> None:
    html, said = _page(7)
    article = extract(wrapper, html, url=f"https://{SITE}/7.html")
    assert article.method == "wrapper"
    assert "Story 7 about" in article.text and not any(s in article.text for s in said)
    # The pattern's median size is the post's, not the post's with its thread (five times longer).
    n_words = len(article.text.split())
    assert 0.5 * n_words <= wrapper.main.terms <= 1.5 * n_words


class _Recording:
    """A classifier that keeps every block and remembers whether it saw the thread."""

    def __init__(self) -> None:
        self.saw_thread = False

    def predict_blocks(self, root: lxml_html.HtmlElement, *, confined: bool = True, landmarks: bool = True, typed: bool = True) -> list[object]:
        self.saw_thread = bool(root.xpath("//div[@id='comments']"))
        return []


def test_a_page_no_pattern_fits_is_read_as_served_thread_included() -> None:
    # The thread is cut by the pattern's region on its way to failing the size check (it
    # expects regions ten times larger): the fallback reads the page again, whole.
    wrapper = Wrapper(SITE, (Pattern("//div[@id='post']", 1.0, 1, 3, terms=5000),), comments="//div[@id='comments']")
    recording = _Recording()
    extract(wrapper, _page(9)[0], settings=Settings(), classifier=recording)
    assert recording.saw_thread


def _beside(i: int) -> tuple[str, list[str]]:
    """A post whose comments are its container's other children, as an old table layout puts them."""
    rng = random.Random(i)
    topic = WORDS[(i * 3) % len(WORDS):][:6]
    said = [_sentence(rng, topic) for _ in range(4)]
    comments = "".join(f'<div class="commentbody by-reader-{k}"><p>{s}</p></div>' for k, s in enumerate(said))
    article = "".join(f"<p>{_sentence(rng, topic)} {_sentence(rng, topic)}</p>" for _ in range(3))
    html = (f'<html><body><table><tr><td class="content"><div class="entry"><h1>Story {i}</h1>{article}</div>'
            f"{comments}</td></tr></table></body></html>")
    return html, said


def test_comments_a_broad_pattern_selects_beside_the_article_are_learned_and_left_out() -> None:
    xpath = "//td[@class='content']/div"
    pages = [(root, root.xpath(xpath)) for root in (lxml_html.document_fromstring(_beside(i)[0]) for i in range(4))]
    thread = "//div[contains(concat(' ', normalize-space(@class), ' '), ' commentbody ')]"
    assert learn_comments(_named(pages)) == (thread,)
    html, said = _beside(9)
    wrapper = Wrapper(SITE, (Pattern(xpath, 1.0, 1, 3, terms=100),), comments=thread)
    nodes, blocks = region.select(lxml_html.document_fromstring(html), wrapper, xpath)
    assert [node.get("class") for node in nodes] == ["entry"]
    assert "Story 9" in region.to_text(blocks) and not any(s in region.to_text(blocks) for s in said)


def test_a_comment_section_no_sample_page_showed_is_left_out_by_its_name() -> None:
    wrapper = learned()  # its sample pages have no comments
    assert set(COMMENT_SECTIONS) <= set(wrapper.exclusions)
    title, paragraphs = ARTICLES[5]
    thread = '<div class="comment-list"><div class="comment">Great piece, thanks for writing it up so clearly.</div></div>'
    article = extract(wrapper, page(title, [*paragraphs, thread]), settings=Settings(classifier=False))
    assert article.method == "wrapper" and paragraphs[-1] in article.text and "Great piece" not in article.text


def test_a_site_that_names_its_articles_parts_comment_keeps_them() -> None:
    def region(body: str) -> list[lxml_html.HtmlElement]:
        return [lxml_html.fromstring(f"<div class='post'>{body}</div>")]

    prose = "<p>The harbour reopened on Monday after a week of storms and repairs to the quay.</p>"
    assert comments_named_so([region(prose), region(prose + "<aside>More news</aside>")], [], frozenset())
    named = region(f"<div class='commentary-text'>{prose}</div>")
    assert not comments_named_so([region(prose), named], [], frozenset())
    # What another exclusion cuts already is no evidence either way.
    cut = region(prose + "<div class='sidebar'><div class='comment-count'>3 comments</div></div>")
    assert comments_named_so([cut], ["//div[@class='sidebar']"], frozenset())
    # An exclusion XSLT cannot match is cut from the tree at extraction: no evidence is read.
    assert not comments_named_so([region(prose)], ["//div/.."], frozenset())
