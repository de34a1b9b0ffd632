"""One definition of a site: the registered domain, from the Public Suffix List bundled with publicsuffixlist."""

from __future__ import annotations

import pytest

from forest.site import site_of, site_or_none
from forest.urls import host_of


@pytest.mark.parametrize(
    ("url", "site"),
    [
        ("https://www.example.com/a", "example.com"),
        ("https://news.example.com/a", "example.com"),  # a subdomain is the same site
        ("https://WWW.News.Example.co.uk:8080/a?b", "example.co.uk"),  # multi-part suffix
        ("http://bbc.co.uk/news", "bbc.co.uk"),
        ("http://foo.blogspot.com/2024/01/a.html", "foo.blogspot.com"),  # a private suffix: each blog its own site
        ("http://127.0.0.1:8000/feed.xml", "127.0.0.1:8000"),  # a machine's server is its own site ...
        ("http://127.0.0.1/feed.xml", "127.0.0.1"),  # ... the host alone on its scheme's port
        ("https://127.0.0.1:443/feed.xml", "127.0.0.1"),
        ("http://[::1]:8000/a", "[::1]:8000"),
        ("http://[0::1]/a", "::1"),
        ("http://localhost:8000/a", "localhost:8000"),
        ("http://localhost/a", "localhost"),
        ("http://example.test/a", "example.test"),  # an unknown suffix: the last two labels
        ("http://a.b.example.test/a", "example.test"),
        ("example.com/path", "example.com"),  # scheme optional
        ("https://example.com./a", "example.com"),  # trailing dot
    ],
)
def test_site_of(url: str, site: str) -> None:
    assert site_of(url) == site


@pytest.mark.parametrize("url", ["", "http://", "http://[zz::1]/a", "http://[::1", "/just/a/path"])
def test_no_site(url: str) -> None:
    with pytest.raises(ValueError):
        site_of(url)
    assert site_or_none(url) is None


def test_host_of_keeps_the_subdomain() -> None:
    assert host_of("https://News.Example.co.uk/a") == "news.example.co.uk"
    assert host_of("http://[zz::1]/a") == ""
