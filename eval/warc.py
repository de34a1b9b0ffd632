"""Write a gold dataset as a WARC file, one HTTP response record per page, for the batch tests and benchmarks.

Run ``python -m eval.warc --dataset dragnet --out dragnet.warc.gz``.  Each record is its
own gzip member (as Common Crawl's files are) with the WARC headers a crawler writes
(record id, date, target URI, digests) and an HTTP response whose ``Content-Type``
header names the charset the page's bytes are in.  A page with no URL gets a stable
one made from its site and id; a URL two pages share gets the second page's id as a
query, so that every record's target URI names one gold page.  Everything is derived
from the dataset, so the same dataset always gives the same bytes.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import re
import sys
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from urllib.parse import quote

from eval.datasets import Sample, load

__all__ = ["WarcPage", "dataset_pages", "main", "page_url", "response_record", "write_warc"]

# A fixed crawl date: the same dataset must give the same file.
CRAWL_DATE = "2024-01-01T00:00:00Z"
HTTP_DATE = "Mon, 01 Jan 2024 00:00:00 GMT"
_NAMESPACE = uuid.UUID("6f1c2d2e-8b8f-4d53-9f7e-4e0f1d1b6a11")
_HOST_UNSAFE = re.compile(r"[^a-z0-9.-]+")


@dataclass(frozen=True, slots=True)
class WarcPage:
    """One response record to write: the page's URL, its bytes and the charset the HTTP header declares."""

    url: str
    body: bytes
    charset: str | None = "utf-8"
    content_type: str = "text/html"
    status: str = "200 OK"


def page_url(sample: Sample) -> str:
    """The sample's URL, or a stable one on its site: ``https://SITE/forest-gold/ID``."""
    if sample.url and sample.url.lower().startswith(("http://", "https://")):
        return sample.url
    host = _HOST_UNSAFE.sub("-", sample.site.lower()).strip("-.") or "unknown.invalid"
    return f"https://{host}/forest-gold/{quote(sample.id, safe='')}"


def dataset_pages(samples: Iterable[Sample]) -> Iterator[tuple[WarcPage, Sample]]:
    """The records of ``samples`` in order, each with a URL no other record has, pages encoded in UTF-8."""
    seen: set[str] = set()
    for sample in samples:
        url = page_url(sample)
        if url in seen:
            url = f"{url}{'&' if '?' in url else '?'}forest-gold={quote(sample.id, safe='')}"
        seen.add(url)
        yield WarcPage(url, sample.html.encode("utf-8")), sample


def _digest(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def response_record(page: WarcPage) -> bytes:
    """One WARC/1.1 response record (uncompressed) for ``page``."""
    content_type = f"{page.content_type}; charset={page.charset}" if page.charset else page.content_type
    http = (
        f"HTTP/1.1 {page.status}\r\n"
        f"Date: {HTTP_DATE}\r\n"
        "Server: nginx\r\n"
        f"Content-Type: {content_type}\r\n"
        f"Content-Length: {len(page.body)}\r\n"
        "Connection: close\r\n"
        "\r\n"
    ).encode("latin-1") + page.body
    record_id = uuid.uuid5(_NAMESPACE, page.url)
    headers = (
        "WARC/1.1\r\n"
        "WARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{record_id}>\r\n"
        f"WARC-Date: {CRAWL_DATE}\r\n"
        f"WARC-Target-URI: {page.url}\r\n"
        f"WARC-Payload-Digest: {_digest(page.body)}\r\n"
        f"WARC-Block-Digest: {_digest(http)}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n"
        "\r\n"
    ).encode()
    return headers + http + b"\r\n\r\n"


def _warcinfo(name: str) -> bytes:
    body = f"software: forest eval.warc\r\nformat: WARC File Format 1.1\r\nisPartOf: {name}\r\n".encode()
    headers = (
        "WARC/1.1\r\n"
        "WARC-Type: warcinfo\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid5(_NAMESPACE, 'warcinfo:' + name)}>\r\n"
        f"WARC-Date: {CRAWL_DATE}\r\n"
        f"WARC-Filename: {name}\r\n"
        "Content-Type: application/warc-fields\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n"
    ).encode()
    return headers + body + b"\r\n\r\n"


def write_warc(pages: Iterable[WarcPage], out: IO[bytes], *, name: str = "forest.warc.gz", compress: bool = True) -> int:
    """Write a warcinfo record, then one response record per page, to ``out``; return the number of pages.

    :param compress: gzip each record as its own member (a ``.warc.gz``), else plain (a ``.warc``).
    """
    def put(record: bytes) -> None:
        # mtime=0: the same pages give the same bytes.
        out.write(gzip.compress(record, mtime=0) if compress else record)

    put(_warcinfo(name))
    count = 0
    for page in pages:
        put(response_record(page))
        count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval.warc", description=__doc__.split("\n")[0])
    parser.add_argument("--dataset", action="append", required=True, help="dataset name or path (repeatable)")
    parser.add_argument("--out", required=True, type=Path, help="the WARC file to write (.warc.gz: gzipped records)")
    parser.add_argument("--limit", type=int, help="write at most this many pages of each dataset")
    args = parser.parse_args(argv)
    compress = args.out.name.endswith(".gz")

    def samples() -> Iterator[Sample]:
        for dataset in args.dataset:
            yield from load(dataset)[: args.limit] if args.limit else load(dataset)

    def pages() -> Iterator[WarcPage]:
        return (page for page, _ in dataset_pages(samples()))

    with open(args.out, "wb") as out:
        count = write_warc(pages(), out, name=args.out.name, compress=compress)
    print(f"wrote {count} pages to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
