"""Web2Text's joint decoding: the Viterbi objective against hand-computed and exhaustive optima, edge features, the model file."""

from __future__ import annotations

import copy
import itertools
import math
import random

import numpy as np
import pytest
from lxml import html as lxml_html
from sklearn.ensemble import HistGradientBoostingClassifier

from eval.classifier.align import block_labels
from eval.classifier.joint import attach, pair_labels
from forest.classifier import TagClassifier, classify_page, dumps, loads
from forest.classifier.blocks import walk
from forest.classifier.compact import compile_trees
from forest.classifier.features import Features, page_features
from forest.classifier.joint import N_EDGE, decode, edge_features

from tests.unit.test_classifier import synthetic_page


def objective(labels: tuple[int, ...], p: list[float], same: list[float], weight: float) -> float:
    """The paper's sum log p_i(l_i) + lambda sum log p_{i,i+1}(l_i, l_{i+1}), written out."""
    unary = sum(math.log(p[i] if label else 1 - p[i]) for i, label in enumerate(labels))
    pairwise = sum(math.log(same[i] if labels[i] == labels[i + 1] else 1 - same[i]) for i in range(len(labels) - 1))
    return unary + weight * pairwise


def test_a_doubtful_block_between_two_content_blocks_joins_them() -> None:
    # Hand-computed (weight 1): content-content-content scores log .9 + log .4 + log .8 + 2 log .9 = -1.456;
    # content-boilerplate-content log .9 + log .6 + log .8 + 2 log .1 = -5.444; every other labelling is lower.
    p, same = [0.9, 0.4, 0.8], [0.9, 0.9]
    assert decode(np.array(p), np.array(same), 1.0).tolist() == [True, True, True]
    assert objective((1, 1, 1), p, same, 1.0) == pytest.approx(-1.4555, abs=1e-4)
    # Weight 0 is each block by its own probability.
    assert decode(np.array(p), np.array(same), 0.0).tolist() == [True, False, True]


def test_a_likely_switch_keeps_the_boundary() -> None:
    # The pairwise model says the labels change between blocks 1 and 2 (P(same) = 0.05), and the
    # threshold alone alternates (content, boilerplate, content, boilerplate).  By hand, at weight 0.5:
    # content, content, boilerplate, boilerplate scores log .8 + log .45 + log .45 + log .9
    # + 0.5 (log .9 + log .95 + log .9) = -2.0565; the thresholded labelling log .8 + log .55 + log .55
    # + log .9 + 0.5 (log .1 + log .95 + log .1) = -3.8524.
    p, same = [0.8, 0.45, 0.55, 0.1], [0.9, 0.05, 0.9]
    assert decode(np.array(p), np.array(same), 0.0).tolist() == [True, False, True, False]
    assert decode(np.array(p), np.array(same), 0.5).tolist() == [True, True, False, False]
    assert objective((1, 1, 0, 0), p, same, 0.5) == pytest.approx(-2.0565, abs=1e-4)
    assert objective((1, 0, 1, 0), p, same, 0.5) == pytest.approx(-3.8524, abs=1e-4)


@pytest.mark.parametrize("seed", range(20))
def test_decode_finds_the_exhaustive_optimum(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 8)
    p = [rng.uniform(0.01, 0.99) for _ in range(n)]
    same = [rng.uniform(0.01, 0.99) for _ in range(n - 1)]
    weight = rng.choice([0.1, 0.5, 1.0, 3.0])
    best = max(itertools.product((0, 1), repeat=n), key=lambda labels: objective(labels, p, same, weight))
    found = tuple(int(v) for v in decode(np.array(p), np.array(same), weight))
    assert objective(found, p, same, weight) == pytest.approx(objective(best, p, same, weight))


def test_decode_checks_its_input() -> None:
    assert decode(np.zeros(0), np.zeros(0)).tolist() == []
    assert decode(np.array([0.7]), np.zeros(0)).tolist() == [True]
    with pytest.raises(ValueError, match="3 blocks need 2"):
        decode(np.array([0.5, 0.5, 0.5]), np.array([0.5]))


def test_edge_features_measure_the_tree_distance() -> None:
    body = lxml_html.document_fromstring("<html><body><div><p>one</p><p>two</p></div><ul><li>three</li></ul></body></html>").find("body")
    tree = walk(body)
    features, _ = page_features(tree, "blocks", n_hash=64)
    edges = edge_features(tree, features)
    assert edges.shape == (2, N_EDGE)
    # one -> two: p up to div, down to p (2 levels); two -> three: p, div, body, ul, li (4 levels).
    assert edges[:, :6].argmax(axis=1).tolist() == [2, 4]
    assert edges[:, 6:8].tolist() == [[1, 1], [2, 2]]
    assert pair_labels(np.array([1, 1, 0])).tolist() == [1, 0]


@pytest.fixture(scope="module")
def joint_model() -> TagClassifier:
    rng = random.Random(3)
    parts, labels, edges, same = [], [], [], []
    for _ in range(16):
        html, gold = synthetic_page(rng)
        tree = walk(lxml_html.document_fromstring(html).find("body"))
        features, _ = page_features(tree, "blocks", n_hash=64)
        y = block_labels([b.text for b in tree.blocks], gold).astype(int)
        parts.append(features)
        labels.append(y)
        edges.append(edge_features(tree, features))
        same.append(pair_labels(y))
    model = TagClassifier("logreg", n_hash=64).fit(Features.stack(parts), np.concatenate(labels))
    pairwise = HistGradientBoostingClassifier(max_iter=10).fit(np.vstack(edges), np.concatenate(same))
    return attach(model, compile_trees(pairwise, np.zeros(0, dtype=np.int64)), 0.1)


def test_the_pairwise_model_round_trips_through_the_file(joint_model: TagClassifier) -> None:
    loaded, header = loads(dumps(joint_model))
    assert loaded.has_joint and header["joint_weight"] == 0.1
    html, gold = synthetic_page(random.Random(99))
    root = lxml_html.document_fromstring(html)
    assert classify_page(root, model=loaded, joint=True) == classify_page(root, model=joint_model, joint=True)
    assert "Copyright" not in classify_page(root, model=loaded, joint=True)


def test_a_model_without_a_pairwise_model_reads_as_before(joint_model: TagClassifier) -> None:
    plain = copy.copy(joint_model)
    plain.pairwise_compact_ = None
    loaded, header = loads(dumps(plain))
    assert not loaded.has_joint and "joint_weight" not in header


DEEP = {"max_depth": 10**12, "aggregate": "logit_sum"}


@pytest.mark.parametrize("change", [{"joint_weight": float("nan")}, {"joint_weight": -1.0}, {"pairwise_settings": DEEP}],
                         ids=["weight NaN", "negative weight", "depth 10^12"])  # fmt: skip
def test_a_crafted_pairwise_part_is_a_model_error(joint_model: TagClassifier, change: dict[str, object]) -> None:
    import hashlib
    import io
    import json
    import zipfile

    from forest.classifier import ModelError

    payload = dumps(joint_model).split(b"\n", 1)[1]
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    header = json.loads(np.load(io.BytesIO(members["header.json.npy"])).tobytes())
    header.update(change)
    buffer = io.BytesIO()
    np.save(buffer, np.frombuffer(json.dumps(header).encode(), dtype=np.uint8))
    members["header.json.npy"] = buffer.getvalue()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    body = out.getvalue()
    with pytest.raises(ModelError):
        loads(b"FOREST-CLASSIFIER 1 sha256=" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def test_the_web2text_system_decodes_jointly_and_needs_a_pairwise_model(joint_model: TagClassifier) -> None:
    from eval.classifier.systems import Web2Text
    from forest.model import Page

    html, gold = synthetic_page(random.Random(5))
    text = Web2Text(joint_model).extract(Page(html))
    assert "Copyright" not in text and gold.splitlines()[1][:30] in text
    plain = copy.copy(joint_model)
    plain.pairwise_compact_ = None
    with pytest.raises(ValueError, match="no pairwise model: run python -m eval.classifier.joint"):
        Web2Text(plain).extract(Page(html))
