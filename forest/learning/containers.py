"""A pattern that selects an article's paragraphs becomes its container, when that loses nothing but structure.

J x U often elects a run of ``p`` siblings (``//div[@class='story-body']/p``): the
paragraphs hold the keywords, and the headings, lists and quotes between them are
short.  Extracted, such a wrapper drops the article's ``<h2>`` and ``<ul>``.  The
container (``//div[@class='story-body']``) is taken instead when, on every sample page
the pattern explains, it is exactly the paragraphs' parent and what it adds is
structure: headings, lists, quotes, code, tables and figures, with at most a little
else (a byline, a dateline) that the wrapper's cleanup then judges.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from patterns.choose import Choice
from patterns.ranking import ScoredPage, evaluate, matches

# The tags an article's own structure is made of, between its paragraphs.
STRUCTURE_TAGS = frozenset("h1 h2 h3 h4 h5 h6 ul ol dl blockquote pre table figure".split())
# What the container adds besides structure and paragraphs, at most this share of the paragraphs' terms.
# More lets a whole-page wrapper pass for the article's.  (Re-measure: `forest eval --split dev --systems forest`.)
MAX_OTHER_SHARE = 0.1


def paragraph_containers(choice: Choice, pages: Sequence[ScoredPage], scoring: str) -> Choice:
    """``choice`` with each pattern that selects ``p`` elements replaced by their container, where that adds only structure."""
    patterns = list(choice.patterns)
    for j, ranked in enumerate(choice.patterns):
        parent = _parent_xpath(ranked.pattern.xpath)
        members = [k for k, a in enumerate(choice.assignment) if a == j]
        if parent is None or not members:
            continue
        if _adds_only_structure(ranked.pattern.xpath, parent, [pages[k] for k in members]):
            wider = evaluate(pages, parent, scoring)
            patterns[j] = replace(wider, pattern=replace(wider.pattern, score=ranked.pattern.score))
    return replace(choice, patterns=tuple(patterns))


def _parent_xpath(xpath: str) -> str | None:
    """``xpath`` without its last step when that step selects ``p`` elements (``//x/p`` -> ``//x``)."""
    depth = 0
    cut = -1
    for i, char in enumerate(xpath):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "/" and depth == 0:
            cut = i
    if cut <= 1 or xpath[cut - 1] == "/":
        return None
    last = xpath[cut + 1:]
    return xpath[:cut] if last.split("[", 1)[0] == "p" else None


def _adds_only_structure(xpath: str, parent: str, pages: Sequence[ScoredPage]) -> bool:
    paragraphs = structure = other = 0
    for page in pages:
        index = page.index
        nodes = index.outermost(matches(index, xpath))
        containers = index.outermost(matches(index, parent))
        if not nodes or sorted({index.parent[i] for i in nodes}) != sorted(containers):
            return False
        chosen = set(nodes)
        for container in containers:
            other += index.n_terms[container]  # its own text between the children (a dateline)
            child = container + 1
            while child <= index.end[container]:
                terms = page.n[child]
                tag = index.elements[child].tag
                if child in chosen or tag == "p":
                    paragraphs += terms
                elif tag in STRUCTURE_TAGS:
                    structure += terms
                else:
                    other += terms
                child = index.end[child] + 1
    return structure > 0 and other <= MAX_OTHER_SHARE * paragraphs
