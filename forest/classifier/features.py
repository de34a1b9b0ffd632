"""Features of text blocks and tags, computed in one pass over the page with numpy (the thesis's Table 3.2, plus shallow text)."""

from __future__ import annotations

import functools
import re
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import scipy.sparse as sp
from lxml import etree

from forest.classifier._features import (
    LOG_COLUMNS,
    Tokens,
    descendant_levels,
    element_columns,
    gather_rows,
    page_rows,
    modern_columns,
    node_numeric,
    row_tokens,
    with_tags,
)
from forest.classifier.blocks import NOT_RENDERED, PageTree
from forest.classifier.compact import HashedRows
from forest.classifier.text import TEXT_COLUMNS, block_text_features, tag_text_features

if TYPE_CHECKING:
    from sklearn.feature_extraction.text import HashingVectorizer

# Bumped whenever a column changes meaning: a model file records the version it was trained on.
FEATURE_VERSION = 1
UNITS = ("blocks", "tags")
GROUPS = ("node", "ancestors", "descendants", "text", "modern", "tokens")
# The ablation of Table 3.4: each feature set adds one group to the previous one.
FEATURE_SETS: dict[str, tuple[str, ...]] = {name: GROUPS[: i + 1] for i, name in enumerate(GROUPS)}
# The thesis's depth of context: 5 ancestors, 5 levels of descendants.
N_ANCESTORS = 5
N_LEVELS = 5
# 2**10 hashed class/id tokens: enough that the few hundred frequent ones ("nav", "comment",
# "footer", "entry", "content"...) rarely collide, small enough for a compact linear model.
N_HASH = 2**10
# The tags common enough to deserve a column of their own; all others share "other".
TAGS = tuple(
    "a p div span li ul ol td tr th table tbody h1 h2 h3 h4 h5 h6 strong b em i br img form input "
    "button label select option section article header footer nav aside main blockquote pre code "
    "figure figcaption dl dt dd small time body center font".split()
)
_TAG_INDEX = {tag: i for i, tag in enumerate(TAGS)}
N_TAGS = len(TAGS) + 1
NODE_COLUMNS = (
    "depth position sibling_share children chars words own_chars link_density page_share "
    "class_len n_classes id_len n_tokens prose_share prose_density same_tag_siblings hidden microdata".split()
)
LEVEL_COLUMNS = "nodes children chars class_len n_classes id_len".split()
# Prose: blocks of at least this many words with at most this link share (a sentence, not a menu or
# a teaser link).  The share of the page's prose under an element is the readability-style signal
# that finds the article's container on pages where many blocks look like prose in isolation.
PROSE_WORDS = 10
PROSE_LINK_SHARE = 0.3
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_SPLIT = re.compile(r"[^A-Za-z0-9]+")
# What the browser does not render: the same rule as forest.classifier.blocks.invisible.
_HIDDEN_STYLE = NOT_RENDERED



def _identity(tokens: list[str]) -> list[str]:
    return tokens


def hasher(n_hash: int = N_HASH) -> HashingVectorizer:
    """The hashing of token lists that :func:`hash_tokens` reproduces (binary, unsigned, unnormalized)."""
    from sklearn.feature_extraction.text import HashingVectorizer

    return HashingVectorizer(
        n_features=n_hash, analyzer=_identity, alternate_sign=False, norm=None, binary=True, dtype=np.float32
    )


@functools.lru_cache(maxsize=1 << 16)
def _column(token: str, n_hash: int) -> int:
    # HashingVectorizer's column: |MurmurHash3_32(token, seed 0)| mod n (the same in every process).
    return abs(murmurhash3_32(token.encode("utf-8"))) % n_hash


def murmurhash3_32(data: bytes, seed: int = 0) -> int:
    """MurmurHash3 (x86, 32-bit) of ``data`` as a signed integer: scikit-learn's ``murmurhash3_32``.

    Written out so that predicting never imports scikit-learn (a second of every process's
    start); each token is hashed once per process (``_column`` is cached).
    """
    mask = 0xFFFFFFFF
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed & mask
    n = len(data)
    body = n - n % 4
    for k in struct.unpack_from(f"<{body // 4}I", data):
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
        h = ((h << 13) | (h >> 19)) & mask
        h = (h * 5 + 0xE6546B64) & mask
    k = int.from_bytes(data[body:], "little")
    if n % 4:
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
    h ^= n
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & mask
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & mask
    h ^= h >> 16
    return h - (1 << 32) if h >= 1 << 31 else h


def hash_tokens(docs: Sequence[Sequence[str]], n_hash: int = N_HASH) -> sp.csr_matrix:
    """``hasher(n_hash).transform(docs)``, computed with cached token columns: 20x faster on a page,
    whose few distinct class names repeat on hundreds of rows."""
    indptr = [0]
    indices: list[int] = []
    for doc in docs:
        columns = sorted({_column(t, n_hash) for t in doc})
        indices.extend(columns)
        indptr.append(len(indices))
    data = np.ones(len(indices), dtype=np.float32)
    return sp.csr_matrix((data, np.asarray(indices, dtype=np.int32), np.asarray(indptr)), shape=(len(docs), n_hash))


@functools.lru_cache(maxsize=1 << 16)
def attribute_tokens(value: str) -> tuple[str, ...]:
    """Tokens of a class or id value, split on punctuation and camelCase, lower-cased, digits dropped.

    ``"NavBar nav-bar post-1234"`` gives ``("nav", "bar", "nav", "bar", "post")``.
    """
    return _tokens(value, drop_hashes=False)


@functools.lru_cache(maxsize=1 << 16)
def name_tokens(value: str) -> tuple[str, ...]:
    """:func:`attribute_tokens` without the words that are generated hashes (:func:`is_hashed_name`):
    the tokens of a model that reads the "modern" group.

    ``"sc-1pfx6hk-0 bXYFQI title__3xY7z"`` gives ``("sc", "title")``.
    """
    return _tokens(value, drop_hashes=True)


def _tokens(value: str, *, drop_hashes: bool) -> tuple[str, ...]:
    out: list[str] = []
    for word in _SPLIT.split(value):
        if drop_hashes and is_hashed_name(word):
            continue
        for part in _CAMEL.findall(word):
            if not part.isdigit():
                out.append(part.lower())
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Features:
    """Feature rows of one or more pages: the dense groups side by side, and the hashed class/id tokens."""

    dense: np.ndarray  # float32, columns laid out as in :func:`group_columns`
    # float32, N_HASH (or the model's n_hash) columns: a page's own rows as HashedRows, which
    # prediction reads as they are; ``hashed`` is always the scipy matrix.
    tokens: sp.csr_matrix | HashedRows
    page: np.ndarray | None = None  # the page number of each row (rows of a page are consecutive)
    # Blocks only: for the row's element and its 5 ancestors, the range [first, last] of the page's
    # blocks inside that element (see forest.classifier.context).
    spans: np.ndarray | None = None
    _csr: sp.csr_matrix | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def hashed(self) -> sp.csr_matrix:
        """The hashed token columns as a ``csr_matrix`` (made on first use from a page's HashedRows)."""
        if not isinstance(self.tokens, HashedRows):
            return self.tokens
        if self._csr is None:
            object.__setattr__(self, "_csr", self.tokens.csr())  # a cache: the value is the same
        assert self._csr is not None
        return self._csr

    def __len__(self) -> int:
        return int(self.dense.shape[0])

    def select(self, groups: Sequence[str], *, csr: bool = True) -> tuple[np.ndarray, sp.csr_matrix | HashedRows | None]:
        """The dense columns of ``groups`` and, when ``"tokens"`` is among them, the hashed ones.

        :param csr: the hashed ones as a ``csr_matrix``; else as they are held (what
            forest.classifier.compact's predictors read either way).
        """
        columns, in_order = _selected_columns(tuple(groups))
        hashed = (self.hashed if csr else self.tokens) if "tokens" in groups else None
        if in_order and len(columns) == self.dense.shape[1]:
            return self.dense, hashed  # all groups in order (the default): no copy
        return self.dense[:, columns], hashed

    def take(self, index: np.ndarray) -> Features:
        """The rows ``index``."""
        def pick(a: np.ndarray | None) -> np.ndarray | None:
            return a[index] if a is not None else None

        return Features(self.dense[index], self.hashed[index], pick(self.page), pick(self.spans))

    @staticmethod
    def stack(parts: Sequence[Features]) -> Features:
        """Rows of several pages, in order, numbered as pages 0, 1, ..."""
        page = np.concatenate([np.full(len(p), i, dtype=np.int64) for i, p in enumerate(parts)]) if parts else None
        spans = None
        if parts and all(p.spans is not None for p in parts):
            spans = np.concatenate([p.spans for p in parts if p.spans is not None])
        dense = np.vstack([p.dense for p in parts])
        return Features(dense, sp.vstack([p.hashed for p in parts], format="csr"), page, spans)


@functools.lru_cache(maxsize=64)
def _selected_columns(groups: tuple[str, ...]) -> tuple[np.ndarray, bool]:
    # The dense columns of ``groups`` and whether they are 0, 1, 2...: the same for every page a
    # model reads, so worked out once per groups (every predicted page paid a few microseconds).
    ranges = [np.arange(*group_columns()[g]) for g in groups if g != "tokens"]
    columns = np.concatenate(ranges) if ranges else np.zeros(0, dtype=np.int64)
    columns.setflags(write=False)  # shared by every call
    return columns, bool(np.array_equal(columns, np.arange(len(columns))))


@functools.lru_cache(maxsize=1)
def group_columns() -> dict[str, tuple[int, int]]:
    """Column range ``[start, stop)`` of each dense group."""
    sizes = {
        "node": len(NODE_COLUMNS) + N_TAGS,
        "ancestors": N_ANCESTORS * (len(NODE_COLUMNS) + N_TAGS),
        "descendants": N_LEVELS * (len(LEVEL_COLUMNS) + N_TAGS),
        "text": len(TEXT_COLUMNS),
        "modern": len(MODERN_COLUMNS),
    }
    ranges, start = {}, 0
    for name, size in sizes.items():
        ranges[name] = (start, start + size)
        start += size
    return ranges


def feature_names() -> list[str]:
    """Names of the dense columns, in order."""
    node = NODE_COLUMNS + [f"tag={t}" for t in (*TAGS, "other")]
    level = LEVEL_COLUMNS + [f"tag={t}" for t in (*TAGS, "other")]
    return (
        node
        + [f"anc{k}.{c}" for k in range(1, N_ANCESTORS + 1) for c in node]
        + [f"desc{k}.{c}" for k in range(1, N_LEVELS + 1) for c in level]
        + [f"text.{c}" for c in TEXT_COLUMNS]
        + [f"modern.{c}" for c in MODERN_COLUMNS]
    )


def _node_matrix(tree: PageTree, modern: bool = True, n_hash: int = N_HASH) -> tuple[np.ndarray, np.ndarray, np.ndarray, Tokens, np.ndarray]:
    """Node features of every element (log-scaled counts) without the tag's one-hot columns, its
    tag's column, its level-aggregate base without them, its class/id tokens, and whether its
    class names a CSS-in-JS hash (``modern``: such names are no tokens; otherwise they are, and
    the flags are 0, as a model without the "modern" group learned them).  The one-hot columns
    are written only for the rows that read them (:func:`_with_tags`), not for every element.

    The counts and columns of every element and block are computed in C
    (forest.classifier._features), the logarithms in numpy, so the columns keep their bits.  Its
    reference is ``reference_node_matrix`` in tests/unit/test_native_features.py.
    """
    n = len(tree)
    attributes = tree.marked_attributes()
    # itemprop and role name an element's part as class and id do (schema.org headline, author...).
    # Without either, the original rule gives only spaces (no token, no microdata), so only the
    # few elements with a marking attribute are read in Python.
    extra: dict[int, str] = {}
    hidden = np.zeros(n)
    microdata = np.zeros(n)
    # The flags' elements gathered and set at once: a numpy item assignment per element cost more than its test.
    named: list[int] = []
    hides: list[int] = []
    for i in tree.marked():
        a = attributes[i]
        if len(a) > 1:
            extra[i] = value = (a.get("itemprop") or "") + " " + (a.get("role") or "")
            if value.strip():
                named.append(i)
        if _is_hidden(a):
            hides.append(i)
    microdata[named] = 1.0
    hidden[hides] = 1.0
    # Class and id are read from libxml2's nodes, without a str of either per element.
    counts, tokens = element_columns(tree.elements, tree.tags, extra, _TAG_INDEX, N_TAGS - 1, n_hash, modern)
    # The columns in C (forest.classifier._features.node_numeric): the subtrees' characters, words,
    # links and prose (blocks of PROSE_WORDS words at most PROSE_LINK_SHARE links), how many siblings
    # share each element's tag (repeated items: menus, teaser lists, paragraphs), the shares; the
    # logarithms in numpy, for their bits.
    numeric = node_numeric(tree.parent, tree.depth, tree.position, tree.n_children, tree.own_chars, tree.own_words,
                           tree.own_link_chars, tree.last, tree.owner, tree.block_counts(), counts, hidden, microdata,
                           PROSE_WORDS, PROSE_LINK_SHARE)  # fmt: skip
    logs = list(LOG_COLUMNS)
    numeric[:, logs] = np.log1p(numeric[:, logs])
    level_base = np.empty((n, 6))
    level_base[:, 0] = 1.0
    level_base[:, 1:] = numeric[:, [3, 4, 9, 10, 11]]
    hashed = counts[:, 6].astype(np.float64) if modern else np.zeros(n)
    return numeric, np.ascontiguousarray(counts[:, 4]), level_base, tokens, hashed


def _with_tags(numeric: np.ndarray, tag: np.ndarray, index: np.ndarray, out: np.ndarray) -> None:
    """Write into ``out`` (rows x levels x columns) the node features of elements ``index`` (rows x
    levels): their numeric columns, then their tag's one-hot columns.

    In C (forest.classifier._features.with_tags), where numpy's three fancy-indexed assignments
    cost a page more than its trees' walk; ``reference_page_features`` in
    tests/unit/test_native_features.py indexes the full node rows (one-hot columns included) instead.
    """
    with_tags(np.ascontiguousarray(numeric, dtype=np.float64), np.ascontiguousarray(tag, dtype=np.int64),
              np.ascontiguousarray(index, dtype=np.int64), out)  # fmt: skip


def _is_hidden(attributes: dict[str, str]) -> bool:
    # Text a browser does not show: schema.org copies of the headline, screen-reader labels.
    if not attributes:
        return False
    if "hidden" in attributes or attributes.get("aria-hidden") == "true":
        return True
    style = attributes.get("style")
    return style is not None and _hides(style)


@functools.lru_cache(maxsize=1 << 12)
def _hides(style: str) -> bool:
    # A page repeats its inline styles ("display:none" on every hidden item): each is searched once.
    return _HIDDEN_STYLE.search(style) is not None


def _descendant_levels(
    tree: PageTree, base: np.ndarray, tag: np.ndarray, distinct: np.ndarray, inverse: np.ndarray, into: np.ndarray | None = None
) -> np.ndarray:
    """Per-level means over the 1st..N_LEVELS-th levels below each row's element (zeros when a level
    is empty) of ``base`` (a count column of ones, then numeric columns) and of the tags' one-hot
    columns (``tag``: each element's column), in C (forest.classifier._features.descendant_levels).

    Its reference, ``reference_descendant_levels`` in tests/unit/test_native_features.py, summed
    the one-hot columns with the others, level by level over every element in numpy: the tags'
    counts are integers, exact in any order, so they are counted over each row's subtree instead,
    and only the few numeric columns are summed child by child, in the reference's order, for
    their bits.  The counts' log1p stays in numpy, for its bits too.  Blocks share elements: each
    of ``distinct`` (ascending) is described once, then copied to the rows (``inverse``: each
    row's index in ``distinct``), as page_rows found them.  With ``into`` (rows x columns, float32: the
    features' own columns for them), the rows are written there, cast as numpy's assignment casts them,
    and ``into`` returned (in C: forest.classifier._features.gather_rows).
    """
    out, counts = descendant_levels(
        distinct, np.ascontiguousarray(tree.parent, dtype=np.int64), np.ascontiguousarray(tree.depth, dtype=np.int64),
        np.ascontiguousarray(tree.last, dtype=np.int64), np.ascontiguousarray(base, dtype=np.float64), tag, N_LEVELS, N_TAGS,
    )
    out.reshape(len(distinct), N_LEVELS, base.shape[1] + N_TAGS)[:, :, 0] = np.log1p(counts)
    if into is not None:
        gather_rows(out, np.ascontiguousarray(inverse, dtype=np.int64), into)
        return into
    described: np.ndarray = out[inverse]
    return described


def page_features(tree: PageTree, unit: str = "blocks", *, n_hash: int = N_HASH, modern: bool = True) -> tuple[Features, np.ndarray]:
    """Feature rows of one page and the element each row describes.

    ``unit="blocks"``: one row per text block (``tree.blocks``), described by its owner element
    and its own text.  ``unit="tags"``: one row per element with text, described by its subtree.

    :param modern: compute the "modern" group and leave hashed class names out of the tokens.
        Off, the rows end before the group (so a model trained without it reads them as they
        are, with no copy) and the tokens are those such a model was trained on.
    :raises ValueError: the page has no text, so no rows (callers check ``tree.blocks`` first).
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
    numeric, tag, level_base, tokens, hashed = _node_matrix(tree, modern, n_hash)
    spans = None
    if unit == "blocks":
        rows = tree.owner
        text = block_text_features(tree)
        landmarks = _modern_matrix(tree, rows, hashed) if modern else None
    else:
        chars = tree.subtree_sums(tree.own_chars)
        rows = np.flatnonzero(chars > 0)
        text = tag_text_features(tree, rows, chars)
        landmarks = _modern_matrix(tree, rows, hashed) if modern else None
    if not len(rows):
        raise ValueError("a page without text has no feature rows")
    # The rows' ancestors, their chains, the blocks inside each link and the distinct elements, in C.
    chain, ancestors, spans, distinct, inverse = page_rows(np.ascontiguousarray(rows, dtype=np.int64), tree.parent, tree.owner,
                                                           N_ANCESTORS, unit == "blocks")  # fmt: skip
    # The groups written side by side straight into float32 (the same rounding as astype): the
    # node group and the ancestors' (each numeric columns, then the tag's one-hot) and the descendants' in place.
    parts = [text] if landmarks is None else [text, landmarks]
    node = numeric.shape[1] + N_TAGS
    start = node * (1 + N_ANCESTORS)
    levels = N_LEVELS * (level_base.shape[1] + N_TAGS)
    dense = np.empty((len(rows), start + levels + sum(p.shape[1] for p in parts)), dtype=np.float32)
    _with_tags(numeric, tag, chain, dense[:, :start].reshape(len(rows), -1, node))
    _descendant_levels(tree, level_base, tag, distinct, inverse, dense[:, start : start + levels])
    start += levels
    for part in parts:
        dense[:, start : start + part.shape[1]] = part
        start += part.shape[1]
    page = np.zeros(len(rows), dtype=np.int64)
    return Features(dense, _row_tokens(tokens, rows, ancestors, n_hash), page, spans), rows


def _row_tokens(tokens: Tokens, rows: np.ndarray, ancestors: np.ndarray, n_hash: int) -> HashedRows:
    """The hashed tokens of each row: its element's own, and its ancestors' marked with ``^``.

    Equal to :func:`hash_tokens` of the rows' token lists (as ``.csr()``), computed in C from each
    element's distinct columns (forest.classifier._features.row_tokens), ascending in each row.
    """
    indptr, column = row_tokens(tokens, np.ascontiguousarray(rows, dtype=np.int64), np.ascontiguousarray(ancestors, dtype=np.int64))
    return HashedRows(np.ones(len(column), dtype=np.float32), column, indptr, (len(rows), n_hash))


# --- The "modern" group: landmarks, hiding, og:type and CSS-in-JS class names ---------------------

# Landmarks: an HTML5 element or an ARIA role marks each; a block inherits every landmark it lies in.
# (<footer>, <nav> and figure captions are settled before the model, by blocks.not_article.)
_LANDMARKS: tuple[tuple[frozenset[str], frozenset[str]], ...] = (
    (frozenset(("main",)), frozenset(("main",))),
    (frozenset(("article",)), frozenset(("article",))),
    (frozenset(("aside",)), frozenset(("complementary",))),
    (frozenset(("header",)), frozenset(("banner",))),
    (frozenset(("dialog",)), frozenset(("dialog", "alertdialog", "alert"))),
    (frozenset(("form",)), frozenset(("search", "form"))),
)
# Each landmark's tags, as the index of the landmark (one lookup per element for all of them).
_LANDMARK_OF_TAG = {tag: k for k, (names, _) in enumerate(_LANDMARKS) for tag in names}
_LANDMARK_OF_ROLE = {role: k for k, (_, roles) in enumerate(_LANDMARKS) for role in roles}
MODERN_COLUMNS = (
    "in_main in_article in_aside in_header in_dialog in_form in_aria_hidden in_largest_article "
    "page_articles page_main_share og_article hashed_class page_hashed_classes".split()
)


def _modern_matrix(tree: PageTree, rows: np.ndarray, hashed: np.ndarray) -> np.ndarray:
    """The "modern" columns of ``rows`` (element indices).

    In C (forest.classifier._features.modern_columns): one pass over the elements keeps each
    landmark's open subtrees, where numpy took a few passes per landmark; only the page's article
    count's logarithm (numpy's, for its bits) and og:type are written here.  Its reference is
    ``reference_modern_matrix`` in tests/unit/test_native_features.py.
    """
    attributes = tree.marked_attributes()
    # The few marked elements' bits: their role's landmark, and whether they hide.
    marks = np.zeros(len(tree), dtype=np.uint8)
    for i in tree.marked():
        a = attributes[i]
        k = _LANDMARK_OF_ROLE.get((a.get("role") or "").lower())
        bits = 0 if k is None else 1 << k
        if a.get("aria-hidden") == "true" or "hidden" in a:
            bits |= 1 << len(_LANDMARKS)
        marks[i] = bits
    out, articles = modern_columns(tree.tags, _LANDMARK_OF_TAG, marks, np.ascontiguousarray(tree.own_chars, dtype=np.int64),
                                   np.ascontiguousarray(tree.last, dtype=np.int64), np.ascontiguousarray(rows, dtype=np.int64),
                                   hashed, len(_LANDMARKS))  # fmt: skip
    out[:, 8] = np.log1p(articles)
    out[:, 10] = _og_article(tree.elements[0])
    return out


def _og_article(body: etree._Element) -> bool:
    """Whether the page's ``og:type`` says ``article``: the page's own word on its type.

    (JSON-LD ``@type`` and ``articleBody`` would say more, but ``forest.html.parse_html`` removes
    scripts before the classifier sees the tree.)  The model learned it from any ``<meta>`` of the
    document, the body's included.
    """
    document = body.getparent()
    return document is not None and og_type(document) == "article"


def og_type(scope: etree._Element) -> str:
    """The first ``og:type`` declared in ``scope``'s ``<meta>`` elements, stripped and lower-cased; "" if none."""
    for meta in scope.iter("meta"):
        if (meta.get("property") or meta.get("name") or "").lower() == "og:type":
            return (meta.get("content") or "").strip().lower()
    return ""


# CSS-in-JS class names (styled-components' ``sc-1pfx6hk-0 bXYFQI``, emotion's ``css-1dbjc4n``,
# CSS modules' ``title__3xY7z``) are hashes of a style: read as words they would give random tokens.
_LETTERS_THEN_DIGITS = re.compile(r"[A-Za-z]+\d*")


@functools.lru_cache(maxsize=1 << 16)
def is_hashed_name(word: str) -> bool:
    """Whether a class/id word (between punctuation) looks like a generated hash, not a name.

    ``1pfx6hk``, ``3xY7z`` (letters and digits mixed, not a name followed by a number) and
    ``bXYFQI``, ``kGrvJE`` (5 to 8 letters whose capitals do not start words of 3 or more) are;
    ``post1234``, ``NavBar``, ``iPhone`` are not.
    """
    if len(word) < 5:
        return False
    if word.isalpha():
        if len(word) > 8 or sum(map(str.isupper, word)) < 2 or word.isupper():
            return False
        return any(len(part) <= 2 for part in _CAMEL.findall(word))
    has_digit = any(c.isdigit() for c in word)
    return has_digit and not word.isdigit() and _LETTERS_THEN_DIGITS.fullmatch(word) is None
