# Types of the text counts in C (forest/classifier/_text.pyx), for mypy.
from collections.abc import Iterable

import numpy as np

COLUMNS: tuple[str, ...]

class Stopwords:
    longest: int
    words: frozenset[str]
    def __init__(self, words: Iterable[str]) -> None: ...
    def __contains__(self, word: str) -> bool: ...

def text_stats(texts: list[str], stopwords: Stopwords, endings: str) -> np.ndarray: ...
def text_columns(
    stats: np.ndarray, link: np.ndarray, position: np.ndarray, offset: np.ndarray, share: np.ndarray, prev: np.ndarray,
    nxt: np.ndarray, wrap: int,
) -> np.ndarray: ...
def block_columns(
    stats: np.ndarray, link: np.ndarray, own_chars: np.ndarray, last: np.ndarray, owner: np.ndarray, wrap: int
) -> np.ndarray: ...
