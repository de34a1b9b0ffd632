"""Values of the patterns package."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pattern:
    """A structural pattern: an XPath that selects an article region on a site's pages.

    :param xpath: absolute XPath 1.0 expression, evaluated on the cleaned page tree.
    :param score: the ranking score R that chose it (comparable within one site only).
    :param support: how many sample pages it matched.
    :param level: mean depth of the matched nodes (root ``html`` = 1).
    :param terms: median size of the matched region on the sample pages, in terms as
        ranking counts them; a learned wrapper stores it in words of the region as
        extraction reads it (its exclusions, template and navigation gone), and
        extraction distrusts a match far smaller or larger than this.
    :param prose: median share of the region's words that sit in sentence-like blocks
        (:attr:`patterns.text.Block.is_prose`) on the sample pages; extraction's
        confidence drops on a page whose region has less.
    """

    xpath: str
    score: float
    support: int
    level: float
    terms: int = 0
    prose: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "xpath": self.xpath,
            "score": self.score,
            "support": self.support,
            "level": self.level,
            "terms": self.terms,
            "prose": self.prose,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Pattern:
        return cls(
            xpath=str(data["xpath"]),
            score=float(data["score"]),  # type: ignore[arg-type]
            support=int(data["support"]),  # type: ignore[call-overload]
            level=float(data["level"]),  # type: ignore[arg-type]
            terms=int(data.get("terms", 0)),  # type: ignore[call-overload]
            prose=float(data.get("prose", 0.0)),  # type: ignore[arg-type]
        )
