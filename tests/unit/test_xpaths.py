"""forest.xpaths: a leading step in its quickest form (an id lookup, one descendant step), with the same result."""

from __future__ import annotations

import pytest
from lxml import etree

from forest.html import parse_html
from forest.xpaths import by_id, compiled, quick_form

PAGE = parse_html(
    "<html><body><div id='main'><div id='story' class='s'><p>One</p><div class='body'><p>Two</p></div></div>"
    "<div class='s'><p>Three</p></div><div id='x'><p>Four</p></div><div id='x'><p>Five</p></div></div></body></html>"
)


@pytest.mark.parametrize(
    ("xpath", "rewritten"),
    [
        ("//div[@id='story']", "id('story')/self::div"),
        ("//div[@id='story']/p", "id('story')/self::div/p"),
        ("//div[@id='story'][.//div[@class='body']]", "id('story')/self::div[.//div[@class='body']]"),
        ("//div[@id='story'][@class='s']", "id('story')/self::div[@class='s']"),
        # Counted among siblings, a position would find nothing on the self axis: left alone.
        ("//div[@id='story'][2]", "//div[@id='story'][2]"),
        ("//div[@id='a b']", "//div[@id='a b']"),
        ("//div[@class='s']", "//div[@class='s']"),
        ("//p//div[@id='story']", "//p//div[@id='story']"),
    ],
)
def test_only_a_leading_id_step_is_rewritten(xpath: str, rewritten: str) -> None:
    assert by_id(xpath) == rewritten


@pytest.mark.parametrize(
    "xpath",
    ["//div[@id='story']", "//div[@id='story']/p", "//div[@id='story'][.//div[@class='body']]",
     "//div[@id='story'][.//table]", "//span[@id='story']", "//div[@id='main']/div[@class='s']"],
)
def test_the_lookup_finds_what_the_scan_finds(xpath: str) -> None:
    assert compiled(xpath)(PAGE) == etree.XPath(xpath)(PAGE)


def test_a_shared_id_reads_its_first_element() -> None:
    # Invalid HTML; the lookup reads the first, as the fields and a region's outermost match do.
    assert [e.findtext("p") for e in compiled("//div[@id='x']")(PAGE)] == ["Four"]


def test_an_id_whose_first_element_does_not_fit_is_scanned_for() -> None:
    # A skip link shares the article's id: id() finds the link, the scan finds the article.
    page = parse_html("<html><body><a id='content' href='#content'>Skip</a><div id='content'><p>Story</p></div></body></html>")
    assert [e.tag for e in compiled("//div[@id='content']")(page)] == ["div"]
    assert [e.tag for e in compiled("//div[@id='content'][.//p]")(page)] == ["div"]


@pytest.mark.parametrize(
    ("xpath", "quick"),
    [
        ("//div[@id='story']", "id('story')/self::div"),
        ("//div[@class='s']/p", "/descendant::div[@class='s']/p"),
        ("//div[@class='s'][.//div[@class='body']]", "/descendant::div[@class='s'][.//div[@class='body']]"),
        ("//*[contains(concat(' ', normalize-space(@class), ' '), ' s ')]",
         "/descendant::*[contains(concat(' ', normalize-space(@class), ' '), ' s ')]"),
        ("//p", "/descendant::p"),
        # A position counts among siblings after //, along the whole page after /descendant::.
        ("//div[2]", "//div[2]"),
        ("//div[@class='s'][last()]", "//div[@class='s'][last()]"),
        ("//div[count(p)]", "//div[count(p)]"),
        ("(//div)[1]", "(//div)[1]"),
        (".//div", ".//div"),
        ("//div[@id='x'][@dfs=12]", "//div[@id='x'][@dfs=12]"),
    ],
)
def test_a_leading_step_takes_its_quickest_form(xpath: str, quick: str) -> None:
    assert quick_form(xpath) == quick


@pytest.mark.parametrize(
    "xpath",
    ["//div[@class='s']", "//div[@class='s']/p", "//div[@class='s'][.//div[@class='body']]", "//p", "//div/p[1]",
     "//div[2]", "//div[@class='s'][last()]", "//p | //div[@id='x']"],
)
def test_the_quick_form_finds_what_the_xpath_finds(xpath: str) -> None:
    assert compiled(xpath)(PAGE) == etree.XPath(xpath)(PAGE)
