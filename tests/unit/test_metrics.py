"""Token P/R/F1 on hand-computed examples, the empty cases, means and the bootstrap interval."""

from __future__ import annotations

import pytest

from eval.metrics import Score, bootstrap_ci, mean_scores, score, tokens


def test_tokens_are_lowercased_word_runs_counted_as_a_multiset() -> None:
    assert tokens("The cat, the HAT_2!") == {"the": 2, "cat": 1, "hat_2": 1}


def test_identical_texts_score_one() -> None:
    assert score("A b c", "a B c.") == Score(1.0, 1.0, 1.0)


def test_partial_overlap_counts_each_token_at_most_min_times() -> None:
    # pred: a a b x (4), gold: a b b c (4); overlap = min(2,1)a + min(1,2)b = 2.
    s = score("a a b x", "a b b c")
    assert s.p == pytest.approx(0.5)
    assert s.r == pytest.approx(0.5)
    assert s.f1 == pytest.approx(0.5)


def test_precision_and_recall_differ() -> None:
    # pred: one two (2), gold: one two three four (4); overlap 2.
    s = score("one two", "one two three four")
    assert (s.p, s.r) == (1.0, 0.5)
    assert s.f1 == pytest.approx(2 * 1.0 * 0.5 / 1.5)


def test_no_overlap_scores_zero() -> None:
    assert score("alpha", "beta") == Score(0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("pred", "gold", "expected"),
    [
        ("", "", Score(1.0, 1.0, 1.0)),
        ("  ... ", "!", Score(1.0, 1.0, 1.0)),
        ("some text", "", Score(0.0, 1.0, 0.0)),
        ("", "some gold", Score(0.0, 0.0, 0.0)),
        ("---", "some gold", Score(0.0, 0.0, 0.0)),
    ],
    ids=["both-empty", "punctuation-only-is-empty", "gold-empty", "pred-empty", "pred-punctuation-only"],
)
def test_empty_cases(pred: str, gold: str, expected: Score) -> None:
    assert score(pred, gold) == expected


def test_mean_scores_averages_each_component() -> None:
    mean = mean_scores([Score(1.0, 0.0, 0.0), Score(0.5, 1.0, 0.5)])
    assert mean == Score(0.75, 0.5, 0.25)


def test_mean_scores_of_nothing_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one"):
        mean_scores([])


def test_bootstrap_is_deterministic_for_a_seed_and_brackets_the_mean() -> None:
    values = [0.1, 0.5, 0.9, 0.7, 0.3, 1.0, 0.0, 0.6]
    first = bootstrap_ci(values, n=500, seed=3)
    assert first == bootstrap_ci(values, n=500, seed=3)
    assert first != bootstrap_ci(values, n=500, seed=4)
    low, high = first
    assert low <= sum(values) / len(values) <= high
    assert 0.0 <= low < high <= 1.0


def test_bootstrap_of_a_constant_is_that_constant() -> None:
    assert bootstrap_ci([0.4] * 5) == pytest.approx((0.4, 0.4))


@pytest.mark.parametrize(("values", "alpha"), [([], 0.05), ([1.0], 0.0), ([1.0], 1.0)], ids=["empty", "alpha-0", "alpha-1"])
def test_bootstrap_rejects_bad_input(values: list[float], alpha: float) -> None:
    with pytest.raises(ValueError):
        bootstrap_ci(values, alpha=alpha)
