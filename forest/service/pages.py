"""Learn a site from saved pages and extract pages, with the store: the service layer the CLI and the web app call."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from lxml.html import HtmlElement

from forest.config import Settings
from forest.errors import ParseError, StoreError, UnknownSiteError
from forest.extraction import extract
from forest.learning.induce import Inducer, LearnReport
from forest.learning.quality import fit_quality
from forest.model import Article, Page
from forest.page import ParsedPage
from forest.site import site_host, site_or_none
from forest.storage import WrapperStore
from forest.wrapper import Wrapper

__all__ = [
    "PageSite", "SiteHealth", "extract_page", "group_by_site", "learn_pages", "load_wrapper", "page_site", "read_article",
    "save_learned", "site_health", "stored_wrapper",
]

# A relearned wrapper replaces the stored one unless it explains the pages of both samples
# worse by more than this (forest.learning.quality: a mean share of the best I per page).
QUALITY_MARGIN = 0.02


def learn_pages(
    pages: Sequence[Page],
    *,
    site: str | None = None,
    settings: Settings | None = None,
    store: WrapperStore | None = None,
    trees: list[HtmlElement | None] | None = None,
) -> tuple[Wrapper, LearnReport]:
    """Learn one site's wrapper from sample ``pages`` and, if ``store`` is given, save it (see :func:`save_learned`).

    :param site: the site key; default: the pages' own ``site``, else the site of their URL.
    :param trees: filled, whether learning succeeds or not, with each page's tree as learning
        parsed it and left it, for a caller that extracts the pages next without parsing them
        again (``ParsedPage(..., tree=)``); None for a page learning kept no such tree of
        (forest.learning.induce.Inducer.trees_).
    :raises LearnError: when no wrapper can be learned (the store is then left untouched).
    :raises StoreError: when the store cannot be written.
    """
    if site is None:
        site = next((p.site for p in pages if p.site), None) or next(
            (s for s in (site_or_none(p.url) for p in pages) if s), None
        )
    inducer = Inducer(settings)
    try:
        inducer.fit(pages, site=site)
    finally:
        if trees is not None:
            trees[:] = getattr(inducer, "trees_", [None] * len(pages))
    if store is None:
        return inducer.wrapper_, inducer.report_
    return save_learned(store, inducer.wrapper_, inducer.report_, pages, settings)


def save_learned(
    store: WrapperStore, wrapper: Wrapper, report: LearnReport, pages: Sequence[Page], settings: Settings | None = None
) -> tuple[Wrapper, LearnReport]:
    """Store a newly learned ``wrapper`` with its sample pages, unless the stored one is better.

    Relearning never replaces a wrapper with one that explains the pages of both samples
    (the stored sample and ``pages``) worse: the stored wrapper is kept, and the report's
    notes say why.  Returns the wrapper in force and the report with its stored version.
    """
    named = {page.url or f"page {i + 1}": page for i, page in enumerate(pages)}
    used = [named[name] for name in report.used if name in named]
    old = stored_wrapper(wrapper.site, store)
    old_pages = store.samples(wrapper.site) if old is not None else []
    if old is not None and old_pages:
        union = [Page(html, url=name, site=wrapper.site) for name, html in old_pages if name not in named] + used
        before, after = fit_quality(old, union, settings), fit_quality(wrapper, union, settings)
        if after < before - QUALITY_MARGIN:
            info = store.info(wrapper.site)
            version = info.version if info else None
            note = (
                f"kept the stored wrapper (version {version}): on the {len(union)} pages of both samples it explains "
                f"the articles better ({before:.2f} against {after:.2f} for the new one)"
            )
            return old, replace(report, notes=(*report.notes, note), version=version)
    samples = [(name, named[name].html) for name in report.used if name in named]
    version = store.save(wrapper.site, wrapper.to_dict(), samples=samples)
    return wrapper, replace(report, version=version)


def load_wrapper(site: str, store: WrapperStore) -> Wrapper:
    """The wrapper stored for ``site``.

    :raises UnknownSiteError: if none is stored.
    :raises StoreError: if the stored record is corrupt or of a newer schema.
    """
    return Wrapper.from_dict(store.get(site))


def stored_wrapper(site: str | None, store: WrapperStore) -> Wrapper | None:
    """The wrapper stored for ``site``, or None when there is none."""
    if site is None:
        return None
    try:
        return load_wrapper(site, store)
    except UnknownSiteError:
        return None


def extract_page(
    data: bytes | str | ParsedPage,
    *,
    site: str | None = None,
    url: str | None = None,
    store: WrapperStore | None = None,
    settings: Settings | None = None,
    declared_charset: str | None = None,
) -> Article:
    """Extract the article of one page with its site's stored wrapper, and count it in the store.

    The site is ``site`` if given; else the stored site of ``url``'s host; else the
    stored site of the host in the page's ``<link rel=canonical>`` or ``og:url``
    (:func:`page_site`).  A page of a site with no stored wrapper is extracted cold, by
    the classifier (``method="classifier"``).

    :param data: the page's bytes or text, or a :class:`forest.page.ParsedPage` (its own URL and
        charset then stand for ``url`` and ``declared_charset``).
    :param store: where wrappers are; default: ``WrapperStore.for_extraction()`` ($FOREST_DB or the
        user data dir; read-only when it cannot be written).  A read-only store counts nothing.
    :param declared_charset: the charset the page was served with (an HTTP header's), if known.
    :raises ParseError: if ``data`` is not a readable HTML page.
    :raises StoreError: if the store cannot be read or written.
    """
    if store is None:
        with WrapperStore.for_extraction() as opened:
            return extract_page(data, site=site, url=url, store=opened, settings=settings,
                                declared_charset=declared_charset)
    settings = settings or Settings()
    page = data if isinstance(data, ParsedPage) else \
        ParsedPage(data, url=url, charset=declared_charset, max_bytes=settings.max_page_bytes)
    where = page_site(page, site=site, store=store)
    article = read_article(page, where, settings)
    if where.wrapper is not None:
        store.record_extraction(where.wrapper.site, miss=article.method != "wrapper")
    return article


@dataclass(frozen=True, slots=True)
class PageSite:
    """Which site a page is (:func:`page_site`), and what it is extracted with.

    :param site: the site the page is read as (None: none is known).
    :param wrapper: the site's wrapper (None: the page is extracted cold).
    :param url: the article's URL: the page's own, else its canonical link's where that named the stored site.
    """

    site: str | None
    wrapper: Wrapper | None
    url: str | None


def page_site(
    page: ParsedPage,
    *,
    site: str | None = None,
    store: WrapperStore | None,
    canonical: bool = True,
    also: Sequence[str] = (),
    load: Callable[[str], Wrapper | None] | None = None,
) -> PageSite:
    """Which site ``page`` is, for every road to an article: ``site`` if given; else the stored site of
    its URL's host (or of ``also``'s); else, with ``canonical``, the stored site of the host its
    ``<link rel=canonical>`` or ``og:url`` names (read from its head: :meth:`ParsedPage.canonical`);
    else the registered domain of the first of those that has one, with no wrapper.

    :param store: where sites are looked up (None: none is stored).
    :param canonical: read the page's canonical link when its URL names no stored site; False for a
        page whose URL is where it was fetched from (a WARC record, an HTTP response).
    :param also: other URLs of the page to look its site up by (the URL asked for, before redirects).
    :param load: looks a site's wrapper up (default: :func:`stored_wrapper` in ``store``); a batch
        passes a cached one, Spark the wrapper it learned.
    :raises ParseError: if the page must be read for its canonical URL and is not a readable HTML page.
    """
    if load is None:
        load = (lambda name: stored_wrapper(name, store)) if store is not None else (lambda name: None)

    def stored(candidate: str) -> str | None:
        return store.site_for_host(site_host(candidate)) if store is not None else None

    if site is not None:
        return PageSite(site, load(site), page.url)
    candidates = [u for u in (page.url, *also) if u]
    for candidate in candidates:
        if found := stored(candidate):
            return PageSite(found, load(found), page.url)
    named = page.canonical() if canonical else None
    if named:
        if found := stored(named):
            return PageSite(found, load(found), page.url or named)
        candidates.append(named)
    return PageSite(next((s for s in map(site_or_none, candidates) if s), None), None, page.url)


def read_article(page: ParsedPage, where: PageSite, settings: Settings | None = None) -> Article:
    """The article of ``page`` as ``where`` says (:func:`page_site`): with its wrapper, else cold; the
    one road from a page to an article for the CLI, the batch, Spark, the web app and a URL."""
    article = extract(where.wrapper, page, url=where.url, settings=settings or Settings())
    return replace(article, site=where.site) if article.site is None else article


def group_by_site(
    sources: Iterable[tuple[str, bytes]], *, site: str | None = None, settings: Settings | None = None
) -> tuple[dict[str, tuple[list[Page], dict[str, str]]], list[tuple[str, str]]]:
    """Saved pages grouped by site, to learn one wrapper per site.

    :param sources: ``(name, bytes)`` of each page (a file name, say).
    :param site: the site of every page; default: the registered domain of each page's
        ``<link rel=canonical>`` or ``og:url``.
    :return: per site, its pages and each page's name by its URL (or ``page N``); and the
        ``(name, why)`` of the pages skipped.
    """
    settings = settings or Settings()
    groups: dict[str, tuple[list[Page], dict[str, str]]] = {}
    skipped: list[tuple[str, str]] = []
    for name, data in sources:
        page = ParsedPage(data, max_bytes=settings.max_page_bytes)
        try:
            # Read from the page's head: learning parses the page, once (ParsedPage refuses an
            # oversized page before decoding it).
            url = page.canonical()
            text = page.text
        except ParseError as exc:
            skipped.append((name, str(exc)))
            continue
        group_site = site or site_or_none(url)
        if group_site is None:
            skipped.append((name, "no canonical or og:url link names its site; pass --site"))
            continue
        group, names = groups.setdefault(group_site, ([], {}))
        names[url or f"page {len(group) + 1}"] = name
        group.append(Page(text, url=url, site=group_site))
    return groups, skipped


@dataclass(frozen=True, slots=True)
class SiteHealth:
    """A stored site learned from a feed: its feed and the misses since it was learned (drift),
    or why its wrapper cannot be read."""

    site: str
    feed_url: str | None = None
    misses_since_learned: int = 0
    error: str | None = None


def site_health(store: WrapperStore) -> list[SiteHealth]:
    """The health of every stored site learned from a feed, and of every unreadable wrapper.

    At ``Settings.relearn_after_misses`` misses since learning, extracting one of the site's
    URLs relearns it from its feed.
    """
    health: list[SiteHealth] = []
    for info in store.sites():
        try:
            wrapper = load_wrapper(info.site, store)
        except StoreError as exc:
            health.append(SiteHealth(info.site, error=" ".join(str(exc).split())))
            continue
        if wrapper.feed_url:
            health.append(SiteHealth(info.site, wrapper.feed_url, info.misses - wrapper.misses_at_learn))
    return health
