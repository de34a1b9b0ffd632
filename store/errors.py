"""The store's own errors: the store depends on nothing of forest, so it defines them.

forest's store (:class:`forest.storage.WrapperStore`) raises forest's subclasses of these,
which are also :class:`forest.ForestError`\\ s.
"""

from __future__ import annotations


class StoreError(Exception):
    """The wrapper database cannot be opened, read or written."""

    def __init__(self, message: str, *, path: str | None = None) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path


class SiteNotFoundError(LookupError):
    """No wrapper is stored for a site."""

    def __init__(self, site: str) -> None:
        super().__init__(f"no wrapper stored for site {site!r}")
        self.site = site
