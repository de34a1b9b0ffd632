"""forest's variants as evaluated systems: learn per site, extract, count methods, survive a LearnError."""

from __future__ import annotations

import pytest

from eval import forest_systems
from eval.forest_systems import VARIANTS, ForestSystem, forest_systems as make, single_page_systems, variant_names
from eval.metrics import score
from eval.systems import System
from forest.errors import LearnError
from forest.model import Page
from keywords.model import Metadata

TOPICS = [
    ("harbour", "council", "bridge", "budget", "repairs", "ferry"),
    ("orchard", "farmers", "apples", "harvest", "frost", "cider"),
    ("library", "archive", "manuscripts", "readers", "catalogue", "donation"),
    ("stadium", "league", "striker", "season", "coach", "transfer"),
    ("volcano", "island", "ash", "flights", "scientists", "eruption"),
]


def article(site: str, i: int) -> tuple[str, str]:
    """A page of ``site``'s one template and its gold text."""
    words = TOPICS[i % len(TOPICS)]
    title = f"The {words[0]} {words[1]} story {i}"
    paragraphs = [
        f"The {words[0]} {words[1]} met on Monday to discuss the {words[2]} and the {words[3]} for next year.",
        f"Officials said the {words[4]} would take months, and the {words[5]} plan was approved by a wide margin.",
        f"Residents near the {words[0]} welcomed the {words[3]} news but asked about the {words[2]} schedule.",
    ]
    html = (
        f"<html><head><title>{title} - {site}</title><meta name='description' content='{paragraphs[0]}'></head>"
        "<body><div id='nav'><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></div>"
        f"<div class='story'><h1>{title}</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs) + "</div>"
        f"<div id='footer'>Copyright {site} 2024. All rights reserved. Contact the newsroom.</div></body></html>"
    )
    return html, "\n".join([title, *paragraphs])


def pages(site: str, n: int) -> list[tuple[Page, str]]:
    return [(Page(html, url=f"http://{site}/{i}", site=site), gold) for i, (html, gold) in ((i, article(site, i)) for i in range(n))]


def test_every_variant_is_a_site_level_system() -> None:
    systems = make()
    assert [s.name for s in systems] == variant_names() == [v.name for v in VARIANTS]
    assert all(isinstance(s, System) and s.site_level for s in systems)
    assert {"forest", "FOREST_info", "FOREST_feed", "FOREST_Cov", "ABSELEMS", "ABSPATHS"} <= set(variant_names())


def test_names_select_variants_in_report_order() -> None:
    assert [s.name for s in make(["ABSPATHS", "forest"])] == ["forest", "ABSPATHS"]
    with pytest.raises(ValueError, match="known: forest"):
        make(["nope"])


def test_forest_learns_a_site_and_extracts_an_unseen_page() -> None:
    site = pages("news.example", 5)
    system = ForestSystem(VARIANTS[0])
    system.fit([page for page, _ in site[:4]])
    assert system.wrapper_ is not None and not system.learn_errors
    page, gold = site[4]
    text = system.extract(page)
    assert score(text, gold).f1 > 0.9
    assert "Copyright" not in text
    assert system.methods == {"wrapper": 1}


def test_fit_replaces_the_previous_sites_wrapper() -> None:
    system = ForestSystem(VARIANTS[0])
    system.fit([page for page, _ in pages("a.example", 3)])
    system.fit([page for page, _ in pages("b.example", 3)])
    assert system.wrapper_ is not None and system.wrapper_.site == "b.example"
    assert system.sites_fit == 2 and system.pages_fit == 6


def test_a_learn_error_leaves_no_wrapper_and_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    class Refusing:
        def __init__(self, settings: object) -> None:
            pass

        def fit(self, pages: object, site: str) -> None:
            raise LearnError("no usable sample page", site=site)

    monkeypatch.setattr(forest_systems, "Inducer", Refusing)
    site = pages("news.example", 3)
    wrapper_alone = next(v for v in VARIANTS if v.name == "forest-wrapper")
    system = ForestSystem(wrapper_alone)
    system.fit([page for page, _ in site[:2]])
    assert system.wrapper_ is None and list(system.learn_errors) == ["news.example"]
    text = system.extract(site[2][0])  # the single-page fallback still extracts
    assert "library archive" in text and system.methods == {"page": 1}
    assert any("no wrapper learned for 1 of 1 sites" in note for note in system.notes())


def test_feed_variant_notes_pages_without_a_feed_item() -> None:
    feed = next(v for v in VARIANTS if v.name == "FOREST_feed")
    system = ForestSystem(feed)
    site = [page for page, _ in pages("news.example", 3)]
    with_item = Page(site[0].html, url=site[0].url, site=site[0].site, meta=Metadata(title="The harbour council"))
    system.fit([with_item, *site[1:]])
    assert any("2 of 3 training pages had no feed item" in note and "pseudo-feed" in note for note in system.notes())


def test_single_page_systems_are_never_fit_and_have_no_wrapper() -> None:
    page, gold = pages("news.example", 1)[0]
    for system in single_page_systems():
        assert not system.site_level and system.wrapper_ is None
        assert score(system.extract(page), gold).r > 0.5
        assert system.methods["wrapper"] == 0
