"""What the handlers of `forest serve` share, and how they queue jobs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.templating import Jinja2Templates

import forest
from forest.webapp.jobs import Job, JobStore
from forest.webapp.worker import Worker


@dataclass(frozen=True)
class Config:
    """What the request handlers share (one per app, in ``app.state.forest``)."""

    db_path: Path
    settings: forest.Settings
    worker: Worker
    templates: Jinja2Templates
    max_body_bytes: int


def config_of(request: Request) -> Config:
    config: Config = request.app.state.forest
    return config


def queue_job(config: Config, kind: str, url: str, site: str | None) -> Job:
    """Queue a job on ``url``, kept without the user name and password it may hold.

    The job runs on the URL as stored, so a server asking for them refuses it: the
    database holds no password, and the fetch cannot use one it does not have.
    """
    with JobStore(config.db_path) as jobs:
        job = jobs.add(kind, forest.strip_credentials(url), site=site)
    config.worker.wake()
    return job


def queue_html(config: Config, html: str, url: str, site: str | None) -> Job:
    """Queue the extraction of pasted HTML, kept as a revision like a download."""
    with JobStore(config.db_path) as jobs:
        url = forest.strip_credentials(url)
        revision = jobs.add_revision(url or "pasted", html.encode("utf-8"), content_type="text/html")
        job = jobs.add("extract_html", url, site=site, input_revision=revision)
    config.worker.wake()
    return job
