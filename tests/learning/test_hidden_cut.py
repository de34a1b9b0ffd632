"""Text the article region hides from the reader is cut by learning.

A news site's gallery writes every photo's caption into the page, each in an inline element
styled ``display:none`` that the gallery's script shows one at a time.  The captions sit inside
the wrapper's region and name the story's people and places; cold extraction keeps them too,
since it drops only the blocks a hidden element owns, and here the photo's ``<div>`` owns the
caption's text.  Before learning named hidden parts as exclusions, the wrapper kept every
caption of the gallery.
"""

from __future__ import annotations

import random
from html import escape

from lxml import html as lxml_html
from prose import TOPICS, story

from eval.metrics import score
from forest import Page, extract, learn_pages
from forest.learning.hidden import hidden_parts

HOST = "www.harbourside.test"


def _page(rng: random.Random, topic: str, i: int) -> tuple[str, str, str, list[str]]:
    told = story(rng, topic)
    vocab = TOPICS[topic]
    captions = [f"{rng.choice(vocab['people']).capitalize()} beside the {rng.choice(vocab['nouns'])} in "
                f"{rng.choice(vocab['places'])}, photographed for the gallery {i}-{k}." for k in range(6)]
    gallery = "".join(f'<div class="gallery-photo"><img src="/g/{i}-{k}.jpg" alt="">'
                      f'<cite style="display:none" id="caption{k}">{escape(c)}</cite></div>'
                      for k, c in enumerate(captions))
    paragraphs = [f"<p>{escape(p)}</p>" for p in told.paragraphs]
    body = "".join([*paragraphs[:1], f'<div class="gallery">{gallery}</div>', *paragraphs[1:]])
    url = f"https://{HOST}/news/{topic}-{i}"
    html = (f"<!DOCTYPE html><html><head><title>{escape(told.headline)} | Harbourside</title>"
            f'<link rel="canonical" href="{url}"></head><body>'
            '<nav class="top"><a href="/">Home</a> <a href="/news">News</a> <a href="/arts">Arts</a></nav>'
            f'<div class="story"><h1>{escape(told.headline)}</h1><div class="story-body">{body}</div></div>'
            '<div class="site-footer"><p>Harbourside Media, all rights reserved.</p></div></body></html>')
    return url, html, told.text, captions


def _site() -> list[tuple[str, str, str, list[str]]]:
    rng = random.Random(11)
    return [_page(rng, topic, i) for i, topic in enumerate(rng.sample(sorted(TOPICS), 8))]


def test_hidden_captions_are_cut_and_the_story_kept() -> None:
    pages = _site()
    wrapper, _ = learn_pages([Page(html, url=url) for url, html, _, _ in pages[:5]])
    assert "//*[contains(@style, 'display:none')]" in wrapper.exclusions, wrapper.exclusions
    for url, html, gold, captions in pages[5:]:
        learned = extract(wrapper, html, url=url)
        assert learned.method == "wrapper"
        assert not any(caption in learned.text for caption in captions)
        assert score(learned.text, gold).f1 >= max(0.95, score(extract(None, html, url=url).text, gold).f1)


def test_the_steps_name_each_way_of_hiding_that_holds_text() -> None:
    root = lxml_html.fromstring(
        '<div><p style="color: red">shown</p><span style="DISPLAY: none">one</span><b hidden>two</b>'
        '<i style="margin:0;visibility:hidden"> three </i><em style="display:none"> </em>'
        '<u style="display: none">four</u></div>'
    )
    # The text-less <em> adds nothing; the <u> hides as the <span> does, written otherwise: a step of its own.
    assert hidden_parts([[root]]) == [
        "//*[contains(@style, 'DISPLAY: none')]",
        "//*[@hidden]",
        "//*[contains(@style, 'visibility:hidden')]",
        "//*[contains(@style, 'display: none')]",
    ]
    # A step is named once, however many pages show it.
    assert hidden_parts([[root], [root]]) == hidden_parts([[root]])


def test_a_region_with_nothing_hidden_adds_no_exclusion() -> None:
    root = lxml_html.fromstring('<div><p style="font-weight: bold">shown</p><p>plain</p></div>')
    assert hidden_parts([[root]]) == []
