"""The bundled example site (forest/examples/): its pages, its held-out page, a local HTTP server for it, and a token F1."""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

from lxml import etree

from forest.score import score

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"

# The page the demo extracts: it is not in the sample the wrapper learns from,
# and expected.txt holds its article text (title, then one paragraph per line).
HELD_OUT = "library-maps.html"

_CANONICAL = re.compile(r'<link rel="canonical" href="([^"]+)"')


@dataclass(frozen=True, slots=True)
class ExampleSite:
    """A bundled example site: files on disk, one held out of the learning sample.

    :param site: the site key its pages' canonical URLs give (``example.test``).
    :param directory: where its files are.
    :param sample: the pages to learn from.
    :param held_out: a page of the same site to extract, not in ``sample``.
    :param expected: the held-out page's article text.
    :param feed: its RSS feed, whose links point at ``http://example.test/...``.
    """

    site: str
    directory: Path
    sample: tuple[Path, ...]
    held_out: Path
    expected: Path
    feed: Path


def example_site(site: str = "example.test") -> ExampleSite:
    """The bundled example site ``site`` (a directory under forest/examples/).

    :raises ValueError: if there is no such example.
    """
    directory = EXAMPLES_DIR / site
    if not directory.is_dir():
        raise ValueError(f"no bundled example site {site!r} in {EXAMPLES_DIR}")
    held_out = directory / HELD_OUT
    sample = tuple(sorted(p for p in directory.glob("*.html") if p != held_out))
    return ExampleSite(site, directory, sample, held_out, directory / "expected.txt", directory / "rss.xml")


def token_f1(predicted: str, gold: str) -> float:
    """Bag-of-words token F1 (forest.score), the measure the demo reports."""
    return score(predicted, gold).f1


@dataclass(frozen=True, slots=True)
class DemoServer:
    """The bundled example site served on 127.0.0.1.

    :param base_url: ``http://127.0.0.1:PORT``.
    :param feed_url: its RSS feed, with links rewritten to ``base_url`` and the held-out
        page's item left out (so the wrapper never learns from the page it then extracts).
    :param held_out_url: the held-out page's URL.
    """

    base_url: str
    feed_url: str
    held_out_url: str


@contextlib.contextmanager
def serve_example(example: ExampleSite, port: int = 0) -> Iterator[DemoServer]:
    """Serve ``example`` on 127.0.0.1 (on ``port``, else a free one) from a background thread, for the duration of the block.

    Pages are served at the paths of their canonical URLs; nothing but loopback is used.
    """
    canonical = {page: urlsplit(_canonical(page)) for page in example.directory.glob("*.html")}
    origin = canonical[example.held_out]
    routes: dict[str, tuple[str, bytes]] = {
        url.path: ("text/html; charset=utf-8", page.read_bytes()) for page, url in canonical.items()
    }
    server = ThreadingHTTPServer(("127.0.0.1", port), route_handler(routes))
    server.daemon_threads = True
    base_url = f"http://127.0.0.1:{server.server_address[1]}"
    routes["/rss.xml"] = (
        "application/rss+xml",
        _local_feed(example.feed, f"{origin.scheme}://{origin.netloc}", base_url, origin.path),
    )
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield DemoServer(base_url, f"{base_url}/rss.xml", f"{base_url}{origin.path}")
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _canonical(page: Path) -> str:
    match = _CANONICAL.search(page.read_text(encoding="utf-8"))
    return match.group(1) if match else f"/{page.name}"


def _local_feed(feed: Path, origin: str, base_url: str, held_out_path: str) -> bytes:
    """The feed with links on ``origin`` pointing at ``base_url`` instead, without the held-out page's item."""
    # Our own bundled file, but parsed as untrusted XML anyway: no entities, no network.
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    root = etree.fromstring(feed.read_bytes(), parser)
    for item in list(root.iter("item")):
        if urlsplit(item.findtext("link") or "").path == held_out_path:
            parent = item.getparent()
            if parent is not None:
                parent.remove(item)
    for element in root.iter("link", "guid"):
        if element.text and element.text.startswith(origin):
            element.text = base_url + element.text[len(origin):]
    return bytes(etree.tostring(root, xml_declaration=True, encoding="utf-8"))


def route_handler(routes: dict[str, tuple[str, bytes]]) -> type[BaseHTTPRequestHandler]:
    """A request handler serving ``routes`` (path -> content type and body; read at each request), 404 elsewhere."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            content_type, body = routes.get(urlsplit(self.path).path, ("text/plain", b""))
            self.send_response(200 if body else 404)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass  # the demo's output is the article, not an access log

    return Handler


def main(argv: list[str] | None = None) -> int:
    """``python -m forest.demo --port N``: serve the example site on 127.0.0.1 until interrupted, for the README's tour."""
    parser = argparse.ArgumentParser(prog="python -m forest.demo", description=main.__doc__)
    parser.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765)")
    args = parser.parse_args(argv)
    try:
        with serve_example(example_site(), args.port) as server:
            print(f"serving the example site at {server.base_url}; its feed: {server.feed_url}", flush=True)
            threading.Event().wait()
    except OSError as exc:  # the port is taken
        print(f"error: cannot serve on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
