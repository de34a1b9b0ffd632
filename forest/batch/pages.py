"""One page of a batch: its site, a site's wrapper learned from a few of its pages, and the page's record.

The CLI's process pool (forest.batch.run) and the Spark job (forest.spark) both call these,
so that a page gives the same record whichever runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from forest.batch.item import shown
from forest.config import Settings
from forest.errors import ForestError, ParseError
from forest.extraction import extract
from forest.html import canonical_url, decode, parse_html
from forest.model import Article, Page
from forest.service.pages import learn_pages
from forest.site import site_or_none
from forest.storage import WrapperStore
from forest.wrapper import Wrapper

__all__ = ["SPAN_MIN_PAGES", "Result", "extract_bytes", "failure", "learn_site", "one_line", "sample_site"]

# A batch learns a site's span (Settings.span) only when it holds this many of the site's pages:
# a span costs some 20 ms to learn from 5 pages and saves some 0.5 ms a page (`forest bench`).
# `python -m eval.batchbench` (dragnet: 68 sites learned from 5 pages, most extracting a few
# pages): spans for every site took it from 53.4 to 51.0 pages/s with one process, 100.9 to 92.2 with two.
SPAN_MIN_PAGES = 50


def one_line(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True, slots=True)
class Result:
    """What became of one input page: its article, or why it failed, or that it is not a page (skipped).

    ``counted`` is the site whose stored wrapper extracted it (the store counts those pages).
    """

    source: str
    article: Article | None = None
    error: str | None = None
    skipped: bool = False
    counted: str | None = None

    def shown(self) -> Result:
        """This result with its source and error valid UTF-8 to print (see :func:`forest.batch.item.shown`)."""
        source, error = shown(self.source), shown(self.error) if self.error is not None else None
        return self if source is self.source and error is self.error else replace(self, source=source, error=error)

    @property
    def miss(self) -> bool:
        return self.article is not None and self.article.method != "wrapper"

    def record(self) -> dict[str, Any]:
        """The JSON record: ``source`` and the article's fields, or ``source`` and ``error``."""
        if self.article is None:
            return {"source": self.source, "error": self.error or "skipped: not an HTML page"}
        return {"source": self.source, **self.article.to_dict()}


def failure(source: str, exc: BaseException) -> Result:
    """The record of a page that failed with ``exc``: its message on one line, prefixed with the source unless it names it."""
    if isinstance(exc, OSError) and not isinstance(exc, ForestError):
        message = f"cannot read {exc.filename or source}: {exc.strerror or exc}"
    elif isinstance(exc, ForestError):
        message = one_line(str(exc))
    else:
        message = f"unexpected {type(exc).__name__}: {one_line(str(exc))} (a bug in forest; rerun with --debug)"
    return Result(source, error=message)


def sample_site(data: bytes, url: str | None, site: str | None, settings: Settings) -> tuple[str | None, str | None]:
    """The site a page is grouped under for ``--learn``, and its URL: ``site``, else its URL's, else its canonical link's.

    :raises ParseError: when the page must be parsed (no URL) and is not a readable page.
    """
    if site is not None or url is not None:
        return site or site_or_none(url), url
    canonical = canonical_url(parse_html(data, max_bytes=settings.max_page_bytes))
    return site_or_none(canonical), canonical


def learn_site(
    site: str, samples: Sequence[tuple[bytes, str | None, str | None]], settings: Settings, store: WrapperStore | None,
    *, pages: int | None = None,
) -> Wrapper:
    """Learn ``site`` from its sample pages, ``(bytes, url, charset)`` each, and store it if ``store`` is given.

    Pages that cannot be decoded are left out.

    :param pages: how many pages of the site the batch holds (None: not known): with fewer
        than SPAN_MIN_PAGES, the wrapper learns no span.
    :raises LearnError: if no wrapper can be learned from them.
    """
    if pages is not None and pages < SPAN_MIN_PAGES:
        settings = replace(settings, span=False)
    decoded = []
    for data, url, charset in samples:
        try:
            decoded.append(Page(decode(data, charset), url=url, site=site))
        except ParseError:
            continue
    wrapper, _ = learn_pages(decoded, site=site, settings=settings, store=store)
    return wrapper


def extract_bytes(
    data: bytes,
    *,
    source: str,
    url: str | None,
    charset: str | None,
    site: str | None,
    wrapper_of: Callable[[str], Wrapper | None],
    settings: Settings,
) -> Result:
    """Extract one page whose site is known (``site``): with ``wrapper_of(site)``, else cold.

    :raises ParseError: when the page is not a readable HTML page.
    """
    wrapper = wrapper_of(site) if site else None
    article = extract(wrapper, data, url=url, settings=settings, declared_charset=charset)
    article = replace(article, site=site) if article.site is None else article
    return Result(source, article=article, counted=wrapper.site if wrapper is not None else None)
