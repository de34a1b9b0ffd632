"""Settings: the one place for limits and thresholds, passed explicitly."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

Keywords = Literal["tfidf", "meta", "feed"]
Scoring = Literal["jxu", "cov"]
Candidates = Literal["ancestors", "leaves", "paths"]
Ranking = Literal["forest", "paper"]


@dataclass(frozen=True, slots=True)
class FetchSettings:
    """How forest fetches: timeouts, politeness and the address policy (forest.net.fetch).

    :param connect_timeout: seconds to open a connection; a live server answers in
        well under a second, so 10 s only waits out a slow DNS or TLS handshake.
    :param read_timeout: seconds allowed between two reads of a response.
    :param total_timeout: seconds for one whole response, however it trickles in:
        a server sending one byte every few seconds never trips ``read_timeout``.
    :param max_redirects: redirects followed per URL (browsers stop at 20; real
        article URLs need 1-3: http->https, www, a tracking hop).
    :param retries: extra attempts after a 429, a 5xx or a failed connection.
    :param backoff: seconds before the first retry, doubled for each later one.
    :param max_retry_after: the longest ``Retry-After`` honoured, in seconds; a server
        asking for longer is reported as failing rather than waited for.
    :param user_agent: the ``User-Agent`` header; empty means ``forest/<version> (+URL)``.
    :param respect_robots: obey the site's ``robots.txt``.
    :param concurrency: sample pages fetched at once.
    :param per_host_delay: seconds between two requests to one host (politeness);
        a ``Crawl-delay`` in robots.txt that asks for more wins, up to ``max_retry_after``.
    :param allow_private: fetch from loopback, private and link-local addresses (and
        localhost); off, they are refused after DNS resolution and on every redirect hop,
        so a page or feed cannot point forest at a cloud metadata service or an intranet.
    :param max_crawl_delay: the longest ``Crawl-delay`` honoured, in seconds; a polite
        10-page learn at 5 s a request takes about a minute.
    :param learn_timeout: seconds for a whole learn from a feed (feed, robots.txt and
        sample pages); pages not fetched by then are skipped as failed.
    """

    connect_timeout: float = 10.0
    read_timeout: float = 20.0
    total_timeout: float = 60.0
    max_redirects: int = 5
    retries: int = 2
    backoff: float = 0.5
    max_retry_after: float = 30.0
    user_agent: str = ""
    respect_robots: bool = True
    concurrency: int = 4
    per_host_delay: float = 0.5
    allow_private: bool = False
    max_crawl_delay: float = 5.0
    learn_timeout: float = 180.0


@dataclass(frozen=True, slots=True)
class Settings:
    """Limits and tuning knobs for learning and extraction; how to fetch is ``fetch`` (:class:`FetchSettings`).

    :param max_page_bytes: pages larger than this are refused; real article pages are
        well under 5 MB, and lxml needs about 10x the page size in memory.
    :param n_keywords: keywords per sample page (k).  The FOREST paper uses a
        top-k; 20 gave the best F1 when swept over 5, 10, 15, 20, 30.
    :param keywords: where keywords come from: ``"tfidf"`` (over the site sample),
        ``"meta"`` (each page's title and description) or ``"feed"`` (feed items);
        None: the source's own default (feed items for a feed, tf-idf for pages).
    :param scoring: ``"jxu"`` (J x U, the paper) or ``"cov"`` (tf-idf coverage, FOREST_Cov).
    :param candidates: ``"ancestors"`` (significant leaves and their ancestors),
        ``"leaves"`` (ABSELEMS) or ``"paths"`` (ABSPATHS, root-to-leaf tag paths).
    :param ranking: ``"forest"`` (checked on every sample page, see patterns.ranking)
        or ``"paper"`` (the literal R = sum I x level x nbOcc over node descriptions).
    :param classifier: use the shipped per-block classifier: at learning, its labels on
        the sample pages become the wrapper's exclusions (forest.learning.consensus); at
        extraction, it extracts pages no pattern fits and pages of sites with no wrapper.
        A page a wrapper fits never runs it.  Off, forest is FOREST's wrapper alone.
    :param n_pages: sample pages fetched from a feed to learn a site.
    :param relearn_after_misses: a site with a known feed is relearned when this many
        pages since it was learned found no learned pattern (drift), by the next
        extraction of one of its URLs (files and batches count misses, but fetch no feed).
    :param comments: extraction also reads the site's learned comment thread into
        ``Article.comments`` (they are left out of the article either way).
    :param html: extraction also builds the article's structure and its clean HTML
        (``Article.document``, ``Article.html``), for callers that print markdown or HTML: a
        walk of the region in Python, about as long as the rest of the extraction.  Off, an
        article is its text and fields.
    :param span: learning also finds the part of the site's pages' source extraction needs to
        parse (forest.learning.span): some 20 ms more to learn a site from 5 pages, some
        0.5 ms less to extract each of its pages.  A batch that learns a site to extract only
        a few of its pages turns it off (forest.batch.pages.SPAN_MIN_PAGES).
    """

    max_page_bytes: int = 10_000_000
    n_keywords: int = 20
    keywords: Keywords | None = None
    scoring: Scoring = "jxu"
    candidates: Candidates = "ancestors"
    ranking: Ranking = "forest"
    max_alternates: int = 4
    classifier: bool = True
    n_pages: int = 10
    relearn_after_misses: int = 5
    comments: bool = False
    html: bool = False
    span: bool = True
    fetch: FetchSettings = field(default_factory=FetchSettings)

    def __post_init__(self) -> None:
        # The one place the choices are checked: everything downstream trusts them.
        for name, kind in (("keywords", Keywords), ("scoring", Scoring), ("candidates", Candidates), ("ranking", Ranking)):
            value = getattr(self, name)
            allowed = get_args(kind)
            if value not in allowed and not (name == "keywords" and value is None):
                raise ValueError(f"Settings.{name} must be one of {', '.join(map(repr, allowed))}, not {value!r}")
