"""Learn a site's Wrapper from sample pages (FOREST, Oita & Senellart 2015)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Sequence

from lxml.html import HtmlElement

from forest.agreement import Agreement, measure
from forest.classifier.model import TagClassifier
from forest.classifier.page import load_default
from forest.config import Settings
from forest.errors import LearnError, ParseError
from forest.extraction import boilerplate_texts, wrapper_region
from forest.fields import learn_fields
from forest.html import meta_content, page_title, parse_html
from forest.limits import classifiable
from forest.model import Page
from forest.wrapper import Wrapper
from keywords.meta import metadata_keywords
from keywords.model import Metadata
from keywords.tfidf import tfidf_keywords
from keywords.tokenize import tokenize
from patterns.choose import Choice, choose, disagreements
from patterns.ranking import Ranked, ScoredPage, matches, rank, rank_paper, score_page
from patterns.model import Pattern
from patterns.refine import boilerplate_subpatterns, core_step
from patterns.dom import PageIndex, index_page
from patterns.text import text_blocks


@dataclass(frozen=True, slots=True)
class LearnReport:
    """What happened to each sample page while learning."""

    used: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]  # (page, reason)
    notes: tuple[str, ...]


class Inducer:
    """Learns one site's wrapper from a handful of its pages, without labels.

    Parameters
    ----------
    settings : Settings
        Keyword source, scoring, candidate and ranking variants, limits.
    classifier : TagClassifier, optional
        The per-block classifier whose agreement with the sample pages' keywords
        decides whether it may prune this site's regions (see forest.agreement);
        by default the shipped model, when ``settings.blend`` is on.

    Attributes
    ----------
    wrapper_ : Wrapper
        The learned wrapper (after :meth:`fit`).
    ranked_ : list of Ranked
        Every candidate pattern with its per-page scores, best first (forest ranking).
    report_ : LearnReport
        Pages used and skipped, and what learning noticed.
    """

    def __init__(self, settings: Settings | None = None, classifier: TagClassifier | None = None) -> None:
        self.settings = settings
        self.classifier = classifier

    def fit(self, pages: Sequence[Page], site: str | None = None) -> "Inducer":
        """Learn from ``pages`` (all of one site).

        :raises LearnError: when no page is usable or no pattern is found.
        """
        settings = self.settings or Settings()
        site = site or next((p.site for p in pages if p.site), None) or "unknown"
        samples, skipped = _read(pages, settings)
        scored, keyed = _score(samples, settings, skipped)
        used = [sample.name for sample, _ in keyed]
        if not scored:
            reasons = "; ".join(f"{n}: {r}" for n, r in skipped) or "no pages given"
            raise LearnError(f"no usable sample page for site {site!r} ({reasons})", site=site)

        notes = [f"skipped {n}: {r}" for n, r in skipped]
        self.ranked_: list[Ranked] = []
        if settings.ranking == "paper":
            chosen = rank_paper(scored, scoring=settings.scoring, candidates=settings.candidates)
            chosen = chosen[: 1 + settings.max_alternates]
            regions: list[list[int]] = [[] for _ in scored]  # @dfs patterns are not in the page index
            exclusions: list[str] = []
        elif settings.ranking == "forest":
            self.ranked_ = rank(scored, scoring=settings.scoring, candidates=settings.candidates)
            choice = choose(self.ranked_, len(scored), max_alternates=settings.max_alternates)
            notes.extend(disagreements(choice, used))
            chosen, regions = _narrow(choice, scored)
            explained = [k for k, region in enumerate(regions) if region]
            exclusions = boilerplate_subpatterns([scored[k] for k in explained], [regions[k] for k in explained])
        else:
            raise ValueError(f"unknown ranking {settings.ranking!r}; use 'forest' or 'paper'")
        if not chosen or chosen[0].score <= 0:
            raise LearnError(f"no pattern found for site {site!r}: keywords matched no stable region", site=site)

        self.wrapper_ = Wrapper(
            site=site,
            patterns=tuple(chosen),
            template_blocks=_template_blocks(scored, regions),
            exclusions=tuple(exclusions),
            variant={
                "keywords": settings.keywords,
                "scoring": settings.scoring,
                "candidates": settings.candidates,
                "ranking": settings.ranking,
            },
            sample=tuple(used),
            notes=tuple(notes),
            learned_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            fields=learn_fields([(sample.root, sample.page.meta) for sample in samples if sample.page.meta]),
        )
        if settings.blend:
            # Last: finding the regions cuts the learned exclusions out of the sample trees.
            agreement = _agreement(self.wrapper_, keyed, self.classifier or load_default())
            if not agreement.prune:  # pruning is the default; only its absence is news
                notes.append(agreement.describe())
                self.wrapper_ = replace(self.wrapper_, prune=False, notes=tuple(notes))
        self.report_ = LearnReport(tuple(used), tuple(skipped), tuple(notes))
        return self


@dataclass(frozen=True, slots=True)
class _Sample:
    name: str
    page: Page
    root: HtmlElement
    index: PageIndex
    meta: Metadata  # the feed item's, else the page's own title and description


def _read(pages: Sequence[Page], settings: Settings) -> tuple[list[_Sample], list[tuple[str, str]]]:
    """Parse and index the sample pages; the unreadable ones are skipped with their reason."""
    samples: list[_Sample] = []
    skipped: list[tuple[str, str]] = []
    for i, page in enumerate(pages):
        name = page.url or f"page {i + 1}"
        try:
            root = parse_html(page.html, max_bytes=settings.max_page_bytes, source=name)
        except ParseError as exc:
            skipped.append((name, str(exc)))
            continue
        meta = page.meta or Metadata(title=page_title(root), summary=meta_content(root, "description", "og:description"))
        index = index_page(root.find("body"), paths=settings.candidates == "paths")
        samples.append(_Sample(name, page, root, index, meta))
    return samples, skipped


def _score(
    samples: Sequence[_Sample], settings: Settings, skipped: list[tuple[str, str]]
) -> tuple[list[ScoredPage], list[tuple[_Sample, frozenset[str]]]]:
    """Keywords for every sample, counted in every subtree; pages without any are skipped.

    Returns the scored pages and, for each, its sample and keywords.
    """
    if settings.keywords == "tfidf":
        texts = [" ".join(t for terms in sample.index.terms for t in terms) for sample in samples]
        found = tfidf_keywords(texts, k=settings.n_keywords) if texts else []
    elif settings.keywords in ("meta", "feed"):
        found = [metadata_keywords(s.meta, k=settings.n_keywords, source=settings.keywords) for s in samples]
    else:
        raise ValueError(f"unknown keyword source {settings.keywords!r}; use 'tfidf', 'meta' or 'feed'")
    scored: list[ScoredPage] = []
    keyed: list[tuple[_Sample, frozenset[str]]] = []
    for sample, keywords in zip(samples, found):
        headline = _headline(sample.index, sample.meta) if keywords.source != "tfidf" else frozenset()
        page = score_page(sample.index, keywords, ignore=headline)
        if page.total_x == 0:
            skipped.append((sample.name, "no keyword occurs in the page's text"))
            continue
        scored.append(page)
        keyed.append((sample, frozenset(keywords.terms)))
    return scored, keyed


def _agreement(wrapper: Wrapper, keyed: Sequence[tuple[_Sample, frozenset[str]]], classifier: TagClassifier) -> Agreement:
    """How the classifier's labels inside the wrapper's regions sit with each sample page's keywords.

    A page's region is that of the first pattern that matches it, as at extraction.
    """
    regions = []
    for sample, keywords in keyed:
        dropped = boilerplate_texts(classifier.predict_blocks(sample.root)) if classifiable(sample.root) else frozenset()
        for pattern in wrapper.patterns:
            nodes, blocks = wrapper_region(sample.root, wrapper, pattern.xpath)
            if nodes:
                regions.append((blocks, dropped, keywords))
                break
    return measure(regions)


def _narrow(choice: Choice, scored: Sequence[ScoredPage]) -> tuple[list[Pattern], list[list[int]]]:
    """The chosen patterns, each narrowed to its core, and each sample page's region
    under the pattern that explains it (empty when none does)."""
    regions = [
        scored[k].index.outermost(matches(scored[k].index, choice.patterns[j].pattern.xpath)) if j >= 0 else []
        for k, j in enumerate(choice.assignment)
    ]
    patterns = []
    for j, ranked in enumerate(choice.patterns):
        members = [k for k, a in enumerate(choice.assignment) if a == j]
        patterns.append(_with_core(ranked.pattern, [scored[k] for k in members], [regions[k] for k in members]))
    return patterns, regions


def _headline(index: PageIndex, meta: Metadata | None) -> frozenset[int]:
    """The elements whose own text is (a piece of) the item's title.

    With keywords taken from the title and summary, the headline holds nearly every
    keyword in a handful of terms, and J x U would elect it as the article.  Its
    words are what the keywords were made from, not evidence of where the body is.
    """
    title = set(tokenize(meta.title)) if meta else set()
    if len(title) < 2:
        return frozenset()
    return frozenset(i for i, terms in enumerate(index.terms) if len(terms) >= 2 and title.issuperset(terms))


def _template_blocks(pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]]) -> frozenset[str]:
    """The text blocks found inside the article region of at least half the
    sample pages (and at least two): text that the template, not the author, wrote."""
    seen: Counter[str] = Counter()
    for page, region in zip(pages, regions):
        nodes = [page.index.elements[i] for i in region]
        # Navigation blocks are dropped at extraction anyway; counting them would make
        # an article's headline "template" when sample pages link to it from a sidebar.
        seen.update({block.text for block in text_blocks(nodes) if not block.is_navigation})
    needed = max(2, math.ceil(len(pages) / 2))
    return frozenset(text for text, count in seen.items() if count >= needed)


def _with_core(pattern: Pattern, pages: Sequence[ScoredPage], regions: Sequence[Sequence[int]]) -> Pattern:
    """``pattern`` narrowed to regions that contain the core it had on its sample pages,
    when the narrowed XPath still selects the same nodes there."""
    core = core_step(pages, regions) if pages else None
    if core is None:
        return pattern
    xpath = f"{pattern.xpath}[{core}]"
    for page, region in zip(pages, regions):
        body = page.index.elements[0]
        found = body.getroottree().xpath(xpath)
        if [page.index.elements[i] for i in region] != list(found):
            return pattern
    return replace(pattern, xpath=xpath)
