"""Keyword sources for FOREST: tf-idf over a site sample, or feed/page metadata."""

from keywords.meta import metadata_keywords
from keywords.model import Keywords, Metadata
from keywords.stopwords import STOPWORDS, detect_language, stopwords_for
from keywords.tfidf import tfidf_keywords, tfidf_terms
from keywords.tokenize import tokenize

__all__ = [
    "STOPWORDS",
    "Keywords",
    "Metadata",
    "detect_language",
    "metadata_keywords",
    "stopwords_for",
    "tfidf_keywords",
    "tfidf_terms",
    "tokenize",
]
