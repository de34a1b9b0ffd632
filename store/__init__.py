"""SQLite storage of site wrappers, with history."""

from store.schema import SUPPORTED_SCHEMA
from store.wrappers import SiteInfo, WrapperStore, default_db_path

__all__ = ["SUPPORTED_SCHEMA", "SiteInfo", "WrapperStore", "default_db_path"]
