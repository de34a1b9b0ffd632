"""The page view: nothing in it can run, load or navigate; the region, exclusions and dropped blocks are marked."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest
from lxml import html as lxml_html

from forest.webapp.render import FRAME_CSS, FRAME_CSS_HASH, PageUnreadable, page_view

COLD_PAGE = Path(__file__).with_name("data") / "cold_article.html"
HEADLINE = "Bringing a network interface up by hand"

HOSTILE = """<html><head>
<meta http-equiv="refresh" content="0;url=http://evil.example/">
<base href="http://evil.example/"><link rel="stylesheet" href="http://evil.example/x.css">
<script>alert(1)</script><style>body{background:url(http://evil.example/t.png)}</style>
</head><body onload="alert(2)">
<div id="story"><h1>Title</h1>
<p onclick="alert(3)" style="color:red">First paragraph of the story, long enough to matter here.</p>
<p><a href="javascript:alert(4)">a link</a> <img src="http://evil.example/pixel.gif" onerror="alert(5)" alt="pic"></p>
<div class="share">Share this story</div>
<iframe src="http://evil.example/"></iframe><object data="x.swf"></object>
<svg><script>alert(6)</script></svg><form action="http://evil.example/"><button formaction="javascript:x()">go</button></form>
</div>
<aside class="sidebar"><p>Most read</p></aside>
</body></html>"""
WRAPPER = {"patterns": [{"xpath": "//div[@id='story']"}], "exclusions": ["/div[@class='share']"],
           "template_blocks": [], "fields": {"title": "//h1"}, "some_future_field": {"x": 1}}


def test_nothing_in_the_view_can_run_load_or_navigate() -> None:
    view = page_view(HOSTILE, wrapper=WRAPPER, pattern="//div[@id='story']")
    lowered = view.srcdoc.lower()
    for banned in ("<script", "alert(", "javascript:", "evil.example", "<iframe", "<object", "<link", "<base",
                   "refresh", " onload", " onclick", " onerror", " style=", " src=", " href=", " action="):
        assert banned not in lowered, banned
    assert "First paragraph of the story" in view.srcdoc  # the text itself stays


def test_the_frame_carries_its_own_policy_and_only_the_hashed_style() -> None:
    view = page_view(HOSTILE, wrapper=WRAPPER, pattern="//div[@id='story']")
    root = lxml_html.document_fromstring(view.srcdoc)
    (policy,) = root.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")
    assert policy.startswith("default-src 'none'") and FRAME_CSS_HASH in policy
    (style,) = root.xpath("//style")
    digest = base64.b64encode(hashlib.sha256(style.text.encode()).digest()).decode()
    assert style.text == FRAME_CSS and FRAME_CSS_HASH == f"sha256-{digest}"


def test_region_exclusions_and_fields_are_marked() -> None:
    view = page_view(HOSTILE, wrapper=WRAPPER, pattern="//div[@id='story']",
                     article_text="Title\nFirst paragraph of the story, long enough to matter here.")
    root = lxml_html.document_fromstring(view.srcdoc)
    (region,) = root.find_class("forest-region")
    assert region.get("id") == "story" and view.region == 1
    assert [e.text_content() for e in root.find_class("forest-excluded")] == ["Share this story"]
    assert root.xpath("//h1/@data-forest-field") == ["title"]
    # The link paragraph is not in the article text: struck through as dropped.
    assert [e.text_content().strip() for e in root.find_class("forest-dropped")] == ["a link"]
    assert not root.xpath("//aside//*[contains(@class, 'forest-')]")


def test_template_blocks_are_struck_through() -> None:
    wrapper = {**WRAPPER, "exclusions": [], "template_blocks": ["Share this story"]}
    view = page_view(HOSTILE, wrapper=wrapper, pattern="//div[@id='story']")
    root = lxml_html.document_fromstring(view.srcdoc)
    assert [e.text_content() for e in root.find_class("forest-template")] == ["Share this story"]


def test_the_papers_dfs_patterns_are_evaluated_on_numbered_elements() -> None:
    # body=0, div#story=1, h1=2, p=3: forest numbers the cleaned tree depth-first.
    view = page_view(HOSTILE, wrapper={"patterns": [{"xpath": "//p[@dfs='3']"}]}, pattern="//p[@dfs='3']")
    root = lxml_html.document_fromstring(view.srcdoc)
    (region,) = root.find_class("forest-region")
    assert region.text_content().startswith("First paragraph") and " dfs=" not in view.srcdoc


@pytest.mark.parametrize("pattern, note", [(None, "no wrapper pattern fitted"), ("//nav", "selects nothing")])
def test_no_region_says_why(pattern: str | None, note: str) -> None:
    view = page_view(HOSTILE, wrapper=WRAPPER, pattern=pattern)
    assert view.region == 0 and note in view.notes[0]


def test_a_wrapper_with_fields_missing_or_malformed_is_tolerated() -> None:
    view = page_view(HOSTILE, wrapper={"patterns": [{"xpath": "//div[@id='story']"}, "junk"], "fields": None},
                     pattern="//div[@id='story']")
    assert view.region == 1
    assert page_view(HOSTILE, wrapper=None, pattern="//div[@id='story'][").region == 0  # a broken XPath


@pytest.mark.parametrize("body", [b"", b"   ", "<?xml version='1.0'?>"], ids=["empty", "blank", "declaration"])
def test_an_unreadable_page_is_refused(body: bytes | str) -> None:
    with pytest.raises(PageUnreadable):
        page_view(body, wrapper=None, pattern=None)


def test_bytes_are_decoded_by_their_declared_charset() -> None:
    page = '<html><head><meta charset="windows-1252"></head><body><p>café</p></body></html>'.encode("cp1252")
    view = page_view(page, wrapper=None, pattern=None)
    assert "café" in view.srcdoc and re.search(r'<meta charset="utf-8">', view.srcdoc)


def test_a_cold_page_view_highlights_the_kept_blocks_only() -> None:
    body = COLD_PAGE.read_bytes()  # a page no wrapper knows: extracted by the classifier
    text = "\n".join([HEADLINE, "Reading the flags"])
    view = page_view(body, wrapper=None, pattern=None, article_text=text, method="classifier")
    root = lxml_html.document_fromstring(view.srcdoc)
    assert [e.text_content() for e in root.find_class("forest-kept")] == [HEADLINE, "Reading the flags"]
    assert view.kept == 2 and view.region == 0 and view.notes == ()
    missing = page_view(body, wrapper=None, pattern=None, article_text="Not on the page", method="classifier")
    assert missing.kept == 0 and "not found" in missing.notes[0]
    # An article from a wrapper's pattern is marked by its region, never block by block.
    assert page_view(body, wrapper=None, pattern=None, article_text=text, method="wrapper").kept == 0


def test_a_page_too_large_for_the_classifier_has_its_kept_blocks_found_all_the_same(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from forest.webapp import render

    monkeypatch.setattr(render, "classifiable", lambda root: False)
    monkeypatch.setattr(render, "load_default", lambda: pytest.fail("the classifier ran on a page over its limit"))
    view = page_view(COLD_PAGE.read_bytes(), wrapper=None, pattern=None, method="page",
                     article_text="\n".join([HEADLINE, "Reading the flags"]))
    root = lxml_html.document_fromstring(view.srcdoc)
    assert [e.text_content() for e in root.find_class("forest-kept")] == [HEADLINE, "Reading the flags"]
