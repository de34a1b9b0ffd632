# Types of the native page pass (forest/classifier/_walk.pyx), for mypy.
from collections.abc import Callable, Iterator, Sequence
from typing import Literal, TypeVar, overload

import numpy as np
from lxml import etree

from patterns.text import Block

BUILT_AGAINST: str
_T = TypeVar("_T")

class Nodes(Sequence[etree._Element]):
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: int) -> etree._Element: ...
    @overload
    def __getitem__(self, index: slice) -> list[etree._Element]: ...
    def __iter__(self) -> Iterator[etree._Element]: ...
    def __eq__(self, other: object) -> bool: ...
    def attributes(self) -> list[dict[str, str]]: ...

def attributes_of(elements: list[etree._Element]) -> list[dict[str, str]]: ...
_Fields = tuple[
    list[etree._Element] | Nodes,
    list[str],
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    list[Block],
    np.ndarray,
    list[tuple[int, int, str]],
]
_Counted = tuple[
    list[etree._Element] | Nodes,
    list[str],
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    list[Block],
    np.ndarray,
    list[tuple[int, int, str]],
    np.ndarray,
    list[str],
]

@overload
def flatten(
    root: etree._Element,
    block_tags: frozenset[str],
    block_class: type[Block],
    keep_pieces: bool = ...,
    proxies: bool = ...,
    marking: frozenset[str] | None = ...,
    counts: Literal[False] = ...,
) -> _Fields: ...
@overload
def flatten(
    root: etree._Element,
    block_tags: frozenset[str],
    block_class: type[Block],
    keep_pieces: bool,
    proxies: bool,
    marking: frozenset[str] | None,
    counts: Literal[True],
) -> _Counted: ...
def read_names(
    elements: Nodes | list[etree._Element], marking: frozenset[str], names: bool = ...
) -> tuple[list[str], list[str], list[int], dict[int, dict[str, str]]]: ...
def child_sums(parent: np.ndarray, values: np.ndarray) -> np.ndarray: ...
def count_nodes(root: etree._Element, limit: int) -> int: ...
def body_texts(root: etree._Element, shortest: int, longest: int = -1) -> list[str]: ...
def marked_elements(root: etree._Element, attributes: tuple[str, ...], tags: tuple[str, ...]) -> list[etree._Element]: ...
def elements_holding(root: etree._Element, attributes: tuple[str, ...], parts: tuple[str, ...]) -> list[etree._Element]: ...
def unseen_boxes(
    root: etree._Element, tags: tuple[str, ...], seen: frozenset[str], names_of: Callable[[str, str], tuple[str, ...]]
) -> list[etree._Element]: ...
def predictions(
    cls: type[_T], blocks: list[Block], elements: Sequence[etree._Element], owners: list[int], probability: list[float],
    content: list[bool],
) -> list[_T]: ...
