"""SQLite storage of site wrappers, with history."""

from store.errors import SiteNotFoundError, StoreError
from store.schema import SUPPORTED_SCHEMA
from store.wrappers import SiteInfo, WrapperStore, default_db_path

__all__ = ["SUPPORTED_SCHEMA", "SiteInfo", "SiteNotFoundError", "StoreError", "WrapperStore", "default_db_path"]
