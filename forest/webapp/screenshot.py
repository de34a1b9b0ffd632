"""Screenshot the result page of `forest serve` on the bundled example site: ``python -m forest.webapp.screenshot docs/serve.png``.

It serves the example site and the app on 127.0.0.1, learns the site through the
form, extracts the page the feed leaves out, and saves the result page as PNG.  It
needs the ``web`` extra, Playwright and the system Chromium (``apt-get install chromium``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import forest
from forest.demo import example_site, serve_example
from forest.webapp.app import create_app
from forest.webapp.live import launch, serve_in_thread, submit_job

# Tall enough that the frame shows the page's sidebar below the highlighted article.
VIEWPORT_WIDTH, VIEWPORT_HEIGHT = 1440, 1560


def screenshot(out: Path) -> Path:
    """Make the screenshot at ``out``; return it.

    :raises FileNotFoundError: without the system Chromium.
    :raises RuntimeError: when a job fails.
    """
    from playwright.sync_api import sync_playwright

    example = example_site()
    with tempfile.TemporaryDirectory(prefix="forest-serve-") as tmp, serve_example(example) as site:
        # Our own server on loopback: no need to space out requests politely.
        app = create_app(Path(tmp) / "forest.db", settings=forest.Settings(fetch=forest.FetchSettings(per_host_delay=0.0, allow_private=True)))
        with serve_in_thread(app) as base_url, sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                page = browser.new_page(viewport={"width": VIEWPORT_WIDTH, "height": VIEWPORT_HEIGHT})
                for action, url in (("learn", site.feed_url), ("extract", site.held_out_url)):
                    submit_job(page, base_url, url=url, action=action, site=example.site)
                    if page.locator("#state.failed").count():
                        raise RuntimeError(f"the {action} job failed: {page.inner_text('#job-error')}")
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=False)
            finally:
                browser.close()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m forest.webapp.screenshot",
                                     description="Write the result page of forest serve on the example site as a PNG.")
    parser.add_argument("out", metavar="OUT.png", type=Path, help="where to write the screenshot")
    print(screenshot(parser.parse_args(argv).out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
