"""The article's structure and its renderings, on a hand-made site with every structure (tests/unit/structure_site.py)."""

from __future__ import annotations

import json
import re

import pytest
from lxml import html as lxml_html

from forest.article import markdown
from forest.article.render import render
from forest.article.structure import Document, Leaf, Span
from forest.config import Settings
from forest.extraction import extract
from forest.learning.induce import Inducer
from forest.model import Article, Page
from forest.wrapper import Wrapper
from patterns.text import text_blocks

from structure_site import META_MARKDOWN, SITE, page

HELD_OUT = 5


@pytest.fixture(scope="module")
def wrapper() -> Wrapper:
    pages = [Page(page(i)[0], url=f"https://{SITE}/news/{i}.html", site=SITE) for i in range(HELD_OUT)]
    return Inducer(Settings()).fit(pages, SITE).wrapper_


def _extract(wrapper: Wrapper, *, comments: bool = False) -> Article:
    html, _ = page(HELD_OUT)
    return extract(wrapper, html, url=f"https://{SITE}/news/{HELD_OUT}.html", settings=Settings(comments=comments, html=True))


@pytest.fixture(scope="module")
def article(wrapper: Wrapper) -> Article:
    return _extract(wrapper)


def test_markdown_has_headings_lists_table_quote_code_and_figure(article: Article) -> None:
    md = render(article, "markdown", images=True)
    lines = md.splitlines()
    assert lines[0] == f"# {page(HELD_OUT)[1]}"
    assert "## What the audience said" in lines
    assert "### The rehearsal in detail" in lines
    assert sum(line.startswith("- ") for line in lines) == 2
    assert [line[:3] for line in lines if re.match(r"\d\. ", line)] == ["1. ", "2. ", "3. "]
    assert "| Theatre year | Theatre count |" in lines and "| --- | --- |" in lines and "| 2005 | 15 |" in lines
    assert any(line.startswith("> Students") for line in lines)
    assert '```\ncount = survey("theatre")\nprint(count * 2)\n```' in md
    # The figure keeps its image; its caption is cut by learning, as cold extraction drops captions.
    assert "![The theatre](https://gazette.test/img/theatre.jpg)" in md
    assert "The premiere at dawn" not in md


def test_markdown_escapes_metacharacters(article: Article) -> None:
    assert META_MARKDOWN.format(i=HELD_OUT) in render(article, "markdown").splitlines()


@pytest.mark.parametrize(
    ("text", "expected"),
    [("# x", r"\# x"), ("1. x", r"1\. x"), ("- x", r"\- x"), ("> x", r"\> x"), ("a *b* _c_", r"a \*b\* \_c\_"),
     ("[a](b)", r"\[a\](b)"), ("<i>", r"\<i>"), ("&amp;", r"\&amp;"), ("a\\b", "a\\\\b")],
    ids=["heading", "ordered", "bullet", "quote", "emphasis", "link", "html", "entity", "backslash"],
)
def test_markdown_escape(text: str, expected: str) -> None:
    assert markdown.render(markdown_document(text)).strip() == expected


def markdown_document(text: str) -> Document:
    return Document((Leaf(text, (Span(text),)),))


def test_links_and_images_are_kept_only_when_asked(article: Article) -> None:
    plain = render(article, "markdown")
    assert "See the theatre report for more." in plain and "![" not in plain
    linked = render(article, "markdown", links=True)
    assert "See [the theatre report](https://gazette.test/theatre/more.html) for more." in linked


def test_html_has_exactly_the_text_lines(article: Article) -> None:
    fragment = lxml_html.fragment_fromstring(article.html, create_parent="div")
    assert "\n".join(b.text for b in text_blocks([fragment])) == article.text


def test_html_has_no_script_style_handler_form_or_frame(article: Article) -> None:
    fragment = lxml_html.fragment_fromstring(article.html, create_parent="div")
    tags = {e.tag for e in fragment.iter()}
    assert not tags & {"script", "style", "form", "input", "button", "iframe", "nav", "aside"}
    assert not [a for e in fragment.iter() for a in e.attrib if a.startswith("on")]
    assert fragment.xpath("//a/@href") == ["https://gazette.test/theatre/more.html"]
    assert {"h1", "h2", "h3", "ul", "ol", "table", "blockquote", "pre", "figure", "img"} <= tags


def test_the_structure_does_not_change_the_text(wrapper: Wrapper, article: Article) -> None:
    html, _ = page(HELD_OUT)
    assert extract(wrapper, html).text == article.text
    assert article.document is not None and article.document.text == article.text


def test_text_prints_the_title_once_then_the_byline(article: Article) -> None:
    lines = render(article, "text").splitlines()
    assert lines[0] == page(HELD_OUT)[1]
    assert lines[1] == "by Ruth Adeyemi, 2024-04-16T09:15:00+02:00"  # the time the page states, in its own offset
    assert page(HELD_OUT)[1] not in lines[1:]


def test_the_byline_is_not_printed_over_the_articles_own() -> None:
    stated = Article(title="Maps on show", text="By Ruth  Adeyemi, 16 April\nTwelve maps.", method="wrapper", confidence=1.0,
                     author="Ruth Adeyemi", date="2024-04-16")
    assert render(stated, "text").splitlines() == ["Maps on show", "", "By Ruth  Adeyemi, 16 April", "Twelve maps."]
    unstated = Article(title="Maps on show", text="Twelve maps.", method="wrapper", confidence=1.0, author="Ruth Adeyemi")
    assert render(unstated, "text").splitlines()[1] == "by Ruth Adeyemi"


def test_the_title_loses_the_sites_decoration(wrapper: Wrapper, article: Article) -> None:
    assert wrapper.title_affixes == ("", " | The Gazette")
    assert article.title == page(HELD_OUT)[1]


def test_comments_are_learned_and_left_out_by_default(wrapper: Wrapper, article: Article) -> None:
    assert wrapper.comments == "//div[@id='comments']"
    assert "I walked past" not in article.text
    assert article.comments is None and "comments" not in article.to_dict()


def test_comments_on_request_come_separately_and_after_the_article(wrapper: Wrapper, article: Article) -> None:
    with_comments = _extract(wrapper, comments=True)
    assert with_comments.text == article.text
    assert with_comments.comments is not None and "I walked past the theatre" in with_comments.comments.text
    assert "I walked past the theatre" in json.loads(json.dumps(with_comments.to_dict()))["comments"]
    for output_format in ("text", "markdown"):
        rendered = render(with_comments, output_format)
        assert rendered.index("I walked past") > rendered.index("Engineers theatre")


def test_missing_title_author_and_date_are_null() -> None:
    record = Article(text="text", method="none", confidence=0.0).to_dict()
    assert (record["title"], record["author"], record["date"]) == (None, None, None)


def test_nested_lists_and_separate_lists_in_html() -> None:
    from forest.article import clean_html
    from forest.article.structure import build

    root = lxml_html.fromstring("<div><ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul><ul><li>three</li></ul></div>")
    document = build([root])
    assert clean_html.render(document).replace("\n", "") == (
        "<ul><li><p>one</p><ul><li><p>inner</p></li></ul></li><li><p>two</p></li></ul><ul><li><p>three</p></li></ul>"
    )
    assert markdown.render(document) == "- one\n    - inner\n- two\n\n- three\n"


def test_a_date_without_an_author_is_printed_alone() -> None:
    dated = Article(title="Maps on show", text="Twelve maps.", method="wrapper", confidence=1.0, date="2024-04-16")
    assert render(dated, "text").splitlines()[:2] == ["Maps on show", "2024-04-16"]
