# Types of learning's native inline children (forest/learning/_inline.pyx), for mypy.
from lxml import etree

def inline_children(owner: etree._Element, block_tags: frozenset[str]) -> list[tuple[str, etree._Element]]: ...
