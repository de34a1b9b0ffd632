"""The Wrapper: what forest learned about one site, as a plain, storable value."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from forest.errors import StoreError
from forest.model import Article
from forest.wrapper_schema import check_wrapper_record
from patterns.model import Pattern

# Bump when the meaning of a stored field changes; older readers refuse newer wrappers.
SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class Wrapper:
    """A site's learned extraction program.

    :param site: the site it was learned for.
    :param patterns: the main pattern first, then alternates in the order extraction tries them.
    :param template_blocks: text blocks that sat inside the article region on
        at least half of the sample pages: the site's template (share bars, bylines
        boxes, "related" headings), removed at extraction.
    :param exclusions: XPaths of parts cut out of the region (comment threads, related
        lists), learned because removing them made the sample regions more informative.
    :param variant: the learning options that produced it (keywords, scoring, candidates, ranking).
    :param sample: the URLs (or names) of the sample pages it was learned from.
    :param notes: what learning noticed: skipped pages, pages that disagree with the main pattern.
    :param learned_at: ISO 8601 UTC timestamp.
    :param fields: XPaths of the article's title, author and date (see forest.fields), where learned.
    :param prune: whether the per-block classifier may prune this site's regions; learning
        turns it off when, on the sample pages, the classifier would drop the text where
        the keywords are densest (see forest.agreement).
    """

    site: str
    patterns: tuple[Pattern, ...]
    template_blocks: frozenset[str] = frozenset()
    exclusions: tuple[str, ...] = ()
    variant: Mapping[str, str] = field(default_factory=dict)
    sample: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    learned_at: str = ""
    fields: Mapping[str, str] = field(default_factory=dict)
    prune: bool = True
    schema_version: int = SCHEMA_VERSION

    @property
    def main(self) -> Pattern:
        return self.patterns[0]

    def extract(self, data: bytes | str, *, url: str | None = None, **options: Any) -> Article:
        """Extract the article of one page of this site (see :func:`forest.extraction.extract`)."""
        from forest.extraction import extract

        return extract(self, data, url=url, **options)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": self.schema_version,
            "site": self.site,
            "patterns": [p.to_dict() for p in self.patterns],
            "template_blocks": sorted(self.template_blocks),
            "exclusions": list(self.exclusions),
            "variant": dict(self.variant),
            "sample": list(self.sample),
            "notes": list(self.notes),
            "learned_at": self.learned_at,
            "fields": dict(self.fields),
            "prune": self.prune,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Wrapper":
        """Rebuild a wrapper from :meth:`to_dict` output.

        :raises StoreError: for a newer schema version or a malformed record.
        """
        version = data.get("schema_version")
        if not isinstance(version, int) or version > SCHEMA_VERSION:
            raise StoreError(
                f"wrapper schema version {version!r} is not supported by this forest "
                f"(supports up to {SCHEMA_VERSION}); upgrade forest or relearn the site"
            )
        # A hand-edited row ("variant": [], "terms": 1e999, "//div[") fails here, in one line.
        check_wrapper_record(data)
        try:
            return cls(
                site=str(data["site"]),
                patterns=tuple(Pattern.from_dict(p) for p in data["patterns"]),
                template_blocks=frozenset(data.get("template_blocks", ())),
                exclusions=tuple(data.get("exclusions", ())),
                variant={str(k): str(v) for k, v in data.get("variant", {}).items()},
                sample=tuple(data.get("sample", ())),
                notes=tuple(data.get("notes", ())),
                learned_at=str(data.get("learned_at", "")),
                fields={str(k): str(v) for k, v in data.get("fields", {}).items()},
                prune=_flag(data.get("prune", True)),
                schema_version=version,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"malformed wrapper record ({exc!r}); relearn the site") from exc


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"prune must be true or false, got {value!r}")
    return value
