"""The `forest serve` application: an app factory wiring pages, the JSON API, the job queue and its worker."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

import forest
from forest.webapp import views
from forest.webapp.jobs import MAX_ATTEMPTS, Job, JobStore
from forest.webapp.safety import LOOPBACK_HOSTS, InputError, LimitAndProtect, check_html, check_url, error_body
from forest.webapp.state import Config, config_of, queue_html, queue_job
from forest.webapp.worker import LEASE_S, THREADS, Worker

HERE = Path(__file__).resolve().parent
# How long POST /api/extract and /api/learn wait for their job by default before
# answering 202 with the job's address: a page of a known site takes well under a
# second; learning a site from its feed takes 10 pages' fetches, polite (seconds).
DEFAULT_WAIT_S = 30.0
MAX_WAIT_S = 300.0
# How often a waiting request looks at its job.
POLL_S = 0.1


def create_app(
    db_path: str | Path | None = None,
    *,
    settings: forest.Settings | None = None,
    run_worker: bool = True,
    lease_seconds: float = LEASE_S,
    max_attempts: int = MAX_ATTEMPTS,
    threads: int = THREADS,
    max_body_bytes: int | None = None,
    allowed_hosts: Iterable[str] | None = LOOPBACK_HOSTS,
) -> Starlette:
    """The web app over the wrapper database ``db_path`` (default: forest's usual one).

    :param settings: the limits and politeness jobs run with (page size cap, robots.txt...).
    :param run_worker: run the job worker while the app runs (off: jobs stay queued).
    :param lease_seconds: how long a running job may go without its worker's heartbeat
        before it is taken for abandoned (see forest.webapp.jobs.JobStore.recover).
    :param threads: how many jobs run at once (forest.webapp.worker.THREADS).
    :param max_body_bytes: largest request body; default twice ``Settings.max_page_bytes``
        (a pasted page grows when JSON-escaped).
    :param allowed_hosts: the Host names served (default: loopback names only, against DNS
        rebinding); None serves any, for a server deliberately bound to a network address.
    :raises StoreError: when the database cannot be opened.
    """
    settings = settings or forest.Settings()
    # Either store creates a new file's whole layout, or migrates an older one (store.database);
    # the wrapper store resolves the default path, and the job store refuses another application's file.
    with forest.WrapperStore(db_path) as store:
        path = store.path
    JobStore(path).close()
    worker = Worker(path, settings=settings, threads=threads, lease_seconds=lease_seconds, max_attempts=max_attempts)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["site_href"] = views.site_href
    templates.env.filters["no_credentials"] = lambda url: forest.strip_credentials(url) if isinstance(url, str) else url
    templates.env.filters["tojson_pretty"] = lambda value: json.dumps(value, ensure_ascii=False, indent=2)
    config = Config(path, settings, worker, templates, max_body_bytes or 2 * settings.max_page_bytes)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if run_worker:
            worker.start()
        try:
            yield
        finally:
            await asyncio.to_thread(worker.stop)

    routes = [
        Route("/", views.home),
        Route("/sites/{path:path}", views.site_address),
        Route("/jobs", views.job_list),
        Route("/jobs", views.submit, methods=["POST"]),
        Route("/jobs/{job_id:int}", views.job_page),
        Route("/jobs/{job_id:int}/article.md", views.job_markdown),
        Route("/static/app.css", views.stylesheet),
        Route("/favicon.ico", views.no_icon),
        Route("/api/extract", api_extract, methods=["POST"]),
        Route("/api/learn", api_learn, methods=["POST"]),
        Route("/api/sites", api_sites),
        Route("/api/jobs", api_jobs),
        Route("/api/jobs/{job_id:int}", api_job),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(LimitAndProtect, max_body_bytes=config.max_body_bytes,
                               allowed_hosts=None if allowed_hosts is None else frozenset(allowed_hosts))],
        exception_handlers={HTTPException: _http_error, forest.ForestError: _forest_error, Exception: _unexpected},
        lifespan=lifespan,
    )
    app.state.forest = config
    return app


# --- JSON API ------------------------------------------------------------------------


class _JSON(JSONResponse):
    """Starlette's JSON answer, sent as UTF-8 whatever it holds: a lone surrogate that got
    into stored data some other way goes out as U+FFFD, not as a 500."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode(
            "utf-8", errors="replace")


async def api_extract(request: Request) -> Response:
    """``{"url": ...}`` or ``{"html": ..., "site"?: ..., "url"?: ...}`` -> the article record."""
    body = await _json_body(request)
    config = config_of(request)
    wait, site = _wait(body), _site(body)  # every field checked before anything is queued
    if body.get("html") is not None:
        html = check_html(body["html"], config.settings.max_page_bytes)
        url = check_url(body["url"]) if body.get("url") else ""
        job = await asyncio.to_thread(queue_html, config, html, url, site)
    else:
        url = check_url(body.get("url"))
        job = await asyncio.to_thread(queue_job, config, "extract_url", url, site)
    return await _answer(request, job, wait, lambda result: result["article"])


async def api_learn(request: Request) -> Response:
    """``{"url": feed or page URL, "site"?: name}`` -> what learning did: site, version, pages used and skipped."""
    body = await _json_body(request)
    config = config_of(request)
    url, wait, site = check_url(body.get("url")), _wait(body), _site(body)
    job = await asyncio.to_thread(queue_job, config, "learn", url, site)
    # The report, without what the job's page shows (its sample page's revision and renderings).
    return await _answer(request, job, wait,
                         lambda result: {k: v for k, v in result.items() if k not in ("page", "rendered")})


def api_sites(request: Request) -> Response:
    return _JSON(views.site_rows(config_of(request)))


def api_jobs(request: Request) -> Response:
    page = views.page_number(request)
    with JobStore(config_of(request).db_path) as jobs:
        found = jobs.recent(offset=(page - 1) * views.PAGE_SIZE, limit=views.PAGE_SIZE)
        total = jobs.count()
    return _JSON({"jobs": [j.to_dict() for j in found], "page": page, "total": total})


def api_job(request: Request) -> Response:
    with JobStore(config_of(request).db_path) as jobs:
        job = jobs.get(views.row_id(request, "job_id"))
    if job is None:
        raise HTTPException(404, f"no job {request.path_params['job_id']}")
    return _JSON(job.to_dict())


# --- queueing --------------------------------------------------------------------------


async def _answer(request: Request, job: Job, wait: float, payload: Any) -> Response:
    """Wait up to ``wait`` seconds for ``job``: its result (200), its error (422), or where to look (202)."""
    db_path = config_of(request).db_path
    deadline = asyncio.get_running_loop().time() + wait
    current: Job | None = job
    while True:
        current = await asyncio.to_thread(_get_job, db_path, job.id)
        if current is None or not current.active or asyncio.get_running_loop().time() >= deadline:
            break
        await asyncio.sleep(POLL_S)
    location = {"Location": f"/api/jobs/{job.id}"}
    if current is None:  # deleted meanwhile by another process
        raise HTTPException(404, f"no job {job.id}")
    if current.state == "finished" and current.result is not None:
        return _JSON(payload(current.result), headers=location)
    if current.state == "failed":
        return Response(error_body(current.error or "failed", 422, job=current.id), status_code=422,
                        media_type="application/json", headers=location)
    return _JSON({"job": current.id, "state": current.state, "url": location["Location"]},
                        status_code=202, headers=location)


def _get_job(db_path: Path, job_id: int) -> Job | None:
    with JobStore(db_path) as jobs:
        return jobs.get(job_id)


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's body, a JSON object in UTF-8 whose every string is text.

    Whatever stops the parser is the client's mistake, answered 400: bytes that are not
    UTF-8 (RFC 8259 asks for it; json.loads would guess UTF-16 too), nesting past the
    parser's recursion limit, an integer past Python's 4,300-digit conversion limit,
    and a lone surrogate escape (``"\\ud800"``), which parses but could never be
    stored or sent back as UTF-8.

    :raises InputError: (400) for any body that is not such an object.
    """
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"the request body is not JSON in UTF-8 (byte {exc.start} is not UTF-8)", status=400) from exc
    try:
        body = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"the request body is not JSON ({exc})", status=400) from exc
    except RecursionError as exc:
        raise InputError("the request body is not JSON this API reads: nested too deeply", status=400) from exc
    except ValueError as exc:  # int("9" * 5000): past sys.get_int_max_str_digits()
        raise InputError(f"the request body holds a number of over {sys.get_int_max_str_digits()} digits",
                         status=400) from exc
    if not isinstance(body, dict):
        raise InputError("the request body must be a JSON object", status=400)
    if _lone_surrogate(body):
        raise InputError("the request body holds a lone surrogate escape (such as \\ud800), not text", status=400)
    return body


_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value: object) -> bool:
    """Whether a string anywhere in parsed JSON ``value`` holds a surrogate code point
    (a pair of escapes is decoded into one character, so any left is alone)."""
    stack = [value]
    while stack:  # a loop, not recursion: the parser allows deeper nesting than a recursive walk would
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _wait(body: dict[str, Any]) -> float:
    wait = body.get("wait", DEFAULT_WAIT_S)
    if isinstance(wait, bool) or not isinstance(wait, (int, float)) or not 0 <= wait <= MAX_WAIT_S:
        raise InputError(f"wait: seconds between 0 and {MAX_WAIT_S:.0f}, not {wait!r}")
    return float(wait)


def _site(body: dict[str, Any]) -> str | None:
    site = body.get("site")
    if site is None or site == "":
        return None
    if not isinstance(site, str) or len(site) > 253:
        raise InputError("site: a site name such as example.com")
    return site.strip()


# --- errors ----------------------------------------------------------------------------


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if request.url.path.startswith("/api/"):
        return Response(error_body(str(exc.detail), exc.status_code), status_code=exc.status_code,
                        media_type="application/json", headers=exc.headers)
    return views.error_page(request, exc.status_code, str(exc.detail))


async def _forest_error(request: Request, exc: Exception) -> Response:
    status = exc.status if isinstance(exc, InputError) else 500 if isinstance(exc, forest.StoreError) else 422
    if request.url.path.startswith("/api/"):
        return Response(error_body(str(exc), status), status_code=status, media_type="application/json")
    return views.error_page(request, status, str(exc))


async def _unexpected(request: Request, exc: Exception) -> Response:
    # A bug, not the client's doing: still one line in the API's JSON shape, never a
    # plain-text traceback (Starlette logs the exception after this answer).
    message = f"internal error ({type(exc).__name__}); the server's log has the details"
    if request.url.path.startswith("/api/"):
        return Response(error_body(message, 500), status_code=500, media_type="application/json")
    return views.error_page(request, 500, message)
