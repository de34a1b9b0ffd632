"""forest.extraction.copies: a box printed again for another screen size is kept once."""

from __future__ import annotations

import pytest
from lxml import etree

from forest.extraction import extract
from forest.extraction.copies import without_copies
from forest.html import parse_html
from patterns.text import text_blocks
from kept_blocks import Prediction

DESCRIPTION = ("<p>Make each cup of tea or coffee feel special with a wheel thrown stoneware mug.</p>"
               "<p>Handmade in small batches, each glaze a little different from the last one.</p>"
               "<p>Suitable for dishwashers and microwave ovens.</p>")


def _kept(body: str) -> list[str]:
    root = parse_html(f"<html><body>{body}</body></html>")
    content = [Prediction(text_blocks([e])[0], e) for e in root.iter("p", "h2", "li")]
    return [p.block.text for p in without_copies(content)]


def test_a_box_printed_for_phones_and_again_for_desktops_is_kept_once() -> None:
    kept = _kept(f'<div class="product"><h2>White speckle mug</h2>'
                 f'<div class="description hidden-md-up">{DESCRIPTION}</div>'
                 f'<div class="description hidden-md-down">{DESCRIPTION}</div></div>')
    assert kept == ["White speckle mug", *(e.text for e in etree.HTML(DESCRIPTION).iter("p"))]


def test_a_copy_with_a_line_of_its_own_is_still_a_copy() -> None:
    # Nine tenths of the second box's words repeat the first's: a "Sold out" badge does not make it new.
    kept = _kept(f'<section class="desktop">{DESCRIPTION}</section>'
                 f'<section class="mobile">{DESCRIPTION}<p>Sold out</p></section>')
    assert kept.count("Suitable for dishwashers and microwave ovens.") == 1


def test_cards_that_repeat_their_fine_print_are_all_kept() -> None:
    card = ("<div class='coupon'><h2>{}</h2><p>Must be presented before the start of work.</p>"
            "<p>Not valid with other offers or coupons.</p></div>")
    titles = ["$50 off any panel upgrade over two thousand dollars", "Free safety inspection with every service call",
              "$25 off your first repair visit this spring"]
    kept = _kept("".join(card.format(title) for title in titles))
    assert len(kept) == 9


def test_a_list_that_repeats_an_item_keeps_each() -> None:
    days = ["Monday. Rest day and stretching", "Tuesday. Easy run of five miles", "Wednesday. Rest day and stretching"]
    kept = _kept("<ul>" + "".join(f"<li>{day}</li>" for day in days) + "</ul>")
    assert kept == days


@pytest.mark.parametrize(("head", "copies"), [('<meta name="viewport" content="width=device-width">', 1), ("", 2)],
                         ids=["sized-for-phones", "desktop-only"])
def test_a_page_sized_for_phones_prints_a_copied_description_once(head: str, copies: int) -> None:
    # The whole cold path: the classifier keeps both copies; the text has the description once. A page
    # with no viewport is laid out at a desktop's width, once: it prints no box per screen size.
    paragraph = ("Make each cup of tea or coffee feel special with a ceramic mug, wheel thrown in our studio, "
                 "matte textured outside and glazed within, in a white speckle finish that no two mugs share.")
    description = f"<p>{paragraph}</p><p>Handmade stoneware, about nine centimetres tall, holding 350 ml.</p>"
    html = (f"<html><head><title>White speckle mug</title>{head}</head><body><main><h1>White speckle mug</h1>"
            f'<div class="description hidden-md-up">{description}</div>'
            f'<div class="description hidden-md-down">{description}</div></main></body></html>')
    text = extract(None, html).text
    assert text.count("wheel thrown in our studio") == copies
