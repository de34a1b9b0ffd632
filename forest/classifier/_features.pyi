# Types of the per-element feature counts in C (forest/classifier/_features.pyx), for mypy.
from collections.abc import Sequence

import numpy as np
from lxml import etree

from patterns.text import Block

class Tokens:
    def __len__(self) -> int: ...

def element_columns(
    elements: Sequence[etree._Element],
    tags: list[str],
    extra: dict[int, str],
    tag_index: dict[str, int],
    other: int,
    n_hash: int,
    modern: bool,
) -> tuple[np.ndarray, Tokens]: ...
def row_tokens(tokens: Tokens, rows: np.ndarray, ancestors: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...
def block_counts(blocks: list[Block]) -> np.ndarray: ...
def block_spans(parent: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...
def descendant_levels(
    rows: np.ndarray, parent: np.ndarray, depth: np.ndarray, last: np.ndarray, base: np.ndarray, tag: np.ndarray, n_levels: int, n_tags: int
) -> tuple[np.ndarray, np.ndarray]: ...
def context_columns(
    p: np.ndarray, chars: np.ndarray, link: np.ndarray, spans: np.ndarray, n_columns: int, windows: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...
LOG_COLUMNS: tuple[int, ...]

def node_numeric(
    parent: np.ndarray, depth: np.ndarray, position: np.ndarray, n_children: np.ndarray, own_chars: np.ndarray,
    own_words: np.ndarray, own_link_chars: np.ndarray, last: np.ndarray, owner: np.ndarray, blocks: np.ndarray,
    counts: np.ndarray, hidden: np.ndarray, microdata: np.ndarray, prose_words: int, prose_link_share: float,
) -> np.ndarray: ...
def article_container_of(content: np.ndarray, owner: np.ndarray, words: np.ndarray, last: np.ndarray, depth: np.ndarray) -> int: ...
def confined(
    probability: np.ndarray, content: np.ndarray, owner: np.ndarray, words: np.ndarray, last: np.ndarray, depth: np.ndarray,
    tags: list[str], headings: frozenset[str], outside: float, inside: float,
) -> np.ndarray: ...
def confined_paragraphs(
    probability: np.ndarray, content: np.ndarray, owner: np.ndarray, counts: np.ndarray, last: np.ndarray, depth: np.ndarray,
    tags: list[str], headings: frozenset[str], outside: float, inside: float, paragraphs: frozenset[str], prose_words: int,
    link_share: float, hidden: np.ndarray,
) -> np.ndarray: ...
def subtrees(tags: list[str], names: frozenset[str], roots: np.ndarray, last: np.ndarray) -> np.ndarray: ...
def gather_rows(source: np.ndarray, index: np.ndarray, out: np.ndarray) -> None: ...
def tagged(tags: list[str], names: frozenset[str]) -> np.ndarray: ...
def with_tags(numeric: np.ndarray, tag: np.ndarray, index: np.ndarray, out: np.ndarray) -> None: ...
def modern_columns(
    tags: list[str], landmark_of_tag: dict[str, int], marks: np.ndarray, own_chars: np.ndarray, last: np.ndarray,
    rows: np.ndarray, hashed: np.ndarray, n_landmarks: int,
) -> tuple[np.ndarray, int]: ...
def page_rows(
    rows: np.ndarray, parent: np.ndarray, owner: np.ndarray, n_ancestors: int, spans: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]: ...
