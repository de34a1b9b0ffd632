"""The HTML pages of `forest serve`: sites, a site's wrapper, the job form, the job list, a job's result."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

import forest
from forest.webapp.article import rendered, rendered_of
from forest.webapp.jobs import JobStore, Revision
from forest.webapp.render import PageUnreadable, PageView, page_view
from forest.webapp.runner import fetched_counts, record, shown
from forest.webapp.safety import InputError, check_html, check_url
from forest.webapp.state import Config, config_of, queue_html, queue_job

PAGE_SIZE = 20
# Seconds between two reloads of a page showing a job that is not done yet.
REFRESH_S = 1
# Stored wrapper variant keys (forest's feed learning writes them; read tolerantly).
FEED_URL, MISSES_AT_LEARN = "feed_url", "misses_at_learn"
_CSS = (Path(__file__).resolve().parent / "static" / "app.css").read_bytes()


def _render(request: Request, name: str, context: dict[str, Any], status: int = 200) -> Response:
    config = config_of(request)
    return config.templates.TemplateResponse(request, name, context, status_code=status)


def error_page(request: Request, status: int, message: str) -> Response:
    return _render(request, "error.html", {"status": status, "message": " ".join(message.split())}, status)


def stylesheet(request: Request) -> Response:
    return Response(_CSS, media_type="text/css", headers={"Cache-Control": "max-age=300"})


def no_icon(request: Request) -> Response:
    return Response(status_code=204)  # browsers ask on every page; there is none


def page_number(request: Request) -> int:
    raw = request.query_params.get("page", "1")
    if not raw.isdigit() or int(raw) < 1:
        raise InputError(f"page: a number from 1, not {raw[:20]!r}", status=400)
    return int(raw)


# --- sites -----------------------------------------------------------------------------


def site_rows(config: Config) -> list[dict[str, Any]]:
    """Every stored site with its health, as the API lists them."""
    rows: list[dict[str, Any]] = []
    with forest.WrapperStore(config.db_path) as store:
        for info in store.sites():
            try:
                wrapper = store.find(info.site) or {}
                problem = None
            except forest.StoreError as exc:
                wrapper, problem = {}, str(exc)
            raw = wrapper.get("variant")
            variant: dict[str, Any] = raw if isinstance(raw, dict) else {}
            # Drift state is a typed field of the wrapper; older records kept it in the variant.
            feed_url = wrapper.get(FEED_URL, variant.get(FEED_URL))
            # Stored before credentials were stripped on learning: still not shown.
            feed_url = forest.strip_credentials(feed_url) if isinstance(feed_url, str) else feed_url
            baseline = str(wrapper.get(MISSES_AT_LEARN, variant.get(MISSES_AT_LEARN, "0")))
            since = info.misses - (int(baseline) if baseline.isdigit() else 0)
            rows.append({
                "site": info.site, "version": info.version, "learned_at": info.learned_at,
                "pages_extracted": info.pages_extracted, "misses": info.misses,
                "last_extracted_at": info.last_extracted_at, "feed_url": feed_url,
                "misses_since_learned": since,
                "health": problem or ("ok" if since <= 0 else f"{since} misses since learned"),
            })
    return rows


def home(request: Request) -> Response:
    config = config_of(request)
    rows = site_rows(config)
    return _render(request, "home.html", {"sites": rows, "form": {}, "db_path": config.db_path})


# --- site addresses ------------------------------------------------------------------
#
# A site name is any text (``--site example.com/blog``, a name taken from a path), so
# its address quotes every character but the unreserved ones, "/" included: the name
# is one path segment, and ``/pages/N`` after it is the only literal "/".  The server
# decodes %2F before routing, so the route reads the raw path to tell the two apart.
# A name that is all dots ("." or "..") would be a dot segment a browser removes,
# percent-encoded or not: it goes in the query instead.

SITES_PREFIX = "/sites/"
# SQLite's largest row id: a larger number names no stored row (and sqlite3 cannot bind it).
MAX_ROW_ID = 2**63 - 1


def site_href(site: str, revision: int | None = None) -> str:
    """The app's address of ``site``'s page, or of its wrapper shown on stored page ``revision``."""
    if site.strip(".") == "":
        query = urlencode({"name": site, **({"revision": revision} if revision is not None else {})})
        return f"{SITES_PREFIX}?{query}"
    path = SITES_PREFIX + quote(site, safe="")
    return path if revision is None else f"{path}/pages/{revision}"


def site_address(request: Request) -> Response:
    """``/sites/NAME`` and ``/sites/NAME/pages/REVISION`` (see :func:`site_href`)."""
    raw = request.scope.get("raw_path")
    if isinstance(raw, bytes):
        rest = raw.decode("latin-1").partition(SITES_PREFIX)[2]
    else:  # a server that keeps no raw path: what it decoded, quoted back ("/" left as is)
        rest = quote(request.path_params["path"])
    head, pages, tail = rest.rpartition("/pages/")
    revision: str | None = None
    if pages and head and tail.isascii() and tail.isdigit():
        site, revision = unquote(head), tail
    elif rest:
        site = unquote(rest)
    else:
        site, revision = request.query_params.get("name", ""), request.query_params.get("revision")
    if not site:
        raise HTTPException(404, "no site named in the address")
    if revision is None:
        return site_page(request, site)
    if not (revision.isascii() and revision.isdigit()) or int(revision) > MAX_ROW_ID:
        raise HTTPException(404, f"no stored page {revision[:20]!r} of site {site!r}")
    return sample_page(request, site, int(revision))


def row_id(request: Request, name: str) -> int:
    """The integer path parameter ``name``, 404 past what SQLite can hold."""
    value: int = request.path_params[name]
    if value > MAX_ROW_ID:
        raise HTTPException(404, f"no {name.replace('_id', '')} {value}")
    return value


def site_page(request: Request, site: str) -> Response:
    config = config_of(request)
    with forest.WrapperStore(config.db_path) as store:
        wrapper = store.find(site)
        if wrapper is None:
            raise HTTPException(404, f"no wrapper stored for site {site!r}")
        history = store.history(site)
        health = next((row for row in site_rows(config) if row["site"] == site), {})
    wrapper = _without_credentials(wrapper)
    sample = [str(url) for url in wrapper.get("sample", ())]
    with JobStore(config.db_path) as jobs:
        revisions = jobs.revision_counts(sample)
    versions = [
        {"version": version, "learned_at": learned_at,
         "main": (old.get("patterns") or [{}])[0].get("xpath", ""), "patterns": len(old.get("patterns") or [])}
        for version, learned_at, old in reversed(history)
    ]
    return _render(request, "site.html", {
        "site": site, "wrapper": wrapper, "health": health, "versions": versions,
        "sample": [(url, revisions.get(url)) for url in sample],
    })


def sample_page(request: Request, site: str, revision_id: int) -> Response:
    """The site's current wrapper on one of its own stored pages."""
    config = config_of(request)
    with forest.WrapperStore(config.db_path) as store:
        stored = store.find(site)
        if stored is None:
            raise HTTPException(404, f"no wrapper stored for site {site!r}")
        wrapper = forest.load_wrapper(site, store)
        version = next((s.version for s in store.sites() if s.site == site), None)
    with JobStore(config.db_path) as jobs:
        revision = jobs.revision(revision_id)
        if revision is None or not _page_of(site, stored, revision, jobs):
            # Another site's page is not shown under this site's address, as if it were its own.
            raise HTTPException(404, f"no stored page {revision_id} of site {site!r}")
    article = forest.extract(wrapper, revision.body, url=revision.final_url, settings=shown(config.settings))
    extracted = record(article, revision.final_url)
    result = {"site": site, "version": version, "article": extracted}
    view = _view(revision, stored, extracted)
    return _render(request, "result.html", {
        "job": None, "result": result, "article": extracted, "rendered": rendered(article),
        "view": view, "revision": revision, "title": f"{site}: the wrapper on a stored page",
    })


# --- jobs ------------------------------------------------------------------------------


async def submit(request: Request) -> Response:
    """The form: learn from a feed URL, extract a page URL, or extract pasted HTML."""
    config = config_of(request)
    form = await request.form(max_part_size=config.max_body_bytes)
    fields = {key: str(form.get(key) or "") for key in ("action", "url", "html", "site")}
    try:
        if fields["action"] == "learn":
            job = queue_job(config, "learn", check_url(fields["url"]), fields["site"].strip() or None)
        elif fields["action"] == "extract" and fields["html"].strip():
            html = check_html(fields["html"], config.settings.max_page_bytes)
            url = check_url(fields["url"]) if fields["url"].strip() else ""
            job = queue_html(config, html, url, fields["site"].strip() or None)
        elif fields["action"] == "extract":
            job = queue_job(config, "extract_url", check_url(fields["url"]), fields["site"].strip() or None)
        else:
            raise InputError("choose to learn a site or to extract a page", status=400)
    except InputError as exc:
        rows = site_rows(config)
        return _render(request, "home.html", {"sites": rows, "form": fields, "error": str(exc),
                                              "db_path": config.db_path}, exc.status)
    return RedirectResponse(f"/jobs/{job.id}", status_code=303)


def job_list(request: Request) -> Response:
    page = page_number(request)
    with JobStore(config_of(request).db_path) as jobs:
        found = jobs.recent(offset=(page - 1) * PAGE_SIZE, limit=PAGE_SIZE)
        total = jobs.count()
        active = jobs.count(state="pending") + jobs.count(state="running")
    return _render(request, "jobs.html", {
        "jobs": found, "page": page, "pages": max(1, -(-total // PAGE_SIZE)), "total": total,
        "refresh": REFRESH_S if active else None,
    })


def job_page(request: Request) -> Response:
    """A job: its state while it runs (reloading), its reason if it failed, its result when done."""
    job_id = row_id(request, "job_id")
    config = config_of(request)
    with JobStore(config.db_path) as jobs:
        job = jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no job {job_id}")
        page = (job.result or {}).get("page") or {}
        revision = jobs.revision(page["revision"]) if page.get("revision") is not None else None
        downloads = len(jobs.revisions(job_id=job.id))
    context: dict[str, Any] = {"job": job, "refresh": REFRESH_S if job.active else None, "downloads": downloads,
                               "title": f"job {job.id}", "fetched": fetched_counts(job.progress) if job.active else None}
    if job.state != "finished" or not job.result or "article" not in job.result:
        return _render(request, "result.html", {**context, "result": job.result, "article": None, "view": None})
    article = job.result["article"]
    view = _view(revision, _wrapper_version(config, job.result), article) if revision else None
    return _render(request, "result.html", {**context, "result": job.result, "article": article,
                                            "rendered": rendered_of(job.result), "view": view, "revision": revision})


def job_markdown(request: Request) -> Response:
    """A finished job's article as `forest extract --format markdown` prints it."""
    job_id = row_id(request, "job_id")
    with JobStore(config_of(request).db_path) as jobs:
        job = jobs.get(job_id)
    if job is None or job.state != "finished" or not job.result or "article" not in job.result:
        raise HTTPException(404, f"no article extracted by job {job_id}")
    return Response(rendered_of(job.result).markdown, media_type="text/markdown; charset=utf-8")


def _without_credentials(wrapper: dict[str, Any]) -> dict[str, Any]:
    """A stored wrapper to show: its feed and sample URLs without user names and passwords
    (learning strips them; a database written before it did may hold some)."""
    shown = dict(wrapper)
    if isinstance(shown.get(FEED_URL), str):
        shown[FEED_URL] = forest.strip_credentials(shown[FEED_URL])
    if isinstance(shown.get("sample"), list):
        shown["sample"] = [forest.strip_credentials(u) if isinstance(u, str) else u for u in shown["sample"]]
    return shown


def _page_of(site: str, wrapper: dict[str, Any], revision: Revision, jobs: JobStore) -> bool:
    """Whether ``revision`` is a page of ``site``: one of its wrapper's sample pages, or
    downloaded by a job that ended on that site."""
    sample = {str(url) for url in wrapper.get("sample", ())}
    if revision.url in sample or revision.final_url in sample:
        return True
    job = jobs.get(revision.job_id) if revision.job_id is not None else None
    return job is not None and job.site == site


def _wrapper_version(config: Config, result: dict[str, Any]) -> dict[str, Any] | None:
    """The wrapper version a result was extracted with (the site may have been relearned or forgotten since)."""
    site, version = result.get("site"), result.get("version")
    if not site:
        return None
    with forest.WrapperStore(config.db_path) as store:
        try:
            history = store.history(str(site))
        except forest.UnknownSiteError:
            return None
    chosen = next((w for v, _, w in history if v == version), None)
    return chosen if chosen is not None else history[-1][2]


def _view(revision: Revision | None, wrapper: dict[str, Any] | None, article: dict[str, Any]) -> PageView | None:
    if revision is None:
        return None
    method = str(article.get("method") or "")
    pattern = article.get("pattern") if method == "wrapper" else None
    try:
        return page_view(revision.body, wrapper=wrapper, pattern=pattern, article_text=str(article.get("text") or ""),
                         method=method)
    except PageUnreadable as exc:
        return PageView("", 0, 0, (f"the stored page cannot be shown: {exc}",))

