"""One page of a batch: its site, a site's wrapper learned from a few of its pages, and the page's record.

The CLI's process pool (forest.batch.run) and the Spark job (forest.spark) both call these,
so that a page gives the same record whichever runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lxml.html import HtmlElement

from forest.batch.item import shown
from forest.config import Settings
from forest.errors import ForestError, ParseError
from forest.html import decode
from forest.model import Article, Page
from forest.page import ParsedPage
from forest.service.pages import learn_pages, page_site, read_article
from forest.service.records import page_record
from forest.storage import WrapperStore
from forest.wrapper import Wrapper

__all__ = ["SPAN_MIN_PAGES", "Result", "extract_item", "failure", "learn_site", "one_line", "sample_site"]

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
        """The JSON record (forest.service.records.page_record): ``source`` and the article's fields, or ``source`` and ``error``."""
        return page_record(self.source, self.article, error=self.error)


def failure(source: str, exc: BaseException) -> Result:
    """The record of a page that failed with ``exc``: its message on one line, prefixed with the source unless it names it."""
    if isinstance(exc, OSError) and not isinstance(exc, ForestError):
        message = f"cannot read {exc.filename or source}: {exc.strerror or exc}"
    elif isinstance(exc, ForestError):
        message = one_line(str(exc))
    else:
        message = f"unexpected {type(exc).__name__}: {one_line(str(exc))} (a bug in forest; rerun with --debug)"
    return Result(source, error=message)


def sample_site(page: ParsedPage, site: str | None) -> tuple[str | None, str | None]:
    """The site a page is grouped under for ``--learn`` (forest.service.pages.page_site: ``site``, else its
    URL's registered domain, else its canonical link's, read from its head), and its URL (its canonical link's
    when it has none).

    :raises ParseError: when the page must be read (no URL) and is not a readable page.
    """
    where = page_site(page, site=site, store=None, canonical=page.url is None)
    return where.site, page.url if page.url is not None or site is not None else page.canonical()


def learn_site(
    site: str, samples: Sequence[tuple[bytes, str | None, str | None]], settings: Settings, store: WrapperStore | None,
    *, pages: int | None = None, trees: list[HtmlElement | None] | None = None,
) -> Wrapper:
    """Learn ``site`` from its sample pages, ``(bytes, url, charset)`` each, and store it if ``store`` is given.

    Pages that cannot be decoded are left out.

    :param pages: how many pages of the site the batch holds (None: not known): with fewer
        than SPAN_MIN_PAGES, the wrapper learns no span.
    :param trees: filled, whether learning succeeds or not, with each sample page's tree as
        :func:`forest.html.parse_html` made it of the page's text, learning done with it, for the
        caller to extract the page from without parsing it again (``ParsedPage(..., tree=)``);
        None for a page learning kept no such tree of (forest.learning.induce.Inducer.trees_).
    :raises LearnError: if no wrapper can be learned from them.
    """
    if pages is not None and pages < SPAN_MIN_PAGES:
        settings = replace(settings, span=False)
    decoded, positions = [], []
    for position, (data, url, charset) in enumerate(samples):
        try:
            decoded.append(Page(decode(data, charset), url=url, site=site))
        except ParseError:
            continue
        positions.append(position)
    found: list[HtmlElement | None] = []
    try:
        wrapper, _ = learn_pages(decoded, site=site, settings=settings, store=store, trees=found)
    finally:
        if trees is not None:
            trees[:] = [None] * len(samples)
            for position, tree in zip(positions, found):
                trees[position] = tree
    return wrapper


def extract_item(
    page: ParsedPage,
    *,
    source: str,
    site: str | None,
    store: WrapperStore | None,
    wrapper_of: Callable[[str], Wrapper | None],
    settings: Settings,
) -> Result:
    """Extract one page of a batch: its site (forest.service.pages.page_site: ``site``, else its URL's, else, for a
    page with no URL, its canonical link's), with ``wrapper_of(site)``, else cold.

    :param store: where sites are looked up by host (None: none is, as in a Spark job).
    :raises ParseError: when the page is not a readable HTML page.
    """
    # A WARC record's URL is where the page was: its canonical link is not read.
    where = page_site(page, site=site, store=store, canonical=page.url is None, load=wrapper_of)
    article = read_article(page, where, settings)
    return Result(source, article=article, counted=where.wrapper.site if where.wrapper is not None else None)
