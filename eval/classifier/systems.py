"""The block classifier as an evaluated system: it extracts every page alone, with no wrapper."""

from __future__ import annotations

from pathlib import Path

from eval.systems import PageLevel, System
from forest.classifier import TagClassifier, classify_page, load_default
from forest.html import parse_html
from forest.model import Page

__all__ = ["Classifier", "classifier_systems"]


class Classifier(PageLevel):
    """The content blocks of the page, as the default (or a given) classifier model labels them.

    The model is loaded on first use, so building the system list costs nothing; the
    timed ``extract`` includes parsing the page, as every system's does.
    """

    name = "classifier"

    def __init__(self, model: TagClassifier | None = None, *, path: str | Path | None = None, name: str | None = None) -> None:
        self._model = model
        self._path = path
        if name is not None:
            self.name = name

    @property
    def model(self) -> TagClassifier:
        """The classifier in use (the shipped default unless one was given)."""
        if self._model is None:
            self._model = load_default(self._path)
        return self._model

    def extract(self, page: Page) -> str:
        """The text of the page's content blocks, one per line."""
        root = parse_html(page.html, source=page.url)
        return classify_page(root, model=self.model)


def classifier_systems() -> list[System]:
    """The classifier systems of the report: the default model alone."""
    return [Classifier()]
