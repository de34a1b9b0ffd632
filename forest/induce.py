"""Learn a site's Wrapper from sample pages (FOREST, Oita & Senellart 2015)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Sequence

from lxml.html import HtmlElement

from forest.config import Settings
from forest.errors import LearnError, ParseError
from forest.fields import learn_fields
from forest.html import meta_content, page_title, parse_html
from forest.model import Page
from forest.wrapper import Wrapper
from keywords.meta import metadata_keywords
from keywords.model import Keywords, Metadata
from keywords.tfidf import tfidf_keywords
from patterns.dom import PageIndex, index_page
from patterns.ranking import Ranked, ScoredPage, matches, rank, rank_paper, score_page, vote_score
from patterns.model import Pattern
from patterns.refine import boilerplate_subpatterns, core_step
from patterns.text import text_blocks

# A sample page is "explained" by a pattern when the pattern's region scores at
# least this share of the best region any candidate pattern finds on that page.
EXPLAINED_SHARE = 0.5


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

    Attributes
    ----------
    wrapper_ : Wrapper
        The learned wrapper (after :meth:`fit`).
    ranked_ : list of Ranked
        Every candidate pattern with its per-page scores, best first (forest ranking).
    report_ : LearnReport
        Pages used and skipped, and what learning noticed.
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings

    def fit(self, pages: Sequence[Page], site: str | None = None) -> "Inducer":
        """Learn from ``pages`` (all of one site).

        :raises LearnError: when no page is usable or no pattern is found.
        """
        settings = self.settings or Settings()
        site = site or next((p.site for p in pages if p.site), None) or "unknown"
        names = [p.url or f"page {i + 1}" for i, p in enumerate(pages)]
        skipped: list[tuple[str, str]] = []
        parsed: list[tuple[str, PageIndex, Metadata | None]] = []
        with_meta: list[tuple[HtmlElement, Metadata]] = []  # feed items' title/author/date -> field patterns
        for name, page in zip(names, pages):
            try:
                root = parse_html(page.html, max_bytes=settings.max_page_bytes, source=name)
            except ParseError as exc:
                skipped.append((name, str(exc)))
                continue
            if page.meta is not None:
                with_meta.append((root, page.meta))
            meta = page.meta or Metadata(
                title=page_title(root), summary=meta_content(root, "description", "og:description")
            )
            index = index_page(root.find("body"), paths=settings.candidates == "paths")
            parsed.append((name, index, meta))
        scored: list[ScoredPage] = []
        used: list[str] = []
        for (name, index, meta), keywords in zip(parsed, self._keywords(parsed, settings)):
            page = score_page(index, keywords)
            if page.total_x == 0:
                skipped.append((name, "no keyword occurs in the page's text"))
                continue
            scored.append(page)
            used.append(name)
        if not scored:
            reasons = "; ".join(f"{n}: {r}" for n, r in skipped) or "no pages given"
            raise LearnError(f"no usable sample page for site {site!r} ({reasons})", site=site)

        notes = [f"skipped {n}: {r}" for n, r in skipped]
        if settings.ranking == "paper":
            chosen = rank_paper(scored, candidates=settings.candidates)[: 1 + settings.max_alternates]
            regions = [[page.index.outermost(page.index.keys.get(chosen[0].xpath, ()))] for page in scored]
            self.ranked_: list[Ranked] = []
        elif settings.ranking == "forest":
            self.ranked_ = rank(scored, scoring=settings.scoring, candidates=settings.candidates)

            picked, assignment, disagree = _choose(self.ranked_, len(scored), settings.max_alternates)
            chosen = [r.pattern for r in picked]
            regions = [
                [scored[k].index.outermost(matches(scored[k].index, picked[assignment[k]].pattern.xpath))]
                if assignment[k] >= 0 else []
                for k in range(len(scored))
            ]
            notes.extend(disagree(used))
            chosen = [
                _with_core(pattern, [scored[k] for k in range(len(scored)) if assignment[k] == j],
                           [regions[k][0] for k in range(len(scored)) if assignment[k] == j])
                for j, pattern in enumerate(chosen)
            ]
        else:
            raise ValueError(f"unknown ranking {settings.ranking!r}; use 'forest' or 'paper'")
        if not chosen or chosen[0].score <= 0:
            raise LearnError(f"no pattern found for site {site!r}: keywords matched no stable region", site=site)

        exclusions: list[str] = []
        if settings.ranking == "forest":
            main_pages = [k for k in range(len(scored)) if regions[k] and regions[k][0]]
            exclusions = boilerplate_subpatterns([scored[k] for k in main_pages], [regions[k][0] for k in main_pages])
        template = _template_blocks(scored, regions)
        self.wrapper_ = Wrapper(
            site=site,
            patterns=tuple(chosen),
            template_blocks=template,
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
            fields=learn_fields(with_meta),
        )
        self.report_ = LearnReport(tuple(used), tuple(skipped), tuple(notes))
        return self

    @staticmethod
    def _keywords(parsed: Sequence[tuple[str, PageIndex, Metadata | None]], settings: Settings) -> list[Keywords]:
        if settings.keywords == "tfidf":
            texts = [" ".join(t for terms in index.terms for t in terms) for _, index, _ in parsed]
            return tfidf_keywords(texts, k=settings.n_keywords) if texts else []
        if settings.keywords in ("meta", "feed"):
            return [
                metadata_keywords(meta or Metadata(), k=settings.n_keywords, source=settings.keywords)
                for _, _, meta in parsed
            ]
        raise ValueError(f"unknown keyword source {settings.keywords!r}; use 'tfidf', 'meta' or 'feed'")


def _choose(ranked: Sequence[Ranked], n_pages: int, max_alternates: int):  # type: ignore[no-untyped-def]
    """Pick the main pattern and the alternates; assign each sample page to the first
    pattern that explains it.  Returns (patterns, assignment, notes-maker)."""
    best = [max((r.page_scores[k] for r in ranked), default=0.0) for k in range(n_pages)]

    def explains(r: Ranked, k: int) -> bool:
        return best[k] > 0 and r.page_scores[k] >= EXPLAINED_SHARE * best[k]

    picked: list[Ranked] = []
    assignment = [-1] * n_pages
    while len(picked) <= max_alternates:
        open_pages = [k for k in range(n_pages) if assignment[k] < 0]
        if not open_pages or not ranked:
            break
        # The pattern that best explains the pages no chosen pattern explains yet.
        def merit(r: Ranked) -> tuple[int, float]:
            return sum(1 for k in open_pages if explains(r, k)), vote_score(r, open_pages, best)

        top = max(ranked, key=merit)
        newly = [k for k in open_pages if explains(top, k)]
        if not newly:
            break
        for k in newly:
            assignment[k] = len(picked)
        picked.append(top)

    def notes(names: Sequence[str]) -> list[str]:
        out: list[str] = []
        for j, pattern in enumerate(picked[1:], start=1):
            members = [names[k] for k in range(n_pages) if assignment[k] == j]
            out.append(
                f"{len(members)} of {n_pages} sample pages do not fit the main pattern "
                f"({', '.join(members)}): the site mixes templates; alternate {pattern.pattern.xpath} learned from them"
            )
        lost = [names[k] for k in range(n_pages) if assignment[k] < 0]
        if lost:
            out.append(f"no pattern explains {', '.join(lost)}: those pages agree with no other sample page")
        return out

    return picked, assignment, notes


def _template_blocks(pages: Sequence[ScoredPage], regions: Sequence[Sequence[Sequence[int]]]) -> frozenset[str]:
    """The text blocks found inside the article region of at least half the
    sample pages (and at least two): text that the template, not the author, wrote."""
    seen: Counter[str] = Counter()
    for page, region in zip(pages, regions):
        nodes = [page.index.elements[i] for group in region for i in group]
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
