"""Values of the keywords package: item metadata in, keywords out."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Metadata:
    """What a feed item (or, failing that, the page's own head) says about an article."""

    title: str = ""
    summary: str = ""
    tags: tuple[str, ...] = ()
    author: str = ""
    published: str = ""


@dataclass(frozen=True, slots=True)
class Keywords:
    """The keywords of one page, best first, with the weight that ranked them.

    ``source`` says where they came from: ``"tfidf"``, ``"feed"`` or ``"meta"``.
    """

    terms: tuple[str, ...]
    weights: tuple[float, ...]
    source: str

    def __post_init__(self) -> None:
        if len(self.terms) != len(self.weights):
            raise ValueError("terms and weights must have the same length")
