"""The `forest` command: learn sites from a few pages, extract articles, manage stored wrappers."""

from __future__ import annotations

import contextlib
from dataclasses import replace
import errno
import json
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from forest.errors import FeedError, FetchError, ForestError, LearnError, ParseError, UnknownSiteError
from forest.urls import strip_credentials, without_credentials

if TYPE_CHECKING:
    from forest.batch import Inputs, Summary
    from forest.config import Keywords, Settings
    from forest.learning.induce import LearnReport
    from forest.model import Article, Page
    from forest.storage import WrapperStore
    from forest.wrapper import Wrapper

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

FORMATS = ("text", "json", "jsonl", "markdown", "html")
# Below this many files, reading is quick and a progress bar is only noise.
PROGRESS_MIN_FILES = 10
_DB = "forest.db"
# Entry-point group through which other packages add commands (see ForestGroup).
PLUGIN_GROUP = "forest.commands"
_DEBUG = "forest.debug"


class CLIError(click.ClickException):
    """A failure the user can act on: one line on stderr, exit status 1, no traceback."""

    exit_code = 1

    def show(self, file: IO[Any] | None = None) -> None:
        # A fetch error names the URL as fetched, password included: never printed.
        click.echo(f"error: {without_credentials(self.format_message())}", err=True)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _describe_os_error(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return f"cannot read {exc.filename}: {reason}" if exc.filename else reason


class ForestGroup(click.Group):
    """The command group; turns ForestError (and OSError) into a one-line error, unless --debug.

    Commands of other packages join it through the ``forest.commands`` entry points:
    the evaluation package adds ``eval``, ``bench`` and ``train`` that way, so the
    product never imports its benchmark.
    """

    def _plugins(self) -> dict[str, EntryPoint]:
        return {ep.name: ep for ep in entry_points(group=PLUGIN_GROUP) if ep.name not in self.commands}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self._plugins()})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in (plugins := self._plugins()):
            loaded = plugins[cmd_name].load()
            command = loaded if isinstance(loaded, click.Command) else None
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ForestError as exc:
            if ctx.meta.get(_DEBUG):
                raise
            raise CLIError(_one_line(str(exc))) from exc
        except OSError as exc:
            # click already exits quietly on a closed pipe (`forest extract ... | head`).
            if ctx.meta.get(_DEBUG) or exc.errno == errno.EPIPE:
                raise
            raise CLIError(_one_line(_describe_os_error(exc))) from exc


def _set_db(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    # Shared by the group and every command: the innermost --db given wins.
    if value is not None:
        ctx.meta[_DB] = value


def _set_debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_DEBUG] = True


# readable=False: click would refuse an unreadable file as a usage error (exit 2) before the
# store can say what is wrong with it (a one-line StoreError, exit 1).
_DB_PATH = click.Path(path_type=Path, readable=False)
_DB_HELP = "Wrapper database file (default: $FOREST_DB, else forest/forest.db in the user data directory)."
_DEBUG_HELP = "Show the full traceback of an error."


def common_options(function: F) -> F:
    """--db and --debug, accepted by every command as well as before it."""
    function = click.option(
        "--db", type=_DB_PATH, expose_value=False, callback=_set_db, help=_DB_HELP
    )(function)
    function = click.option(
        "--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug, help=_DEBUG_HELP
    )(function)
    return function


def allow_private_option(function: F) -> F:
    """--allow-private, for the commands that fetch."""
    return click.option(
        "--allow-private", is_flag=True,
        help="Fetch from loopback, private and link-local addresses too (refused by default: a page, feed or "
        "redirect could otherwise point forest at an intranet or a cloud metadata service).",
    )(function)


@contextlib.contextmanager
def _open_store(*, readonly: bool = False, extracting: bool = False) -> Iterator[WrapperStore]:
    """The store of --db: read-only (nothing created, no WAL switch), or for extracting
    (read-write when it may be written, else read-only), or read-write."""
    from forest.storage import WrapperStore

    path = click.get_current_context().meta.get(_DB)
    with WrapperStore.for_extraction(path) if extracting else WrapperStore(path, readonly=readonly) as store:
        yield store


def _progress(items: Sequence[T], label: str) -> contextlib.AbstractContextManager[Iterable[T]]:
    # Only on a terminal: a redirected stderr (logs, CI, tests) gets no bar.
    if len(items) >= PROGRESS_MIN_FILES and sys.stderr.isatty():
        return click.progressbar(items, label=label, file=sys.stderr)
    return contextlib.nullcontext(items)


def _read(path: str, max_bytes: int) -> bytes:
    """A page given as a file (see forest.limits.read_file) or as - (stdin), refused past ``max_bytes``.

    :raises ParseError: a file that is not a regular file, or a page over ``max_bytes``.
    """
    from forest.limits import check_size, read_file

    if path == "-":
        # sys.stdin.buffer, not click.get_binary_stream: click 8.5 deprecates the latter.
        data = sys.stdin.buffer.read(max_bytes + 1)
        check_size(len(data), max_bytes, source=path)
        return data
    return read_file(path, max_bytes=max_bytes)


@click.group(cls=ForestGroup)
@click.option(
    "--db", type=_DB_PATH, envvar="FOREST_DB", show_envvar=True,
    expose_value=False, callback=_set_db, help=_DB_HELP,
)
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug, help=_DEBUG_HELP)
@click.version_option(package_name="forest-extract")
def cli() -> None:
    """Learn how a website lays out its articles from a few of its pages, without
    labels (FOREST), then extract clean articles from its other pages.

    Start with `forest demo`.
    """


# --- learn ---------------------------------------------------------------------------


def _non_empty(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("must not be empty")
    return _utf8(ctx, param, value.strip() if value else value)


def _utf8(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    # Bytes that are not UTF-8 reach Python as lone surrogates, which SQLite cannot store.
    if value is not None:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise click.BadParameter(f"{value.encode('utf-8', 'backslashreplace').decode()!r} is not valid UTF-8") from None
    return value


@cli.command()
@click.argument("files", nargs=-1, required=True, metavar="FEED_URL | FILES...")
@click.option(
    "--site", callback=_non_empty,
    help="Site the pages belong to (default: the registered domain of each page's canonical or og:url link, or of the feed's pages).",
)
@click.option(
    "--keywords", type=click.Choice(["tfidf", "meta", "feed"]),
    help="Keyword source: tf-idf over the pages (default for files), each page's own title and description, "
    "the feed items' metadata (the default for a feed URL).",
)
@click.option("--pages", type=click.IntRange(min=1), help="Learn from at most this many of the files, or of the feed's pages (default 10).")
@click.option("--ignore-robots", is_flag=True, help="Fetch pages even where the site's robots.txt disallows it.")
@allow_private_option
@common_options
def learn(
    files: tuple[str, ...], site: str | None, keywords: Keywords | None, pages: int | None, ignore_robots: bool = False,
    allow_private: bool = False,
) -> None:
    """Learn a site's wrapper from its feed (FEED_URL) or from a few of its pages (HTML FILES), and store it.

    Given a URL, forest fetches the feed (or finds it, for a page of the site), fetches
    up to --pages of its items' pages, learns the article layout and where the title,
    author and date are, and stores it.  Given files, pages are grouped by site and one
    wrapper is learned per site.  Pages that cannot be used are skipped and listed.
    """
    from forest.config import FetchSettings, Settings
    from forest.service.pages import learn_pages

    if any(_is_url(f) for f in files):
        if len(files) > 1:
            raise click.UsageError("give one feed URL, or HTML files, not both")
        settings = Settings(keywords=keywords, fetch=FetchSettings(respect_robots=not ignore_robots, allow_private=allow_private))
        settings = replace(settings, n_pages=pages) if pages else settings
        _learn_url(files[0], site, settings)
        return
    if keywords == "feed":
        raise click.UsageError(f"--keywords {keywords} needs a feed URL; files have no feed items")
    settings = Settings(keywords=keywords)
    chosen = list(files[:pages] if pages else files)
    failures: list[str] = []
    stored = 0
    # Open the store first: a bad --db fails before minutes of reading pages.
    with _open_store() as store:
        groups, skipped = _load_pages(chosen, site, settings)
        for group_site, (group, sources) in groups.items():
            try:
                wrapper, report = learn_pages(group, site=group_site, settings=settings, store=store)
            except LearnError as exc:
                failures.append(_one_line(str(exc)))
                continue
            stored += 1
            _print_learned(wrapper, report, sources)
    for source, reason in skipped:
        click.echo(f"skipped {source}: {reason}")
    if not stored:
        reasons = failures or [f"{source}: {reason}" for source, reason in skipped] or ["no pages given"]
        raise LearnError("nothing learned: " + "; ".join(reasons))
    for failure in failures:
        click.echo(f"error: {failure}", err=True)


def _is_url(argument: str) -> bool:
    return argument.lower().startswith(("http://", "https://"))


def _learn_url(url: str, site: str | None, settings: Settings) -> None:
    """`forest learn FEED_URL`: learn from the feed's pages over HTTP, with progress on stderr."""
    from forest.service.feeds import learn_feed

    with _open_store() as store, _fetch_progress("learning the site") as progress:
        wrapper, report = learn_feed(url, store=store, settings=settings, progress=progress, site=site)
    if report.feed_url != strip_credentials(url):
        click.echo(f"found the feed {report.feed_url}")
    _print_learned(wrapper, report, {})


@contextlib.contextmanager
def _fetch_progress(label: str) -> Iterator[Callable[[int, int, str, str | None], None] | None]:
    """A progress callback drawing a bar on stderr, or, when stderr is not a terminal, saying once
    on it what the wait is for (learning a site takes seconds of fetching)."""
    if not sys.stderr.isatty():
        said = False

        def once(done: int, total: int, url: str, error: str | None) -> None:
            nonlocal said
            if not said:
                said = True
                click.echo(f"forest: {label} from its feed: {total} pages to fetch", err=True)

        yield once
        return
    with click.progressbar(length=1, label=label, file=sys.stderr, item_show_func=lambda u: u) as bar:

        def update(done: int, total: int, url: str, error: str | None) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos, url)

        yield update


def _load_pages(
    files: Sequence[str], site: str | None, settings: Settings
) -> tuple[dict[str, tuple[list[Page], dict[str, str]]], list[tuple[str, str]]]:
    """Read ``files`` (with a progress bar on a terminal) into Pages grouped by site (forest.service.pages.group_by_site)."""
    from forest.service.pages import group_by_site

    unread: list[tuple[str, str]] = []

    def pages(paths: Iterable[str]) -> Iterator[tuple[str, bytes]]:
        for path in paths:
            try:
                yield path, _read(path, settings.max_page_bytes)
            except ParseError as exc:  # a FIFO, a device, an oversized file: skipped like an unparseable page
                unread.append((path, _one_line(str(exc)).removeprefix(f"{path}: ")))

    with _progress(files, "reading pages") as bar:
        groups, skipped = group_by_site(pages(bar), site=site, settings=settings)
    return groups, unread + skipped


def _print_learned(wrapper: Wrapper, report: LearnReport, sources: dict[str, str]) -> None:
    def name(page: str) -> str:
        source = sources.get(page)
        return f"{source} ({page})" if source and source != page and not page.startswith("page ") else source or page

    total = len(report.used) + len(report.skipped)
    stored = f" (version {report.version})" if report.version else ""
    click.echo(f"learned {wrapper.site}{stored} from {len(report.used)} of {total} pages")
    click.echo(f"  main pattern:    {wrapper.main.xpath}")
    alternates = [p.xpath for p in wrapper.patterns[1:]]
    click.echo(f"  alternates:      {', '.join(alternates) if alternates else '(none)'}")
    click.echo(f"  exclusions:      {len(wrapper.exclusions)}")
    click.echo(f"  template blocks: {len(wrapper.template_blocks)}")
    start, end = wrapper.span
    parsed = f"{start or '<body>'}... up to {end or 'the end of the page'}" if start or end else "(the whole page)"
    click.echo(f"  parses:          {parsed}")
    if wrapper.fields:
        click.echo(f"  fields:          {', '.join(f'{k} {v}' for k, v in wrapper.fields.items())}")
    click.echo(f"  pages used:      {len(report.used)}")
    click.echo(f"  pages skipped:   {len(report.skipped)}")
    for page, reason in report.skipped:
        click.echo(f"    {name(page)}: {reason}")
    skip_notes = {f"skipped {page}: {reason}" for page, reason in report.skipped}
    for note in report.notes:
        if note not in skip_notes:
            click.echo(f"  note: {note}")


# --- extract -------------------------------------------------------------------------


@cli.command()
@click.argument("files", nargs=-1, metavar="URL | FILE | DIR | WARC...")
@click.option(
    "-i", "--input-list", "lists", multiple=True, metavar="LIST",
    help="A file of URLs or paths, one per line (- for stdin); repeatable.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write the records to this file instead of stdout.")
@click.option(
    "--site", callback=_non_empty,
    help="Site whose wrapper to use (default: from each URL's host, or each page's canonical or og:url link).",
)
@click.option(
    "--format", "output_format", type=click.Choice(FORMATS),
    help="text: title and text; json: one object (an array for several pages); jsonl: one object per line "
    "(the default for several pages); markdown; html: the article region's HTML.  [default: text for one page]",
)
@click.option(
    "--learn", "learn_k", type=click.IntRange(min=1), metavar="K",
    help="Learn every site with more than K pages in the input from K of them (stored, unless one is stored already) "
    "and extract its pages with it; the other pages are extracted cold.",
)
@click.option(
    "--jobs", "-j", type=click.IntRange(min=1),
    help="Worker processes for several pages; output is the same for any number.  [default: 1 for a few dozen pages, the machine's cores for more]",
)
@click.option(
    "--no-learn", is_flag=True,
    help="For a URL of a site with no stored wrapper, extract it with the classifier instead of learning the site from its feed first.",
)
@click.option("--ignore-robots", is_flag=True, help="Fetch pages even where the site's robots.txt disallows it.")
@click.option("--links", is_flag=True, help="markdown: keep links as [text](url).")
@click.option("--images", is_flag=True, help="markdown: keep images as ![alt](src).")
@click.option("--comments", is_flag=True, help="Also extract the comments (the site's learned comment thread): a `comments` "
              "field in json, after the article in text, markdown and html.")
@click.option("--html", "with_html", is_flag=True, help="json, jsonl: also the article's clean HTML (an `html` field); "
              "the markdown and html formats always build it.")
@allow_private_option
@common_options
def extract(
    files: tuple[str, ...], lists: tuple[str, ...], output: Path | None, site: str | None, output_format: str | None,
    learn_k: int | None, jobs: int | None, no_learn: bool = False, ignore_robots: bool = False, allow_private: bool = False,
    links: bool = False, images: bool = False, comments: bool = False, with_html: bool = False,
) -> None:
    """Extract the article of each page: URLs, HTML FILES, directories of them, WARC files, lists (-i), or - for stdin.

    A URL is fetched; when its site has no wrapper yet, the site's feed is found
    from the page and the site learned first (unless --no-learn).  A page of a site
    with no wrapper is extracted by the classifier (method: classifier).  Several
    pages give one record each, in input order (a failed page: its source and error),
    and a summary line on stderr; the exit status is 1 only when no page could be read.
    """
    from forest.batch import Inputs
    from forest.config import FetchSettings, Settings

    if not files and not lists:
        raise click.UsageError("give pages to extract: URLs, files, directories, WARC files, or -i LIST")
    if "-" in files and "-" in lists:
        raise click.UsageError("stdin can hold a page (-) or a list (-i -), not both")
    inputs = Inputs(files, lists)
    single = inputs.single() and not learn_k
    output_format = output_format or ("text" if single else "jsonl")
    # The structure costs a walk of the region in Python: built for the formats that print it, or when asked.
    settings = Settings(fetch=FetchSettings(respect_robots=not ignore_robots, allow_private=allow_private), comments=comments,
                        html=with_html or output_format in ("markdown", "html", "text"))
    with _output(output) as out, contextlib.redirect_stdout(out):
        if single:
            _extract_one(files[0], site, settings, output_format, learn_if_missing=not no_learn, links=links, images=images)
            return
        _extract_batch(inputs, site, settings, output_format, learn_k=learn_k, jobs=jobs,
                       learn_if_missing=not no_learn, links=links, images=images)


@contextlib.contextmanager
def _output(path: Path | None) -> Iterator[IO[str]]:
    if path is None:
        yield sys.stdout
        return
    with open(path, "w", encoding="utf-8") as file:
        yield file


def _extract_one(
    path: str, site: str | None, settings: Settings, output_format: str, *, learn_if_missing: bool, links: bool, images: bool
) -> None:
    """One page: its article, or a one-line error and exit status 1."""
    from forest.service.pages import extract_page
    from forest.service.records import page_record

    # A URL may learn its site (a write); a file only reads the store, which may be read-only.
    with _open_store(extracting=not _is_url(path)) as store:
        try:
            if _is_url(path):
                from forest.service.feeds import extract_url

                with _fetch_progress("learning the site") as progress:
                    article = extract_url(path, store=store, settings=settings, learn_if_missing=learn_if_missing,
                                          site=site, progress=progress)
            else:
                article = extract_page(_read(path, settings.max_page_bytes), site=site, store=store, settings=settings)
        except (ParseError, FetchError, FeedError, LearnError) as exc:
            if click.get_current_context().meta.get(_DEBUG):
                raise
            message = _one_line(str(exc))
            raise CLIError(message if message.startswith(f"{path}: ") else f"{path}: {message}") from exc
    record = page_record(path, article)
    if output_format == "json":
        click.echo(json.dumps(record, ensure_ascii=False, indent=2))
    else:
        _emit(article, record, output_format, first=True, links=links, images=images)


class _BatchMeter:
    """The batch's progress on a terminal's stderr, one line rewritten in place: pages done, rate, failures."""

    # Seconds between two redraws: often enough to see it move, rarely enough to cost nothing.
    EVERY = 0.5

    def __init__(self, summary: Summary) -> None:
        import time

        self._clock = time.monotonic
        self._summary = summary
        self._started = self._next = self._clock()
        self._shown = False

    def update(self) -> None:
        now = self._clock()
        if now < self._next:
            return
        self._next = now + self.EVERY
        done, failed = self._summary.pages, self._summary.failed
        rate = done / (now - self._started) if now > self._started else 0.0
        click.echo(f"\rforest: {done} pages, {rate:.1f} pages/s, {failed} failed\033[K", err=True, nl=False)
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            click.echo("\r\033[K", err=True, nl=False)


def _extract_batch(
    inputs: Inputs, site: str | None, settings: Settings, output_format: str, *, learn_k: int | None, jobs: int | None,
    learn_if_missing: bool, links: bool, images: bool,
) -> None:
    """Many pages (forest.batch): a record per page in input order, a summary line on stderr."""
    from forest.batch import Options, Summary, run_batch

    ctx = click.get_current_context()
    options = Options(db=ctx.meta.get(_DB), site=site, settings=settings, learn=learn_k, learn_from_feed=learn_if_missing,
                      jobs=jobs, debug=bool(ctx.meta.get(_DEBUG)))
    summary = Summary()
    meter = _BatchMeter(summary) if sys.stderr.isatty() else None
    for result in run_batch(inputs, options, summary):
        if meter is not None:
            meter.update()
        if result.skipped:
            continue
        record = result.record()
        source = record["source"]
        if output_format in ("json", "jsonl"):
            text = json.dumps(record, ensure_ascii=False, indent=2 if output_format == "json" else None)
            if output_format == "json":
                text = ("[\n" if summary.pages == 1 else ",\n") + text
            click.echo(text)
            continue
        # Text formats: a header line names each page, a blank line before the next.
        if result.article is None:
            if summary.pages > 1:
                click.echo()
            click.echo(f"==> {source} <==\nerror: {without_credentials(result.error or '')}")
        else:
            _emit(result.article, record, output_format, first=summary.pages == 1, header=source, links=links, images=images)
    if meter is not None:
        meter.clear()
    if output_format == "json":
        click.echo("]" if summary.pages else "[]")
    if not summary.pages and not summary.skipped:
        raise CLIError("no pages found in the input (a directory is searched for .html, .htm, .xhtml and .shtml files)")
    click.echo(f"forest: {summary.line()}", err=True)
    if summary.pages == summary.failed:
        raise CLIError("no page could be read")


def _emit(
    article: Article, record: dict[str, Any], output_format: str, *, first: bool, header: str | None = None,
    links: bool = False, images: bool = False,
) -> None:
    from forest.article.render import render

    if output_format == "jsonl":
        click.echo(json.dumps(record, ensure_ascii=False))
        return
    if not first:
        click.echo()
    if header is not None:  # several pages: say where each article starts
        click.echo(f"<!-- {header} -->" if output_format == "html" else f"==> {header} <==")
    click.echo(render(article, output_format, links=links, images=images), nl=False)


# --- stored wrappers -----------------------------------------------------------------


@cli.command()
@common_options
def sites() -> None:
    """List the sites with a stored wrapper, with extraction counts and, for sites learned from a feed, their health."""
    with _open_store(readonly=True) as store:
        rows = [
            (s.site, str(s.version), s.learned_at, str(s.pages_extracted), str(s.misses)) for s in store.sites()
        ]
        health = _health(store)
        path = store.path
    if not rows:
        click.echo(f"no sites stored in {path}; learn one with `forest learn`", err=True)
        return
    header = ("site", "version", "learned_at", "pages extracted", "misses")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    if health:
        click.echo()
        for line in health:
            click.echo(line)


def _health(store: WrapperStore) -> list[str]:
    """One line per site learned from a feed (forest.service.pages.site_health)."""
    from forest.config import Settings
    from forest.service.pages import site_health

    every = Settings().relearn_after_misses
    lines = []
    for health in site_health(store):
        if health.error:
            lines.append(f"{health.site}: stored wrapper unreadable ({health.error})")
            continue
        since = health.misses_since_learned
        if since <= 0:
            state = "ok"
        elif since < every:
            state = f"{since} misses since learned (relearned from its feed at {every})"
        else:
            state = f"{since} misses since learned: the next `forest extract URL` of one of its pages relearns it from its feed"
        # Learning stores the feed URL without credentials; a database written before may hold some.
        lines.append(f"{health.site}: {state}; feed {strip_credentials(health.feed_url or '')}")
    return lines


@cli.command()
@click.argument("site", callback=_utf8)
@common_options
def show(site: str) -> None:
    """Print the stored wrapper of SITE as JSON."""
    with _open_store(readonly=True) as store:
        wrapper = store.get(site)
    # Learning stores feed and sample URLs without credentials; a database written before may hold some.
    if isinstance(wrapper.get("feed_url"), str):
        wrapper["feed_url"] = strip_credentials(wrapper["feed_url"])
    if isinstance(wrapper.get("sample"), list):
        wrapper["sample"] = [strip_credentials(u) if isinstance(u, str) else u for u in wrapper["sample"]]
    click.echo(json.dumps(wrapper, ensure_ascii=False, indent=2))


@cli.command()
@click.argument("site", callback=_utf8)
@common_options
def forget(site: str) -> None:
    """Delete the stored wrapper of SITE and its history."""
    with _open_store() as store:
        if not store.forget(site):
            raise UnknownSiteError(site)
    click.echo(f"forgot {site}")


# --- demo ----------------------------------------------------------------------------


@cli.command()
@common_options
def demo() -> None:
    """Serve the bundled example site on 127.0.0.1, learn it from its feed over HTTP, then extract a page it has not seen.

    Uses a temporary database unless --db (or $FOREST_DB) is given.  Needs no network
    beyond 127.0.0.1: the server runs in this process and stops at the end.
    """
    from forest.config import FetchSettings, Settings
    from forest.demo import example_site, serve_example, token_f1
    from forest.service.feeds import extract_url

    example = example_site()
    # Our own server on loopback: no need to space out requests politely.
    settings = Settings(fetch=FetchSettings(per_host_delay=0.0, allow_private=True))
    ctx = click.get_current_context()
    with contextlib.ExitStack() as stack:
        if _DB not in ctx.meta:
            ctx.meta[_DB] = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="forest-demo-"))) / "forest.db"
        server = stack.enter_context(serve_example(example))
        click.echo(f"serving {example.directory} at {server.base_url} (its feed leaves out {example.held_out.name})")
        click.echo()
        click.echo(f"$ forest learn --site {example.site} {server.feed_url}")
        _learn_url(server.feed_url, example.site, settings)
        click.echo()
        click.echo(f"$ forest extract --site {example.site} {server.held_out_url}")
        with _open_store() as store:
            article = extract_url(
                server.held_out_url, store=store, settings=settings, site=example.site, learn_if_missing=False
            )
    from forest.article.render import render

    # What `forest extract` prints for the page.
    click.echo(render(article, "text"))
    f1 = token_f1(article.text, example.expected.read_text(encoding="utf-8"))
    click.echo(
        f"method: {article.method}, pattern: {article.pattern}, "
        f"token F1 against {example.expected.name}: {f1:.2f}"
    )


# --- serve (the web app; the code lives in forest/webapp/, an optional extra) ----------


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but loopback lets the network use your wrapper database and fetch through you.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--allow-private", is_flag=True, help="Let jobs fetch private, loopback and link-local addresses (a site on your own network).")
@common_options
def serve(host: str, port: int, allow_private: bool = False) -> None:
    """Run a local web app: learn sites from their feeds, queue extraction jobs, and see on each page what
    the wrapper takes; with a JSON API (/api/extract, /api/learn, /api/sites, /api/jobs/ID).  Needs the web extra."""
    try:
        import uvicorn

        from forest.webapp import create_app
    except ImportError as exc:
        raise CLIError(
            f"forest serve needs the web extra ({exc.name or exc} is missing): pip install 'forest-extract[web]'"
        ) from exc
    from forest.webapp.safety import bind_name, served_hosts

    # Bound to loopback (any spelling: 127.0.0.2, localhost., [::1]...), only loopback
    # names and the bind name are served (DNS rebinding); bound to a network address on
    # purpose, whatever name the network uses for this machine.
    from forest.config import FetchSettings, Settings

    host = bind_name(host) if host.startswith("[") else host  # uvicorn binds ::1, not [::1]
    app = create_app(click.get_current_context().meta.get(_DB), settings=Settings(fetch=FetchSettings(allow_private=allow_private)),
                     allowed_hosts=served_hosts(host))
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"serving http://{shown}:{port}/ (wrappers and jobs in {app.state.forest.db_path}); Ctrl-C stops", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
