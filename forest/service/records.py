"""The JSON record of one page, as `forest extract --format json|jsonl`, the batch, Spark and the web app give it."""

from __future__ import annotations

from typing import Any

from forest.model import Article
from forest.urls import strip_credentials, without_credentials

__all__ = ["SKIPPED", "page_record"]

# The error of a page a batch skipped without reading it (a WARC record that is not an HTML page).
SKIPPED = "skipped: not an HTML page"


def page_record(source: str, article: Article | None = None, *, error: str | None = None, html: bool = True) -> dict[str, Any]:
    """``source`` and the article's fields (:meth:`Article.to_dict`), or ``source`` and ``error``.

    A record is printed and stored: the source and the error name URLs without their user name and
    password (forest.urls.strip_credentials).

    :param html: keep the article's clean HTML (``html``, present when the extraction built it); the
        web app builds it for its own panel and leaves it out of the record.
    """
    shown = strip_credentials(source)
    if article is None:
        return {"source": shown, "error": without_credentials(error or SKIPPED)}
    fields = article.to_dict()
    if not html:
        fields.pop("html", None)
    return {"source": shown, **fields}
