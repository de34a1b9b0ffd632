"""Learn a site from its feed over HTTP, and extract an article by URL (learning its site first if needed)."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from forest.config import Keywords, Settings
from forest.errors import FeedError, FetchError, ForestError, LearnError, ParseError
from forest.html import decode
from forest.learning.induce import Inducer, LearnReport
from forest.model import Article, Page
from forest.net.feed import COMMON_FEED_PATHS, Feed, FeedItem, discover_feed, looks_like_html, parse_feed
from forest.net.fetch import PAGE_TYPES, Fetcher, Response
from forest.netpolicy import GuardedClient
from forest.page import ParsedPage
from forest.service.pages import PageSite, page_site, read_article, save_learned, stored_wrapper
from forest.site import site_or_none
from forest.storage import WrapperStore
from forest.urls import CREDENTIALS_NOTE, has_credentials, strip_credentials, without_credentials
from forest.wrapper import Wrapper

LOGGER = logging.getLogger(__name__)

# Where keywords come from when learning from a feed, unless Settings.keywords says:
# the items' own metadata (FOREST_feed; on the bundled example site F1 0.97, tf-idf 0.95).
FEED_KEYWORDS: Keywords = "feed"
# Candidate feeds tried when discovering a site's feed: its <link rel=alternate>
# feeds (rarely more than 3) and the common paths.
MAX_FEED_CANDIDATES = 4 + len(COMMON_FEED_PATHS)
_XML_START = (b"<?xml", b"<rss", b"<feed", b"<rdf:rdf", b"<rdf")

# progress(pages done, pages planned, URL, why it was skipped or None)
Progress = Callable[[int, int, str, "str | None"], None]


def learn_feed(
    url: str,
    *,
    store: WrapperStore | None = None,
    settings: Settings | None = None,
    progress: Progress | None = None,
    client: GuardedClient | None = None,
    site: str | None = None,
    exclude: Sequence[str] = (),
) -> tuple[Wrapper, LearnReport]:
    """Learn a site from its feed: fetch the feed, up to ``settings.n_pages`` of its items' pages, learn, store.

    Items whose page fails are replaced by later items while the feed has more.  Keywords
    come from each item's title, summary, tags and author unless ``settings.keywords``
    says otherwise; whatever the source, the items' title, author and date teach the
    wrapper's fields.  The stored wrapper is replaced only by a better one (see
    :func:`forest.service.pages.save_learned`).

    :param url: the feed's URL, or any page of the site whose feed can be discovered.
    :param site: the site key (default: the registered domain of most item pages).
    :param exclude: item links to leave out of the sample.
    :raises FetchError: when the feed cannot be fetched.
    :raises FeedError: when it is not a feed and no feed can be discovered from it.
    :raises LearnError: when no item page was usable or no pattern was found.
    :raises StoreError: when the store cannot be written.
    """
    settings = settings or Settings()
    with Fetcher(settings, client) as fetcher:
        # However slow the server or long its Crawl-delay, a learn ends: pages not
        # fetched by then fail and are skipped like any other failing page.
        fetcher.deadline = time.monotonic() + settings.fetch.learn_timeout
        feed = find_feed(fetcher, url)
        return _learn(fetcher, feed, settings, store=store, progress=progress, site=site, exclude=exclude)


def extract_url(
    url: str,
    *,
    store: WrapperStore | None = None,
    settings: Settings | None = None,
    learn_if_missing: bool = True,
    client: GuardedClient | None = None,
    site: str | None = None,
    progress: Progress | None = None,
) -> Article:
    """Fetch ``url`` and extract its article with its site's stored wrapper.

    With no wrapper stored for the page's site, the site's feed is discovered from the
    page and the site learned first (unless ``learn_if_missing`` is False); a site with
    no wrapper and none learned is extracted cold, by the classifier.  The
    extraction is counted in the store; after ``Settings.relearn_after_misses`` misses
    since a site was learned from a feed, it is relearned from that feed.

    :param site: the stored site to use instead of the one the URL's host gives.
    :raises FetchError: when the page cannot be fetched.
    :raises ParseError: when the page is not readable HTML.
    """
    if store is None:
        with WrapperStore() as opened:
            return extract_url(url, store=opened, settings=settings, learn_if_missing=learn_if_missing,
                               client=client, site=site, progress=progress)
    settings = settings or Settings()
    with Fetcher(settings, client) as fetcher:
        fetcher.deadline = time.monotonic() + settings.fetch.learn_timeout  # the fetch and any learn it needs
        response = fetcher.fetch(url, kind="page")
        page = _page(response, settings)
        notes: tuple[str, ...] = ()
        # The page's URL is where it was fetched from (and the URL asked for, before redirects): its canonical link is not read.
        where = page_site(page, site=site, store=store, canonical=False, also=(url,))
        if where.wrapper is None and learn_if_missing:
            try:
                feed = discover(fetcher, response)
                # Learned under the site asked for, else under the site most of the feed's pages are on.
                wrapper, report = _learn(fetcher, feed, settings, store=store, progress=progress, site=site)
                where = replace(where, site=wrapper.site, wrapper=wrapper)
                notes = (f"learned {wrapper.site} from {strip_credentials(feed.url)} ({len(report.used)} pages) before extracting",)
            except (FeedError, LearnError) as exc:
                notes = (f"extracted without a wrapper: {without_credentials(' '.join(str(exc).split()))}",)
        if has_credentials(url):
            notes = (*notes, CREDENTIALS_NOTE)
        # A site with no wrapper and none to learn: the page is extracted cold, by the classifier.
        article = read_article(page, where, settings)
        if where.wrapper is not None:
            store.record_extraction(where.wrapper.site, miss=article.method != "wrapper")
            if article.method != "wrapper":
                article = _relearn_if_drifting(fetcher, where.wrapper, article, page, settings, store, progress)
    return replace(article, notes=notes + article.notes) if notes else article


def find_feed(fetcher: Fetcher, url: str) -> Feed:
    """The feed at ``url``, or, when ``url`` is an HTML page, the feed discovered from it.

    :raises FetchError: when ``url`` cannot be fetched.
    :raises FeedError: when it is neither a feed nor a page with a discoverable feed.
    """
    response = fetcher.fetch(url, kind="feed")
    if _is_html_page(response):
        return discover(fetcher, response)
    return parse_feed(response.body, response.final_url, response.headers)


def discover(fetcher: Fetcher, page: Response) -> Feed:
    """The first working feed among the page's ``<link rel=alternate>`` feeds and its site's common feed paths.

    :raises FeedError: when none is a feed.
    """
    try:
        text: str | bytes = decode(page.body, page.charset, source=page.final_url)
    except ParseError:
        text = b""
    tried: list[str] = []
    for candidate in discover_feed(page.final_url, text)[:MAX_FEED_CANDIDATES]:
        try:
            response = fetcher.fetch(candidate, kind="feed")
            if _is_html_page(response):
                tried.append(f"{candidate}: an HTML page")
                continue
            feed = parse_feed(response.body, response.final_url, response.headers)
        except (FetchError, FeedError) as exc:
            tried.append(_reason(str(exc), candidate))
            continue
        LOGGER.info("%s: found the feed %s", strip_credentials(page.final_url), strip_credentials(feed.url))
        return feed
    shown = strip_credentials(page.final_url)
    LOGGER.info("%s: no feed among %d candidates: %s", shown, len(tried), without_credentials("; ".join(tried)))
    paths = ", ".join(COMMON_FEED_PATHS)
    raise FeedError(
        f"{shown}: an HTML page, not a feed, and no feed was found through its "
        f'<link rel="alternate"> or at {paths}; give the feed URL',
        url=shown,
    )


# --- learning ----------------------------------------------------------------------


def _learn(
    fetcher: Fetcher,
    feed: Feed,
    settings: Settings,
    *,
    store: WrapperStore | None,
    progress: Progress | None,
    site: str | None = None,
    exclude: Sequence[str] = (),
) -> tuple[Wrapper, LearnReport]:
    n_pages = settings.n_pages
    excluded = set(exclude)
    queue = [item for item in feed.items if item.link not in excluded]
    # The feed and its pages are fetched with the user name and password their URLs hold
    # (the user gave them), and kept without: the wrapper, its sample, the report and the
    # progress name every page by its URL stripped of them (forest.urls.strip_credentials).
    feed_url = strip_credentials(feed.url)
    credentials = has_credentials(feed.url) or any(has_credentials(item.link) for item in queue)
    if not queue:
        raise FeedError(f"{feed_url}: the feed has no items to learn from", url=feed_url)
    fetched: list[tuple[FeedItem, Response]] = []
    skipped: list[tuple[str, str]] = []
    planned = min(n_pages, len(queue))
    done = 0
    # Fetch in rounds: a round asks for as many pages as are still missing, so items
    # that fail are replaced by later ones while the feed has more.
    while queue and len(fetched) < n_pages:
        batch, queue = queue[: n_pages - len(fetched)], queue[n_pages - len(fetched):]
        planned = max(planned, done + len(batch))

        def on_fetched(link: str, result: Response | FetchError, planned: int = planned) -> None:
            nonlocal done
            done += 1
            if progress is not None:
                why = _reason(str(result), link) if isinstance(result, FetchError) else None
                progress(done, planned, strip_credentials(link), why)

        for item, result in zip(batch, fetcher.fetch_many([i.link for i in batch], kind="page", progress=on_fetched)):
            if isinstance(result, FetchError):
                skipped.append((strip_credentials(item.link), _reason(str(result), item.link)))
            else:
                fetched.append((item, result))

    pages: list[Page] = []
    # A feed may list pages of other sites (syndicated items); learn the one most items are on.
    hosts = Counter(site_or_none(r.final_url) for _, r in fetched)
    majority = hosts.most_common(1)[0][0] if hosts else site_or_none(feed_url)
    site = site or majority or "unknown"
    for item, response in fetched:
        page_url = strip_credentials(response.final_url)
        page_site = site_or_none(page_url)
        if page_site != majority:
            skipped.append((page_url, f"on another site ({page_site}), not {majority}"))
            continue
        try:
            html = decode(response.body, response.charset, source=page_url)
        except ParseError as exc:
            skipped.append((page_url, _reason(str(exc), page_url)))
            continue
        pages.append(Page(html, url=page_url, site=site, meta=item.meta))
    if not pages:
        reasons = "; ".join(f"{u}: {r}" for u, r in skipped[:5])
        raise LearnError(f"no usable page among the items of {feed_url} ({reasons})", site=site)

    inducer = Inducer(replace(settings, keywords=settings.keywords or FEED_KEYWORDS)).fit(pages, site=site)
    info = store.info(site) if store is not None else None
    wrapper = replace(inducer.wrapper_, feed_url=feed_url, misses_at_learn=info.misses if info else 0)
    notes = list(inducer.report_.notes)
    if queue:
        notes.append(f"the feed lists {len(feed.items)} items; the sample stopped at {n_pages} pages")
    stored = stored_wrapper(site, store) if store is not None else None
    if stored is not None and stored.feed_url != feed_url:
        origin = f"the feed {stored.feed_url}" if stored.feed_url else "pages, not a feed"
        notes.append(f"{site}'s stored wrapper was learned from {origin}; this one is from {feed_url} "
                     "(--site NAME keeps two sites apart)")
    if credentials:
        notes.append(CREDENTIALS_NOTE)
    report = replace(
        inducer.report_, skipped=tuple(skipped) + inducer.report_.skipped, notes=tuple(notes), feed_url=feed_url
    )
    if store is None:
        return wrapper, report
    return save_learned(store, wrapper, report, pages, settings)


# --- extraction and drift ----------------------------------------------------------


def _page(response: Response, settings: Settings) -> ParsedPage:
    # The article's URL is shown and stored (records, the web app's jobs): without credentials.
    return ParsedPage(response.body, url=strip_credentials(response.final_url), charset=response.charset,
                      max_bytes=settings.max_page_bytes)


def _relearn_if_drifting(
    fetcher: Fetcher,
    wrapper: Wrapper,
    article: Article,
    page: ParsedPage,
    settings: Settings,
    store: WrapperStore,
    progress: Progress | None,
) -> Article:
    """Relearn ``wrapper``'s site from its feed every ``relearn_after_misses`` misses since it was
    learned (the template has likely changed), and extract the page again with the new wrapper."""
    feed_url = wrapper.feed_url
    every = settings.relearn_after_misses
    if not feed_url or every <= 0:
        return article
    info = store.info(wrapper.site)
    since = (info.misses - wrapper.misses_at_learn) if info is not None else 0
    # Misses counted from files and batches too, which have no feed to fetch: the first URL
    # extraction past the threshold relearns, and each one after it while relearning fails
    # (a feed that is gone costs a failed fetch per such page, and each says so).
    if since < every:
        return article
    try:
        feed = find_feed(fetcher, feed_url)
        relearned, report = _learn(fetcher, feed, settings, store=store, progress=progress, site=wrapper.site)
    except ForestError as exc:
        LOGGER.warning("%s: relearning from %s failed: %s", wrapper.site, feed_url, exc)
        return replace(article, notes=(*article.notes, f"relearning {wrapper.site} from {feed_url} failed: {exc}"))
    again = read_article(page, PageSite(relearned.site, relearned, page.url), settings)
    note = (f"{since} pages missed since {wrapper.site} was learned; relearned it from {feed.url} "
            f"(version {report.version})")
    return replace(again, notes=(*again.notes, note))


# --- helpers -----------------------------------------------------------------------


def _is_html_page(response: Response) -> bool:
    start = response.body.lstrip()[:64].lower()
    if start.startswith(_XML_START):
        return False
    return looks_like_html(response.body) or response.content_type in PAGE_TYPES


def _reason(message: str, url: str) -> str:
    """An error message without its leading ``URL: ``, for lists that already name the URL
    (and without credentials in any URL it still names)."""
    head, sep, rest = message.partition(": ")
    return without_credentials(rest if sep and (head == url or head.startswith(("http://", "https://"))) else message)
