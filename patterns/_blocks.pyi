from typing import Any, Final, TypeVar

from lxml import etree

HAS: Final[int]
EQUALS: Final[int]
SAME: Final[int]
CONTAINS: Final[int]
STARTS: Final[int]
NOT: Final[int]
AND: Final[int]
OR: Final[int]
LITERAL: Final[int]
ATTRIBUTE: Final[int]
NORMALIZED: Final[int]
CONCAT: Final[int]

_B = TypeVar("_B")

def blocks(element: etree._Element, block_tags: frozenset[str], patterns: tuple[Any, ...], block_class: type[_B]) -> list[_B] | None: ...
def text_lengths(element: etree._Element) -> tuple[int, int] | None: ...
