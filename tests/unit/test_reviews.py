"""forest.extraction.reviews: a product page's customer reviews are left out of its cold extraction."""

from __future__ import annotations

import pytest

from forest.extraction import extract
from forest.extraction.reviews import declares_product, without_reviews
from forest.html import parse_html
from patterns.text import text_blocks
from kept_blocks import Prediction

DESCRIPTION = ("The Arrival T-Shirt is cut slim from a light polyester that dries fast, with flat seams "
               "that do not rub and a crew neck that keeps its shape wash after wash.")
REVIEWS = ('<div class="product-reviews"><h3>Customer Reviews</h3>'
           '<div class="review-item"><p>Great fit, I bought three of them in different colours.</p></div>'
           '<div class="review-item"><p>Shrank a little after the first wash but still comfortable.</p></div></div>')



def _page(body: str, head: str = '<meta property="og:type" content="product">') -> str:
    return f"<html><head><title>Arrival T-Shirt</title>{head}</head><body>{body}</body></html>"


def _kept(html: str) -> list[str]:
    root = parse_html(html)
    content = [Prediction(text_blocks([p])[0], p) for p in root.iter("p", "h3")]
    return [p.block.text for p in without_reviews(root, content)]


@pytest.mark.parametrize(
    ("head", "product"),
    [
        ('<meta property="og:type" content="product">', True),
        ('<meta property="og:type" content="product.item">', True),
        ('<script type="application/ld+json">{"@type": ["Product"], "name": "Arrival T-Shirt"}</script>', True),
        ('<meta property="og:type" content="article">', False),
        ("", False),
    ],
    ids=["og product", "og product.item", "JSON-LD Product", "og article", "nothing"],
)
def test_a_page_declares_a_product_by_its_og_type_or_its_json_ld(head: str, product: bool) -> None:
    html = _page(f"<p>{DESCRIPTION}</p>", head)
    assert declares_product(parse_html(html), html) is product


def test_the_blocks_of_a_review_box_are_dropped() -> None:
    kept = _kept(_page(f'<div class="description"><p>{DESCRIPTION}</p></div>{REVIEWS}'))
    assert kept == [DESCRIPTION]


def test_a_preview_is_no_review_nor_is_a_box_holding_most_of_the_kept_text() -> None:
    # "preview" holds "review"; an editorial review (a car's, a book's) is the page's article itself.
    assert _kept(_page(f'<div class="preview"><p>{DESCRIPTION}</p></div>')) == [DESCRIPTION]
    editorial = _page(f'<div class="hreview"><p>{DESCRIPTION}</p><p>{DESCRIPTION.upper()}</p></div>'
                      '<div class="review-rating"><p>4.5 out of 5</p></div>')
    assert _kept(editorial) == [DESCRIPTION, DESCRIPTION.upper()]


def test_a_box_holding_half_the_page_is_the_pages_wrapper_not_its_reviews() -> None:
    # A shop theme names the whole page so ("single-product-reviews-01" among the classes of a wrapper).
    assert _kept(_page(f'<div class="single-product-reviews-01"><p>{DESCRIPTION}</p></div>')) == [DESCRIPTION]


def test_cold_extraction_of_a_product_page_leaves_its_reviews_out() -> None:
    # The whole road: the shipped classifier reads the page, and the reviews go whatever it says of them.
    description = " ".join([DESCRIPTION] * 3)
    html = _page(f'<h1>Arrival T-Shirt</h1><div class="description"><p>{description}</p></div>{REVIEWS}',
                 '<meta name="viewport" content="width=device-width"><meta property="og:type" content="product">')
    article = extract(None, html)
    assert DESCRIPTION in article.text
    assert "Customer Reviews" not in article.text and "Great fit" not in article.text
