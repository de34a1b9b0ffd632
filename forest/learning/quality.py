"""How well a wrapper explains a set of pages, without labels: what decides whether a relearned wrapper replaces the stored one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from forest.config import Settings
from forest.errors import ParseError
from forest.extraction import extract
from forest.html import parse_html, script_shell
from forest.learning.index import page_index
from forest.model import Page
from forest.page import ParsedPage
from forest.wrapper import Wrapper
from keywords.tfidf import tfidf_terms
from keywords.tokenize import tokenize
from patterns.ranking import candidate_nodes, region_score, score_page
from patterns.scoring import informativeness


def fit_quality(wrapper: Wrapper, pages: Sequence[Page], settings: Settings | None = None) -> float:
    """The mean, over ``pages``, of the informativeness I = J x U of the wrapper's article
    (its cleaned region) as a share of the best I any single node of the page reaches.

    Keywords are tf-idf over ``pages``, as learning from them would take.  A page no
    pattern fits scores 0: a wrapper that explains fewer pages, or explains them with
    regions where the keywords are less dense and less unexpected, scores lower.
    """
    settings = replace(settings or Settings(), classifier=False)
    indexed = []
    for page in pages:
        # Parsed once: the tree indexed here is the one extraction reads below (a page its
        # scripts fill excepted: it is indexed as shown without scripts, and extracted as served).
        parsed = ParsedPage(page.html, max_bytes=settings.max_page_bytes)
        try:
            root = parsed.tree()
            if script_shell(root, page.html):
                root = parse_html(page.html, max_bytes=settings.max_page_bytes, noscript=True)
        except ParseError:
            continue
        indexed.append((parsed, page_index(root.find("body"), with_keys=False)))
    if not indexed:
        return 0.0
    found = tfidf_terms([index.page_terms() for _, index in indexed], k=settings.n_keywords)
    total = 0.0
    for (parsed, index), keywords in zip(indexed, found):
        scored = score_page(index, keywords)
        best = max((region_score(scored, [i]) for i in candidate_nodes(scored)), default=0.0)
        # The page's last use of its index: extraction may cut parts out of the tree it reads.
        article = extract(wrapper, parsed, settings=settings)
        if best <= 0 or article.method != "wrapper":
            continue
        terms = tokenize(article.text)
        x = sum(term in keywords.terms for term in terms)
        total += min(1.0, informativeness(x, len(terms) - x, scored.total_x, scored.total_y) / best)
    return total / len(indexed)
