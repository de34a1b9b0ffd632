"""forest.xpaths: a leading id step is read as a lookup, with the same result."""

from __future__ import annotations

import pytest
from lxml import etree

from forest.html import parse_html
from forest.xpaths import by_id, compiled

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
