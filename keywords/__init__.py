"""Keyword sources for FOREST: tf-idf over a site sample, or feed/page metadata."""

from keywords.model import Keywords, Metadata
from keywords.tokenize import tokenize

__all__ = ["Keywords", "Metadata", "tokenize"]
