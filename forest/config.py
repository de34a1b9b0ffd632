"""Settings: the one place for limits and thresholds, passed explicitly."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits and tuning knobs for learning and extraction.

    :param max_page_bytes: pages larger than this are refused; real article pages are
        well under 5 MB, and lxml needs about 10x the page size in memory.
    :param n_keywords: keywords per sample page (k).  The FOREST paper uses a
        top-k; 20 gave the best F1 when swept over 5, 10, 15, 20, 30.
    :param keywords: where keywords come from: ``"tfidf"`` (over the site sample),
        ``"meta"`` (each page's title and description) or ``"feed"`` (feed items).
    :param scoring: ``"jxu"`` (J x U, the paper) or ``"cov"`` (tf-idf coverage, FOREST_Cov).
    :param candidates: ``"ancestors"`` (significant leaves and their ancestors),
        ``"leaves"`` (ABSELEMS) or ``"paths"`` (ABSPATHS, root-to-leaf tag paths).
    :param ranking: ``"forest"`` (checked on every sample page, see patterns.ranking)
        or ``"paper"`` (the literal R = sum I x level x nbOcc over node descriptions).
    """

    max_page_bytes: int = 10_000_000
    n_keywords: int = 20
    keywords: str = "tfidf"
    scoring: str = "jxu"
    candidates: str = "ancestors"
    ranking: str = "forest"
    max_alternates: int = 4
