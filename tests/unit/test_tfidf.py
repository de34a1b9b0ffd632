"""Unit tests for keywords.tfidf: hand-built site samples with known keywords."""

from __future__ import annotations

import math
import time
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from keywords.model import Keywords
from keywords.stopwords import ALL_STOPWORDS, STOPWORDS, detect_language
from keywords.tfidf import tfidf_keywords, tfidf_terms
from keywords.tokenize import UNSPACED_SCRIPT, tokenize

TEMPLATE = "Home News Sport Contact Subscribe Privacy Copyright"
ARTICLES = [
    "Glaciers retreat glaciers melt glaciers shrink as summers warm in the Alps.",
    "The orchestra rehearsed the symphony; the orchestra played the symphony twice.",
    "Volcano erupts near village; volcano ash covers roads and farms.",
    "Bakery wins prize for sourdough bread baked with rye flour.",
]


def _sample() -> list[str]:
    return [f"{TEMPLATE} {article} {TEMPLATE}" for article in ARTICLES]


def test_one_result_per_text_in_order() -> None:
    results = tfidf_keywords(_sample(), k=5)
    assert len(results) == len(ARTICLES)
    assert all(isinstance(r, Keywords) and r.source == "tfidf" for r in results)
    assert results[2].terms[0] == "volcano"


def test_terms_already_split_give_the_texts_keywords() -> None:
    # What learning passes: each page's terms from its page index, not its text.
    texts = [*_sample(), "Café au lait, 2 x 30 ml: 東京 glaciers!"]
    assert tfidf_terms([tokenize(text) for text in texts], k=5) == tfidf_keywords(texts, k=5)


def test_template_words_never_selected() -> None:
    template = {"home", "news", "sport", "contact", "subscribe", "privacy", "copyright"}
    for result in tfidf_keywords(_sample(), k=50):
        assert not template & set(result.terms)


def test_unique_frequent_word_comes_first() -> None:
    results = tfidf_keywords(_sample(), k=3)
    assert [r.terms[0] for r in results] == ["glaciers", "orchestra", "volcano", "bakery"]


def test_stopwords_removed() -> None:
    for result in tfidf_keywords(_sample(), k=50):
        assert not ALL_STOPWORDS & set(result.terms)


@pytest.mark.parametrize("k", [1, 2, 5], ids=["k1", "k2", "k5"])
def test_k_respected(k: int) -> None:
    assert all(len(r.terms) == k for r in tfidf_keywords(_sample(), k=k))


def test_ties_broken_by_first_occurrence() -> None:
    # Every non-template term of the last page occurs once: equal weights, text order.
    result = tfidf_keywords(_sample(), k=20)[3]
    assert result.terms == ("bakery", "wins", "prize", "sourdough", "bread", "baked", "rye", "flour")
    assert len(set(result.weights)) == 1


def test_ties_are_deterministic() -> None:
    assert tfidf_keywords(_sample(), k=4) == tfidf_keywords(_sample(), k=4)


def test_weights_hand_computed() -> None:
    # n = 3 documents, smooth idf: idf(df) = ln((1 + n) / (1 + df)) + 1; sublinear tf = 1 + ln tf.
    texts = ["alpha alpha beta shared", "gamma delta shared", "alpha epsilon shared"]
    result = tfidf_keywords(texts, k=5)[0]
    alpha = (1 + math.log(2)) * (math.log(4 / 3) + 1)
    beta = 1.0 * (math.log(4 / 2) + 1)
    norm = math.hypot(alpha, beta)
    # alpha: 1.693 x 1.288 = 2.181 beats beta: 1 x 1.693 = 1.693 despite beta being rarer.
    assert result.terms == ("alpha", "beta")
    assert result.weights == pytest.approx((alpha / norm, beta / norm))


def test_weights_descending_and_normalised() -> None:
    for result in tfidf_keywords(_sample(), k=50):
        assert list(result.weights) == sorted(result.weights, reverse=True)
        assert sum(w * w for w in result.weights) == pytest.approx(1.0)


def test_single_text_falls_back_to_term_frequency() -> None:
    text = "The river floods the town; river water fills the streets, river banks break."
    result = tfidf_keywords([text], k=3)[0]
    assert result.terms == ("river", "floods", "town")


def test_two_texts_drop_shared_terms() -> None:
    texts = ["menu lions lions roar menu", "menu whales whales whales sing menu"]
    results = tfidf_keywords(texts, k=5)
    assert results[0].terms == ("lions", "roar")
    assert results[1].terms == ("whales", "sing")


def test_one_letter_terms_dropped_but_cjk_characters_kept() -> None:
    texts = ["x y z zebra", "q r s 熊猫", "w v u koala"]
    results = tfidf_keywords(texts, k=5)
    assert [r.terms for r in results] == [("zebra",), ("熊", "猫"), ("koala",)]


def test_empty_texts_give_empty_keywords() -> None:
    empty = Keywords((), (), "tfidf")
    assert tfidf_keywords(["", "  42 !"], k=5) == [empty, empty]
    results = tfidf_keywords(["", "penguins waddle", "seals bask"], k=5)
    assert results[0] == empty
    assert results[1].terms == ("penguins", "waddle")


def test_no_texts() -> None:
    assert tfidf_keywords([], k=5) == []


@pytest.mark.parametrize("k", [0, -3], ids=["zero", "negative"])
def test_k_below_one_rejected(k: int) -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        tfidf_keywords(["some text"], k=k)


def test_single_string_rejected() -> None:
    with pytest.raises(TypeError):
        tfidf_keywords("one page of text", k=5)


def test_per_text_language_stopwords() -> None:
    # An English site sample with one French page: its French function words are removed
    # although they occur on that page only (df = 1, the highest idf).
    english = (
        "The council said that the new bridge over the river would open in the spring, "
        "after the engineers had checked all of the cables and the road surface. {}"
    )
    french = (
        "Le conseil a dit que le nouveau pont sur la rivière ouvrira au printemps, après que "
        "les ingénieurs aient vérifié tous les câbles et la chaussée de la route."
    )
    texts = [english.format("tram"), english.format("ferry"), french]
    result = tfidf_keywords(texts, k=10)[2]
    assert not {"le", "la", "les", "que", "sur", "au", "de"} & set(result.terms)
    assert "conseil" in result.terms


def test_fast_on_ten_long_texts() -> None:
    # 10 pages of 5,000 words: about 40 ms on the development machine.  The bound is
    # loose to stay green on slow CI; it catches accidental quadratic work.
    vocabulary = [f"w{i}x" for i in range(3000)]
    texts = [" ".join(vocabulary[(i * 7 + j * 13) % 3000] for j in range(5000)) for i in range(10)]
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        tfidf_keywords(texts, k=20)
        best = min(best, time.perf_counter() - start)
    assert best < 0.5


def _ranked_by_key(candidates: list[tuple[str, float]], distinct: list[str], k: int) -> Keywords:
    """The ranking tfidf_terms made before it ranked in numpy: a sort by (-value, first occurrence), the
    norm summed by Python in that order, each weight a Python float division."""
    if not candidates:
        return Keywords((), (), "tfidf")
    first = {term: position for position, term in enumerate(distinct)}
    candidates.sort(key=lambda pair: (-pair[1], first[pair[0]]))
    norm = math.sqrt(sum(value * value for _, value in candidates))
    top = candidates[:k]
    return Keywords(tuple(term for term, _ in top), tuple(value / norm for _, value in top), "tfidf")


def _tfidf_by_key(tokenized: list[list[str]], k: int) -> list[Keywords]:
    counts = [Counter(terms) for terms in tokenized]
    df: Counter[str] = Counter()
    for page_counts in counts:
        df.update(page_counts.keys())
    n = len(tokenized)
    idf = dict(zip(df, (np.log((n + 1) / (np.fromiter(df.values(), np.float64, len(df)) + 1)) + 1).tolist()))
    eligible = {t for t, c in df.items() if not (n >= 2 and c == n) and not (len(t) == 1 and not UNSPACED_SCRIPT.match(t))}
    sample_language = detect_language([t for doc in tokenized for t in doc])
    out = []
    for row, terms in enumerate(tokenized):
        language = detect_language(terms, counts[row]) or sample_language
        stopwords = STOPWORDS[language] if language is not None else ALL_STOPWORDS
        kept = [t for t in counts[row] if t in eligible and t not in stopwords]
        tf = np.log(np.fromiter((counts[row][t] for t in kept), np.float64, len(kept))) + 1
        out.append(_ranked_by_key([(t, v * idf[t]) for t, v in zip(kept, tf.tolist())], list(counts[row]), k))
    return out


_WORDS = st.sampled_from("glacier orchestra volcano bakery the and of rye flour ash alps symphony village farm".split())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_WORDS, max_size=40), min_size=1, max_size=5), st.integers(1, 8))
def test_keywords_are_ranked_as_by_a_sort_on_value_and_first_occurrence(tokenized: list[list[str]], k: int) -> None:
    # Few distinct words, many repeats: ties everywhere, which the stable sort must break by first occurrence.
    if not any(tokenized):
        return
    assert tfidf_terms(tokenized, k=k) == _tfidf_by_key(tokenized, k)
