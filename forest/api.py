"""Thin library functions over Inducer, extract and WrapperStore: learn a site, load its wrapper, extract a page."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence
from urllib.parse import urlsplit

from forest.config import Settings
from forest.errors import UnknownSiteError
from forest.extraction import extract
from forest.html import canonical_url, parse_html
from forest.induce import Inducer, LearnReport
from forest.model import Article, Page
from forest.urls import host_of
from forest.wrapper import Wrapper

if TYPE_CHECKING:
    # Imported lazily at run time: store imports forest.errors, and importing
    # store from here at import time would make `import store` pull in all of forest.
    from store import WrapperStore

__all__ = ["extract_page", "learn_pages", "load_wrapper", "site_of"]


def site_of(url: str) -> str:
    """The site key of ``url``: its host, lower-cased, without a leading ``www.``.

    ``"https://WWW.Example.com:8080/a"`` gives ``"example.com"``.

    :raises ValueError: if ``url`` has no host.
    """
    # urlsplit puts a scheme-less "example.com/a" in the path; "//" makes it the host.
    host = urlsplit(url if "//" in url else f"//{url}").hostname
    if not host:
        raise ValueError(f"URL {url!r} has no host")
    host = host.rstrip(".")
    return host[4:] if host.startswith("www.") and len(host) > 4 else host


def learn_pages(
    pages: Sequence[Page],
    *,
    site: str | None = None,
    settings: Settings | None = None,
    store: WrapperStore | None = None,
) -> tuple[Wrapper, LearnReport]:
    """Learn one site's wrapper from sample ``pages`` and, if ``store`` is given, save it.

    :param site: the site key; default: the pages' own ``site``, else the host of their URL.
    :raises LearnError: when no wrapper can be learned (the store is then left untouched).
    :raises StoreError: when the store cannot be written.
    """
    if site is None:
        site = next((p.site for p in pages if p.site), None)
    if site is None:
        site = next((_site_or_none(p.url) for p in pages if _site_or_none(p.url)), None)
    inducer = Inducer(settings).fit(pages, site=site)
    wrapper: Wrapper = inducer.wrapper_
    if store is not None:
        store.save(wrapper.site, wrapper.to_dict())
    return wrapper, inducer.report_


def load_wrapper(site: str, store: WrapperStore) -> Wrapper:
    """The wrapper stored for ``site``.

    :raises UnknownSiteError: if none is stored.
    :raises StoreError: if the stored record is corrupt or of a newer schema.
    """
    return Wrapper.from_dict(store.get(site))


def extract_page(
    data: bytes | str,
    *,
    site: str | None = None,
    url: str | None = None,
    store: WrapperStore | None = None,
    settings: Settings | None = None,
) -> Article:
    """Extract the article of one page with its site's stored wrapper, and count it in the store.

    The site is ``site`` if given; else the stored site of ``url``'s host; else the
    stored site of the host in the page's ``<link rel=canonical>`` or ``og:url``.

    :param store: where wrappers are; default: ``WrapperStore()`` ($FOREST_DB or the user data dir).
    :raises UnknownSiteError: if no wrapper is stored for the page's site, or its site cannot be told.
    :raises ParseError: if ``data`` is not a readable HTML page.
    :raises StoreError: if the store cannot be read or written.
    """
    if store is None:
        from store import WrapperStore

        with WrapperStore() as opened:
            return extract_page(data, site=site, url=url, store=opened, settings=settings)
    settings = settings or Settings()
    if site is None:
        site, url = _guess_site(data, url, store, settings)
    wrapper = load_wrapper(site, store)
    article = extract(wrapper, data, url=url, settings=settings)
    store.record_extraction(wrapper.site, miss=article.method != "wrapper")
    return article


def _site_or_none(url: str | None) -> str | None:
    if not url:
        return None
    try:
        return site_of(url)
    except ValueError:
        return None


def _guess_site(
    data: bytes | str, url: str | None, store: WrapperStore, settings: Settings
) -> tuple[str, str | None]:
    """The stored site of a page, from ``url`` or the page's own canonical URL; and the page's URL."""
    if url:
        found = store.site_for_host(_host(url))
        if found:
            return found, url
    stated = canonical_url(parse_html(data, max_bytes=settings.max_page_bytes, source=url))
    if stated:
        found = store.site_for_host(_host(stated))
        if found:
            return found, url or stated
    named = _site_or_none(url) or _site_or_none(stated)
    if named:
        raise UnknownSiteError(named)
    error = UnknownSiteError("")
    # The page names no site at all, so say what would help instead.
    error.args = ("cannot tell the page's site: it has no URL and no canonical or og:url link; name the site (--site)",)
    raise error


def _host(url: str) -> str:
    return host_of(url)
