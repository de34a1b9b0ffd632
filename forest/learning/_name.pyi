# Types of learning's native page index (forest/learning/_name.pyx), for mypy.
from collections.abc import Callable

import numpy as np
from lxml import etree

def index_body(
    root: etree._Element, with_keys: bool = ...
) -> tuple[list[etree._Element], list[int], list[int], list[int], list[list[str]], dict[str, list[int]]]: ...

def key_rows(
    keys: dict[str, list[int]], known: dict[str, int | None], steps_of: Callable[[str], int | None], ids: dict[str, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]: ...

def tag_marks(elements: list[etree._Element], parent: list[int], media: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]: ...
