"""The classifier's model file: plain numpy arrays and a JSON header, signed with SHA-256; no pickle, no code.

Layout: one ASCII line ``FOREST-CLASSIFIER <format version> sha256=<hex digest>\\n`` followed by a
numpy ``.npz`` archive (read with ``allow_pickle=False``, so it can only yield numeric arrays)
holding the predictor's arrays and ``header.json``.  The digest covers every byte after the
first line, so any changed byte is refused with :class:`ModelError` before anything is parsed.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import sklearn

from forest.classifier.compact import KINDS, Compact
from forest.classifier.features import FEATURE_VERSION, GROUPS, UNITS
from forest.classifier.model import MODELS, TagClassifier
from forest.errors import ModelError

MAGIC = b"FOREST-CLASSIFIER"
FORMAT_VERSION = 1
# Refuse absurd files before hashing them: the shipped model is well under 5 MB.
MAX_BYTES = 200_000_000
_ARRAY_PREFIX = "a."
_CONTEXT_PREFIX = "c."


def dumps(classifier: TagClassifier, training: dict[str, Any] | None = None) -> bytes:
    """The model file's bytes for a fitted ``classifier``; ``training`` notes go into the header."""
    compact: Compact = classifier.compact_
    params = classifier.get_params()
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
    arrays = {f"{_ARRAY_PREFIX}{name}": value for name, value in compact.arrays.items()}
    if classifier.context_compact_ is not None:
        arrays.update({f"{_CONTEXT_PREFIX}{name}": v for name, v in classifier.context_compact_.arrays.items()})
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


def loads(data: bytes, *, source: str | None = None) -> tuple[TagClassifier, dict[str, Any]]:
    """The classifier and header stored in ``data`` (the bytes of a model file).

    :raises ModelError: wrong magic or version, checksum mismatch, or inconsistent content.
    """
    payload = _payload(data, source)
    try:
        with np.load(io.BytesIO(payload), allow_pickle=False) as archive:
            arrays = {name: archive[name] for name in archive.files}
        header = json.loads(arrays.pop("header.json").tobytes().decode("utf-8"))
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error, UnicodeDecodeError) as exc:
        raise ModelError(f"unreadable model archive ({exc})", path=source) from exc
    try:
        return _build(header, arrays), header
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"inconsistent model file ({exc!r})", path=source) from exc


def load(path: str | Path) -> tuple[TagClassifier, dict[str, Any]]:
    """The classifier and header stored at ``path``.

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
    return loads(data, source=source)


def _build(header: dict[str, Any], arrays: dict[str, np.ndarray]) -> TagClassifier:
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
    compact = Compact(kind, _strip(arrays, _ARRAY_PREFIX), dict(header["settings"]))
    _check(compact)
    context = None
    if header.get("context_settings") is not None:
        context = Compact("trees", _strip(arrays, _CONTEXT_PREFIX), dict(header["context_settings"]))
        _check(context)
    if bool(params["stacking"]) != (context is not None):
        raise ValueError("stacking flag and second-stage arrays disagree")
    classifier = TagClassifier(**params)
    classifier.classes_ = np.asarray(header["classes"])
    classifier.n_features_in_ = int(header["n_features_in"])
    classifier.transitions_ = np.asarray(arrays["transitions"], dtype=np.float64).reshape(2, 2)
    classifier.compact_ = compact
    classifier.context_compact_ = context
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
        int(compact.settings["max_depth"])
    elif compact.kind == "linear":
        if a["mean"].shape != a["scale"].shape or a["coef"].ndim != 1 or a["intercept"].shape != (1,):
            raise ValueError("linear arrays have inconsistent shapes")
    else:
        for layer in range(int(compact.settings["layers"])):
            if a[f"w{layer}"].ndim != 2 or a[f"b{layer}"].shape != (a[f"w{layer}"].shape[1],):
                raise ValueError(f"layer {layer} has inconsistent shapes")
