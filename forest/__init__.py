"""forest: learn a site's article layout without labels, then extract its pages.

The public names are listed in ``__all__``.  They are imported on first use
(PEP 562), so that ``import forest`` and ``forest --help`` stay light: the
learning code pulls in lxml and scikit-learn.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from forest.errors import (
    FeedError,
    FetchError,
    ForestError,
    LearnError,
    PageTooLargeError,
    ParseError,
    StoreError,
    UnknownSiteError,
)

if TYPE_CHECKING:
    from forest.service.pages import extract_page, learn_pages, load_wrapper
    from forest.site import site_of
    from forest.urls import strip_credentials, without_credentials
    from forest.config import FetchSettings, Settings
    from forest.extraction import extract
    from forest.learning.induce import Inducer, LearnReport
    from forest.model import Article, Page
    from forest.netpolicy import GuardedClient
    from forest.service.feeds import extract_url, learn_feed
    from forest.service.records import page_record
    from forest.wrapper import Wrapper
    from forest.storage import WrapperStore

__all__ = [
    "Article",
    "FeedError",
    "FetchError",
    "FetchSettings",
    "ForestError",
    "GuardedClient",
    "Inducer",
    "LearnError",
    "LearnReport",
    "Page",
    "PageTooLargeError",
    "ParseError",
    "Settings",
    "StoreError",
    "UnknownSiteError",
    "Wrapper",
    "WrapperStore",
    "extract",
    "extract_page",
    "extract_url",
    "learn_feed",
    "learn_pages",
    "load_wrapper",
    "page_record",
    "site_of",
    "strip_credentials",
    "without_credentials",
]

# name -> module that defines it
_LAZY = {
    "Settings": "forest.config",
    "FetchSettings": "forest.config",
    "Page": "forest.model",
    "Article": "forest.model",
    "Wrapper": "forest.wrapper",
    "Inducer": "forest.learning.induce",
    "extract": "forest.extraction",
    "LearnReport": "forest.learning.induce",
    "extract_page": "forest.service.pages",
    "learn_pages": "forest.service.pages",
    "load_wrapper": "forest.service.pages",
    "site_of": "forest.site",
    "strip_credentials": "forest.urls",
    "without_credentials": "forest.urls",
    "WrapperStore": "forest.storage",
    "GuardedClient": "forest.netpolicy",
    "learn_feed": "forest.service.feeds",
    "extract_url": "forest.service.feeds",
    "page_record": "forest.service.records",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'forest' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))

