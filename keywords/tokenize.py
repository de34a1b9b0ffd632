"""A Unicode word tokenizer shared by keyword selection, node scoring and evaluation."""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")
# Scripts written without spaces between words: each character is a term, the
# language-agnostic fallback that needs no dictionary (Han, Hiragana, Katakana, Thai).
UNSPACED_SCRIPT = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# _WORD's terms of lower-cased ASCII text with the numbers left out, found by the regex alone: a
# run of letters and digits that holds a letter.  It starts only where a run starts (the
# lookbehind), so a long run of digits (a script's data) is tried once, not from each of its
# digits: its length, not its length squared.  (No possessive quantifier: Python 3.10 has none.)
# Most of a page's texts are ASCII, and the per-term loop below was a third of their tokenizing.
_ASCII_TERM = re.compile(r"(?<![a-z0-9])[0-9]*[a-z][a-z0-9]*")


def tokenize(text: str) -> list[str]:
    """Lower-cased word terms of ``text``; punctuation and numbers-only tokens are dropped.

    >>> tokenize("Café au lait, 2 x 30 ml: 東京!")
    ['café', 'au', 'lait', 'x', 'ml', '東', '京']
    """
    if text.isascii():  # NFC leaves ASCII as it is, and no unspaced script is ASCII
        return _ASCII_TERM.findall(text.lower())
    return _terms(text)


def _terms(text: str) -> list[str]:
    """:func:`tokenize` of any text: the reference its ASCII shortcut is tested against."""
    terms: list[str] = []
    # NFC first: an accent stored as a combining character would otherwise split the word.
    for token in _WORD.findall(unicodedata.normalize("NFC", text).lower()):
        if token.isnumeric():
            continue
        if not token.isascii() and UNSPACED_SCRIPT.search(token):
            terms.extend(_split_unspaced(token))
        else:
            terms.append(token)
    return terms


def _split_unspaced(token: str) -> list[str]:
    parts: list[str] = []
    run = ""
    for char in token:
        if UNSPACED_SCRIPT.match(char):
            if run and not run.isnumeric():
                parts.append(run)
                run = ""
            if not char.isnumeric():  # a numeral of the script (三, 叁) is a number too
                parts.append(char)
        else:
            run += char
    if run and not run.isnumeric():
        parts.append(run)
    return parts
