"""The scoring rules of python -m eval.fields: titles, days and authors against the gold."""

from __future__ import annotations

import pytest

from eval.fields import Fields, Gold, Tally, same_author, same_day, same_title


@pytest.mark.parametrize(
    ("found", "gold", "right"),
    [
        ("Dylan Bailey", "Dylan Bailey, MS, RD, FAND", True),
        ("By Ana Lima", "Ana Lima", True),
        ("Ana Lima, Bo Chen", "Ana Lima", True),
        ("Larkford Courier", "Ana Lima", False),
        ("Ana", "Ana Lima Pereira Costa", False),
        (None, "Ana Lima", False),
    ],
)
def test_an_author_is_right_by_token_f1(found: str | None, gold: str, right: bool) -> None:
    assert same_author(found, gold) is right


def test_a_day_is_the_one_the_page_states() -> None:
    assert same_day("2025-12-18T19:30:00-05:00", "2025-12-18")
    assert not same_day("2025-12-19T00:30:00+00:00", "2025-12-18")
    assert not same_day("last Tuesday", "2025-12-18")
    assert not same_day(None, "2025-12-18")


def test_a_title_is_right_up_to_spaces_and_case() -> None:
    assert same_title(" Frost  warning ", "frost warning")
    assert not same_title("Frost warning | Courier", "Frost warning")


def test_a_tally_counts_found_right_and_found_without_gold() -> None:
    tally = Tally()
    tally.add(Fields("T", "Ana Lima", "2024-04-16"), Gold("T", "Ana Lima", "2024-04-16", known=True))
    tally.add(Fields("X", "Bo Chen", "2024-04-16"), Gold("T", None, None, known=True))
    tally.add(Fields(None, None, None), Gold(None, None, None))
    assert (tally.pages, tally.title_right, tally.date_found, tally.date_right, tally.author_right) == (3, 1, 2, 1, 1)
    assert (tally.date_spurious, tally.author_spurious) == (1, 1)
