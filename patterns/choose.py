"""Choose a site's main pattern and its alternates from ranked candidates."""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from patterns.ranking import Ranked, vote_score

# A pattern "explains" a sample page when its region scores at least this share of
# the best region any candidate finds on that page.  A stricter share separates the templates
# of hand-made mixed sites better, but on real pages the best region's score is noisy, and it
# splits one template in two.  (Re-measure: `forest eval --split dev --systems forest`.)
EXPLAINED_SHARE = 0.5
# An alternate pattern is another template of the site only when it explains this many sample
# pages: on one page it is that page's guess (a jobs box, say).  A page no pattern explains is
# read as a page alone.  (Re-measure: `forest eval --split dev --systems forest`.)
MIN_ALTERNATE_PAGES = 2


@dataclass(frozen=True, slots=True)
class Choice:
    """The patterns of a wrapper, in the order extraction tries them, and the pattern
    that explains each sample page (-1: none does)."""

    patterns: tuple[Ranked, ...]
    assignment: tuple[int, ...]


def choose(ranked: Sequence[Ranked], n_pages: int, *, max_alternates: int = 4) -> Choice:
    """The pattern that explains the most sample pages (ties: the higher R over them),
    then, for the pages it does not explain, the same again, up to ``max_alternates``
    alternates that each explain MIN_ALTERNATE_PAGES pages or more.

    Pages that a later pattern explains belong to another template of the site: they
    are what learning reports as a sample that does not agree.
    """
    best = [max((r.page_scores[k] for r in ranked), default=0.0) for k in range(n_pages)]

    def explains(r: Ranked, k: int) -> bool:
        return best[k] > 0 and r.page_scores[k] >= EXPLAINED_SHARE * best[k]

    picked: list[Ranked] = []
    assignment = [-1] * n_pages
    while len(picked) <= max_alternates:
        open_pages = [k for k in range(n_pages) if assignment[k] < 0]
        if not open_pages or not ranked:
            break
        top = max(ranked, key=lambda r: (sum(explains(r, k) for k in open_pages), vote_score(r, open_pages, best)))
        newly = [k for k in open_pages if explains(top, k)]
        if not newly or (picked and len(newly) < MIN_ALTERNATE_PAGES):
            break
        for k in newly:
            assignment[k] = len(picked)
        picked.append(top)
    return Choice(tuple(picked), tuple(assignment))


def disagreements(choice: Choice, names: Sequence[str]) -> list[str]:
    """What the choice says about the sample, as notes for the user."""
    notes: list[str] = []
    n_pages = len(choice.assignment)
    for j, ranked in enumerate(choice.patterns[1:], start=1):
        members = [names[k] for k, a in enumerate(choice.assignment) if a == j]
        notes.append(
            f"{len(members)} of {n_pages} sample pages do not fit the main pattern ({', '.join(members)}): "
            f"the site mixes templates; alternate {ranked.pattern.xpath} learned from them"
        )
    lost = [names[k] for k, a in enumerate(choice.assignment) if a < 0]
    if lost:
        notes.append(f"no learned pattern explains {', '.join(lost)}: those pages agree with no other sample page")
    return notes
