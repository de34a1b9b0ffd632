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
    """

    xpath: str
    score: float
    support: int
    level: float

    def to_dict(self) -> dict[str, object]:
        return {"xpath": self.xpath, "score": self.score, "support": self.support, "level": self.level}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> "Pattern":
        return cls(
            xpath=str(data["xpath"]),
            score=float(data["score"]),  # type: ignore[arg-type]
            support=int(data["support"]),  # type: ignore[call-overload]
            level=float(data["level"]),  # type: ignore[arg-type]
        )
