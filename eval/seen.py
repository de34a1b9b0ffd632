"""The sites the shipped classifier was trained on: no cold or page-level figure may score a page of one.

A classifier scored on a page of a site it learned from looks better than it is (issue 40: cold
extraction on all of CleanEval, 491 of whose 739 pages trained the model).  The model file's
header lists the ids of its training pages (``training.page_ids``, written by
``python -m eval.classifier.train``); a site is *seen* when one of those pages belongs to it.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from eval.datasets import Sample, available, load

__all__ = ["Seen", "classifier_training_sites", "describe", "drop_seen"]


@dataclass(frozen=True, slots=True)
class Seen:
    """The sites the classifier trained on, and which datasets' pages told us (``known`` False: the header
    lists no training pages, so nothing can be checked)."""

    sites: frozenset[str]
    datasets: tuple[str, ...]
    known: bool = True
    # Training datasets the header names that are not in the shared datasets: their sites are unknown.
    missing: tuple[str, ...] = ()


@lru_cache(maxsize=4)
def classifier_training_sites(model: Path | None = None, root: Path | None = None) -> Seen:
    """The sites of the pages the classifier in ``model`` (default: both shipped models, the article
    model and the modern one, forest.extraction.models) was trained on.

    The training datasets named in the headers are read from the shared datasets (``root``);
    one that is missing there is skipped, and says so by its absence from ``Seen.datasets``.
    """
    import forest.classifier

    paths = [model] if model is not None else [forest.classifier.DEFAULT_MODEL, forest.classifier.MODERN_MODEL]
    trainings = [_header(path).get("training") or {} for path in paths]
    ids = {page for training in trainings for page in training.get("page_ids") or ()}
    if not ids or not all(training.get("page_ids") for training in trainings):
        return Seen(frozenset(), (), known=False)
    present = set(available(root))
    named = tuple(dict.fromkeys(name for training in trainings for name in training.get("datasets") or ()))
    names = tuple(name for name in named if name in present)
    sites = {sample.site for name in names for sample in load(name, root=root) if sample.id in ids}
    return Seen(frozenset(sites), names, missing=tuple(name for name in named if name not in present))


def _header(path: Path) -> dict[str, Any]:
    """The JSON header of a model file, read without building the model.

    Only the training notes are needed, and they stay readable while the feature code moves on
    (a model of another feature version refuses to load, but still says what it was trained on).

    :raises ValueError: not a forest classifier model file.
    """
    data = path.read_bytes()
    line, _, payload = data.partition(b"\n")
    if not line.startswith(b"FOREST-CLASSIFIER "):
        raise ValueError(f"{path} is not a forest classifier model file")
    try:
        with zipfile.ZipFile(io.BytesIO(payload)) as archive, archive.open("header.json.npy") as member:
            array = np.lib.format.read_array(member, allow_pickle=False)
        header = json.loads(array.tobytes().decode("utf-8"))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise ValueError(f"{path}: unreadable model header ({exc})") from exc
    if not isinstance(header, dict):
        raise ValueError(f"{path}: the model header is not an object")
    return header


def drop_seen(samples: Iterable[Sample], seen: Seen) -> tuple[list[Sample], list[str]]:
    """``samples`` without the pages of seen sites, and the seen sites that were dropped (sorted)."""
    kept: list[Sample] = []
    dropped: set[str] = set()
    for sample in samples:
        if sample.site in seen.sites:
            dropped.add(sample.site)
        else:
            kept.append(sample)
    return kept, sorted(dropped)


def describe(dropped: Sequence[str], pages: int, seen: Seen) -> str | None:
    """The note a report prints about the pages left out (None when nothing was)."""
    if not seen.known:
        return "the classifier's model file lists no training pages: its training sites could not be left out"
    if seen.missing:
        return f"the classifier's training datasets {', '.join(seen.missing)} are not here: their sites could not be left out"
    if not dropped:
        return None
    head = ", ".join(dropped[:5]) + (", ..." if len(dropped) > 5 else "")
    return (
        f"{len(dropped)} sites ({pages} pages) left out: the shipped classifier was trained on pages of them "
        f"({head})"
    )
