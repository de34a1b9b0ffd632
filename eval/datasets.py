"""Load gold-annotated pages from the shared JSON Lines datasets or from a RED-like directory.

The shared datasets are ``<name>.jsonl.gz`` files in ``../shared/datasets`` (relative to the
repository root), or in the directory named by the ``FOREST_DATASETS`` environment variable;
their format is described in that directory's README.

A RED-like directory (the layout of the FOREST paper's RED and CYAN corpora) holds one
subdirectory per site; the subdirectory's name is the site::

    corpus/
      example.com/
        feed.xml        optional: the site's RSS or Atom feed
        story-1.html    a page (bytes; charset from BOM, <meta charset>, else UTF-8/cp1252)
        story-1.txt     its gold article text (UTF-8), one block per line
        story-1.url     optional: the page's URL on one line
        story-2.html
        story-2.txt
      other.org/
        ...

A page without its ``.txt`` is skipped.  A feed item describes the page whose URL equals
the item's link, or else whose file stem equals the last path segment of the link (without
extension); it becomes :attr:`Sample.feed` and the :class:`~keywords.model.Metadata` of
:attr:`Sample.page`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal
from urllib.parse import urlsplit

from forest.html import decode
from forest.model import Page
from keywords.model import Metadata

SUFFIX = ".jsonl.gz"
ENV_VAR = "FOREST_DATASETS"

# The site-level datasets of the protocol (issue 38): each is split by site, once, into dev and test.
SITE_LEVEL_DATASETS = ("cleanportaleval", "dragnet", "l3s_gn1", "wceb2026", "big9")
# A site is a test site when the first byte of sha256("{dataset}/{site}") is below this: about a third
# (86/256) of the sites, fixed by the names alone, so no run, seed or tuning can move a site between splits.
TEST_SPLIT_BYTE = 86
SPLITS = ("test", "dev", "all")
Split = Literal["test", "dev", "all"]


@dataclass(frozen=True, slots=True)
class Sample:
    """One gold-annotated page.

    ``meta`` holds the dataset's per-page notes (``gold_token_coverage``, ``decoding``…);
    ``feed`` the feed item of the page, if any, with keys ``title``, ``summary``,
    ``tags``, ``author`` and ``published``.
    """

    id: str
    dataset: str
    site: str
    url: str | None
    html: str
    gold_text: str
    gold_title: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False)
    feed: Mapping[str, Any] | None = field(default=None, compare=False)

    @property
    def page(self) -> Page:
        """The page as a system sees it: no gold, only HTML, URL, site and feed metadata."""
        return Page(html=self.html, url=self.url, site=self.site, meta=_metadata(self.feed))


def _metadata(feed: Mapping[str, Any] | None) -> Metadata | None:
    if not feed:
        return None
    return Metadata(
        title=str(feed.get("title") or ""),
        summary=str(feed.get("summary") or ""),
        tags=tuple(str(t) for t in feed.get("tags") or ()),
        author=str(feed.get("author") or ""),
        published=str(feed.get("published") or ""),
    )


def split_of(dataset: str, site: str) -> Literal["dev", "test"]:
    """The split a site of a dataset belongs to: ``"test"`` (report only) or ``"dev"`` (tune and investigate here)."""
    first = hashlib.sha256(f"{dataset}/{site}".encode()).digest()[0]
    return "test" if first < TEST_SPLIT_BYTE else "dev"


def in_split(dataset: str, site: str, split: Split) -> bool:
    """Whether ``site`` of ``dataset`` is scored when ``split`` is asked for (``"all"``: every site)."""
    return split == "all" or split_of(dataset, site) == split


def repo_root() -> Path:
    """The repository root: this file lives in ``<root>/eval/``."""
    return Path(__file__).resolve().parent.parent


def datasets_dir(root: Path | None = None) -> Path:
    """Where dataset names resolve: ``root``, else ``$FOREST_DATASETS``, else ``<repo>/../shared/datasets``."""
    if root is not None:
        return Path(root)
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    return repo_root().parent / "shared" / "datasets"


def available(root: Path | None = None) -> list[str]:
    """Names of the datasets in :func:`datasets_dir`, sorted ([] if the directory is missing)."""
    directory = datasets_dir(root)
    if not directory.is_dir():
        return []
    return sorted(p.name[: -len(SUFFIX)] for p in directory.glob(f"*{SUFFIX}"))


def load(name_or_path: str, *, root: Path | None = None) -> list[Sample]:
    """Load a dataset by name (``"cleanportaleval"``), by file path, or from a RED-like directory.

    A string that names an existing file or directory, or that contains a path
    separator or ends in ``.jsonl``/``.jsonl.gz``, is a path; anything else is a name
    looked up in :func:`datasets_dir`.

    :raises FileNotFoundError: no such dataset; the message lists the available names.
    :raises ValueError: a line of the file is not a valid sample.
    """
    path = resolve(name_or_path, root=root)
    if path.is_dir():
        return load_directory(path)
    return list(_read_jsonl(path))


def resolve(name_or_path: str, *, root: Path | None = None) -> Path:
    """The file or RED-like directory :func:`load` would read, without reading it.

    :raises FileNotFoundError: no such dataset; the message lists the available names.
    """
    path = Path(name_or_path)
    is_path = path.exists() or os.sep in name_or_path or "/" in name_or_path or name_or_path.endswith((".jsonl", SUFFIX))
    if not is_path:
        path = datasets_dir(root) / f"{name_or_path}{SUFFIX}"
    if not path.is_dir() and not path.is_file():
        names = available(root)
        listed = ", ".join(names) if names else f"none (is {datasets_dir(root)} there? set {ENV_VAR})"
        raise FileNotFoundError(f"no dataset {name_or_path!r} at {path}; available: {listed}")
    return path


def _read_jsonl(path: Path) -> Iterable[Sample]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                yield Sample(
                    id=str(record["id"]),
                    dataset=str(record["dataset"]),
                    site=str(record["site"]),
                    url=record.get("url"),
                    html=str(record["html"]),
                    gold_text=str(record["gold_text"] or ""),
                    gold_title=record.get("gold_title"),
                    meta=MappingProxyType(dict(record.get("meta") or {})),
                    feed=MappingProxyType(dict(record["feed"])) if record.get("feed") else None,
                )
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a dataset sample ({exc!r})") from exc


def by_site(
    samples: Iterable[Sample], *, min_pages: int = 1, min_coverage: float | None = None
) -> dict[str, list[Sample]]:
    """Group samples by site: sites sorted by name, pages in input order.

    :param min_pages: sites with fewer pages (after the coverage filter) are dropped.
    :param min_coverage: drop pages whose ``meta["gold_token_coverage"]`` is below this
        (their gold does not match their HTML); pages without the field are kept.
    """
    groups: dict[str, list[Sample]] = {}
    for sample in samples:
        coverage = sample.meta.get("gold_token_coverage")
        if min_coverage is not None and coverage is not None and coverage < min_coverage:
            continue
        groups.setdefault(sample.site, []).append(sample)
    return {site: groups[site] for site in sorted(groups) if len(groups[site]) >= min_pages}


def load_directory(path: str | Path) -> list[Sample]:
    """Load a RED-like directory (layout in this module's docstring); sites and pages sorted by name.

    :raises FileNotFoundError: ``path`` is not a directory.
    """
    root = Path(path)
    if not root.is_dir():
        raise FileNotFoundError(f"{root} is not a directory of site directories")
    dataset = root.name
    samples: list[Sample] = []
    for site_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        feed = _read_feed(site_dir / "feed.xml")
        for html_path in sorted(site_dir.glob("*.html")):
            gold_path = html_path.with_suffix(".txt")
            if not gold_path.is_file():
                continue
            url_path = html_path.with_suffix(".url")
            url = (url_path.read_text(encoding="utf-8").strip() or None) if url_path.is_file() else None
            html = decode(html_path.read_bytes(), source=str(html_path))
            gold = _normalize(_read_text(gold_path))
            samples.append(
                Sample(
                    id=f"{dataset}/{site_dir.name}/{html_path.stem}",
                    dataset=dataset,
                    site=site_dir.name,
                    url=url,
                    html=html,
                    gold_text=gold,
                    meta=MappingProxyType({"source_file": str(html_path.relative_to(root))}),
                    feed=_match_item(feed, html_path.stem, url),
                )
            )
    return samples


def _read_text(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _normalize(text: str) -> str:
    # The shared datasets' gold convention: runs of spaces collapsed, blank lines dropped.
    lines = (" ".join(line.split()) for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def _read_feed(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    import feedparser  # only RED-like directories with a feed need it

    parsed = feedparser.parse(path.read_bytes())
    items = []
    for entry in parsed.entries:
        items.append(
            {
                "link": entry.get("link") or "",
                "title": entry.get("title") or "",
                "summary": entry.get("summary") or "",
                "tags": tuple(t.get("term") or "" for t in entry.get("tags") or ()),
                "author": entry.get("author") or "",
                "published": entry.get("published") or "",
            }
        )
    return items


def _match_item(items: list[dict[str, Any]], stem: str, url: str | None) -> Mapping[str, Any] | None:
    for item in items:
        if url and item["link"] == url:
            return MappingProxyType(item)
    for item in items:
        last = urlsplit(item["link"]).path.rstrip("/").rsplit("/", 1)[-1]
        if last and re.sub(r"\.[A-Za-z0-9]+$", "", last) == stem:
            return MappingProxyType(item)
    return None
