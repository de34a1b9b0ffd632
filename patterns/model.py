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
    :param terms: median number of terms in the matched region on the sample pages;
        extraction distrusts a match far smaller than this.
    """

    xpath: str
    score: float
    support: int
    level: float
    terms: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "xpath": self.xpath,
            "score": self.score,
            "support": self.support,
            "level": self.level,
            "terms": self.terms,
        }

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> "Pattern":
        return cls(
            xpath=str(data["xpath"]),
            score=float(data["score"]),  # type: ignore[arg-type]
            support=int(data["support"]),  # type: ignore[call-overload]
            level=float(data["level"]),  # type: ignore[arg-type]
            terms=int(data.get("terms", 0)),  # type: ignore[call-overload]
        )
