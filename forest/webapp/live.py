"""Run the app on 127.0.0.1 in a background thread, and drive it with the system's headless Chromium (tests, screenshots)."""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import uvicorn

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright

# The Debian package's browser: Playwright drives it over CDP, so no browser is downloaded.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
)
# A learn job on the bundled example site takes about a second; this is the ceiling.
JOB_TIMEOUT_MS = 60_000


@contextlib.contextmanager
def serve_in_thread(app: Any, *, timeout: float = 10.0) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 (a free port) for the duration of the block; yield its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="forest-serve", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + timeout
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web app did not start")
            time.sleep(0.02)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout)
        sock.close()


def chromium_path() -> Path | None:
    """The system Chromium, if installed."""
    if CHROMIUM.exists():
        return CHROMIUM
    found = shutil.which("chromium")
    return Path(found) if found else None


def launch(playwright: Playwright) -> Browser:
    """Launch the system Chromium headless (never a downloaded one).

    :raises FileNotFoundError: when it is not installed (``apt-get install chromium``).
    """
    path = chromium_path()
    if path is None:
        raise FileNotFoundError(f"no Chromium at {CHROMIUM}; install it with `apt-get install chromium`")
    return playwright.chromium.launch(executable_path=str(path), args=list(CHROMIUM_ARGS), headless=True)


def submit_job(page: Page, base_url: str, *, url: str, action: str, site: str = "") -> str:
    """Fill the home page's form and press ``action`` (learn or extract); wait for the job to end; return its URL.

    The job page reloads itself until the job is done.
    """
    page.goto(f"{base_url}/")
    page.fill("#url", url)
    if site:
        page.fill("#site", site)
    page.click(f"#{action}")
    page.wait_for_url(f"{base_url}/jobs/*")
    page.wait_for_selector("#state.finished, #state.failed", timeout=JOB_TIMEOUT_MS)
    return page.url
