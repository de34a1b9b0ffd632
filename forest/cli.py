"""The `forest` command: learn sites from a few pages, extract articles, manage stored wrappers."""

from __future__ import annotations

import contextlib
import errno
import json
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click

from forest.errors import ForestError, LearnError, ParseError, UnknownSiteError

if TYPE_CHECKING:
    from forest.induce import LearnReport
    from forest.model import Article, Page
    from forest.wrapper import Wrapper
    from store import WrapperStore

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

FORMATS = ("text", "json", "jsonl", "markdown", "html")
# Below this many files, reading is quick and a progress bar is only noise.
PROGRESS_MIN_FILES = 10
_DB = "forest.db"
_DEBUG = "forest.debug"


class CLIError(click.ClickException):
    """A failure the user can act on: one line on stderr, exit status 1, no traceback."""

    exit_code = 1

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _describe_os_error(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    return f"cannot read {exc.filename}: {reason}" if exc.filename else reason


class ForestGroup(click.Group):
    """The command group; turns ForestError (and OSError) into a one-line error, unless --debug."""

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


_DB_HELP = "Wrapper database file (default: $FOREST_DB, else forest/forest.db in the user data directory)."
_DEBUG_HELP = "Show the full traceback of an error."


def common_options(function: F) -> F:
    """--db and --debug, accepted by every command as well as before it."""
    function = click.option(
        "--db", type=click.Path(path_type=Path), expose_value=False, callback=_set_db, help=_DB_HELP
    )(function)
    function = click.option(
        "--debug", is_flag=True, expose_value=False, is_eager=True, callback=_set_debug, help=_DEBUG_HELP
    )(function)
    return function


@contextlib.contextmanager
def _open_store() -> Iterator[WrapperStore]:
    from store import WrapperStore

    with WrapperStore(click.get_current_context().meta.get(_DB)) as store:
        yield store


def _progress(items: Sequence[T], label: str) -> contextlib.AbstractContextManager[Iterable[T]]:
    # Only on a terminal: a redirected stderr (logs, CI, tests) gets no bar.
    if len(items) >= PROGRESS_MIN_FILES and sys.stderr.isatty():
        return click.progressbar(items, label=label, file=sys.stderr)
    return contextlib.nullcontext(items)


def _read(path: str) -> bytes:
    if path == "-":
        return click.get_binary_stream("stdin").read()
    with open(path, "rb") as file:
        return file.read()


@click.group(cls=ForestGroup)
@click.option(
    "--db", type=click.Path(path_type=Path), envvar="FOREST_DB", show_envvar=True,
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
    return value.strip() if value else value


@cli.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--site", callback=_non_empty, help="Site the pages belong to (default: the host of each page's canonical or og:url link).")
@click.option(
    "--keywords", type=click.Choice(["tfidf", "meta"]), default="tfidf", show_default=True,
    help="Keyword source: tf-idf over the pages, or each page's own title and description.",
)
@click.option("--pages", type=click.IntRange(min=1), help="Learn from at most this many of the files.")
@common_options
def learn(files: tuple[str, ...], site: str | None, keywords: str, pages: int | None) -> None:
    """Learn a site's wrapper from a few of its pages (HTML FILES) and store it.

    Pages are grouped by site and one wrapper is learned per site.  Pages that
    cannot be read as HTML are skipped and listed.
    """
    from forest.api import learn_pages
    from forest.config import Settings

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
            version = next((s.version for s in store.sites() if s.site == wrapper.site), None)
            _print_learned(wrapper, report, version, sources)
    for source, reason in skipped:
        click.echo(f"skipped {source}: {reason}")
    if not stored:
        reasons = failures or [f"{source}: {reason}" for source, reason in skipped] or ["no pages given"]
        raise LearnError("nothing learned: " + "; ".join(reasons))
    for failure in failures:
        click.echo(f"error: {failure}", err=True)


def _load_pages(
    files: Sequence[str], site: str | None, settings: Any
) -> tuple[dict[str, tuple[list[Page], dict[str, str]]], list[tuple[str, str]]]:
    """Read ``files`` into Pages grouped by site; return the groups (with page name -> file)
    and the files skipped, with why."""
    from forest.api import site_of
    from forest.html import canonical_url, decode, parse_html
    from forest.model import Page

    groups: dict[str, tuple[list[Page], dict[str, str]]] = {}
    skipped: list[tuple[str, str]] = []
    with _progress(files, "reading pages") as bar:
        for path in bar:
            data = _read(path)
            try:
                # parse_html refuses an oversized page before decoding it.
                url = canonical_url(parse_html(data, max_bytes=settings.max_page_bytes))
                text = decode(data)
            except ParseError as exc:
                skipped.append((path, str(exc)))
                continue
            page_site = site
            if page_site is None:
                try:
                    page_site = site_of(url) if url else None
                except ValueError:
                    page_site = None
            if page_site is None:
                skipped.append((path, "no canonical or og:url link names its site; pass --site"))
                continue
            group, sources = groups.setdefault(page_site, ([], {}))
            sources[url or f"page {len(group) + 1}"] = path
            group.append(Page(text, url=url, site=page_site))
    return groups, skipped


def _print_learned(wrapper: Wrapper, report: LearnReport, version: int | None, sources: dict[str, str]) -> None:
    def name(page: str) -> str:
        source = sources.get(page)
        return f"{source} ({page})" if source and source != page and not page.startswith("page ") else source or page

    total = len(report.used) + len(report.skipped)
    stored = f" (version {version})" if version else ""
    click.echo(f"learned {wrapper.site}{stored} from {len(report.used)} of {total} pages")
    click.echo(f"  main pattern:    {wrapper.main.xpath}")
    alternates = [p.xpath for p in wrapper.patterns[1:]]
    click.echo(f"  alternates:      {', '.join(alternates) if alternates else '(none)'}")
    click.echo(f"  exclusions:      {len(wrapper.exclusions)}")
    click.echo(f"  template blocks: {len(wrapper.template_blocks)}")
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
@click.argument("files", nargs=-1, required=True)
@click.option("--site", callback=_non_empty, help="Site whose wrapper to use (default: from each page's canonical or og:url link).")
@click.option(
    "--format", "output_format", type=click.Choice(FORMATS), default="text", show_default=True,
    help="text: title and text; json: one object (an array for several pages); jsonl: one object per line; "
    "markdown; html: the article region's HTML.",
)
@common_options
def extract(files: tuple[str, ...], site: str | None, output_format: str) -> None:
    """Extract the article of each page (HTML FILES, or - for stdin) with its site's stored wrapper."""
    from forest.api import extract_page

    records: list[dict[str, Any]] = []
    failures = 0
    with _open_store() as store:
        for index, path in enumerate(files):
            data = _read(path)
            try:
                article = extract_page(data, site=site, store=store)
            except (ParseError, UnknownSiteError) as exc:
                if click.get_current_context().meta.get(_DEBUG):
                    raise
                message = _one_line(str(exc))
                message = message if message.startswith(f"{path}: ") else f"{path}: {message}"
                if len(files) == 1:
                    raise CLIError(message) from exc
                # Report the page and go on with the others; the exit status says one failed.
                click.echo(f"error: {message}", err=True)
                failures += 1
                continue
            record = {"source": path, **article.to_dict()}
            if output_format == "json":
                records.append(record)
            else:
                _emit(article, record, output_format, first=index == failures)
    if output_format == "json" and records:
        click.echo(json.dumps(records[0] if len(files) == 1 else records, ensure_ascii=False, indent=2))
    if failures:
        raise CLIError(f"{failures} of {len(files)} pages failed")


def _emit(article: Article, record: dict[str, Any], output_format: str, *, first: bool) -> None:
    if output_format == "jsonl":
        click.echo(json.dumps(record, ensure_ascii=False))
        return
    if output_format == "html":
        click.echo(article.html)
        return
    if not first:
        click.echo()
    paragraphs = article.text.split("\n") if article.text else []
    if output_format == "markdown":
        click.echo(f"# {article.title}" if article.title else "")
        for paragraph in paragraphs:
            click.echo()
            click.echo(paragraph)
    else:
        click.echo(article.title)
        for paragraph in paragraphs:
            click.echo(paragraph)


# --- stored wrappers -----------------------------------------------------------------


@cli.command()
@common_options
def sites() -> None:
    """List the sites with a stored wrapper, with extraction counts."""
    with _open_store() as store:
        rows = [
            (s.site, str(s.version), s.learned_at, str(s.pages_extracted), str(s.misses)) for s in store.sites()
        ]
        path = store.path
    if not rows:
        click.echo(f"no sites stored in {path}; learn one with `forest learn`", err=True)
        return
    header = ("site", "version", "learned_at", "pages extracted", "misses")
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        click.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())


@cli.command()
@click.argument("site")
@common_options
def show(site: str) -> None:
    """Print the stored wrapper of SITE as JSON."""
    with _open_store() as store:
        wrapper = store.get(site)
    click.echo(json.dumps(wrapper, ensure_ascii=False, indent=2))


@cli.command()
@click.argument("site")
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
    """Learn the bundled example site from its sample pages, then extract a page it has not seen.

    Uses a temporary database unless --db (or $FOREST_DB) is given.
    """
    from forest.demo import example_site, token_f1

    example = example_site()
    ctx = click.get_current_context()
    with contextlib.ExitStack() as stack:
        if _DB not in ctx.meta:
            ctx.meta[_DB] = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="forest-demo-"))) / "forest.db"
        click.echo(f"$ forest learn {example.directory}/*.html  (all but {example.held_out.name})")
        ctx.invoke(learn, files=tuple(str(p) for p in example.sample), site=None, keywords="tfidf", pages=None)
        click.echo()
        click.echo(f"$ forest extract {example.held_out}")
        with _open_store() as store:
            from forest.api import extract_page

            article = extract_page(example.held_out.read_bytes(), store=store)
        _emit(article, {}, "text", first=True)
        click.echo()
        f1 = token_f1(article.text, example.expected.read_text(encoding="utf-8"))
        click.echo(
            f"method: {article.method}, pattern: {article.pattern}, "
            f"token F1 against {example.expected.name}: {f1:.2f}"
        )
