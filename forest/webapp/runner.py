"""Run one job with forest's public functions, keeping every page it downloads as a revision."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

import forest
from forest.webapp.article import rendered
from forest.webapp.jobs import Job, JobStore
from forest.webapp.recording import RecordingTransport

# progress(one line saying how far the job is)
Progress = Callable[[str], None]
# The progress line while a job fetches pages; the job's page draws a bar from its two counts.
FETCHED = "fetched {done} of {planned} pages"
_FETCHED = re.compile(r"fetched (\d+) of (\d+) pages")


def run_job(
    job: Job,
    *,
    db_path: Path,
    jobs: JobStore,
    settings: forest.Settings,
    progress: Progress,
) -> tuple[dict[str, Any], str | None]:
    """Do ``job``; return its JSON result and the site it concerned.

    Downloads go through the CLI's fetch path (a :class:`forest.GuardedClient`: the same address
    checks on every hop and the same deadlines), with a recorder on top that keeps them.

    :raises ForestError: when the job fails on its input (a dead URL, not a feed, no wrapper...).
    """
    with forest.WrapperStore(db_path) as store:
        if job.kind == "extract_html":
            return _extract_html(job, store, jobs, settings)
        recorders: list[RecordingTransport] = []

        def record_downloads(guarded: httpx.BaseTransport) -> httpx.BaseTransport:
            recorders.append(RecordingTransport(guarded, max_bytes=settings.max_page_bytes))
            return recorders[0]

        with forest.GuardedClient(allow_private=settings.fetch.allow_private, wrap=record_downloads) as client:
            recorder = recorders[0]
            try:
                if job.kind == "learn":
                    result, site = _learn(job, store, client, settings, progress, recorder)
                elif job.kind == "extract_url":
                    result, site = _extract_url(job, store, client, settings, progress)
                else:
                    raise ValueError(f"unknown job kind {job.kind!r}")
            finally:
                # Kept even when the job fails: the downloads show why.
                _keep_downloads(recorder, job.id, jobs)
    return _attach_revision(result, job.id, jobs), site


def record(article: forest.Article, source: str) -> dict[str, Any]:
    """The record `forest extract --format json` prints for one page (:func:`forest.page_record`),
    without ``html``: the app builds the structure for its own panel, and the clean HTML is kept with the job's result."""
    return forest.page_record(source, article, html=False)


def fetched_counts(line: str | None) -> tuple[int, int] | None:
    """The pages fetched and planned that a progress line states (see FETCHED), or None."""
    match = _FETCHED.search(line or "")
    return (int(match.group(1)), int(match.group(2))) if match else None


def shown(settings: forest.Settings) -> forest.Settings:
    """``settings`` for an extraction the app shows: with the article's structure, which forest's
    markdown and HTML renderings print (as `forest extract --format markdown` builds it)."""
    return dataclasses.replace(settings, html=True)


def _learn(job: Job, store: forest.WrapperStore, client: forest.GuardedClient, settings: forest.Settings,
           progress: Progress, recorder: RecordingTransport) -> tuple[dict[str, Any], str | None]:
    def on_page(done: int, planned: int, url: str, error: str | None) -> None:
        # The last fetch ends the downloads; learning the wrapper from them follows and takes a while.
        progress(FETCHED.format(done=done, planned=planned) + ("; learning the wrapper" if done >= planned else ""))

    progress("fetching the feed")
    wrapper, report = forest.learn_feed(job.url, store=store, settings=settings, client=client, progress=on_page,
                                        site=job.site or None)
    result: dict[str, Any] = {
        "kind": "learn",
        "site": wrapper.site,
        "version": report.version,
        "feed_url": report.feed_url,
        "used": list(report.used),
        "skipped": [list(pair) for pair in report.skipped],
        "notes": list(report.notes),
    }
    # What the new wrapper takes from its first sample page: the page is already
    # downloaded, and Wrapper.extract leaves the store's extraction counters alone.
    bodies = _html_bodies(recorder)
    for url in report.used:
        if url in bodies:
            progress("extracting a sample page")
            article = forest.extract(wrapper, bodies[url], url=url, settings=shown(settings))
            result["page"] = {"url": url, "revision": None}
            result["article"] = record(article, url)
            result["rendered"] = rendered(article).to_dict()
            break
    return result, wrapper.site


def _extract_url(job: Job, store: forest.WrapperStore, client: forest.GuardedClient, settings: forest.Settings,
                 progress: Progress) -> tuple[dict[str, Any], str | None]:
    def on_page(done: int, planned: int, url: str, error: str | None) -> None:
        progress("learning the site: " + FETCHED.format(done=done, planned=planned))

    progress("fetching the page")
    article = forest.extract_url(job.url, store=store, settings=shown(settings), client=client, progress=on_page,
                                 site=job.site or None)
    version = next((s.version for s in store.sites() if s.site == article.site), None)
    result: dict[str, Any] = {"kind": "extract_url", "site": article.site, "version": version,
                              "article": record(article, job.url), "rendered": rendered(article).to_dict()}
    if article.url:
        result["page"] = {"url": article.url, "revision": None}
    return result, article.site


def _extract_html(job: Job, store: forest.WrapperStore, jobs: JobStore,
                  settings: forest.Settings) -> tuple[dict[str, Any], str | None]:
    revision = jobs.revision(job.input_revision) if job.input_revision is not None else None
    if revision is None:
        raise ValueError(f"job {job.id} has no stored page")
    article = forest.extract_page(revision.body, site=job.site or None, url=job.url or None, store=store,
                                  settings=shown(settings))
    version = next((s.version for s in store.sites() if s.site == article.site), None)
    result = {"kind": "extract_html", "site": article.site, "version": version,
              "article": record(article, job.url or "-"), "rendered": rendered(article).to_dict(),
              "page": {"url": job.url or "", "revision": revision.id}}
    return result, article.site


def _html_bodies(recorder: RecordingTransport) -> dict[str, bytes]:
    """The latest successful body per URL (the fetcher follows redirects itself, so each hop is its own URL),
    named without credentials as the learn report names its pages."""
    return {forest.strip_credentials(d.url): d.body for d in recorder.downloads if 200 <= d.status < 300}


def _keep_downloads(recorder: RecordingTransport, job_id: int, jobs: JobStore) -> None:
    for download in recorder.downloads:
        jobs.add_revision(download.url, download.body, job_id=job_id, status=download.status,
                          content_type=download.content_type, fetched_at=download.fetched_at)


def _attach_revision(result: dict[str, Any], job_id: int, jobs: JobStore) -> dict[str, Any]:
    """Point ``result["page"]`` at the kept revision of its URL (the last one this job downloaded)."""
    page = result.get("page")
    if isinstance(page, dict) and page.get("revision") is None and page.get("url"):
        matches = [r.id for r in jobs.revisions(job_id=job_id) if r.url == page["url"] and 200 <= r.status < 300]
        if matches:
            result = {**result, "page": {**page, "revision": matches[-1]}}
    return result
