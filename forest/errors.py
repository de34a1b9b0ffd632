"""The exceptions forest raises: one root, one class per kind of bad input.

::

    ForestError
    ├── FetchError(url, status)     dead URL, timeout, non-2xx, refused content type
    │   └── PageTooLargeError       body over Settings.max_page_bytes
    ├── FeedError(url)              not a feed: unparseable and no entries
    ├── ParseError(source)          empty, binary or unparseable HTML, no body
    ├── LearnError(site)            the sample pages gave no usable pattern
    ├── UnknownSiteError(site)      no wrapper is stored for the site
    ├── StoreError(path)            unreadable or corrupt database, unknown schema_version
    └── ModelError                  missing, corrupt or tampered classifier model file

Messages name the input and, where there is one, the next step. The CLI prints
``str(error)`` on one line and exits with status 1.
"""

from __future__ import annotations

import store.errors


class ForestError(Exception):
    """Root of every error forest raises on bad input or a failing environment."""


class FetchError(ForestError):
    """A URL could not be fetched (network error, timeout, non-2xx status, wrong content type)."""

    def __init__(self, message: str, *, url: str, status: int | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.status = status


class PageTooLargeError(FetchError):
    """A page is larger than ``Settings.max_page_bytes``."""


class FeedError(ForestError):
    """A document that should be a feed is not one."""

    def __init__(self, message: str, *, url: str | None = None) -> None:
        super().__init__(message)
        self.url = url


class ParseError(ForestError):
    """Bytes that cannot be read as an HTML page: empty, binary, too large or without a body."""

    def __init__(self, message: str, *, source: str | None = None) -> None:
        super().__init__(f"{source}: {message}" if source else message)
        self.source = source


class LearnError(ForestError):
    """The sample pages of a site did not yield a usable wrapper."""

    def __init__(self, message: str, *, site: str | None = None) -> None:
        super().__init__(message)
        self.site = site


class UnknownSiteError(ForestError, store.errors.SiteNotFoundError):
    """No wrapper is stored for a site."""

    def __init__(self, site: str) -> None:
        Exception.__init__(self, f"no wrapper stored for site {site!r}; run `forest learn` on a few of its pages first")
        self.site = site


class StoreError(ForestError, store.errors.StoreError):
    """The wrapper database cannot be opened, read or written."""


class ModelError(ForestError):
    """A classifier model file is missing, corrupt, tampered with, or of another feature version."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
