"""forest's wrapper store: the store package's, raising forest's errors."""

from __future__ import annotations

import store
from forest.errors import StoreError, UnknownSiteError


class WrapperStore(store.WrapperStore):
    """Per-site wrappers with their history, in one SQLite file (see :class:`store.WrapperStore`).

    Its failures are :class:`forest.StoreError` and :class:`forest.UnknownSiteError`, so that a
    caller of forest handles one tree of errors.
    """

    def _error(self, message: str) -> StoreError:
        return StoreError(message, path=str(self.path))

    def _unknown(self, site: str) -> UnknownSiteError:
        return UnknownSiteError(site)
