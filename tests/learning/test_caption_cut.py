"""A figure's caption inside the article region is cut by learning, as cold extraction drops it, and its image stays.

A caption names the story's people and places, so its keywords are as dense as the article's,
and the model alone (before the landmark rule of forest.classifier.blocks.not_article) may
label it content: learning cut it only when its keywords were sparse.  A caption is what the
page's own markup says is not the article: the consensus counts it as boilerplate and cuts
the ``<figcaption>``, the innermost part, not the ``<figure>`` with its image.
"""

from __future__ import annotations

import random
from html import escape

from prose import TOPICS, story

from eval.metrics import score
from forest import Page, Settings, extract, learn_pages
from forest.learning.induce import _holder
from forest.html import parse_html

HOST = "www.riverside.test"


def _page(rng: random.Random, topic: str, i: int) -> tuple[str, str, str, str]:
    told = story(rng, topic)
    vocab = TOPICS[topic]
    caption = (f"{rng.choice(vocab['people']).capitalize()} at the {rng.choice(vocab['nouns'])} in "
               f"{rng.choice(vocab['places'])}. Photo: Staff Photographer/Agency")
    paragraphs = [f"<p>{escape(p)}</p>" for p in told.paragraphs]
    figure = (f'<figure class="media"><img src="/img/{i}.jpg" alt=""><figcaption class="media-caption">'
              f"{escape(caption)}</figcaption></figure>")
    body = "".join([*paragraphs[:2], figure, *paragraphs[2:]])
    url = f"https://{HOST}/news/{topic}-{i}"
    html = (f'<!DOCTYPE html><html><head><title>{escape(told.headline)} | Riverside</title>'
            f'<link rel="canonical" href="{url}"></head><body>'
            '<nav class="top"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>'
            f'<article class="story"><h1>{escape(told.headline)}</h1><div class="story-body">{body}</div></article>'
            '<footer class="site-footer"><p>Riverside News, all rights reserved.</p></footer></body></html>')
    return url, html, told.text, caption


def _site() -> list[tuple[str, str, str, str]]:
    rng = random.Random(7)
    return [_page(rng, topic, i) for i, topic in enumerate(rng.sample(sorted(TOPICS), 8))]


def test_the_caption_is_cut_and_the_image_kept() -> None:
    pages = _site()
    wrapper, _ = learn_pages([Page(html, url=url) for url, html, _, _ in pages[:5]])
    assert any("figcaption" in exclusion for exclusion in wrapper.exclusions), wrapper.exclusions
    assert not any(exclusion.rstrip("]").endswith("figure") or "figure[" in exclusion.split("/")[-1]
                   for exclusion in wrapper.exclusions), wrapper.exclusions
    for url, html, gold, caption in pages[5:]:
        learned = extract(wrapper, html, url=url, settings=Settings(html=True))
        cold = extract(None, html, url=url)
        assert caption not in learned.text
        assert "<img" in learned.html
        assert score(learned.text, gold).f1 >= score(cold.text, gold).f1


def test_a_blocks_holder_is_the_innermost_element_with_all_its_text() -> None:
    root = parse_html('<html><body><header><h1>Headline here</h1><time class="stamp"><span>April 8, 2017</span> '
                      "<span>2:24 p.m.</span></time></header><p>Loose <b>bold</b> text</p></body></html>")
    header, p = root.find("body/header"), root.find("body/p")
    assert _holder(header, "April 8, 2017 2:24 p.m.").tag == "time"
    assert _holder(p, "Loose bold text") is p  # the <b> holds only part of it
