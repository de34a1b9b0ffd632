"""The example site's pages as WARC records, for the batch tests (and a page whose charset only its HTTP header gives)."""

from __future__ import annotations

from pathlib import Path

from eval.warc import WarcPage, write_warc
from forest.demo import ExampleSite
from forest.html import canonical_url, parse_html

# A page that declares its charset only in the HTTP header: read as UTF-8 it would be mojibake.
CP1252_PAGE = (
    "<html><head><title>Caf\u00e9 news</title></head><body><article><h1>Caf\u00e9 news</h1>"
    + "<p>Le caf\u00e9 cr\u00e8me co\u00fbte deux euros au comptoir du caf\u00e9 de la gare, \u201cpas plus\u201d, dit-on.</p>" * 6
    + "</article></body></html>"
).encode("cp1252")
CP1252_URL = "http://cafe.test/news/1.html"


def example_pages(example: ExampleSite) -> list[Path]:
    """All the example site's pages, the held-out one last."""
    return [*example.sample, example.held_out]


def page_url(path: Path) -> str:
    url = canonical_url(parse_html(path.read_bytes()))
    assert url
    return url


def write_example_warc(path: Path, example: ExampleSite) -> Path:
    """The example site's pages as a .warc.gz, plus a cp1252 page, a 404 and a PDF (which are not pages)."""
    pages = [WarcPage(page_url(p), p.read_bytes()) for p in example_pages(example)]
    pages.insert(2, WarcPage(CP1252_URL, CP1252_PAGE, charset="windows-1252"))
    pages.insert(3, WarcPage("http://example.test/missing.html", b"<html><body>Not found</body></html>", status="404 Not Found"))
    pages.insert(4, WarcPage("http://example.test/report.pdf", b"%PDF-1.4 ...", charset=None, content_type="application/pdf"))
    with open(path, "wb") as out:
        write_warc(pages, out)
    return path
