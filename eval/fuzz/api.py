"""Fuzz the JSON API of `forest serve`: hostile request bodies, each answered by a JSON 4xx or a result, never a 500.

Run ``python -m eval.fuzz --kind api --cases 600``.  The app (forest.webapp.create_app,
its job threads running) is driven in the worker through Starlette's TestClient, over a
store that holds the example site's wrapper.  Half the cases are hostile bodies from a
list (deep nesting, integers of thousands of digits, lone surrogate escapes, invalid
UTF-8, wrong types, huge strings, bodies that are not objects), the other half valid
bodies (a shipped page to extract, a loopback URL to extract or learn) through the page
mutator's byte edits; each goes to /api/extract or /api/learn.  An answer of 500 or
more is a traceback, an answer that is not JSON in valid UTF-8 is bad output, and the
example site's stored wrapper must not change.
"""

from __future__ import annotations

import json
import random
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from eval.fuzz.harness import Handler
from eval.fuzz.pages import mutate

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "forest" / "examples" / "example.test").glob("*.html")) + sorted(
    (ROOT / "tests" / "data" / "red_like").glob("*/*.html")
)
SITE = "example.test"
# Nothing listens on the discard port, and forest serve refuses loopback anyway (no --allow-private).
LOOPBACK_URL = "http://127.0.0.1:9/2024/04/meteor-count.html"
PATHS = ("/api/extract", "/api/learn")
CONTENT_TYPES = ("application/json", None, "text/plain", "application/json; charset=utf-16", "multipart/form-data")
# Each wait is short: a refused URL or a pasted page ends its job in well under a second.
WAIT = b'"wait": 5'


def _dump(value: object) -> bytes:
    return json.dumps(value).encode()


def hostile_bodies() -> list[tuple[str, bytes]]:
    """The listed hostile bodies, named (issue 42's among them: deep nesting, 4,300+ digit integers, lone surrogates)."""
    page = '"<html><body><p>A page.</p></body></html>"'
    deep = [b"[" * n + b"]" * n for n in (1_000, 100_000, 1_000_000)]
    deep += [b'{"a":' * n + b"1" + b"}" * n for n in (1_000, 100_000)]
    deep += [b'{"html": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", b'{"url": ' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}"]
    digits = [b'{"wait": ' + b"9" * 5_000 + b"}", b'{"html": ' + page.encode() + b', "x": ' + b"1" * 5_000 + b"}",
              b"1" * 5_000, b'{"wait": 1e999}', b'{"wait": -1e999}', b'{"wait": 1' + b"0" * 4_400 + b".5}",
              b'{"html": ' + page.encode() + b', "wait": ' + b"0." + b"0" * 5_000 + b"1}"]
    surrogates = [b'{"html": "\\ud800"}', b'{"html": "<p>\\udc80 text</p>", "site": "example.test", ' + WAIT + b"}",
                  b'{"url": "http://127.0.0.1:9/\\udfff", ' + WAIT + b"}", b'{"site": "\\ud800", "html": ' + page.encode() + b"}",
                  b'{"\\ud800": 1}', b'{"html": "\\ud800\\udc00\\udbff"}', b'{"url": "\\udbff"}']
    encodings = [b'{"html": "\xff\xfe<p>x</p>"}', b'\xef\xbb\xbf{"html": ' + page.encode() + b", " + WAIT + b"}",
                 ('{"html": ' + page + ', "wait": 5}').encode("utf-16"), b'{"html": "\xed\xa0\x80"}',
                 b'{"html": "\xc0\xaf"}', b'{"site": "\xff", "html": ' + page.encode() + b"}", b"\x00", b'{"html": "\x00"}']
    types: list[object] = [
        {"url": 5}, {"url": [LOOPBACK_URL]}, {"html": 5}, {"html": {}}, {"html": True}, {"html": None, "url": None},
        {"site": 5, "html": "<p>x</p>"}, {"site": [], "url": LOOPBACK_URL}, {"wait": "5", "url": LOOPBACK_URL},
        {"wait": True, "url": LOOPBACK_URL}, {"wait": -1, "url": LOOPBACK_URL}, {"wait": None, "url": LOOPBACK_URL},
        {}, {"html": "", "url": ""}, {"url": LOOPBACK_URL, "site": {"a": 1}, "wait": 0},
    ]
    words = [b'{"wait": NaN, "url": "' + LOOPBACK_URL.encode() + b'"}', b'{"wait": Infinity}', b'{"wait": -Infinity}']
    huge: list[object] = [
        {"html": "<p>" + "x" * 1_000_000 + "</p>", "site": SITE, "wait": 5},
        {"html": "<p>" + "x" * 11_000_000 + "</p>", "wait": 5},
        {"html": "<p>" + "é" * 6_000_000 + "</p>", "wait": 5},
        {"html": "<div>" * 200_000, "wait": 5},
        {"site": "a" * 100_000, "html": "<p>x</p>"}, {"url": "http://127.0.0.1/" + "a" * 100_000},
        {"url": "http://127.0.0.1/" + "a" * 9_000}, {"html": "<p>x</p>", "url": "http://127.0.0.1/" + "a" * 9_000},
        {"html": "<p>x</p>", "extra": ["x" * 1_000] * 5_000},
    ]
    odd_sites: list[object] = [{"html": "<p>x</p>", "site": s, "wait": 5} for s in
                               ("../../etc", "example.test/../x", "\x00", " ", "a/b", "EXAMPLE.TEST", "example.test.")]
    odd_urls: list[object] = [{"url": u, "wait": 5} for u in (
        "file:///etc/passwd", "javascript:alert(1)", "http://[::1", "http://127.0.0.1:99999/", "http://127.1/",
        "http://0x7f000001/", "http://localhost./", "http://user:pass@127.0.0.1:9/x", "http://[::1]:9/", "ftp://127.0.0.1/",
        "http://%31%32%37.0.0.1/", "http:///x", "http://127.0.0.1:9/\x00", "HTTP://127.0.0.1:9/")]
    not_objects = [b"[]", b'"x"', b"1", b"null", b"true", b"", b" ", b"{", b'{"html": "x"', b'{"html": "x"} junk',
                   b'{"html": "<p>a</p>", "html": 5}', b"{'html': 'x'}", b'{"html": "x",}', b"\n" * 1_000]
    groups: dict[str, list[bytes]] = {
        "deep nesting": deep, "long number": digits, "lone surrogate": surrogates, "bad encoding": encodings,
        "wrong type": [*map(_dump, types), *words], "huge": [*map(_dump, huge)], "odd site": [*map(_dump, odd_sites)],
        "odd url": [*map(_dump, odd_urls)], "not an object": not_objects,
    }
    return [(f"{group} {index}", body) for group, bodies in groups.items() for index, body in enumerate(bodies)]


def valid_bodies() -> list[bytes]:
    """Bodies the API accepts: shipped pages to extract (with and without the site), loopback URLs to extract or learn."""
    bodies = [_dump({"html": page.read_text(encoding="utf-8"), "site": SITE, "wait": 5}) for page in SHIPPED[:4]]
    bodies += [_dump({"html": page.read_text(encoding="utf-8"), "wait": 5}) for page in SHIPPED[-3:]]
    bodies += [_dump({"url": LOOPBACK_URL, "wait": 5}), _dump({"url": LOOPBACK_URL, "site": SITE, "wait": 5})]
    return bodies


def cases(count: int, *, seed: int) -> Iterator[tuple[str, str, Any]]:
    """``count`` cases ``(label, path, (path, content type, body))``: the listed bodies first, then seeded ones."""
    rng = random.Random(seed)
    hostile, valid = hostile_bodies(), valid_bodies()
    for number in range(count):
        path = PATHS[number % 2] if number < 2 * len(hostile) else rng.choice(PATHS)
        if number < 2 * len(hostile):  # every listed body once to each route
            label, body = hostile[number // 2]
        elif rng.random() < 0.3:
            label, body = rng.choice(hostile)
        else:
            label, body = "a mutated valid body", mutate(rng.choice(valid), rng, max_ops=3)
        content_type = CONTENT_TYPES[0] if rng.random() < 0.7 else rng.choice(CONTENT_TYPES)
        yield label, path, (path, content_type, body)


# --- the worker ----------------------------------------------------------------------------------


def setup() -> Handler:
    """The app over a store holding the example site's wrapper, its job threads running, and a client for it."""
    with warnings.catch_warnings():
        # Starlette 1.x would rather its test client ran on the httpx2 package, and says so once.
        warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
        from starlette.testclient import TestClient

    from forest.demo import example_site
    from forest.model import Page
    from forest.service.pages import learn_pages
    from forest.storage import WrapperStore
    from forest.webapp import create_app

    db = Path(tempfile.mkdtemp(prefix="forest-fuzz-api-")) / "fuzz.db"
    with WrapperStore(db) as store:
        pages = [Page(p.read_text(encoding="utf-8"), site=SITE) for p in example_site().sample]
        learn_pages(pages, site=SITE, store=store)
        wrapper = store.get(SITE)
    client = TestClient(create_app(db), base_url="http://127.0.0.1", raise_server_exceptions=False)
    client.__enter__()  # runs the app's lifespan, and so its job threads, until the worker process ends

    def handle(payload: tuple[str, str | None, bytes]) -> tuple[str, str]:
        path, content_type, body = payload
        response = client.post(path, content=body, headers={"content-type": content_type} if content_type else {})
        if response.status_code >= 500:
            return "traceback", f"{response.status_code}: {response.content[:300]!r}"
        if not response.headers.get("content-type", "").startswith("application/json"):
            return "bad output", f"{response.status_code} answered as {response.headers.get('content-type')!r}"
        try:
            json.loads(response.content.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return "bad output", f"{response.status_code} answered with no JSON in UTF-8 ({exc})"
        with WrapperStore(db) as store:
            if store.find(SITE) != wrapper:
                return "changed", f"{SITE}'s stored wrapper"
        return ("ok" if response.status_code < 400 else f"http {response.status_code}"), ""

    return handle
