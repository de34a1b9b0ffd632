"""patterns.dom.xpath_literal: a quoted attribute value lxml compiles, or None; and learning on a site whose classes hold characters XML forbids."""

from __future__ import annotations

import random
import string

import pytest
from hypothesis import given, strategies as st
from lxml import etree

from forest.extraction import extract
from forest.learning.induce import Inducer
from forest.model import Page
from patterns.dom import xpath_literal


@given(st.text(max_size=30))
def test_a_literal_compiles_and_selects_its_own_value(value: str) -> None:
    literal = xpath_literal(value)
    if literal is None:
        return
    element = etree.Element("p")
    element.set("class", value)
    assert etree.XPath(f"self::p[@class={literal}]")(element) == [element]


@pytest.mark.parametrize("character", ["\x0c", "\x01", "\x0b", "\ufffe", "\ud800"])
def test_a_value_with_a_character_xml_forbids_has_no_literal(character: str) -> None:
    assert xpath_literal(f"a{character}b") is None
    with pytest.raises(ValueError):  # what lxml says of the step a literal would have made
        etree.XPath(f"//p[@class='a{character}b']")


@pytest.mark.parametrize("character", ["\x0c", "\x01", "\ufffe"])
def test_a_site_whose_classes_hold_control_characters_is_learned(character: str) -> None:
    # A page's class with a form feed or another control character became a step lxml refused to
    # compile (a ValueError deep in learning: a traceback for `forest learn`).  Such classes name nothing.
    rng = random.Random(0)
    vocabulary = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9))) for _ in range(2000)]

    def page(number: int) -> Page:
        paragraphs = "".join(f"<p class='p{character}x'>{' '.join(rng.choice(vocabulary) for _ in range(40))}.</p>"
                             for _ in range(5))
        html = (f"<html><head><title>Story {number} | Site</title></head><body>"
                f"<div class='nav{character}bar'><a href='/'>Home</a> <a href='/x'>News</a></div>"
                f"<div class='art{character}icle'><h1>Story {number}</h1>{paragraphs}</div>"
                f"<div class='foot{character}er'>Copyright 2024 Site</div></body></html>")
        return Page(html, url=f"http://site.example/s{number}", site="site.example")

    pages = [page(number) for number in range(6)]
    wrapper = Inducer().fit(pages[:5], "site.example").wrapper_
    assert all(character not in pattern.xpath for pattern in wrapper.patterns)
    article = extract(wrapper, pages[5].html)
    assert article.method == "wrapper" and len(article.text.split()) >= 200
