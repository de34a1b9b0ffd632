"""The recording transport keeps what the fetcher downloads, decoded, and nothing over the cap."""

from __future__ import annotations

import gzip

import httpx

from forest.webapp.recording import RecordingTransport

PAGE = b"<html><body><p>" + b"words " * 200 + b"</p></body></html>"


def serve(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/gzip.html":
        return httpx.Response(200, headers={"content-type": "text/html; charset=utf-8", "content-encoding": "gzip"},
                              content=gzip.compress(PAGE))
    if request.url.path == "/big.html":
        return httpx.Response(200, headers={"content-type": "text/html"}, content=b"x" * 5000)
    if request.url.path == "/bomb.html":  # small compressed, huge decoded
        return httpx.Response(200, headers={"content-type": "text/html", "content-encoding": "gzip"},
                              content=gzip.compress(b"\0" * 2_000_000))
    return httpx.Response(404)


def test_downloads_are_kept_decoded_and_passed_through_unchanged() -> None:
    recorder = RecordingTransport(httpx.MockTransport(serve), max_bytes=3000)
    with httpx.Client(transport=recorder) as client:
        assert client.get("http://site.example/gzip.html").content == PAGE
        assert client.get("http://site.example/missing").status_code == 404
    (page, missing) = recorder.downloads
    assert page.url == "http://site.example/gzip.html" and page.body == PAGE
    assert page.content_type == "text/html" and page.status == 200
    assert missing.status == 404


def test_bodies_over_the_cap_pass_through_but_are_not_kept() -> None:
    recorder = RecordingTransport(httpx.MockTransport(serve), max_bytes=3000)
    with httpx.Client(transport=recorder) as client:
        assert len(client.get("http://site.example/big.html").content) == 5000
        assert len(client.get("http://site.example/bomb.html").content) == 2_000_000
    assert recorder.downloads == []
