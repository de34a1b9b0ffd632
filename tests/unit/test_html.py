"""forest.html: decoding page bytes, cleaning the tree, and refusing what is not a page."""

from __future__ import annotations

import codecs

import pytest
from lxml import etree, html as lxml_html

from forest.errors import ParseError
from forest.html import canonical_url, decode, page_title, parse_html, script_shell

PAGE = "<html><head><title>Café</title></head><body><p>Crème brûlée “today”</p></body></html>"


@pytest.mark.parametrize(
    ("data", "declared", "expected"),
    [
        (codecs.BOM_UTF8 + PAGE.encode("utf-8"), None, PAGE),
        (codecs.BOM_UTF16_LE + PAGE.encode("utf-16-le"), None, PAGE),
        (codecs.BOM_UTF16_BE + PAGE.encode("utf-16-be"), None, PAGE),
        # The BOM wins over a wrong declared charset.
        (codecs.BOM_UTF8 + PAGE.encode("utf-8"), "cp1252", PAGE),
        (PAGE.encode("utf-8"), None, PAGE),
        (PAGE.encode("cp1252"), None, PAGE),
        (PAGE.encode("cp1252"), "windows-1252", PAGE),
        ("<p>Ωμέγα</p>".encode("iso-8859-7"), "iso-8859-7", "<p>Ωμέγα</p>"),
        (b'<meta charset="koi8-r"><p>' + "привет".encode("koi8-r") + b"</p>", None,
         '<meta charset="koi8-r"><p>привет</p>'),
        (b"<meta http-equiv='Content-Type' content='text/html; charset=Shift_JIS'><p>" + "日本".encode("shift_jis")
         + b"</p>", None, "<meta http-equiv='Content-Type' content='text/html; charset=Shift_JIS'><p>日本</p>"),
        # Browsers read ISO-8859-1 as windows-1252, where 0x93/0x94 are curly quotes.
        (b"<p>\x93quoted\x94 caf\xe9</p>", "iso-8859-1", "<p>“quoted” café</p>"),
        (b"<meta charset=latin1><p>\x93q\x94</p>", None, "<meta charset=latin1><p>“q”</p>"),
        # A declared UTF-16 without a BOM is a template's lie: the bytes are ASCII-based.
        (b"<meta charset=utf-16><p>plain</p>", None, "<meta charset=utf-16><p>plain</p>"),
        # A wrong declaration falls through to what decodes.
        ("<p>é</p>".encode(), "ascii", "<p>Ã©</p>"),
        ("<p>é</p>".encode(), "no-such-charset", "<p>é</p>"),
    ],
    ids=[
        "utf-8 BOM", "utf-16-le BOM", "utf-16-be BOM", "BOM beats header", "utf-8", "cp1252 fallback",
        "http charset", "http charset greek", "meta charset", "meta http-equiv", "iso-8859-1 is cp1252",
        "meta latin1 is cp1252", "utf-16 declared without BOM", "ascii declared is cp1252", "unknown charset",
    ],
)
def test_decode(data: bytes, declared: str | None, expected: str) -> None:
    assert decode(data, declared) == expected


@pytest.mark.parametrize(
    "data",
    [b"", b"   \n\t", bytes(range(32)) * 10],
    ids=["empty", "whitespace", "control bytes"],
)
def test_decode_refuses_non_pages(data: bytes) -> None:
    with pytest.raises(ParseError):
        decode(data)


def _texts(root: etree._Element) -> str:
    return " ".join(root.itertext())


def test_parse_removes_scripts_styles_and_comments() -> None:
    root = parse_html(
        b"<html><head><style>p{color:red}</style><script>var a=1;</script></head>"
        b"<body><!-- hidden --><p>kept<script>bad()</script> tail</p><noscript>enable js</noscript>"
        b"<template><p>tpl</p></template><svg><text>logo</text></svg></body></html>"
    )
    text = _texts(root)
    assert "kept" in text and "tail" in text
    for gone in ("color:red", "var a", "hidden", "bad()", "enable js", "tpl", "logo"):
        assert gone not in text
    assert not any(isinstance(node, etree._Comment) for node in root.iter())


SHELL = (b"<html><body><div id='app'>Loading</div><noscript><div class='post'><p>"
         + b"Words of the post that the forest serves to readers without scripts. " * 5 + b"</p></div></noscript></body></html>")


def test_a_page_its_scripts_fill_is_read_as_without_scripts() -> None:
    assert "Words of the post" not in _texts(parse_html(SHELL))
    shown = parse_html(SHELL, noscript=True)
    assert "Words of the post" in _texts(shown) and shown.find(".//noscript") is None
    assert script_shell(parse_html(SHELL), SHELL) and script_shell(parse_html(SHELL), SHELL.decode())
    # A page that shows its article outside <noscript> is no shell, nor is a short page without one.
    article = SHELL.replace(b"Loading", b"The article as every reader sees it, sentence after sentence. " * 10)
    assert not script_shell(parse_html(article), article)
    empty = b"<html><body><p>Page not found</p></body></html>"
    assert not script_shell(parse_html(empty), empty)


def test_unclosed_title_still_has_a_body() -> None:
    root = parse_html(b"<html><head><title>Broken page</head><body><p>The article text.</p></body></html>")
    body = root.find("body")
    assert body is not None and "The article text." in _texts(body)


@pytest.mark.parametrize(
    "page",
    [
        # '</titlevalue=...>' closes no title: the title swallowed the page (l3s_gn1, cbn.com).
        b'<html><head><title id="t">A headline</titlevalue="true" -->\n</head><body><p>The article text.</p></body></html>',
        # An element no head holds, where libxml2 reads on in the head (l3s_gn1, dailyindia.com).
        b"<html><head><title>A headline</title><mbox>\n<tr><td><p>The article text.</p></td></tr></mbox></head></html>",
        # A quote left open in the <html> tag: libxml2 keeps nothing (l3s_gn1, pr-inside.com).
        b'<!DOCTYPE html>\n<html xmogo.jpg" alt="Logo" /></a></td><td><p>The article text.</p></td></html>',
    ],
    ids=["title close slip", "body in head", "mangled html tag"],
)
def test_a_body_libxml2_loses_is_found_as_a_browser_finds_it(page: bytes) -> None:
    assert lxml_html.document_fromstring(page).find("body") is None  # what the repair is for
    body = parse_html(page).find("body")
    assert body is not None and "The article text." in _texts(body)


def test_xml_declaration_is_accepted_in_text() -> None:
    root = parse_html('<?xml version="1.0" encoding="utf-8"?><html><body><p>x</p></body></html>')
    assert root.find("body") is not None


def test_title_and_canonical() -> None:
    root = parse_html(
        b'<html><head><title> A   title </title><link rel="Canonical" href="http://example.test/a">'
        b'</head><body><p>x</p></body></html>'
    )
    assert page_title(root) == "A title"
    assert canonical_url(root) == "http://example.test/a"


def test_og_url_is_a_canonical() -> None:
    root = parse_html(b'<html><head><meta property="og:url" content="http://example.test/b"></head><body>x</body></html>')
    assert canonical_url(root) == "http://example.test/b"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty page"),
        ("   ", "empty page"),
        (b"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0e\x0f" * 20, "binary data"),
        ("<html>\x00\x00</html>", "binary data"),
        (b"<html><head><title>x</title></head></html>", "no <body>"),
        (b"<p>" + b"x" * 2000 + b"</p>", "over the"),
    ],
    ids=["empty bytes", "blank text", "binary bytes", "NUL in text", "no body", "too large"],
)
def test_parse_errors(data: bytes | str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_html(data, max_bytes=1000)


def test_parse_error_names_the_source() -> None:
    with pytest.raises(ParseError, match=r"^page\.html: empty page$"):
        parse_html(b"", source="page.html")
