"""Extraction: executing a site's stored Wrapper on one page, or the classifier on a page no wrapper fits."""

from forest.extraction.extractor import extract

__all__ = ["extract"]
