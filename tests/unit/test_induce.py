"""Pattern induction and generalization on small hand-made sites."""

from __future__ import annotations

import pytest

from forest.config import Settings
from forest.errors import LearnError
from forest.extraction import extract
from forest.learning.induce import Inducer
from forest.model import Page

ARTICLES = [
    ("Harbour crane strike ends", [
        "Dock workers at the northern harbour returned to the cranes on Monday after a nine day strike.",
        "The union said the new contract raises night shift pay and limits crane shifts to ten hours.",
        "Shipping agents expect the container backlog at the harbour to clear within a fortnight.",
    ]),
    ("Orchard growers count frost damage", [
        "Apple growers in the valley lost up to a third of their blossom to the late frost.",
        "Several orchards ran wind machines through the night but the cold pooled in the low rows.",
        "Growers will know the full extent of the frost damage when the fruit sets in May.",
    ]),
    ("Library opens map room", [
        "The city library opened a map room holding three centuries of surveys and coastal charts.",
        "Visitors can request the fragile charts a day ahead and study them under cold light.",
        "The librarian said the oldest map shows the river before the canal was dug.",
    ]),
    ("Cyclists welcome river road lanes", [
        "Painted cycle lanes now run the full length of the river road from the bridge to the mill.",
        "Cyclists had campaigned for the lanes since a collision near the mill two winters ago.",
        "The council will count riders on the river road again in the autumn.",
    ]),
    ("School kitchens switch to local produce", [
        "Twelve school kitchens now buy vegetables from farms within thirty miles of the town.",
        "Cooks say the local carrots and cabbages arrive fresher and need less trimming.",
        "Parents will taste the new school menu at an open kitchen evening next week.",
    ]),
    ("Observatory volunteers log meteor shower", [
        "Volunteers at the hill observatory logged more than two hundred meteors on Saturday night.",
        "Clear skies let the volunteers photograph several bright fireballs over the reservoir.",
        "The observatory will publish the meteor counts with the national survey in June.",
    ]),
    ("Bakery wins regional bread prize", [
        "A family bakery on the market square won the regional prize for its rye sourdough.",
        "The bakers feed the same sourdough starter that the founder brought from the coast.",
        "Judges praised the crust and the sour flavour of the winning rye loaf.",
    ]),
]
NAV = '<div id="header"><ul class="nav"><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></div>'
# Real article pages carry more template text than article text: a long footer.
FOOTER = (
    '<div id="footer"><p>Copyright Daily Courier. All rights reserved. Contact the newsroom.</p>'
    "<p>The Daily Courier is published every morning except Sunday by the Courier Printing Company, "
    "with offices on the market square. Letters to the editor should include a name and a telephone "
    "number; we edit letters for length and clarity. Subscriptions, advertising and delivery questions "
    "go to the front desk, which is open on weekdays from nine until five.</p></div>"
)


def story_page(i: int, *, template: str = "a") -> str:
    """Template "a" is a div-and-p layout; template "b", an older table layout of the
    same site, shares no container or paragraph markup with it."""
    title, paragraphs = ARTICLES[i]
    tag = "p" if template == "a" else "font"
    body = "".join(f"<{tag}>{p}</{tag}><br>" for p in paragraphs)
    others = "".join(f'<li><a href="/s/{j}">{ARTICLES[j][0]}</a></li>' for j in range(len(ARTICLES)) if j != i)
    if template == "a":
        main = (
            f'<div id="main"><div id="post-{1000 + i}" class="story hentry"><h1 class="headline">{title}</h1>'
            f'<p class="byline">By Courier Staff</p>{body}'
            '<div class="share">Share this story on social networks</div></div>'
            f'<div class="sidebar"><h3>Most read</h3><ul>{others}</ul></div></div>'
        )
    else:
        main = (
            f'<table class="layout"><tr><td class="menu"><ul>{others}</ul></td>'
            f'<td class="content"><h2 class="title">{title}</h2><div class="text">{body}</div></td></tr></table>'
        )
    return f"<html><head><title>{title} | Daily Courier</title></head><body>{NAV}{main}{FOOTER}</body></html>"


def learn(indices: list[int], template: str = "a", **settings: str) -> Inducer:
    pages = [Page(story_page(i, template=template), url=f"http://courier.test/{i}") for i in indices]
    return Inducer(Settings(**settings)).fit(pages, site="courier.test")


def test_unseen_page_gets_its_article_and_nothing_else() -> None:
    wrapper = learn([0, 1, 2, 3, 4]).wrapper_
    article = extract(wrapper, story_page(5), url="http://courier.test/5")
    assert article.method == "wrapper"
    for sentence in ARTICLES[5][1]:
        assert sentence in article.text
    for boilerplate in ("Most read", "Copyright", "Home", ARTICLES[0][0]):
        assert boilerplate not in article.text


def test_pattern_does_not_depend_on_per_page_ids() -> None:
    wrapper = learn([0, 1, 2, 3, 4]).wrapper_
    assert all("post-" not in pattern.xpath for pattern in wrapper.patterns)


def test_text_repeated_in_every_sample_region_is_template() -> None:
    wrapper = learn([0, 1, 2, 3, 4]).wrapper_
    assert "By Courier Staff" in wrapper.template_blocks
    assert "By Courier Staff" not in extract(wrapper, story_page(6)).text


def test_a_sample_that_mixes_templates_is_noticed() -> None:
    pages = [Page(story_page(i, template="a")) for i in (0, 1, 2)]
    pages += [Page(story_page(i, template="b")) for i in (3, 4, 5)]
    inducer = Inducer().fit(pages, site="courier.test")
    assert len(inducer.wrapper_.patterns) >= 2
    assert any("mixes templates" in note for note in inducer.report_.notes)
    for template in ("a", "b"):
        article = extract(inducer.wrapper_, story_page(6, template=template))
        assert ARTICLES[6][1][1] in article.text
        assert "Copyright" not in article.text


@pytest.mark.parametrize(
    "settings",
    [
        {"ranking": "paper"},
        {"scoring": "cov"},
        {"candidates": "leaves"},
        {"candidates": "paths"},
        {"keywords": "meta"},
    ],
    ids=["paper", "cov", "abselems", "abspaths", "meta-keywords"],
)
def test_every_variant_learns_a_wrapper_that_finds_the_article(settings: dict[str, str]) -> None:
    wrapper = learn([0, 1, 2, 3, 4], **settings).wrapper_
    assert wrapper.variant == {**{"keywords": "tfidf", "scoring": "jxu", "candidates": "ancestors", "ranking": "forest"}, **settings}
    article = extract(wrapper, story_page(5))
    assert ARTICLES[5][1][0].split()[0] in article.text


def test_paper_ranking_keeps_dfs_positions_when_a_description_is_ambiguous() -> None:
    wrapper = learn([0, 1, 2, 3, 4], ranking="paper").wrapper_
    assert any("@dfs" in p.xpath or "[@" in p.xpath for p in wrapper.patterns)


def test_no_pages_is_a_learn_error() -> None:
    with pytest.raises(LearnError, match="no usable sample page"):
        Inducer().fit([], site="courier.test")


def test_unparseable_pages_are_skipped_with_their_reason() -> None:
    pages = [Page(story_page(i)) for i in range(4)] + [Page("   ", url="http://courier.test/empty")]
    inducer = Inducer().fit(pages, site="courier.test")
    assert inducer.report_.skipped == (("http://courier.test/empty", "http://courier.test/empty: empty page"),)
