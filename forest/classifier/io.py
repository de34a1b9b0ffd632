"""The classifier's model file: plain numpy arrays and a JSON header, signed with SHA-256; no pickle, no code.

Layout: one ASCII line ``FOREST-CLASSIFIER <format version> sha256=<hex digest>\\n`` followed by a
numpy ``.npz`` archive (read with ``allow_pickle=False``, so it can only yield numeric arrays)
holding the predictor's arrays and ``header.json``.  The digest covers every byte after the
first line, so any changed byte is refused with :class:`ModelError` before anything is parsed.

A model file is trusted input: the digest is a checksum against corruption, not a
signature (anyone can recompute it), so only load model files you would run code from.
Even so, nothing in one can run code or exhaust the machine: before use, every array's
declared shape and size, the archive's unpacked size, the header's types, every tree
index and feature column, and the trees' depth are checked, and a file failing any of
those is refused with a one-line :class:`ModelError`.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import zipfile
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy as np

from forest.classifier.compact import KINDS, Compact
from forest.classifier.features import FEATURE_VERSION, GROUPS, UNITS
from forest.classifier.predictor import MODELS, BlockPredictor
from forest.errors import ModelError

if TYPE_CHECKING:
    from forest.classifier.model import TagClassifier

MAGIC = b"FOREST-CLASSIFIER"
FORMAT_VERSION = 1
# Refuse absurd files before hashing them: the shipped model is well under 5 MB.
MAX_BYTES = 200_000_000
# Unpacked size of all arrays: the shipped model unpacks to about 1 MB.
MAX_UNPACKED_BYTES = 200_000_000
# Steps a tree walk takes per row (the shipped trees: 8 and 6); a file asking for 10^12 never ended.
MAX_TREE_DEPTH = 64
MAX_LAYERS = 16
_ARRAY_PREFIX = "a."
_CONTEXT_PREFIX = "c."
# Web2Text's pairwise model (forest.classifier.joint), when one is attached: optional, so a file
# without it reads as before and a reader that predates it ignores it.
_PAIRWISE_PREFIX = "p."


def dumps(classifier: TagClassifier, training: dict[str, Any] | None = None) -> bytes:
    """The model file's bytes for a fitted ``classifier``; ``training`` notes go into the header."""
    import sklearn

    compact: Compact = classifier.compact_
    params = classifier.get_params()
    pairwise: Compact | None = getattr(classifier, "pairwise_compact_", None)
    header = {
        "format": "forest-classifier",
        "format_version": FORMAT_VERSION,
        "feature_version": FEATURE_VERSION,
        "sklearn_version": sklearn.__version__,
        "kind": compact.kind,
        "settings": compact.settings,
        "context_settings": classifier.context_compact_.settings if classifier.context_compact_ is not None else None,
        "params": {**params, "groups": list(params["groups"]), "params": None if params["params"] is None else dict(params["params"])},
        "classes": np.asarray(classifier.classes_).tolist(),
        "n_features_in": int(classifier.n_features_in_),
        "training": training or {},
    }
    if pairwise is not None:
        header["pairwise_settings"] = pairwise.settings
        header["joint_weight"] = float(classifier.joint_weight_)
    arrays = {f"{_ARRAY_PREFIX}{name}": value for name, value in compact.arrays.items()}
    if classifier.context_compact_ is not None:
        arrays.update({f"{_CONTEXT_PREFIX}{name}": v for name, v in classifier.context_compact_.arrays.items()})
    if pairwise is not None:
        arrays.update({f"{_PAIRWISE_PREFIX}{name}": v for name, v in pairwise.arrays.items()})
    arrays["transitions"] = np.asarray(classifier.transitions_, dtype=np.float64)
    arrays["header.json"] = np.frombuffer(json.dumps(header, sort_keys=True).encode("utf-8"), dtype=np.uint8)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    payload = buffer.getvalue()
    digest = hashlib.sha256(payload).hexdigest()
    return MAGIC + f" {FORMAT_VERSION} sha256={digest}\n".encode("ascii") + payload


def save(classifier: TagClassifier, path: str | Path, training: dict[str, Any] | None = None) -> None:
    """Write ``classifier`` to ``path`` (see the module docstring for the layout)."""
    Path(path).write_bytes(dumps(classifier, training))


def _payload(data: bytes, source: str | None) -> bytes:
    line, newline, payload = data.partition(b"\n")
    fields = line.split(b" ")
    if not newline or len(fields) != 3 or fields[0] != MAGIC or not fields[2].startswith(b"sha256="):
        raise ModelError("not a forest classifier model file", path=source)
    if fields[1] != str(FORMAT_VERSION).encode("ascii"):
        raise ModelError(f"unsupported model format version {fields[1]!r}; this forest reads {FORMAT_VERSION}", path=source)
    expected = fields[2][len(b"sha256=") :]
    actual = hashlib.sha256(payload).hexdigest().encode("ascii")
    if not hmac.compare_digest(expected, actual):
        raise ModelError("checksum mismatch: the model file is corrupt or was modified; retrain with `forest train`",
                         path=source)  # fmt: skip
    return payload


@overload
def loads(data: bytes, *, source: str | None = ..., estimator: Literal[True] = ...) -> tuple[TagClassifier, dict[str, Any]]: ...
@overload
def loads(data: bytes, *, source: str | None = ..., estimator: bool) -> tuple[BlockPredictor, dict[str, Any]]: ...
def loads(data: bytes, *, source: str | None = None, estimator: bool = True) -> tuple[BlockPredictor, dict[str, Any]]:
    """The classifier and header stored in ``data`` (the bytes of a model file).

    :param estimator: the scikit-learn estimator (:class:`~forest.classifier.model.TagClassifier`);
        False gives a :class:`~forest.classifier.predictor.BlockPredictor`, which predicts the same
        and spares the process scikit-learn's import.
    :raises ModelError: wrong magic or version, checksum mismatch, or inconsistent content.
    """
    payload = _payload(data, source)
    try:
        arrays = _read_arrays(payload)
        header = json.loads(arrays.pop("header.json").tobytes().decode("utf-8"))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error, UnicodeDecodeError,
            RecursionError, MemoryError, NotImplementedError) as exc:
        raise ModelError(f"unreadable model archive ({exc})", path=source) from exc
    try:
        if not isinstance(header, dict):
            raise TypeError("header.json is not an object")
        return _build(header, arrays, estimator), header
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as exc:
        raise ModelError(f"inconsistent model file ({exc!r})", path=source) from exc


def _read_arrays(payload: bytes) -> dict[str, np.ndarray]:
    """The .npz members, each checked against its declared size before it is read.

    np.load trusts an array's header: one declaring 10^11 elements allocates them, and a
    member's size is only known once inflated.  Here the zip directory's sizes bound the
    whole, and each array's shape must fit in its member.
    """
    arrays: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(io.BytesIO(payload)) as archive:
        members = archive.infolist()
        if sum(member.file_size for member in members) > MAX_UNPACKED_BYTES:
            raise ValueError(f"archive unpacks to over {MAX_UNPACKED_BYTES // 1_000_000} MB")
        for member in members:
            if not member.filename.endswith(".npy"):
                raise ValueError(f"unexpected member {member.filename!r}")
            with archive.open(member) as file:
                version = np.lib.format.read_magic(file)
                if version == (1, 0):
                    shape, _, dtype = np.lib.format.read_array_header_1_0(file)
                else:
                    shape, _, dtype = np.lib.format.read_array_header_2_0(file)
                size = dtype.itemsize
                for dimension in shape:
                    size *= int(dimension)
                if dtype.hasobject or size > member.file_size:
                    raise ValueError(f"array {member.filename} declares {size:,} bytes in a {member.file_size:,}-byte member")
            # zipfile reads a member only up to its declared size, so this read is bounded too.
            with archive.open(member) as file:
                arrays[member.filename[: -len(".npy")]] = np.lib.format.read_array(file, allow_pickle=False)
    return arrays


@overload
def load(path: str | Path, *, estimator: Literal[True] = ...) -> tuple[TagClassifier, dict[str, Any]]: ...
@overload
def load(path: str | Path, *, estimator: bool) -> tuple[BlockPredictor, dict[str, Any]]: ...
def load(path: str | Path, *, estimator: bool = True) -> tuple[BlockPredictor, dict[str, Any]]:
    """The classifier and header stored at ``path`` (``estimator``: as :func:`loads`).

    :raises ModelError: missing, unreadable, corrupt, tampered or incompatible file.
    """
    source = str(path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ModelError(f"cannot read model file ({exc.strerror or exc})", path=source) from exc
    if len(data) > MAX_BYTES:
        raise ModelError(f"model file is over {MAX_BYTES // 1_000_000} MB", path=source)
    return loads(data, source=source, estimator=estimator)


def _build(header: dict[str, Any], arrays: dict[str, np.ndarray], estimator: bool) -> BlockPredictor:
    if header.get("format") != "forest-classifier" or header.get("format_version") != FORMAT_VERSION:
        raise ValueError("header is not a forest classifier header of this version")
    if header.get("feature_version") != FEATURE_VERSION:
        raise ValueError(f"model uses features v{header.get('feature_version')}, this forest computes v{FEATURE_VERSION}")
    kind = header["kind"]
    params = dict(header["params"])
    if kind not in KINDS or params["model"] not in MODELS or params["unit"] not in UNITS:
        raise ValueError(f"unknown model kind {kind!r}/{params['model']!r}/{params['unit']!r}")
    if not set(params["groups"]) <= set(GROUPS):
        raise ValueError(f"unknown feature groups {params['groups']}")
    params["groups"] = tuple(params["groups"])
    # JSON has no tuples: estimator parameters such as hidden_layer_sizes come back as lists.
    if params["params"] is not None:
        params["params"] = {k: tuple(v) if isinstance(v, list) else v for k, v in dict(params["params"]).items()}
    for name, value in arrays.items():
        if value.dtype.kind not in "iuf":
            raise ValueError(f"array {name} has dtype {value.dtype}")
    n_features = int(header["n_features_in"])
    n_hash = int(params.get("n_hash", 0) or 0)
    if not 0 <= n_hash <= n_features or n_features > 1_000_000:
        raise ValueError(f"n_features_in {n_features} and n_hash {n_hash} are inconsistent")
    compact = Compact(kind, _strip(arrays, _ARRAY_PREFIX), dict(header["settings"]))
    _check(compact)
    _check_width(compact, n_features - n_hash, n_hash)
    context = None
    if header.get("context_settings") is not None:
        from forest.classifier.context import N_CONTEXT

        context = Compact("trees", _strip(arrays, _CONTEXT_PREFIX), dict(header["context_settings"]))
        _check(context)
        _check_width(context, N_CONTEXT, 0)
    if bool(params["stacking"]) != (context is not None):
        raise ValueError("stacking flag and second-stage arrays disagree")
    classifier: BlockPredictor
    if estimator:
        from forest.classifier.model import TagClassifier

        classifier = TagClassifier(**params)
    else:
        # What prediction reads of the parameters; like the estimator, a missing one takes its default.
        prediction = ("groups", "unit", "n_hash", "threshold", "smoothing")
        classifier = BlockPredictor(**{name: params[name] for name in prediction if name in params})
    classifier.classes_ = np.asarray(header["classes"])
    classifier.n_features_in_ = int(header["n_features_in"])
    classifier.transitions_ = np.asarray(arrays["transitions"], dtype=np.float64).reshape(2, 2)
    classifier.compact_ = compact
    classifier.context_compact_ = context
    if header.get("pairwise_settings") is not None:
        from forest.classifier.joint import N_EDGE

        pairwise = Compact("trees", _strip(arrays, _PAIRWISE_PREFIX), dict(header["pairwise_settings"]))
        _check(pairwise)
        _check_width(pairwise, N_EDGE, 0)
        weight = float(header["joint_weight"])
        if not 0.0 <= weight <= 100.0:
            raise ValueError(f"joint weight {weight} is not between 0 and 100")
        classifier.pairwise_compact_ = pairwise
        classifier.joint_weight_ = weight
    if len(classifier.classes_) != 2:
        raise ValueError("a model needs two classes")
    return classifier


def _strip(arrays: dict[str, np.ndarray], prefix: str) -> dict[str, np.ndarray]:
    return {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}


def _check(compact: Compact) -> None:
    """Indices inside their arrays, so a consistent-looking but wrong file fails here, not mid-prediction."""
    a = compact.arrays
    if compact.kind == "trees":
        n = len(a["feature"])
        if not all(len(a[k]) == n for k in ("threshold", "left", "right", "value")):
            raise ValueError("tree arrays differ in length")
        for k in ("left", "right", "roots"):
            if len(a[k]) and (a[k].min() < 0 or a[k].max() >= n):
                raise ValueError(f"tree {k} index out of range")
        if compact.settings.get("aggregate") not in ("mean", "logit_sum"):
            raise ValueError("unknown tree aggregate")
        depth = compact.settings["max_depth"]
        if not isinstance(depth, int) or not 0 <= depth <= MAX_TREE_DEPTH:
            raise ValueError(f"tree max_depth {depth!r} is not an integer from 0 to {MAX_TREE_DEPTH}")
        float(compact.settings.get("baseline", 0.0))
    elif compact.kind == "linear":
        if a["mean"].shape != a["scale"].shape or a["coef"].ndim != 1 or a["intercept"].shape != (1,):
            raise ValueError("linear arrays have inconsistent shapes")
    else:
        layers = compact.settings["layers"]
        if not isinstance(layers, int) or not 1 <= layers <= MAX_LAYERS:
            raise ValueError(f"MLP layers {layers!r} is not an integer from 1 to {MAX_LAYERS}")
        for layer in range(layers):
            if a[f"w{layer}"].ndim != 2 or a[f"b{layer}"].shape != (a[f"w{layer}"].shape[1],):
                raise ValueError(f"layer {layer} has inconsistent shapes")


def _check_width(compact: Compact, dense: int, n_hash: int) -> None:
    """Every column a predictor reads exists in the rows forest builds for it (else IndexError mid-page)."""
    a = compact.arrays
    if compact.kind == "trees":
        columns = a.get("hashed_columns", np.zeros(0, dtype=np.int64))
        if len(columns) and (columns.min() < 0 or columns.max() >= max(n_hash, 1)):
            raise ValueError("hashed column index out of range")
        width = dense + len(columns)
        if len(a["feature"]) and (a["feature"].min() < 0 or a["feature"].max() >= width):
            raise ValueError(f"tree feature index out of range (rows have {width} columns)")
    elif compact.kind == "linear":
        if a["mean"].shape != (dense,) or a["coef"].shape != (dense + n_hash,):
            raise ValueError("linear arrays do not match the feature width")
    else:
        rows = dense + n_hash
        if a["mean"].shape != (dense,) or a["scale"].shape != (dense,):
            raise ValueError("MLP scaling arrays do not match the feature width")
        for layer in range(int(compact.settings["layers"])):
            weights = a[f"w{layer}"]
            if weights.shape[0] != rows:
                raise ValueError(f"layer {layer} expects {weights.shape[0]} inputs, gets {rows}")
            rows = weights.shape[1]
        if rows != 1:
            raise ValueError("the last MLP layer must have one output")
