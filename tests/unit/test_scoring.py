"""J, U and I against values computed by hand (DESIGN.md section 3)."""

import math

import pytest

import numpy as np

from patterns.scoring import informativeness, jeffreys_densities, jeffreys_density, unexpectedness


@pytest.mark.parametrize(
    ("x", "y", "expected"),
    [
        # N = 4: (2.5 - sqrt(2.5 * 2.5 / 4)) / 5 = (2.5 - 1.25) / 5
        (2, 2, 0.25),
        # N = 3: (3.5 - sqrt(3.5 * 0.5 / 3)) / 4 = (3.5 - 0.7637626) / 4
        (3, 0, 0.6840594),
        # N = 5: 0.5 - sqrt(0.5 * 5.5 / 5) < 0, clipped to 0
        (0, 5, 0.0),
        # a node without terms has no density
        (0, 0, 0.0),
        # N = 100: (10.5 - sqrt(10.5 * 90.5 / 100)) / 101 = (10.5 - 3.0826936) / 101
        (10, 90, 0.0734387),
    ],
    ids=["balanced", "all-keywords", "no-keyword", "empty", "sparse"],
)
def test_jeffreys_density(x: int, y: int, expected: float) -> None:
    assert jeffreys_density(x, y) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("x", "y", "total_x", "total_y", "expected"),
    [
        # 4 log2 16 - (2 log2 4 + 2 log2 12) = 16 - 4 - 7.169925
        (2, 2, 4, 12, 4.830075),
        # 2 log2 2 - (1 log2 1 + 1 log2 1) = 2
        (1, 1, 1, 1, 2.0),
        # no keyword on the page: 5 log2 10 - 5 log2 10 = 0 (0 log 0 = 0)
        (0, 5, 0, 10, 0.0),
        # the whole page: 20 log2 20 - (5 log2 5 + 15 log2 15) = 86.438562 - 11.609640 - 58.603359
        (5, 15, 5, 15, 16.225562),
    ],
    ids=["small-node", "unit", "no-keywords", "whole-page"],
)
def test_unexpectedness(x: int, y: int, total_x: int, total_y: int, expected: float) -> None:
    assert unexpectedness(x, y, total_x, total_y) == pytest.approx(expected, abs=1e-5)


def test_informativeness_is_the_product() -> None:
    assert informativeness(2, 2, 4, 12) == pytest.approx(0.25 * 4.830075, abs=1e-6)


def test_dense_article_beats_the_page_that_contains_it() -> None:
    # A page of 1000 terms with 50 keywords, 40 of them in a 200-term article.
    article = informativeness(40, 160, 50, 950)
    page = informativeness(50, 950, 50, 950)
    assert article > page


def test_unexpectedness_grows_with_keyword_mass() -> None:
    assert unexpectedness(10, 10, 50, 950) > unexpectedness(5, 10, 50, 950)


def test_jeffreys_density_never_exceeds_one() -> None:
    assert all(jeffreys_density(x, y) <= 1 for x in range(30) for y in range(30))
    assert math.isclose(jeffreys_density(0, 0), 0.0)


def test_jeffreys_densities_are_jeffreys_density_node_by_node() -> None:
    x, y = np.meshgrid(np.arange(40), np.arange(40))
    expected = [jeffreys_density(a, b) for a, b in zip(x.ravel().tolist(), y.ravel().tolist())]
    assert jeffreys_densities(x.ravel(), y.ravel()).tolist() == expected
