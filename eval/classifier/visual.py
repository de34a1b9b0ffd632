"""The visual-feature extractor (``../shared/papers/new-extractor-visual-features.txt``) on forest's blocks.

That project classifies page elements by features of the rendered page (position, size, font
size, colours, alignment, margins, paddings, relative position) and simple DOM counts (children,
text length, ancestors, links, paragraphs, images, descendants, tag) with a random forest.  Here
each of forest's text blocks gets those features of its element as Chromium lays the page out
(``eval.classifier.render``), plus its visibility, font weight and distance from the page's
centre, and a random forest labels it content or boilerplate.

``python -m eval.classifier.visual [--pages N]`` renders a seeded subset of the classifier's
training pages (the default split, docs/classifier.md) and cross-validates, folds grouped by site:
the random forest on the visual features alone (the paper's model), gradient boosting on the
classifier's dense features, and the same with the visual features added.  Rendered rows are
cached (``$FOREST_RENDER_CACHE``, else ``~/.cache/forest-render``), keyed by page id.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.metrics import f1_score
from sklearn.model_selection import GroupKFold

from eval.classifier.align import block_labels
from eval.classifier.render import Renderer, Rendered, annotate
from eval.classifier.train import default_split, say, usable
from eval.datasets import Sample
from eval.metrics import score
from eval.systems import PageLevel
from forest.classifier.blocks import PageTree
from forest.classifier.features import page_features
from forest.errors import ParseError
from forest.model import Page

__all__ = ["VISUAL_COLUMNS", "Visual", "VisualPage", "block_features", "render_pages", "training_pages"]

# Bumped when a column changes: cached rows of another version are rendered again.
VISUAL_VERSION = 1
_ALIGN = ("left", "center", "right", "justify", "start", "end")
_TAGS = ("p", "div", "td", "li", "h1", "h2", "h3", "h4", "span", "a", "article", "section", "body")
VISUAL_COLUMNS = (
    "left top width height rel_x rel_y centre_dx centre_dy centre_distance above_fold area_share visible "
    "font_size font_weight color_r color_g color_b background_r background_g background_b background_a "
    "margin_top margin_right margin_bottom margin_left padding_top padding_right padding_bottom padding_left "
    "children text_count parent_count link_count paragraph_count image_count descendants block_chars".split()
    + [f"align={a}" for a in _ALIGN]
    + [f"tag={t}" for t in (*_TAGS, "other")]
)
# The training subset: rendering takes about half a second a page on the shared 2-core
# machine, so a seeded few hundred of the classifier's training pages, not all 1082.
TRAIN_PAGES = 400
FOLDS = 3
# The paper's final model: a random forest (its grid search's parameters are not given).
FOREST_PARAMS = {"n_estimators": 100, "min_samples_leaf": 3, "class_weight": "balanced_subsample", "n_jobs": 1}
THRESHOLD = 0.5


def block_features(tree: PageTree, rendered: Rendered) -> np.ndarray:
    """The visual features of each block of ``tree`` (its element's box and style): ``(n_blocks, len(VISUAL_COLUMNS))``.

    A block whose element is not shown (no box, ``display: none``, ``visibility: hidden``, zero
    size) has no position or style: zeros, ``visible = 0``, only its tag and length.
    """
    width, height = max(rendered.width, 1.0), max(rendered.height, 1.0)
    fold = 800.0
    rows = np.zeros((len(tree.blocks), len(VISUAL_COLUMNS)))
    tag_base = len(VISUAL_COLUMNS) - len(_TAGS) - 1
    align_base = tag_base - len(_ALIGN)
    for j, (block, owner) in enumerate(zip(tree.blocks, tree.owner.tolist())):
        tag = tree.tags[owner]
        rows[j, tag_base + (_TAGS.index(tag) if tag in _TAGS else len(_TAGS))] = 1.0
        rows[j, align_base - 1] = np.log1p(len(block.text))
        box = rendered.boxes.get(owner)
        if box is None or not box.visible:
            continue
        cx, cy = box.left + box.width / 2, box.top + box.height / 2
        dx, dy = (cx - width / 2) / width, (cy - height / 2) / height
        rows[j, :align_base - 1] = [
            box.left, box.top, box.width, box.height, cx / width, cy / height, dx, dy, float(np.hypot(dx, dy)),
            float(box.top < fold), box.width * box.height / (width * height), float(box.visible),
            box.font_size, box.font_weight, *box.color[:3], *box.background,
            *box.margin, *box.padding,
            box.children, np.log1p(box.text), int(tree.depth[owner]), box.links, box.paragraphs, box.images,
            np.log1p(box.descendants),
        ]  # fmt: skip
        if box.text_align in _ALIGN:
            rows[j, align_base + _ALIGN.index(box.text_align)] = 1.0
    return rows


@dataclass(slots=True)
class VisualPage:
    """A rendered training or test page: its blocks' texts and labels, visual rows and the classifier's dense rows."""

    id: str
    site: str
    gold: str
    texts: list[str]
    labels: np.ndarray
    visual: np.ndarray
    dense: np.ndarray


def cache_dir() -> Path:
    """Where rendered rows are kept between runs."""
    return Path(os.environ.get("FOREST_RENDER_CACHE") or Path.home() / ".cache" / "forest-render")


def _cache_path(sample: Sample) -> Path:
    key = hashlib.sha256(f"{VISUAL_VERSION}\0{sample.id}\0{len(sample.html)}".encode()).hexdigest()[:32]
    return cache_dir() / f"{key}.npz"


def render_pages(
    samples: Sequence[Sample], *, with_dense: bool = True, progress: Callable[[str], None] | None = None
) -> list[VisualPage]:
    """Render each page (or read its cached rows) and label its blocks against its gold text.

    Pages that do not parse, have no blocks or fail to render are left out.
    """
    out: list[VisualPage] = []
    pending: list[Sample] = []
    for sample in samples:
        cached = _read(sample)
        if cached is not None:
            out.append(cached)
        else:
            pending.append(sample)
    if pending:
        with Renderer() as renderer:
            for i, sample in enumerate(pending, 1):
                page = _render(renderer, sample)
                if page is not None:
                    out.append(page)
                    _write(sample, page)
                if progress and i % 50 == 0:
                    progress(f"rendered {i}/{len(pending)} pages")
    order = {s.id: k for k, s in enumerate(samples)}
    return sorted(out, key=lambda p: order[p.id])


def _render(renderer: Renderer, sample: Sample) -> VisualPage | None:
    try:
        tree, markup = annotate(sample.html, sample.id)
    except ParseError:
        return None
    if not tree.blocks:
        return None
    try:
        rendered = renderer.render(markup)
    except Exception:  # a page Chromium cannot lay out in time is left out, not the run
        return None
    texts = [b.text for b in tree.blocks]
    dense = page_features(tree, "blocks")[0].dense
    return VisualPage(sample.id, sample.site, sample.gold_text, texts, block_labels(texts, sample.gold_text).astype(np.int64),
                      block_features(tree, rendered), dense)  # fmt: skip


def _read(sample: Sample) -> VisualPage | None:
    path = _cache_path(sample)
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            texts = [str(t) for t in data["texts"]]
            return VisualPage(sample.id, sample.site, sample.gold_text, texts, data["labels"], data["visual"], data["dense"])
    except (OSError, ValueError, KeyError):
        return None


def _write(sample: Sample, page: VisualPage) -> None:
    path = _cache_path(sample)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, texts=np.asarray(page.texts, dtype=str), labels=page.labels, visual=page.visual, dense=page.dense)
    except OSError:
        pass  # a cache that cannot be written only costs time


def training_pages(n_pages: int = TRAIN_PAGES, seed: int = 0) -> list[Sample]:
    """A seeded subset of the classifier's training pages (the default split: same sites, same rule)."""
    pages = [s for s in default_split().train if usable(s)]
    random.Random(seed).shuffle(pages)
    return pages[:n_pages]


def fit_forest(pages: Sequence[VisualPage], random_state: int = 0) -> RandomForestClassifier:
    """The paper's model: a random forest over the visual rows of ``pages``."""
    model = RandomForestClassifier(random_state=random_state, **FOREST_PARAMS)
    model.fit(np.vstack([p.visual for p in pages]), np.concatenate([p.labels for p in pages]))
    return model


class Visual(PageLevel):
    """The visual-feature extractor as an evaluated system: render the page, label its blocks with the random forest.

    The forest is fitted on first use, on the rendered training subset (:func:`training_pages`;
    cached rows make later runs quick).  The timed ``extract`` includes parsing and rendering.
    """

    name = "visual"

    def __init__(self, n_pages: int = TRAIN_PAGES) -> None:
        self.n_pages = n_pages
        self._model: RandomForestClassifier | None = None
        self._renderer: Renderer | None = None

    def _ready(self) -> tuple[RandomForestClassifier, Renderer]:
        if self._model is None:
            self._model = fit_forest(render_pages(training_pages(self.n_pages), progress=say))
        if self._renderer is None:
            self._renderer = Renderer().__enter__()
        return self._model, self._renderer

    def extract(self, page: Page) -> str:
        """The text of the blocks the forest labels content, one per line."""
        model, renderer = self._ready()
        tree, markup = annotate(page.html, page.url)
        if not tree.blocks:
            return ""
        rows = block_features(tree, renderer.render(markup))
        content = model.predict_proba(rows)[:, 1] >= THRESHOLD
        return "\n".join(b.text for b, keep in zip(tree.blocks, content) if keep)

    def close(self) -> None:
        """Close the browser."""
        if self._renderer is not None:
            self._renderer.__exit__(None, None, None)
            self._renderer = None


@dataclass(frozen=True, slots=True)
class Comparison:
    """Blocks F1 (content class, pooled over folds grouped by site) and mean page token F1 of one feature set and model."""

    name: str
    block_f1: float
    page_f1: float
    site_block_f1: float  # the mean over sites of each site's block F1 (its pages' blocks pooled)


def compare(pages: Sequence[VisualPage], folds: int = FOLDS, *, random_state: int = 0) -> list[Comparison]:
    """Grouped cross-validation: visual alone (random forest, the paper's), the classifier's dense features
    (gradient boosting, the default model's first stage without the tokens), and both together."""
    sets: dict[str, Callable[[VisualPage], np.ndarray]] = {
        "visual features, random forest (the paper's model)": lambda p: p.visual,
        "classifier's dense features, gradient boosting": lambda p: p.dense,
        "classifier's dense + visual features, gradient boosting": lambda p: np.hstack([p.dense, p.visual]),
    }
    truth = np.concatenate([p.labels for p in pages])
    out = []
    splits = list(GroupKFold(n_splits=folds).split(np.arange(len(pages)), groups=[p.site for p in pages]))
    for name, rows in sets.items():
        predicted: dict[int, np.ndarray] = {}
        for train, held_out in splits:
            X = np.vstack([rows(pages[i]) for i in train]).astype(np.float64)
            y = np.concatenate([pages[i].labels for i in train])
            if "random forest" in name:
                model: RandomForestClassifier | HistGradientBoostingClassifier = RandomForestClassifier(random_state=random_state, **FOREST_PARAMS)
            else:
                model = HistGradientBoostingClassifier(max_iter=100, max_depth=8, l2_regularization=1.0,
                                                       class_weight="balanced", random_state=random_state)  # fmt: skip
            model.fit(X, y)
            for i in held_out:
                predicted[i] = model.predict_proba(rows(pages[i]).astype(np.float64))[:, 1] >= THRESHOLD
        flags = np.concatenate([predicted[i] for i in range(len(pages))])
        page_f1 = np.mean([
            score("\n".join(t for t, keep in zip(pages[i].texts, predicted[i]) if keep), pages[i].gold).f1 for i in range(len(pages))
        ])  # fmt: skip
        by_site: dict[str, list[int]] = {}
        for i, page in enumerate(pages):
            by_site.setdefault(page.site, []).append(i)
        site_f1 = [
            f1_score(np.concatenate([pages[i].labels for i in rows]), np.concatenate([predicted[i] for i in rows]), zero_division=0.0)
            for rows in by_site.values()
            if any(pages[i].labels.any() for i in rows)
        ]  # fmt: skip
        out.append(Comparison(name, float(f1_score(truth, flags)), float(page_f1), float(np.mean(site_f1))))
        say(f"{name}: block F1 {out[-1].block_f1:.3f}, over sites {out[-1].site_block_f1:.3f}, page F1 {out[-1].page_f1:.3f}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m eval.classifier.visual [--pages N] [--folds K]``: prints a Markdown table."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m eval.classifier.visual", description=__doc__)
    parser.add_argument("--pages", type=int, default=TRAIN_PAGES, help="rendered training pages")
    parser.add_argument("--folds", type=int, default=FOLDS)
    args = parser.parse_args(argv)
    np.seterr(all="ignore")
    start = time.perf_counter()
    pages = render_pages(training_pages(args.pages), progress=say)
    sites = len({p.site for p in pages})
    say(f"{len(pages)} pages of {sites} sites rendered in {time.perf_counter() - start:.0f} s")
    results = compare(pages, args.folds)
    print(f"| features and model ({len(pages)} pages of {sites} sites, {args.folds} folds by site) | block F1 (pooled) "
          "| block F1 (mean over sites) | page token F1 |")  # fmt: skip
    print("|---|---|---|---|")
    for r in results:
        print(f"| {r.name} | {100 * r.block_f1:.1f} | {100 * r.site_block_f1:.1f} | {r.page_f1:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
