"""forest and the FOREST paper's variants as evaluated systems: learn a wrapper per site, extract with it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from forest.config import Settings
from forest.errors import LearnError
from forest.extraction import extract
from forest.learning.induce import Inducer
from forest.model import Page
from forest.wrapper import Wrapper

__all__ = [
    "COLD",
    "PAGE_ALONE",
    "SINGLE_PAGE",
    "VARIANTS",
    "ForestSystem",
    "cold_system",
    "Variant",
    "forest_systems",
    "single_page_systems",
    "variant_names",
]


# A LearnError lists every skipped page; the note keeps the head, the JSON report has all.
_REASON = 160


@dataclass(frozen=True, slots=True)
class Variant:
    """A named forest configuration: what the report calls it, its Settings, and a one-line legend."""

    name: str
    settings: Settings
    legend: str


# Report order: ours first, then the paper's method and its ablations (DESIGN.md section 3).
# The paper's variants learn from J x U alone, like FOREST as published.
_ALONE = Settings(classifier=False)

VARIANTS: tuple[Variant, ...] = (
    Variant(
        "forest",
        Settings(),
        "forest as shipped: the learned wrapper with the exclusions the classifier's labels on the sample "
        "pages taught it; the classifier extracts only pages no pattern fits; ours",
    ),
    Variant("forest-wrapper", _ALONE, "forest's wrapper alone (tf-idf keywords, forest ranking, template cleanup), no classifier"),
    Variant("forest-meta", replace(_ALONE, keywords="meta"), "forest's ranking with each page's title and description as keywords"),
    Variant(
        "FOREST_info",
        Settings(keywords="tfidf", ranking="paper", classifier=False),
        "the paper's method as published: tf-idf keywords, literal R = sum I x level x nbOcc ranking",
    ),
    Variant(
        "FOREST_feed",
        Settings(keywords="meta", ranking="paper", classifier=False),
        "the paper's ranking with keywords from the feed item (else a pseudo-feed item: the page's title and meta description)",
    ),
    Variant("FOREST_Cov", replace(_ALONE, scoring="cov", ranking="paper"), "the paper's ranking, node score = tf-idf coverage instead of J x U"),
    Variant("ABSELEMS", replace(_ALONE, candidates="leaves", ranking="paper"), "the paper's ranking over significant leaves only, no ancestors"),
    Variant("ABSPATHS", replace(_ALONE, candidates="paths", ranking="paper"), "as ABSELEMS, nodes identified by their root-to-leaf tag path"),
)
# The page-level run gives forest no sample to learn from: every variant then extracts
# every page cold, so two rows stand for all of them: forest as shipped (the classifier)
# and FOREST's own single-page fallback (J x U on the page alone, no classifier).
SINGLE_PAGE = Variant(
    "forest (no wrapper)", Settings(),
    "forest as shipped on a page of a site it has not learned: the per-block classifier (FOREST on the page alone "
    "when the classifier finds too little)",
)
# The baseline learning must beat (issue 38): forest as shipped with no wrapper, on the same test
# pages as the site-level systems; a site-level run always has it.
COLD = Variant(
    "cold", Settings(),
    "forest's cold path on the same test pages: no wrapper, the per-block classifier (FOREST on the page alone "
    "when the classifier finds too little); the baseline learning must beat",
)
PAGE_ALONE = Variant("FOREST (page alone)", _ALONE, "FOREST's single-page fallback: J x U on the page alone, no classifier")


class ForestSystem:
    """One forest variant behind the :class:`eval.systems.System` interface.

    ``fit`` learns a wrapper from a site's sample pages; a :class:`~forest.errors.LearnError`
    leaves the system without a wrapper (``extract`` then runs forest's single-page
    fallback) and is kept in ``learn_errors``, so a site forest cannot learn costs
    accuracy, not the run.  ``methods`` counts the extracted pages by
    :attr:`forest.model.Article.method` (``wrapper``, ``page``, ``none``).
    """

    site_level = True

    def __init__(self, variant: Variant, *, site_level: bool = True) -> None:
        self.variant = variant
        self.name = variant.name
        self.settings = variant.settings
        self.site_level = site_level
        self.wrapper_: Wrapper | None = None
        self.methods: Counter[str] = Counter()
        # The confidence of the last extracted record: the protocol keeps it beside the page's F1.
        self.last_confidence: float | None = None
        self.learn_errors: dict[str, str] = {}
        self.sites_fit = 0
        self.pages_fit = 0
        # Training pages that came with no feed item (their metadata is the page's own head).
        self.pseudo_feed_pages = 0

    def fit(self, pages: Sequence[Page]) -> None:
        """Learn this site's wrapper from ``pages``, replacing the previous site's."""
        self.wrapper_ = None
        site = next((p.site for p in pages if p.site), None) or "unknown"
        self.sites_fit += 1
        self.pages_fit += len(pages)
        self.pseudo_feed_pages += sum(p.meta is None for p in pages)
        try:
            self.wrapper_ = Inducer(self.settings).fit(pages, site).wrapper_
        except LearnError as exc:
            self.learn_errors[site] = " ".join(str(exc).split())

    def extract(self, page: Page) -> str:
        """The article text with the current wrapper (or the single-page fallback without one)."""
        self.last_confidence = None
        article = extract(self.wrapper_, page.html, url=page.url, settings=self.settings)
        self.methods[article.method] += 1
        self.last_confidence = article.confidence
        return article.text

    def notes(self) -> list[str]:
        """What a reader of the results should know about this system's run, one line each."""
        lines = []
        if self.learn_errors:
            site, reason = next(iter(self.learn_errors.items()))
            lines.append(
                f"{self.name}: no wrapper learned for {len(self.learn_errors)} of {self.sites_fit} sites "
                f"(LearnError); their pages used the single-page fallback; first: {site}: {_head(reason)}"
            )
        if self.settings.keywords in ("meta", "feed") and self.site_level and self.pseudo_feed_pages:
            lines.append(
                f"{self.name}: {self.pseudo_feed_pages} of {self.pages_fit} training pages had no feed item; "
                "their keywords came from a pseudo-feed item (the page's own title and meta description)"
            )
        return lines

    def __repr__(self) -> str:
        return f"<ForestSystem {self.name!r}>"


def _head(text: str) -> str:
    return text if len(text) <= _REASON else text[:_REASON].rsplit(" ", 1)[0] + " ..."


def variant_names() -> list[str]:
    """Names of the forest variants, in report order."""
    return [v.name for v in VARIANTS]


def forest_systems(names: Sequence[str] | None = None) -> list[ForestSystem]:
    """Fresh site-level systems for the named variants (all when ``names`` is None), in report order.

    Fresh per run: a system carries the last site's wrapper and its counters.

    :raises ValueError: an unknown name (the message lists the known ones).
    """
    known = {v.name: v for v in VARIANTS}
    unknown = [n for n in names or () if n not in known]
    if unknown:
        raise ValueError(f"unknown forest variant {', '.join(unknown)}; known: {', '.join(known)}")
    wanted = set(names) if names is not None else set(known)
    return [ForestSystem(v) for v in VARIANTS if v.name in wanted]


def cold_system() -> ForestSystem:
    """forest's cold path as a page-level system of a site-level run (never fit)."""
    return ForestSystem(COLD, site_level=False)


def single_page_systems() -> list[ForestSystem]:
    """forest for a page-level run: never fit, so every page is extracted cold (as shipped, and by FOREST alone)."""
    return [ForestSystem(SINGLE_PAGE, site_level=False), ForestSystem(PAGE_ALONE, site_level=False)]
