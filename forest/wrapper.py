"""The Wrapper: what forest learned about one site, as a plain, storable value."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from forest.errors import StoreError
from forest.wrapper_schema import check_wrapper_record
from patterns.model import Pattern

# Bump when the meaning of a stored field changes; older readers refuse newer wrappers.
SCHEMA_VERSION = 1
# How learning's note begins when it did without the classifier's labels (Wrapper.classifier_agrees).
CLASSIFIER_NOT_USED = "the classifier's labels were not used"


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
    :param fields: XPaths of the article's title, author and date (see forest.fields), and of the
        standfirst the site prints above its region (``lead``, forest.learning.lead), where learned.
    :param feed_url: the feed it was learned from, if any: drift relearns the site from it.
    :param misses_at_learn: the store's miss counter for the site when it was learned;
        misses since then measure drift.
    :param title_affixes: the prefix and suffix the site adds to its pages' ``<title>``
        (forest.titles), stripped from the title extraction reads there.
    :param comments: XPath of the site's comment thread (forest.comments), cut from the
        article and read into ``Article.comments`` on request; '' when the sample had none.
    :param span: the start tags that bound the part of a page's source extraction parses
        (forest.extraction.span), the end one '' for the end of the page; ('', '') to parse pages whole.
    :param classifier_agrees: whether the block classifier's labels agreed with J x U's regions on
        the sample pages (forest.learning.consensus.classifier_agrees); False on a site unlike its
        training pages, where learning did without them.
    :param parts: the names of the boxes the sample's regions held (forest.region.part_names); a
        box of a page's region not among them is judged by the classifier at extraction.  None:
        learned without the classifier, or before parts were learned (no box is judged).
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
    feed_url: str | None = None
    misses_at_learn: int = 0
    title_affixes: tuple[str, str] = ("", "")
    comments: str = ""
    span: tuple[str, str] = ("", "")
    classifier_agrees: bool = True
    parts: frozenset[str] | None = None
    schema_version: int = SCHEMA_VERSION

    @property
    def main(self) -> Pattern:
        return self.patterns[0]

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
            "feed_url": self.feed_url,
            "misses_at_learn": self.misses_at_learn,
            "title_affixes": list(self.title_affixes),
            "comments": self.comments,
            "span": list(self.span),
            "classifier_agrees": self.classifier_agrees,
            "parts": None if self.parts is None else sorted(self.parts),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Wrapper:
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
            variant = data.get("variant", {})
            return cls(
                site=str(data["site"]),
                patterns=tuple(Pattern.from_dict(p) for p in data["patterns"]),
                template_blocks=frozenset(data.get("template_blocks", ())),
                exclusions=tuple(data.get("exclusions", ())),
                variant={str(k): str(v) for k, v in variant.items() if k not in _DRIFT_KEYS},
                sample=tuple(data.get("sample", ())),
                notes=tuple(data.get("notes", ())),
                learned_at=str(data.get("learned_at", "")),
                fields={str(k): str(v) for k, v in data.get("fields", {}).items()},
                # Wrappers stored before these were fields kept them as strings in the variant.
                feed_url=_optional_str(data.get("feed_url", variant.get("feed_url"))),
                misses_at_learn=int(data.get("misses_at_learn", variant.get("misses_at_learn", 0))),
                # Wrappers stored before titles, comments and spans were learned have none.
                title_affixes=_pair(data.get("title_affixes", ("", ""))),
                comments=str(data.get("comments") or ""),
                span=_pair(data.get("span", ("", ""))),
                # Wrappers stored before it was a field said so in their notes only.
                classifier_agrees=data.get("classifier_agrees", not any(
                    str(note).startswith(CLASSIFIER_NOT_USED) for note in data.get("notes", ()))),
                parts=None if data.get("parts") is None else frozenset(str(key) for key in data["parts"]),
                schema_version=version,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"malformed wrapper record ({exc!r}); relearn the site") from exc


_DRIFT_KEYS = ("feed_url", "misses_at_learn")


def _optional_str(value: object) -> str | None:
    if value is None or isinstance(value, str):
        return value or None
    raise TypeError(f"expected a string or null, got {value!r}")


def _pair(value: object) -> tuple[str, str]:
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, str) for v in value):
        return str(value[0]), str(value[1])
    raise TypeError(f"expected a pair of strings, got {value!r}")
