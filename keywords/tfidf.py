"""tf-idf keywords: each sample page's most distinctive terms against the rest of the site sample."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

import numpy as np

from keywords.model import Keywords
from keywords.stopwords import ALL_STOPWORDS, STOPWORDS, detect_language
from keywords.tokenize import UNSPACED_SCRIPT, tokenize

SOURCE = "tfidf"


def tfidf_keywords(texts: Sequence[str], k: int = 20) -> list[Keywords]:
    """The top-``k`` tf-idf terms of each text, scored against the whole sample.

    One ``Keywords`` per text, in order, best term first.  Weights are the tf-idf values
    L2-normalised over the text's eligible terms, so they are comparable across pages.

    Terms are dropped when they are stopwords (of the text's language, else of the
    sample's, else of any language), one letter long in an alphabetic script, or present
    in every text of a sample of two or more (template words: menus, footers, bylines).
    Ties are broken by first occurrence in the text.  With a single text there is no
    idf to speak of and the ranking is by term frequency; with two, every term that
    survives has df = 1, so again the ranking is by term frequency.

    :param texts: the visible text of each sample page of one site.
    :param k: how many keywords to keep per text.
    :raises ValueError: if ``k`` < 1.
    :raises TypeError: if ``texts`` is a single string rather than a sequence of them.
    """
    if isinstance(texts, str):
        # A str is a Sequence[str] of characters: almost certainly a caller's mistake.
        raise TypeError("texts must be a sequence of strings, not a single string")
    return tfidf_terms([tokenize(text) for text in texts], k=k)


def tfidf_terms(tokenized: Sequence[list[str]], k: int = 20) -> list[Keywords]:
    """:func:`tfidf_keywords` of texts already split by :func:`keywords.tokenize.tokenize`
    (a page index holds its pages' terms: learning need not join and split them again).

    :raises ValueError: if ``k`` < 1.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if not any(tokenized):
        # Nothing to rank.
        return [Keywords((), (), SOURCE) for _ in tokenized]

    # What sklearn's TfidfVectorizer(smooth_idf=True, sublinear_tf=True, norm=None) computes, with
    # the same float operations, so the keywords are the same to the last bit: its vocabulary and
    # sparse matrix took half of this function's time, for values a dict of counts gives directly.
    counts = [Counter(terms) for terms in tokenized]
    df: Counter[str] = Counter()
    for page_counts in counts:
        df.update(page_counts.keys())
    n_docs = len(tokenized)
    # Smooth idf, ln((1 + n) / (1 + df)) + 1: finite and >= 1.
    idf = dict(zip(df, (np.log((n_docs + 1) / (np.fromiter(df.values(), np.float64, len(df)) + 1)) + 1).tolist()))
    # With smooth idf a term in every document still gets idf = 1, not 0, so the paper's
    # "template words drop out" has to be enforced.  Dropping df == n_docs is exact for
    # n_docs >= 2 (the term carries no information about which page it is on); with one
    # text every term has df == n_docs and nothing would be left, so keep them all.
    eligible = {
        term for term, count in df.items() if not (n_docs >= 2 and count == n_docs) and not (len(term) == 1 and not UNSPACED_SCRIPT.match(term))
    }

    sample_language: str | None = None
    sample_language_known = False
    results: list[Keywords] = []
    for row, terms in enumerate(tokenized):
        language = detect_language(terms, counts[row])
        if language is None:
            # A short page says too little about its language: trust the sample's.
            if not sample_language_known:
                sample_language = detect_language([t for doc in tokenized for t in doc])
                sample_language_known = True
            language = sample_language
        stopwords = STOPWORDS[language] if language is not None else ALL_STOPWORDS
        kept = [term for term in counts[row] if term in eligible and term not in stopwords]
        # sublinear tf, 1 + ln(tf): a term repeated 30 times in a comment thread or a
        # related-links box must not outrank ten terms that each occur three times in the
        # article body.  On the site-level datasets' news sites, more of the keywords it
        # selects occur in the gold article text than with raw counts, at k = 10, 20 and 30.
        tf = np.log(np.fromiter((counts[row][term] for term in kept), np.float64, len(kept))) + 1
        # Each product as Python's float product of the two (numpy's is the same IEEE operation).
        values = tf * np.fromiter((idf[term] for term in kept), np.float64, len(kept))
        results.append(_top_terms(kept, values, k))
    return results


def _top_terms(terms: list[str], values: np.ndarray, k: int) -> Keywords:
    """The ``k`` best of ``terms`` by their ``values``, ties to the first: ``terms`` come in their
    text's order of first occurrence (a Counter's keys), so a stable sort by value alone breaks
    ties by first occurrence."""
    if not terms:
        return Keywords((), (), SOURCE)
    order = np.argsort(-values, kind="stable")
    ranked = values[order]
    # Normalised over the eligible terms only, so stopwords do not dilute the weights: summed by
    # Python's sum in rank order, the order the norm was always summed in (numpy's sum pairs terms).
    norm = math.sqrt(sum((ranked * ranked).tolist()))
    top = order[:k].tolist()
    return Keywords(
        terms=tuple(terms[i] for i in top),
        weights=tuple((ranked[:k] / norm).tolist()),
        source=SOURCE,
    )
