"""What keyword selection and page scoring count once must equal what they counted twice."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from keywords.model import Keywords
from keywords.stopwords import detect_language
from patterns.dom import PageIndex
from patterns.ranking import score_page

WORDS = ["the", "and", "le", "et", "der", "und", "forest", "tree", "leaf", "root", "bark", "moss"]
words = st.lists(st.sampled_from(WORDS), max_size=40)


@given(words)
def test_detect_language_with_the_callers_counts(terms: list[str]) -> None:
    assert detect_language(terms, Counter(terms)) == detect_language(terms)


@st.composite
def pages(draw: st.DrawFn) -> tuple[PageIndex, Keywords, frozenset[int]]:
    n = draw(st.integers(1, 12))
    parent = [-1] + [draw(st.integers(0, i - 1)) for i in range(1, n)]
    # Children come after their parent; a subtree is a contiguous range only for a preorder, which
    # score_page does not need: it sums each element into its parent, last first.
    terms = [draw(words) for _ in range(n)]
    chosen = draw(st.lists(st.sampled_from(WORDS), unique=True, max_size=6))
    weights = draw(st.lists(st.floats(0.01, 1.0), min_size=len(chosen), max_size=len(chosen)))
    ignore = frozenset(draw(st.lists(st.integers(0, n - 1), max_size=3)))
    index = PageIndex([None] * n, parent, list(range(n)), [2] * n, terms)  # type: ignore[list-item]
    return index, Keywords(tuple(chosen), tuple(weights), "test"), ignore


@settings(max_examples=200)
@given(pages())
def test_score_page_counts_as_term_by_term(case: tuple[PageIndex, Keywords, frozenset[int]]) -> None:
    index, keywords, ignore = case
    weights = dict(zip(keywords.terms, keywords.weights))
    # The reference: each element's keywords counted, then their weights summed, term by term.
    own_x = [0 if i in ignore else sum(1 for t in terms if t in weights) for i, terms in enumerate(index.terms)]
    own_w = [sum(weights.get(t, 0.0) for t in terms) if x else 0.0 for terms, x in zip(index.terms, own_x)]
    w = list(own_w)
    for i in range(len(w) - 1, 0, -1):
        w[index.parent[i]] += w[i]
    page = score_page(index, keywords, ignore=ignore)
    assert page.own_x == own_x
    assert page.w == w  # the same floats, bit for bit
    assert page.x == index.subtree_sums(own_x)


def test_an_index_positions_its_elements_once() -> None:
    from forest.html import parse_html
    from forest.learning.index import page_index

    index = page_index(parse_html("<html><body><div><p>a</p><p>b<i>c</i></p></div><p>d</p></body></html>").find("body"))
    positions = index.positions()
    assert positions == {element: i for i, element in enumerate(index.elements)} and len(positions) == 6
    assert index.positions() is positions  # made once, for every step that asks


def test_ranking_scores_each_region_once_as_evaluate_scores_it() -> None:
    # Keys that select the same region (an id, a class, each class token, anchored paths): rank scores the
    # region once per page and gives every such key what evaluate, which scores each key alone, gives it.
    from forest.html import parse_html
    from forest.learning.index import page_index
    from keywords.tfidf import tfidf_terms
    from patterns.ranking import ScoredPage, evaluate, rank

    stories = ["glacier retreat summer alps melt", "orchestra symphony rehearsal violin", "volcano ash village farms",
               "bakery sourdough rye flour prize"]
    indexes = [page_index(parse_html(
        f"<html><body><div id='nav' class='menu top'><a href='/'>home news sport</a></div>"
        f"<div id='story' class='article main'><h1>{story.split()[0]}</h1><p class='lead text'>{story} {story}</p>"
        f"<p class='text'>{story}</p></div><div class='menu'><p>footer links contact</p></div></body></html>").find("body"))
        for story in stories]
    pages: list[ScoredPage] = [score_page(index, keywords) for index, keywords
                               in zip(indexes, tfidf_terms([index.page_terms() for index in indexes], k=5))]
    ranked = rank(pages)
    assert len(ranked) > 10
    for r in ranked:
        alone = evaluate(pages, r.pattern.xpath)
        assert (r.page_scores, r.page_terms) == (alone.page_scores, alone.page_terms)
        assert (r.pattern.support, r.pattern.level, r.pattern.terms) == (alone.pattern.support, alone.pattern.level, alone.pattern.terms)
