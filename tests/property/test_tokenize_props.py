"""Property tests: the tokenizer and the keyword functions accept any text without raising."""

from __future__ import annotations

from hypothesis import given, strategies as st

from keywords.meta import metadata_keywords
from keywords.model import Metadata
from keywords.tfidf import tfidf_keywords
from keywords.tokenize import tokenize

# A small vocabulary mixed with arbitrary text, so that samples share terms (df > 1,
# df == n) often enough to exercise the template-word and tie-breaking paths.
_WORDS = st.sampled_from(
    ["river", "menu", "the", "de", "東", "x", "42", "café", "l'eau", "<b>", "&amp;", "<html>", "<!DOCTYPE html>"]
)
_TEXT = st.one_of(st.text(), st.lists(_WORDS, max_size=30).map(" ".join))


@given(st.text())
def test_tokenize_gives_lower_case_words(text: str) -> None:
    for token in tokenize(text):
        assert token
        assert token == token.lower()
        assert not any(char.isspace() for char in token)


@given(st.text())
def test_tokenize_drops_numbers(text: str) -> None:
    assert not any(token.isnumeric() for token in tokenize(text))


@given(st.lists(_TEXT, max_size=6), st.integers(min_value=1, max_value=30))
def test_tfidf_keywords_one_result_per_text(texts: list[str], k: int) -> None:
    results = tfidf_keywords(texts, k=k)
    assert len(results) == len(texts)
    for result in results:
        assert len(result.terms) <= k
        assert len(set(result.terms)) == len(result.terms)
        assert list(result.weights) == sorted(result.weights, reverse=True)
        assert all(0.0 < weight <= 1.0 + 1e-9 for weight in result.weights)


@given(st.lists(_TEXT, min_size=2, max_size=6))
def test_tfidf_keywords_never_select_terms_on_every_page(texts: list[str]) -> None:
    everywhere = set.intersection(*(set(tokenize(text)) for text in texts))
    for result in tfidf_keywords(texts, k=20):
        assert not everywhere & set(result.terms)


@given(
    st.builds(
        Metadata,
        title=_TEXT,
        summary=st.one_of(_TEXT, st.text(alphabet=st.sampled_from("<>/!-&;#ab p=\"'\x00?"))),
        tags=st.lists(_TEXT, max_size=3).map(tuple),
        author=st.text(),
    ),
    st.integers(min_value=1, max_value=30),
)
def test_metadata_keywords_never_raise(meta: Metadata, k: int) -> None:
    result = metadata_keywords(meta, k=k)
    assert len(result.terms) <= k
    assert len(set(result.terms)) == len(result.terms)
