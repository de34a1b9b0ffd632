"""Extraction: executing a site's stored Wrapper on one page, or the classifier on a page no wrapper fits."""

from forest.extraction.extractor import extract, extract_parsed, extract_span

__all__ = ["extract", "extract_parsed", "extract_span"]
