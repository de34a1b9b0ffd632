"""Adapters that run other extractors (trafilatura, readability, Boilerpipe, jusText…) as evaluated systems.

Each peer is imported inside its adapter, so importing this module never fails and
an extractor that is not installed is reported by :func:`missing_peers`, not raised.
Peers emit warnings of their own (deprecations, parser notes); the adapters silence
them, because the test suite turns warnings into errors and they say nothing about
the page.  A peer that raises on a page is left to raise: the protocol records it as
that page's failure, so failures show in the report instead of hiding as empty text.
"""

from __future__ import annotations

import importlib
import logging
import re
import warnings
from collections.abc import Callable
from typing import Any

from eval.systems import PageLevel, System, html_text
from forest.model import Page

__all__ = [
    "Boilerpipe",
    "Goose",
    "JusText",
    "Newspaper",
    "Readability",
    "Resiliparse",
    "Trafilatura",
    "available_peers",
    "detect_language",
    "missing_peers",
    "peer",
    "peer_names",
]

_HTML_LANG = re.compile(r"""<html\b[^>]*?\blang\s*=\s*["']?\s*([a-zA-Z]{2,3})""", re.IGNORECASE)
_META_LANG = re.compile(
    r"""<meta\b[^>]*?(?:http-equiv\s*=\s*["']?content-language|property\s*=\s*["']?og:locale)[^>]*?"""
    r"""content\s*=\s*["']?\s*([a-zA-Z]{2,3})""",
    re.IGNORECASE,
)
# ISO 639-1 codes of the jusText stoplists most likely on news and blog sites; other
# codes fall back to English, jusText's own default.
_JUSTEXT_LANGUAGES = {
    "af": "Afrikaans", "ar": "Arabic", "bg": "Bulgarian", "bn": "Bengali", "bs": "Bosnian",
    "ca": "Catalan", "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek",
    "en": "English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian", "eu": "Basque",
    "fa": "Persian", "fi": "Finnish", "fr": "French", "ga": "Irish", "gl": "Galician",
    "he": "Hebrew", "hi": "Hindi", "hr": "Croatian", "hu": "Hungarian", "id": "Indonesian",
    "is": "Icelandic", "it": "Italian", "ka": "Georgian", "kk": "Kazakh", "ko": "Korean",
    "la": "Latin", "lt": "Lithuanian", "lv": "Latvian", "mk": "Macedonian", "ms": "Malay",
    "mt": "Maltese", "nb": "Norwegian_Bokmal", "nl": "Dutch", "nn": "Norwegian_Nynorsk",
    "no": "Norwegian_Bokmal", "pl": "Polish", "pt": "Portuguese", "ro": "Romanian",
    "ru": "Russian", "sk": "Slovak", "sl": "Slovenian", "sq": "Albanian", "sr": "Serbian",
    "sv": "Swedish", "sw": "Swahili", "ta": "Tamil", "tl": "Tagalog", "tr": "Turkish",
    "uk": "Ukrainian", "ur": "Urdu", "vi": "Vietnamese",
}  # fmt: skip


def detect_language(html: str) -> str | None:
    """The page's declared language as a lower-case ISO 639 code (``<html lang>``, content-language, og:locale)."""
    head = html[:20_000]
    match = _HTML_LANG.search(head) or _META_LANG.search(head)
    return match.group(1).lower() if match else None


def _quiet(function: Callable[[], Any], loggers: tuple[str, ...] = ()) -> Any:
    """Call ``function`` with warnings ignored and the named loggers silenced, then restore both.

    Peers log per-page notes at WARNING ("nested A elements"…), which Python's
    last-resort handler prints to stderr, burying the progress line and the report.
    """
    saved = [(logger, logger.level) for logger in map(logging.getLogger, loggers)]
    try:
        for logger, _ in saved:
            logger.setLevel(logging.CRITICAL + 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return function()
    finally:
        for logger, level in saved:
            logger.setLevel(level)


class Trafilatura(PageLevel):
    """trafilatura's ``extract`` with its defaults, comments excluded, tables included."""

    name = "trafilatura"

    def extract(self, page: Page) -> str:
        import trafilatura

        text = _quiet(
            lambda: trafilatura.extract(
                page.html, url=page.url, include_comments=False, include_tables=True, favor_precision=False
            ),
            ("trafilatura", "htmldate", "courlan"),
        )
        return text or ""


class Readability(PageLevel):
    """readability-lxml's ``Document.summary()``, as text."""

    name = "readability"

    def extract(self, page: Page) -> str:
        from readability import Document

        return html_text(_quiet(lambda: Document(page.html, url=page.url).summary(), ("readability",)))


class Boilerpipe(PageLevel):
    """boilerpy3's ``ArticleExtractor`` (the Boilerpipe baseline of the FOREST paper)."""

    name = "boilerpipe"

    def extract(self, page: Page) -> str:
        from boilerpy3 import extractors

        return str(_quiet(lambda: extractors.ArticleExtractor().get_content(page.html), ("boilerpy3",)) or "")


class JusText(PageLevel):
    """jusText's non-boilerplate paragraphs, with the stoplist of the page's declared language (else English)."""

    name = "justext"

    def extract(self, page: Page) -> str:
        import justext

        language = _JUSTEXT_LANGUAGES.get(detect_language(page.html) or "", "English")
        stoplist = justext.get_stoplist(language)
        paragraphs = _quiet(lambda: justext.justext(page.html, stoplist), ("justext",))
        return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


class Resiliparse(PageLevel):
    """Resiliparse's ``extract_plain_text`` in main-content mode."""

    name = "resiliparse"

    def extract(self, page: Page) -> str:
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.html import HTMLTree

        return str(_quiet(lambda: extract_plain_text(HTMLTree.parse(page.html), main_content=True)))


class Goose(PageLevel):
    """goose3's ``cleaned_text``."""

    name = "goose3"

    def extract(self, page: Page) -> str:
        from goose3 import Goose as GooseExtractor

        def run() -> str:
            with GooseExtractor() as goose:
                return str(goose.extract(raw_html=page.html).cleaned_text or "")

        return str(_quiet(run, ("goose3",)))


class Newspaper(PageLevel):
    """newspaper4k's ``Article.text`` on the given HTML (no download)."""

    name = "newspaper"

    def extract(self, page: Page) -> str:
        import newspaper

        def run() -> str:
            article = newspaper.Article(page.url or "http://example.invalid/")
            article.download(input_html=page.html)
            article.parse()
            return str(article.text or "")

        return str(_quiet(run, ("newspaper",)))


# name -> (adapter, module that must import); the order of the report.
_PEERS: tuple[tuple[type[PageLevel], str], ...] = (
    (Trafilatura, "trafilatura"),
    (Readability, "readability"),
    (Boilerpipe, "boilerpy3"),
    (JusText, "justext"),
    (Resiliparse, "resiliparse"),
    (Goose, "goose3"),
    (Newspaper, "newspaper"),
)


def _importable(module: str) -> bool:
    try:
        _quiet(lambda: importlib.import_module(module))
    except Exception:  # any import-time failure (missing, broken build) means unavailable
        return False
    return True


def peer_names() -> list[str]:
    """Names of all peers this module knows, installed or not."""
    return [cls.name for cls, _ in _PEERS]


def available_peers() -> list[System]:
    """One adapter per installed peer, in report order."""
    return [cls() for cls, module in _PEERS if _importable(module)]


def missing_peers() -> list[str]:
    """Names of the known peers that do not import here (a note for the report, not an error)."""
    return [cls.name for cls, module in _PEERS if not _importable(module)]


def peer(name: str) -> System:
    """The adapter called ``name``.

    :raises ValueError: unknown name (the message lists the known ones).
    :raises ImportError: the peer is known but not installed.
    """
    for cls, module in _PEERS:
        if cls.name == name:
            if not _importable(module):
                raise ImportError(f"peer {name!r} needs the {module!r} package: pip install 'forest-extract[peers]'")
            return cls()
    raise ValueError(f"unknown peer {name!r}; known: {', '.join(peer_names())}")
