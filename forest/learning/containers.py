"""A pattern that selects an article's paragraphs becomes its container, when that loses nothing but structure.

J x U often elects a run of ``p`` siblings (``//div[@class='story-body']/p``): the
paragraphs hold the keywords, and the headings, lists and quotes between them are
short.  Extracted, such a wrapper drops the article's ``<h2>`` and ``<ul>``.  The
container (``//div[@class='story-body']``) is taken instead when, on every sample page
the pattern explains, it is exactly the paragraphs' parent and what it adds is
structure: headings, lists, quotes, code, tables and figures, with at most a little
else (a byline's div) that the wrapper's cleanup then judges; its running text outside the
paragraphs (its own text, inline elements such as a lede in ``<b>``) counts as paragraphs.
A pattern of paragraphs alone (``//p``) has no step to drop: its container is then named
by the parent axis (``//p/parent::*``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from patterns.choose import Choice
from patterns.ranking import ScoredPage, evaluate, matches
from patterns.text import BLOCK_TAGS

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
        if parent is None and members and _last_step(ranked.pattern.xpath) == "p":
            # A pattern of paragraphs alone (//p: a 2005 story's paragraphs under a <font> no key names) has
            # no step to drop: its container is the paragraphs' parent, named as such.
            parent = _name_parents(ranked.pattern.xpath, pages)
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


def _last_step(xpath: str) -> str:
    return xpath.rsplit("/", 1)[-1].split("[", 1)[0]


def _name_parents(xpath: str, pages: Sequence[ScoredPage]) -> str | None:
    """``xpath``'s parent axis (``//p/parent::*``), entered in every page index as a pattern of the
    parents of its outermost matches; None where a match is the body's own child (the body is never a region)."""
    parent = f"{xpath}/parent::*"
    found = []
    for page in pages:
        index = page.index
        parents = sorted({index.parent[i] for i in index.outermost(matches(index, xpath))})
        if any(i <= 0 for i in parents):
            return None
        found.append(parents)
    for page, parents in zip(pages, found):
        page.index.keys[parent] = parents
    return parent


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
            # Its own text between the children, and its inline children (a lede in <b>, the text
            # after a fact box up to the next <p>), are the article's running text, as paragraphs are.
            paragraphs += index.n_terms[container]
            child = container + 1
            while child <= index.end[container]:
                terms = page.n[child]
                tag = index.elements[child].tag
                if child in chosen or tag == "p" or (tag not in BLOCK_TAGS and tag != "a"):
                    paragraphs += terms
                elif tag in STRUCTURE_TAGS:
                    structure += terms
                else:
                    other += terms
                child = index.end[child] + 1
    return structure > 0 and other <= MAX_OTHER_SHARE * paragraphs
