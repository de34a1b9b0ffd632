"""The `forest train` command: fit the block classifier on gold datasets, cross-validate it, save it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click

from forest.classifier.predictor import MODELS

# Not the package's own file: an installed package directory is often read-only, and a user's
# experiment should not silently replace the shipped model.
DEFAULT_OUT = "classifier.fcm"


def _say(message: str) -> None:
    click.echo(message, err=True)


@click.command("train")
@click.option(
    "--dataset", "datasets", multiple=True, metavar="NAME_OR_PATH",
    help="Train on all usable pages of this dataset (repeatable). Default: the split of docs/classifier.md.",
)  # fmt: skip
@click.option("--model", type=click.Choice(MODELS), default="gbt", show_default=True, help="First-stage learner.")
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_OUT, show_default=True,
    help="Where to write the model file.",
)  # fmt: skip
@click.option(
    "--folds", type=click.IntRange(min=0), default=3, show_default=True,
    help="Folds of the cross-validation grouped by site, run before the final fit (0 or 1: none).",
)  # fmt: skip
def train_command(datasets: tuple[str, ...], model: str, out: Path, folds: int) -> None:
    """Train the content/boilerplate classifier of text blocks on gold datasets and save it.

    Prints the cross-validated F1 of content blocks and the mean page token F1 (folds grouped
    by site), then fits on every page and writes a signed model file.
    """
    if importlib.util.find_spec("sklearn") is None:
        raise click.ClickException("forest train needs scikit-learn: pip install 'forest-extract[train]'")
    from eval.datasets import load
    from eval.classifier.train import default_classifier, train, train_default

    if datasets:
        samples = []
        for name in datasets:
            try:
                samples.extend(load(name))
            except (FileNotFoundError, ValueError) as exc:
                raise click.BadParameter(str(exc), param_hint="--dataset") from exc
        command = "forest train " + " ".join(f"--dataset {d}" for d in datasets) + f" --model {model}"
        _, notes = train(default_classifier(model), samples, out, folds=folds, command=command, progress=_say)
    else:
        command = f"forest train --model {model} --out {out} --folds {folds}"
        _, notes = train_default(model, out, folds=folds, command=command, progress=_say)
    cv = notes.get("cv")
    if cv:
        click.echo(f"cross-validation ({cv['folds']} folds by site): block F1 {cv['block_f1']:.3f}, "
                   f"page token F1 {cv['page_f1']:.3f}")  # fmt: skip
    click.echo(f"trained {model} on {notes['pages']} pages of {notes['sites']} sites in {notes['seconds']} s: {out}")
