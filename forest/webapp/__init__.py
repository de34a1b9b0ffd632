"""`forest serve`: a local web app to learn sites, queue jobs and see what a wrapper takes from a page.

Needs the ``web`` extra (``pip install 'forest-extract[web]'``): Starlette, uvicorn, Jinja2.
"""

from __future__ import annotations

from forest.webapp.app import create_app

__all__ = ["create_app"]
