"""TagClassifier: scikit-learn conventions, exported predictors, the signed model file, the page API."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.estimator_checks import parametrize_with_checks

from forest.classifier import (
    ModelError,
    TagClassifier,
    classify_page,
    dumps,
    load,
    loads,
    save,
)
from eval.classifier.align import block_labels
from forest.classifier.blocks import walk
from forest.classifier.features import Features, page_features
from forest.classifier.smoothing import transitions, viterbi

WORDS = (
    "storm coast officials power homes wind river city council vote budget school teachers police road bridge "
    "market prices farmers harvest water report minister election voters court judge hospital doctors study"
).split()
SMALL = {"logreg": {}, "gbt": {"max_iter": 15}, "forest": {"n_estimators": 8}, "mlp": {"hidden_layer_sizes": (8,), "max_iter": 400}}


def synthetic_page(rng: random.Random) -> tuple[str, str]:
    """A news page: a menu, an article, a related-links sidebar, a footer; and its gold text."""

    def sentence() -> str:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize() + "."

    menu = "".join(f"<li><a href='/{w}'>{w.title()}</a></li>" for w in rng.sample(WORDS, 6))
    title = " ".join(rng.sample(WORDS, 4)).title()
    paragraphs = [" ".join(sentence() for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(3, 6))]
    related = "".join(f"<li><a href='/{i}'>{sentence()}</a></li>" for i in range(3))
    body_class = rng.choice(["story", "post-content", "entryBody"])
    html = (
        f"<html><body><div id='{rng.choice(['nav', 'menu', 'topbar'])}'><ul>{menu}</ul></div>"
        f"<div class='{body_class}'><h1>{title}</h1>" + "".join(f"<p>{p}</p>" for p in paragraphs) +
        f"<p class='share'>Share this</p></div><div class='sidebar'><h3>Related</h3><ul>{related}</ul></div>"
        "<div id='footer'>Copyright 2024 Example News. All rights reserved.</div></body></html>"
    )  # fmt: skip
    return html, "\n".join([title, *paragraphs])


@pytest.fixture(scope="module")
def pages() -> list[tuple[str, Features, np.ndarray]]:
    rng = random.Random(7)
    out = []
    for _ in range(24):
        html, gold = synthetic_page(rng)
        tree = walk(lxml_html.document_fromstring(html).find("body"))
        features, _ = page_features(tree, "blocks", n_hash=64)
        out.append((html, features, block_labels([b.text for b in tree.blocks], gold).astype(int)))
    return out


@pytest.fixture(scope="module")
def data(pages: list[tuple[str, Features, np.ndarray]]) -> tuple[Features, np.ndarray]:
    return Features.stack([f for _, f, _ in pages]), np.concatenate([y for _, _, y in pages])


@pytest.fixture(scope="module")
def fitted(data: tuple[Features, np.ndarray]) -> dict[str, TagClassifier]:
    X, y = data
    models = {name: TagClassifier(name, n_hash=64, params=params).fit(X, y) for name, params in SMALL.items()}
    models["stacked"] = TagClassifier("logreg", n_hash=64, stacking=True).fit(X, y)
    return models


def sklearn_proba(classifier: TagClassifier, X: Features) -> np.ndarray:
    """The fitted scikit-learn estimator's own P(content), on the inputs fit gave it."""
    dense, hashed = X.select(classifier.groups)
    dense = dense.astype(np.float64)
    arrays = classifier.compact_.arrays
    if classifier.compact_.kind == "trees":
        inputs = np.hstack([dense, hashed[:, arrays["hashed_columns"]].toarray()])
    else:
        inputs = sp.hstack([sp.csr_matrix((dense - arrays["mean"]) / arrays["scale"]), hashed], format="csr")
    return np.asarray(classifier.estimator_.predict_proba(inputs)[:, 1])


def test_labels_of_synthetic_pages_are_balanced_enough(data: tuple[Features, np.ndarray]) -> None:
    assert 0.2 < data[1].mean() < 0.6


@pytest.mark.parametrize("name", list(SMALL))
def test_exported_predictor_equals_scikit_learn(name: str, fitted: dict[str, TagClassifier], data: Any) -> None:
    classifier = fitted[name]
    np.testing.assert_allclose(classifier.predict_proba(data[0])[:, 1], sklearn_proba(classifier, data[0]), atol=1e-9)


@pytest.mark.parametrize("name", [*SMALL, "stacked"])
def test_model_learns_the_synthetic_pages(name: str, fitted: dict[str, TagClassifier], data: Any) -> None:
    X, y = data
    assert (fitted[name].predict(X) == y).mean() > 0.9


@pytest.mark.parametrize("name", [*SMALL, "stacked"])
def test_round_trip_through_the_file_predicts_the_same(
    name: str, fitted: dict[str, TagClassifier], data: Any, tmp_path: Path
) -> None:
    path = tmp_path / "model.fcm"
    save(fitted[name], path, {"pages": 24})
    loaded, header = load(path)
    assert header["training"] == {"pages": 24} and header["params"]["model"] == fitted[name].model
    np.testing.assert_array_equal(loaded.predict_proba(data[0]), fitted[name].predict_proba(data[0]))
    assert loaded.get_params() == fitted[name].get_params()


@pytest.mark.parametrize("where", [0, 10, 30, 70, 200, 0.5, -1], ids=lambda w: f"byte-{w}")
def test_a_tampered_file_is_refused(where: float, fitted: dict[str, TagClassifier]) -> None:
    data = bytearray(dumps(fitted["gbt"]))
    position = int(where * len(data)) if isinstance(where, float) else where
    data[position] ^= 0x01
    with pytest.raises(ModelError, match="checksum mismatch|not a forest classifier|unsupported model format"):
        loads(bytes(data), source="model.fcm")


def test_a_re_signed_file_with_wrong_content_is_refused(fitted: dict[str, TagClassifier]) -> None:
    import hashlib

    payload = b"PK\x03\x04 not really an archive"
    data = b"FOREST-CLASSIFIER 1 sha256=" + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload
    with pytest.raises(ModelError, match="unreadable model archive"):
        loads(data)


def test_a_missing_file_is_a_model_error(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="cannot read model file"):
        load(tmp_path / "absent.fcm")


def test_estimator_conventions(data: tuple[Features, np.ndarray]) -> None:
    X, y = data
    classifier = TagClassifier("logreg", n_hash=64)
    with pytest.raises(NotFittedError):
        classifier.predict(X)
    assert classifier.fit(X, y) is classifier
    learned = {k for k in vars(classifier) if k.endswith("_")}
    assert {"classes_", "n_features_in_", "compact_", "estimator_", "transitions_", "context_compact_"} <= learned
    assert set(vars(classifier)) - learned == set(classifier.get_params())  # __init__ stores only its arguments
    assert clone(classifier).get_params() == classifier.get_params()
    assert classifier.n_features_in_ == X.dense.shape[1] + 64


def test_fit_validates_its_input(data: tuple[Features, np.ndarray]) -> None:
    X, y = data
    with pytest.raises(ValueError, match="model must be one of"):
        TagClassifier("svm").fit(X, y)
    with pytest.raises(ValueError, match="Only binary"):
        TagClassifier("logreg").fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="stacking needs block Features"):
        TagClassifier("logreg", stacking=True).fit(X.dense, y)


def test_plain_arrays_and_labels_of_any_type() -> None:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = np.where(X[:, 0] > 0, "content", "boilerplate")
    classifier = TagClassifier("gbt", params={"max_iter": 10}).fit(X, y)
    assert set(classifier.predict(X)) <= {"content", "boilerplate"} and classifier.score(X, y) > 0.9
    with pytest.raises(ValueError, match="features"):
        classifier.predict(X[:, :2])


def test_page_api_on_a_new_page(fitted: dict[str, TagClassifier]) -> None:
    html, gold = synthetic_page(random.Random(99))
    root = lxml_html.document_fromstring(html)
    model = fitted["stacked"]
    predictions = model.predict_blocks(root)
    assert [p.index for p in predictions] == list(range(len(predictions)))
    text = classify_page(root, model=model)
    assert text.splitlines() == gold.splitlines()


def test_predict_blocks_of_a_page_without_text(fitted: dict[str, TagClassifier]) -> None:
    assert fitted["logreg"].predict_blocks(lxml_html.document_fromstring("<html><body><img></body></html>")) == []


def test_viterbi_follows_strong_transitions() -> None:
    sticky = transitions([np.array([0] * 10 + [1] * 10)])
    p = np.array([0.1, 0.2, 0.6, 0.9, 0.45, 0.9, 0.1, 0.05])
    assert viterbi(p, sticky, 0.0).tolist() == (p >= 0.5).tolist()
    assert viterbi(p, sticky, 1.0).tolist() == [False, False, True, True, True, True, False, False]
    assert viterbi(np.zeros(0), sticky).tolist() == []


@parametrize_with_checks([TagClassifier("logreg")])
def test_scikit_learn_estimator_checks(estimator: TagClassifier, check: Any) -> None:
    check(estimator)


def test_the_shipped_model_loads_and_finds_an_article() -> None:
    from forest.classifier import DEFAULT_MODEL, load_default

    model = load_default()
    assert model is load_default(DEFAULT_MODEL)  # loaded once per process
    assert model.context_compact_ is not None and model.unit == "blocks"  # stacked, on blocks
    html, gold = synthetic_page(random.Random(5))
    text = classify_page(lxml_html.document_fromstring(html), model=model)
    assert set(gold.splitlines()[1:]) <= set(text.splitlines())  # every paragraph (the title may differ)
    assert "Copyright" not in text


def test_the_shipped_model_leaves_out_figure_captions() -> None:
    from forest.classifier import load_default

    html, gold = synthetic_page(random.Random(5))
    caption = "The harbour wall gave way under the waves on Monday night, as the storm reached the coast."
    paragraph = "</h1><p>"
    at = html.index(paragraph) + len(paragraph) - len("<p>")
    html = html[:at] + f"<figure><img src='wall.jpg'><figcaption><p>{caption}</p></figcaption></figure>" + html[at:]
    text = classify_page(lxml_html.document_fromstring(html), model=load_default())
    assert set(gold.splitlines()[1:]) <= set(text.splitlines())
    assert caption not in text


def test_the_shipped_model_leaves_out_footers_and_navigation_it_would_keep() -> None:
    from forest.classifier import load_default

    html, gold = synthetic_page(random.Random(5))
    byline = "Reporting by Ann Lee in the river valley; editing by the council desk, who checked every figure."
    teaser = "Read the next story: the harbour council votes on the new sea wall budget on Friday."
    html = html.replace("<p class='share'>", f"<footer><p>{byline}</p></footer><div role='navigation'><p>{teaser}</p></div><p class='share'>")
    root = lxml_html.document_fromstring(html)
    model = load_default()
    kept = {p.block.text for p in model.predict_blocks(root, landmarks=False) if p.is_content}
    assert {byline, teaser} <= kept  # prose the model alone takes for the article's
    text = classify_page(root, model=model)
    assert set(gold.splitlines()[1:]) <= set(text.splitlines())
    assert byline not in text and teaser not in text


def test_train_command_on_a_directory_of_sites(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from forest.cli import cli

    rng = random.Random(3)
    for site in ("a.test", "b.test", "c.test", "d.test"):
        (tmp_path / "corpus" / site).mkdir(parents=True)
        for k in range(3):
            html, gold = synthetic_page(rng)
            (tmp_path / "corpus" / site / f"p{k}.html").write_text(html, encoding="utf-8")
            (tmp_path / "corpus" / site / f"p{k}.txt").write_text(gold, encoding="utf-8")
    out = tmp_path / "model.fcm"
    args = ["train", "--dataset", str(tmp_path / "corpus"), "--model", "logreg", "--folds", "2", "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "cross-validation (2 folds by site): block F1" in result.stdout
    _, header = load(out)
    assert header["training"]["pages"] == 12 and header["training"]["sites"] == 4


def test_the_predictor_labels_as_the_estimator_read_from_the_same_file() -> None:
    from forest.classifier import DEFAULT_MODEL, BlockPredictor, TagClassifier, load_default

    estimator, _ = load(DEFAULT_MODEL)
    predictor = load_default()
    assert isinstance(estimator, TagClassifier) and not isinstance(predictor, TagClassifier)
    assert isinstance(predictor, BlockPredictor)
    html, _ = synthetic_page(random.Random(11))
    root = lxml_html.document_fromstring(html)
    for landmarks in (True, False):
        mine = [(p.index, p.probability, p.is_content) for p in predictor.predict_blocks(root, landmarks=landmarks)]
        assert mine == [(p.index, p.probability, p.is_content) for p in estimator.predict_blocks(root, landmarks=landmarks)]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_murmurhash_is_scikit_learns(text: str) -> None:
    from sklearn.utils import murmurhash3_32 as reference

    from forest.classifier.features import murmurhash3_32

    data = text.encode("utf-8", "surrogatepass")
    assert murmurhash3_32(data) == reference(data, seed=0)
