"""Unit tests for keywords.meta: keywords from a feed item's or a page's metadata."""

from __future__ import annotations

import pytest

from keywords.meta import metadata_keywords
from keywords.model import Keywords, Metadata


def test_terms_from_every_field_stopwords_removed() -> None:
    meta = Metadata(
        title="The storm hits the coast",
        summary="Waves and wind batter the harbour.",
        tags=("Weather", "Brittany"),
        author="Anne Leroy",
    )
    result = metadata_keywords(meta)
    assert result.terms == (
        *("storm", "hits", "coast"),
        *("waves", "wind", "batter", "harbour"),
        *("weather", "brittany"),
        *("anne", "leroy"),
    )
    assert result.source == "feed"


def test_ranked_by_frequency_with_counts_as_weights() -> None:
    meta = Metadata(title="Harbour news", summary="The harbour reopens; harbour boats return with boats.")
    result = metadata_keywords(meta, k=3)
    assert result.terms == ("harbour", "boats", "news")
    assert result.weights == (3.0, 2.0, 1.0)


def test_title_terms_first_on_ties() -> None:
    # Each term once: title terms, then summary terms, then tags, in order of appearance.
    meta = Metadata(title="Comet sighted", summary="Astronomers cheer", tags=("Space",))
    assert metadata_keywords(meta).terms == ("comet", "sighted", "astronomers", "cheer", "space")


def test_repeated_summary_term_beats_title_terms() -> None:
    meta = Metadata(title="Comet sighted", summary="Telescope images: the telescope was pointed")
    assert metadata_keywords(meta, k=2).terms == ("telescope", "comet")


def test_html_summary_stripped() -> None:
    meta = Metadata(
        title="Glaciers",
        summary=(
            '<p class="lead">Glaciers <b>retreat</b> faster.</p><p>Melt&nbsp;doubles</p>'
            "<script>trackVisitor()</script><!-- advert slot --><style>p { color: red }</style>"
        ),
    )
    assert metadata_keywords(meta).terms == ("glaciers", "retreat", "faster", "melt", "doubles")


def test_html_entities_in_summary_decoded() -> None:
    assert metadata_keywords(Metadata(summary="Caf&eacute; &amp; cr&egrave;me")).terms == ("café", "crème")


def test_whole_document_summary_falls_back_to_tag_stripping() -> None:
    summary = "<html><head><title>Orchids</title></head></html>"
    assert metadata_keywords(Metadata(summary=summary)).terms == ("orchids",)


@pytest.mark.parametrize(
    "summary",
    [
        "<<<>>>",
        "<p>unclosed <b>tags",
        "\x00<b>nul</b>",
        '<?xml version="1.0" encoding="utf-8"?><p>x</p>',
        "</div>",
        "<!--",
        "<html></html>",
        "<!DOCTYPE html>",
    ],
    ids=["angles", "unclosed", "nul", "xml-declaration", "stray-close", "open-comment", "html-only", "doctype"],
)
def test_garbage_summary_never_raises(summary: str) -> None:
    assert isinstance(metadata_keywords(Metadata(title="Title", summary=summary)), Keywords)


def test_numbers_and_one_letter_terms_dropped() -> None:
    meta = Metadata(title="2 x 30 ml of 2024 vintage", summary="Released 12/05")
    assert metadata_keywords(meta).terms == ("ml", "vintage", "released")


def test_k_respected() -> None:
    meta = Metadata(title="alpha bravo charlie delta echo foxtrot golf hotel")
    assert metadata_keywords(meta, k=3).terms == ("alpha", "bravo", "charlie")


def test_language_detected_keeps_other_languages_words() -> None:
    # With 20+ terms the language is English, so French "car" ("because") is a keyword.
    meta = Metadata(
        title="The new car that drives itself",
        summary=(
            "A car maker said on Monday that its electric car would be sold in the spring, "
            "after tests on roads in the north of the country."
        ),
    )
    assert metadata_keywords(meta, k=1).terms == ("car",)


def test_empty_metadata() -> None:
    assert metadata_keywords(Metadata(), source="meta") == Keywords((), (), "meta")


@pytest.mark.parametrize("source", ["feed", "meta"], ids=["feed", "meta"])
def test_source_recorded(source: str) -> None:
    assert metadata_keywords(Metadata(title="Comet"), source=source).source == source


def test_unknown_source_rejected() -> None:
    with pytest.raises(ValueError, match="source"):
        metadata_keywords(Metadata(title="Comet"), source="tfidf")


@pytest.mark.parametrize("k", [0, -1], ids=["zero", "negative"])
def test_k_below_one_rejected(k: int) -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        metadata_keywords(Metadata(title="Comet"), k=k)
