"""The block classifier as an evaluated system: it extracts every page alone, with no wrapper."""

from __future__ import annotations

from pathlib import Path

from eval.systems import PageLevel, System
from forest.classifier import BlockPredictor, classify_page, load_default
from forest.html import parse_html
from forest.model import Page

__all__ = ["Classifier", "Web2Text", "classifier_systems"]


class Classifier(PageLevel):
    """The content blocks of the page, as the default (or a given) classifier model labels them.

    The model is loaded on first use, so building the system list costs nothing; the
    timed ``extract`` includes parsing the page, as every system's does.
    """

    name = "classifier"

    def __init__(self, model: BlockPredictor | None = None, *, path: str | Path | None = None, name: str | None = None) -> None:
        self._model = model
        self._path = path
        if name is not None:
            self.name = name

    @property
    def model(self) -> BlockPredictor:
        """The classifier in use (the shipped default unless one was given)."""
        if self._model is None:
            self._model = load_default(self._path)
        return self._model

    def extract(self, page: Page) -> str:
        """The text of the page's content blocks, one per line."""
        root = parse_html(page.html, source=page.url)
        return classify_page(root, model=self.model)


class Web2Text(Classifier):
    """Web2Text's joint labelling: the classifier's probabilities as unary potentials, the pairwise
    model attached to the same model file (``python -m eval.classifier.joint``), Viterbi.

    :raises ValueError: on first use, when the model has no pairwise model attached.
    """

    name = "web2text"

    @property
    def model(self) -> BlockPredictor:
        """The classifier in use, which must carry a pairwise model."""
        model = super().model
        if not model.has_joint:
            raise ValueError(f"{self._path or 'the shipped model'} has no pairwise model: run python -m eval.classifier.joint")
        return model

    def extract(self, page: Page) -> str:
        """The text of the blocks labelled content by joint decoding, one per line."""
        root = parse_html(page.html, source=page.url)
        return classify_page(root, model=self.model, joint=True)


def classifier_systems() -> list[System]:
    """The classifier systems of the report: the default model alone."""
    return [Classifier()]
