"""eval.cold's helpers: a page saved in the charset it declares, and forest's text without its headline."""

from __future__ import annotations

from eval.cold import page_bytes, without_headline


def test_without_headline_drops_only_a_first_line_that_is_the_title() -> None:
    text = "Storm  hits the coast\nThe storm reached the coast.\nStorm hits the coast"
    assert without_headline(text, "Storm hits the coast ") == "The storm reached the coast.\nStorm hits the coast"
    assert without_headline(text, "Storm hits") == text  # a part of the line is not the line
    assert without_headline(text, None) == text and without_headline(text, "") == text
    assert without_headline("Storm hits the coast", "Storm hits the coast") == ""


def test_page_bytes_follow_the_declared_charset() -> None:
    # A page that says ISO-8859-1 is windows-1252, as browsers read it; what it lacks becomes a reference.
    declared = "<meta charset='iso-8859-1'><p>café € Ω</p>"
    assert page_bytes(declared) == b"<meta charset='iso-8859-1'><p>caf\xe9 \x80 &#937;</p>"
    assert page_bytes("<p>café Ω</p>") == "<p>café Ω</p>".encode()
