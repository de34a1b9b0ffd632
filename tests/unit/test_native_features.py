"""The per-element feature counts in C (forest.classifier._features) against their reference, the features read in Python.

``reference_page_features`` below is how forest computed a page's feature rows before the counts
were native: every element's class/id tokens split by the regular expressions of
``features.attribute_tokens`` / ``name_tokens``, hashed as bit masks per token tuple, the tags
looked up and the siblings counted in Python, and the blocks' spans by numpy level by level.  The
native features must equal it to the bit (the shipped model reads them): the dense matrix, the
hashed tokens (indices, indptr, data and their dtypes), the spans and the rows, for blocks and
tags, with and without the "modern" group, on generated HTML fragments (hypothesis) and on a fixed
sample of every shared dataset's pages (``-m bench``: all of them).
"""

from __future__ import annotations

import functools
import itertools
import operator
import re

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from dataset_pages import bodies, body_of, dataset_pages, skip_without_datasets
from forest.classifier import features
from forest.classifier._features import (
    gather_rows,
    block_counts,
    descendant_levels,
    element_columns,
    modern_columns,
    node_numeric,
    page_rows,
    row_tokens,
    with_tags,
)
from forest.classifier._walk import Nodes, child_sums
from forest.classifier.blocks import PageTree, walk
from forest.classifier.features import (
    N_HASH,
    N_TAGS,
    PROSE_LINK_SHARE,
    PROSE_WORDS,
    Features,
    attribute_tokens,
    hash_tokens,
    is_hashed_name,
    name_tokens,
    page_features,
)
from test_native_text import reference_block_text_features, reference_tag_text_features

# --- The reference: the per-element counts in Python ------------------------------------------

_TAG_INDEX = {tag: i for i, tag in enumerate(features.TAGS)}
_SPLIT = re.compile(r"[^A-Za-z0-9]+")


def reference_node_matrix(tree: PageTree, modern: bool = True) -> tuple[np.ndarray, np.ndarray, list[tuple[str, ...]], np.ndarray]:
    """Node features of every element, its level-aggregate base, its class/id tokens and its
    hashed-class flag, read element by element in Python."""
    n = len(tree)
    classes, ids = tree.class_and_id()
    attributes = tree.marked_attributes()
    extra = [""] * n
    hidden = np.zeros(n)
    for i in tree.marked():
        a = attributes[i]
        if len(a) > 1:
            extra[i] = (a.get("itemprop") or "") + " " + (a.get("role") or "")
        hidden[i] = features._is_hidden(a)
    split = name_tokens if modern else attribute_tokens
    tokens = [split(f"{c} {i} {x}") if (c or i or x) else () for c, i, x in zip(classes, ids, extra)]
    microdata = np.fromiter(map(bool, map(str.strip, extra)), dtype=np.float64, count=n)
    same_tag = _same_tag_siblings(tree)
    texts = list(map(operator.attrgetter("text"), tree.blocks))
    length = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    words = np.fromiter(map(operator.methodcaller("count", " "), texts), dtype=np.int64, count=len(texts)) + 1
    link = np.fromiter(map(operator.attrgetter("link_chars"), tree.blocks), dtype=np.int64, count=len(texts))
    is_prose = (words >= PROSE_WORDS) & (link <= PROSE_LINK_SHARE * length)
    prose = np.bincount(tree.owner[is_prose], weights=length[is_prose], minlength=n).astype(np.int64)
    sub_chars = tree.subtree_sums(np.stack([tree.own_chars, tree.own_words, tree.own_link_chars, prose], axis=1))
    chars, words, links, prose = sub_chars[:, 0], sub_chars[:, 1], sub_chars[:, 2], sub_chars[:, 3]
    parent = np.maximum(tree.parent, 0)
    siblings = np.maximum(tree.n_children[parent] - 1, 1)
    class_len = np.fromiter(map(len, classes), dtype=np.float64, count=n)
    id_len = np.fromiter(map(len, ids), dtype=np.float64, count=n)
    n_split = {c: len(c.split()) for c in set(classes)}
    n_classes = np.fromiter(map(n_split.__getitem__, classes), dtype=np.float64, count=n)
    n_tokens = np.fromiter(map(len, tokens), dtype=np.float64, count=n)
    log = np.log1p
    numeric = np.stack(
        [
            tree.depth,
            log(tree.position),
            np.where(tree.parent >= 0, tree.position / siblings, 0.0),
            log(tree.n_children),
            log(chars),
            log(words),
            log(tree.own_chars),
            links / np.maximum(chars, 1),
            chars / max(chars[0], 1.0),
            log(class_len),
            n_classes,
            log(id_len),
            n_tokens,
            prose / max(prose[0], 1.0),
            prose / np.maximum(chars, 1.0),
            np.log1p(same_tag),
            hidden,
            microdata,
        ],
        axis=1,
    )
    onehot = np.zeros((n, N_TAGS))
    onehot[np.arange(n), np.fromiter(map(_TAG_INDEX.get, tree.tags, itertools.repeat(N_TAGS - 1)), dtype=np.intp, count=n)] = 1.0
    level_base = np.column_stack([np.ones(n), numeric[:, [3, 4, 9, 10, 11]], onehot])
    hashed = np.fromiter(map(_hashed_class, classes), dtype=np.float64, count=n) if modern else np.zeros(n)
    return np.hstack([numeric, onehot]), level_base, tokens, hashed


def _hashed_class(value: str) -> bool:
    return any(map(is_hashed_name, _SPLIT.split(value))) if value else False


def _same_tag_siblings(tree: PageTree) -> np.ndarray:
    codes = {t: i for i, t in enumerate(set(tree.tags))}
    tag = np.fromiter(map(codes.__getitem__, tree.tags), dtype=np.int64, count=len(tree))
    key = (tree.parent + 1) * max(len(codes), 1) + tag
    return (np.bincount(key)[key] - 1).astype(np.float64)


def reference_row_tokens(tokens: list[tuple[str, ...]], rows: np.ndarray, ancestors: np.ndarray, n_hash: int) -> sp.csr_matrix:
    """The hashed tokens of each row (its element's own and its ancestors' marked ``^``), as OR-ed bit masks."""
    owners, chain = rows.tolist(), ancestors.tolist()
    own = {e: _mask(tokens[e], n_hash, "") for e in set(owners)}
    up = {e: _mask(tokens[e], n_hash, "^") for e in set(itertools.chain.from_iterable(chain))}
    width = (n_hash + 7) // 8
    distinct: dict[bytes, int] = {}
    mask_of_row = []
    for e, above in zip(owners, chain):
        mask = own[e]
        for a in above:
            mask |= up[a]
        mask_of_row.append(distinct.setdefault(mask.to_bytes(width, "little"), len(distinct)))
    packed = np.frombuffer(b"".join(distinct), dtype=np.uint8).reshape(len(distinct), width)
    at = np.flatnonzero(np.unpackbits(packed, axis=1, count=n_hash, bitorder="little"))
    size = np.bincount(at // n_hash, minlength=len(distinct))
    start = np.cumsum(size) - size
    which = np.asarray(mask_of_row, dtype=np.intp)
    indptr = np.concatenate([[0], np.cumsum(size[which])])
    index = np.repeat(start[which] - indptr[:-1], size[which]) + np.arange(indptr[-1])
    column = (at % n_hash)[index].astype(np.int32)
    data = np.ones(len(column), dtype=np.float32)
    return sp.csr_matrix((data, column, indptr), shape=(len(owners), n_hash))


@functools.lru_cache(maxsize=1 << 12)
def _mask(tokens: tuple[str, ...], n_hash: int, mark: str) -> int:
    mask = 0
    for t in tokens:
        mask |= 1 << features._column(mark + t, n_hash)
    return mask


def reference_ancestors(tree: PageTree, rows: np.ndarray) -> np.ndarray:
    """features.page_rows' ancestors in numpy: indices of the 1st..N_ANCESTORS-th ancestors of
    ``rows``; past the body, the body (the thesis's padding)."""
    up = np.empty((len(rows), features.N_ANCESTORS), dtype=np.int64)
    current = rows
    parent = np.maximum(tree.parent, 0)
    for k in range(features.N_ANCESTORS):
        current = parent[current]
        up[:, k] = current
    return up


def reference_block_spans(tree: PageTree, chain: np.ndarray) -> np.ndarray:
    """The first and last block inside each element of ``chain``, propagated up level by level."""
    n, nb = len(tree), len(tree.blocks)
    first = np.full(n, nb, dtype=np.int64)
    last = np.full(n, -1, dtype=np.int64)
    index = np.arange(nb)
    np.minimum.at(first, tree.owner, index)
    np.maximum.at(last, tree.owner, index)
    parent, depth = tree.parent, tree.depth
    for level in range(int(depth.max(initial=0)), 0, -1):
        rows = np.flatnonzero(depth == level)
        np.minimum.at(first, parent[rows], first[rows])
        np.maximum.at(last, parent[rows], last[rows])
    return np.stack([first[chain], last[chain]], axis=2).astype(np.int32)


def reference_descendant_levels(tree: PageTree, base: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Per-level means of ``base`` (ones, the numeric columns, the one-hot tags) over the 1st..5th levels
    below each of ``rows``: every column summed child by child over every element, level by level."""
    width = base.shape[1]
    distinct, inverse = np.unique(rows, return_inverse=True)
    out = np.empty((len(distinct), features.N_LEVELS * width))
    level = np.ascontiguousarray(base, dtype=np.float64)
    parent = np.ascontiguousarray(tree.parent, dtype=np.int64)
    for k in range(features.N_LEVELS):
        level = child_sums(parent, level)
        mine = level[distinct]
        count = mine[:, :1]
        out[:, k * width] = np.log1p(count[:, 0])
        out[:, k * width + 1 : (k + 1) * width] = mine[:, 1:] / np.maximum(count, 1.0)
    return out[inverse.ravel()]


def reference_modern_matrix(tree: PageTree, rows: np.ndarray, hashed: np.ndarray) -> np.ndarray:
    """features._modern_matrix in numpy, a few passes per landmark (the code modern_columns replaced)."""
    n = len(tree)
    attributes = tree.marked_attributes()
    landmark = np.fromiter(map(features._LANDMARK_OF_TAG.get, tree.tags, itertools.repeat(-1)), dtype=np.int64, count=n)
    # One pass over the few marked elements: their role's landmark, and whether they hide.
    role_element: list[int] = []
    role_landmark: list[int] = []
    aria_hidden: list[int] = []
    for i in tree.marked():
        a = attributes[i]
        k = features._LANDMARK_OF_ROLE.get((a.get("role") or "").lower())
        if k is not None:
            role_element.append(i)
            role_landmark.append(k)
        if a.get("aria-hidden") == "true" or "hidden" in a:
            aria_hidden.append(i)
    by_role = np.asarray(role_element, dtype=np.int64)
    role_of = np.asarray(role_landmark, dtype=np.int64)
    out = np.zeros((len(rows), len(features.MODERN_COLUMNS)))
    chars = tree.subtree_sums(tree.own_chars)
    total = max(float(chars[0]), 1.0)
    for k in range(len(features._LANDMARKS)):
        starts = landmark == k
        starts[by_role[role_of == k]] = True
        roots = np.flatnonzero(starts)
        out[:, k] = _reference_inside(tree, roots)[rows]
        if k == 0:
            out[:, 9] = chars[roots].max(initial=0.0) / total
        elif k == 1:
            out[:, 8] = np.log1p(len(roots))
            if len(roots):
                out[:, 7] = _reference_inside(tree, roots[np.argmax(chars[roots])][None])[rows]
    out[:, 6] = _reference_inside(tree, np.asarray(aria_hidden, dtype=np.int64))[rows]
    out[:, 10] = features._og_article(tree.elements[0])
    out[:, 11] = hashed[rows]
    out[:, 12] = hashed.mean() if n else 0.0
    return out


def _reference_inside(tree: PageTree, roots: np.ndarray) -> np.ndarray:
    # A subtree is a stretch of the document order: count the roots open at each element.
    if not len(roots):
        return np.zeros(len(tree))
    n = len(tree) + 1
    inside = np.bincount(roots, minlength=n) - np.bincount(tree.last[roots] + 1, minlength=n)
    return (np.cumsum(inside[:-1]) > 0).astype(np.float64)


def reference_page_features(tree: PageTree, unit: str = "blocks", *, n_hash: int = N_HASH, modern: bool = True) -> tuple[Features, np.ndarray]:
    """features.page_features with the per-element counts above (the groups' other parts are shared)."""
    node, level_base, tokens, hashed = reference_node_matrix(tree, modern)
    spans = None
    if unit == "blocks":
        rows = tree.owner
        text = reference_block_text_features(tree)
    else:
        chars = tree.subtree_sums(tree.own_chars)
        rows = np.flatnonzero(chars > 0)
        text = reference_tag_text_features(tree, rows, chars)
    landmarks = reference_modern_matrix(tree, rows, hashed) if modern else None
    ancestors = reference_ancestors(tree, rows)
    if unit == "blocks":
        spans = reference_block_spans(tree, np.column_stack([rows, ancestors]))
    levels = reference_descendant_levels(tree, level_base, rows)
    parts = [node[rows], node[ancestors].reshape(len(rows), -1), levels, text]
    if landmarks is not None:
        parts.append(landmarks)
    dense = np.empty((len(rows), sum(p.shape[1] for p in parts)), dtype=np.float32)
    start = 0
    for part in parts:
        dense[:, start : start + part.shape[1]] = part
        start += part.shape[1]
    return Features(dense, reference_row_tokens(tokens, rows, ancestors, n_hash), np.zeros(len(rows), dtype=np.int64), spans), rows


# --- The tests ---------------------------------------------------------------------------------


def assert_same(native: tuple[Features, np.ndarray], reference: tuple[Features, np.ndarray]) -> None:
    (ours, our_rows), (theirs, their_rows) = native, reference
    assert our_rows.dtype == their_rows.dtype and np.array_equal(our_rows, their_rows)
    assert ours.dense.dtype == theirs.dense.dtype == np.float32
    assert ours.dense.shape == theirs.dense.shape
    assert ours.dense.tobytes() == theirs.dense.tobytes()
    for name in ("indptr", "indices", "data"):
        a, b = getattr(ours.hashed, name), getattr(theirs.hashed, name)
        assert a.dtype == b.dtype and np.array_equal(a, b), name
    assert ours.hashed.shape == theirs.hashed.shape
    assert (ours.spans is None) == (theirs.spans is None)
    if ours.spans is not None and theirs.spans is not None:
        assert ours.spans.dtype == theirs.spans.dtype and np.array_equal(ours.spans, theirs.spans)
    assert ours.page is not None and theirs.page is not None and np.array_equal(ours.page, theirs.page)


def check(body: etree._Element, n_hashes: tuple[int, ...] = (N_HASH, 64), proxies_: tuple[bool, ...] = (True, False)) -> int:
    """Compare every variant of one page's features; the number compared (a page without text has no rows)."""
    compared = 0
    for proxies in proxies_:
        tree = walk(body, proxies=proxies)
        for unit, modern, n_hash in itertools.product(("blocks", "tags"), (False, True), n_hashes):
            try:
                reference = reference_page_features(tree, unit, n_hash=n_hash, modern=modern)
            except ValueError:
                # No rows (no text): both refuse (predict_blocks never asks for such a page's rows).
                assert not tree.blocks
                with pytest.raises(ValueError, match="no feature rows"):
                    page_features(tree, unit, n_hash=n_hash, modern=modern)
                continue
            assert_same(page_features(tree, unit, n_hash=n_hash, modern=modern), reference)
            compared += 1
    return compared


@pytest.mark.parametrize(
    "page",
    [
        "<html><body>text only</body></html>",
        "<html><body><div></div></body></html>",
        "<html><body><div class='NavBar nav-bar post-1234' id='mainContent'><p class='HTMLHeader'>a</p></div></body></html>",
        # CSS-in-JS names (dropped from the tokens with the modern group), camelCase runs, digits, non-ASCII.
        "<html><body><div class='sc-1pfx6hk-0 bXYFQI title__3xY7z css-1dbjc4n'><p class='iPhone kGrvJE ABCdef aB1cD'>x</p>"
        "<p class='é\u00a0ü–x\u2003y' id='\u0663\u0664abc'>y</p></div></body></html>",
        # Marking attributes: itemprop and role (with another attribute, and alone), hidden, styles.
        "<html><body><article itemprop='articleBody' role='main'><h1 itemprop='headline'>t</h1><p role='note' class='x'>b</p>"
        "<div hidden class='a'>h</div><span style='display: none' id='s'>s</span><nav role='navigation'><a href='/'>l</a></nav>"
        "</article></body></html>",
        # Same-tag siblings, unknown tags, deep nesting (ancestors past the body).
        "<html><body><ul><li>a</li><li>b</li><li>c</li></ul><x-card><x-card>u</x-card></x-card>"
        + "<div class='d'>" * 12
        + "deep"
        + "</div>" * 12
        + "</body></html>",
        # A long class value: many tokens, and a token longer than the native stack buffer.
        "<html><body><p class='" + " ".join(f"tok{k}x" for k in range(400)) + " " + "a" * 600 + "'>long</p></body></html>",
        # Prose and links: the prose share and link density columns.
        "<html><body><div><p>" + "word " * 30 + "</p><p><a href='/'>" + "link " * 30 + "</a></p></div></body></html>",
    ],
    ids=["text-only", "no-blocks", "camel", "hashed-names", "marking", "siblings-deep", "long-class", "prose"],
)
def test_the_native_features_equal_the_reference(page: str) -> None:
    body = body_of(page)
    assert check(body) > 0 or not body.text_content()


def test_an_xml_tree_and_a_tree_built_by_hand_equal_the_reference() -> None:
    root = etree.fromstring(b"<body xmlns:x='urn:x'><div x:class='n' class='Ab cD' x:role='r'>a<p>b</p></div><x:div id='i'>d<p>e</p></x:div></body>")
    assert check(root) > 0
    # An attribute value of several nodes (an entity not substituted): read through lxml, not the text node.
    parser = etree.XMLParser(resolve_entities=False)
    entity = etree.fromstring(b'<!DOCTYPE body [<!ENTITY e "NavBar">]><body><div class="a &e; bC" id="&e;">x</div></body>', parser)
    assert entity[0].get("class") == "a NavBar bC"
    assert check(entity) > 0
    built = etree.Element("body")
    etree.SubElement(built, "p", {"class": "madeByHand", "itemprop": "name", "role": "heading"}).text = "made by hand"
    assert check(built) > 0


# Class and id values: names, camelCase, generated hashes, digits, punctuation and non-ASCII.
NAME_PARTS = ["nav", "Bar", "HTML", "x", "1234", "-", "_", "__", " ", "\t", "\u00a0", "é", "ü", "\u0663", "sc", "1pfx6hk",
              "bXYFQI", "kGrvJE", "3xY7z", "iPhone", "post1234", "ABCdef", "aB", "Q", "zz9"]  # fmt: skip
names = st.lists(st.sampled_from(NAME_PARTS), max_size=6).map("".join)


@settings(max_examples=300, deadline=None)
@given(names, st.sampled_from([1, 7, 64, N_HASH]), st.booleans())
def test_an_attribute_values_counts_and_columns_are_the_tokens_definitions(value: str, n_hash: int, modern: bool) -> None:
    # One element whose class and id are ``value``: its counts and hashed columns against the
    # regular expressions' tokens (features.name_tokens / attribute_tokens) hashed one by one.
    element = etree.Element("div", {"class": value, "id": value})
    columns, tokens = element_columns([element], ["div"], {0: value}, _TAG_INDEX, N_TAGS - 1, n_hash, modern)
    expected = (name_tokens if modern else attribute_tokens)(value)
    assert columns[0].tolist() == [
        len(value),
        len(value.split()),
        len(value),
        3 * len(expected),
        _TAG_INDEX["div"],
        0,  # the page's first tag
        modern and _hashed_class(value),
    ]
    indptr, indices = row_tokens(tokens, np.zeros(1, dtype=np.int64), np.zeros((1, 1), dtype=np.int64))
    want = hash_tokens([list(expected) + [f"^{t}" for t in expected]], n_hash)
    assert indptr.tolist() == want.indptr.tolist() and indices.tolist() == want.indices.tolist()


def test_row_tokens_equal_hash_tokens_of_each_rows_tokens() -> None:
    # The reference's own check: a row's set is its element's tokens and its ancestors' marked "^".
    body = body_of("<html><body><div class='story main'><p class='entry'>a</p><p id='x-1'>b<span class='Note'>c</span></p></div></body></html>")
    tree = walk(body)
    tokens = reference_node_matrix(tree)[2]
    ancestors = reference_ancestors(tree, tree.owner)
    docs = [list(tokens[r]) + [f"^{x}" for a in up for x in tokens[a]] for r, up in zip(tree.owner, ancestors)]
    fast, slow = features.page_features(tree, "blocks", n_hash=64)[0].hashed, hash_tokens(docs, 64)
    assert (fast.indptr == slow.indptr).all() and (fast.indices == slow.indices).all() and (fast.data == slow.data).all()


def test_block_counts_read_each_blocks_text_and_links() -> None:
    tree = walk(body_of("<html><body><p>one two  three</p><p><a href='/'>link</a> é x</p></body></html>"))
    expected = [[len(b.text) for b in tree.blocks], [b.text.count(" ") + 1 for b in tree.blocks], [b.link_chars for b in tree.blocks]]
    assert block_counts(tree.blocks).tolist() == expected


@pytest.mark.parametrize("step", [1, 2])
def test_node_rows_with_tags_are_numpys_assignments(step: int) -> None:
    # with_tags writes a level's columns as one run where they are side by side (the features' rows, step 1),
    # value by value through the strides otherwise: both are numpy's fancy-indexed assignments, cast to float32.
    rng = np.random.default_rng(7)
    n, width, rows, levels = 40, 5, 23, 6
    numeric = rng.normal(size=(n, width)) * 10.0 ** rng.integers(-8, 8, size=(n, width))
    tag = rng.integers(0, N_TAGS, size=n).astype(np.int64)
    index = rng.integers(0, n, size=(rows, levels)).astype(np.int64)
    whole = np.full((rows, levels, (width + N_TAGS) * step), -7.0, dtype=np.float32)
    out = whole[:, :, ::step]
    with_tags(numeric, tag, index, out)
    reference = np.zeros((rows, levels, width + N_TAGS), dtype=np.float32)
    reference[:, :, :width] = numeric[index]
    reference[np.arange(rows)[:, None], np.arange(levels)[None, :], width + tag[index]] = 1.0
    assert np.array_equal(out, reference) and out.tobytes() == reference.tobytes()
    if step == 2:
        assert (whole[:, :, 1::2] == -7.0).all()  # the columns between are not written


def test_bad_arguments_are_refused_not_read_out_of_bounds() -> None:
    element = etree.Element("p")
    columns, tokens = element_columns([element], ["p"], {}, _TAG_INDEX, N_TAGS - 1, 64, False)
    with pytest.raises(IndexError):
        row_tokens(tokens, np.array([1], dtype=np.int64), np.zeros((1, 5), dtype=np.int64))
    with pytest.raises(ValueError):
        element_columns([element], [], {}, _TAG_INDEX, N_TAGS - 1, 64, False)
    with pytest.raises(IndexError):
        element_columns([element], ["p"], {3: "x"}, _TAG_INDEX, N_TAGS - 1, 64, False)
    with pytest.raises(TypeError):
        element_columns(["not an element"], ["p"], {}, _TAG_INDEX, N_TAGS - 1, 64, False)
    one, zero, minus = (np.array([v], dtype=np.int64) for v in (1, 0, -1))
    base = np.ones((1, 6))
    with pytest.raises(IndexError):
        descendant_levels(one, minus, zero, zero, base, zero, 5, N_TAGS)  # a row past the elements
    with pytest.raises(ValueError):
        descendant_levels(zero, minus, zero, one, base, zero, 5, N_TAGS)  # a subtree past the elements
    with pytest.raises(ValueError):
        descendant_levels(zero, minus, zero, zero, base, np.array([N_TAGS], dtype=np.int64), 5, N_TAGS)  # a tag past the columns
    with pytest.raises(ValueError):
        descendant_levels(zero, minus, zero, zero, np.ones((2, 6)), zero, 5, N_TAGS)  # lengths differ
    counts = np.zeros((1, 7), dtype=np.int64)
    blocks = np.zeros((3, 1), dtype=np.int64)
    with pytest.raises(IndexError):
        node_numeric(minus, zero, zero, zero, zero, zero, zero, zero, one, blocks, counts, np.zeros(1), np.zeros(1), 10, 0.3)
    with pytest.raises(ValueError):
        node_numeric(minus, zero, zero, zero, zero, zero, zero, one, zero, blocks, counts, np.zeros(1), np.zeros(1), 10, 0.3)
    with pytest.raises(ValueError):
        node_numeric(zero, zero, zero, zero, zero, zero, zero, zero, zero, blocks, counts, np.zeros(1), np.zeros(1), 10, 0.3)
    with pytest.raises(ValueError):
        node_numeric(minus, zero, zero, zero, zero, zero, zero, zero, zero, np.zeros((3, 2), dtype=np.int64), counts,
                     np.zeros(1), np.zeros(1), 10, 0.3)  # fmt: skip
    out = np.zeros((1, 1, 3 + N_TAGS), dtype=np.float32)
    with pytest.raises(IndexError):
        with_tags(np.ones((1, 3)), zero, np.ones((1, 1), dtype=np.int64), out)  # an element past the rows
    with pytest.raises(IndexError):
        with_tags(np.ones((1, 3)), np.array([N_TAGS], dtype=np.int64), np.zeros((1, 1), dtype=np.int64), out)  # a tag past the columns
    with pytest.raises(ValueError):
        with_tags(np.ones((1, 3)), zero, np.zeros((2, 1), dtype=np.int64), out)  # rows differ
    u8 = np.zeros(1, dtype=np.uint8)
    with pytest.raises(IndexError):
        modern_columns(["p"], {}, u8, zero, zero, one, np.zeros(1), 6)  # a row past the elements
    with pytest.raises(ValueError):
        modern_columns(["p"], {}, u8, zero, one, zero, np.zeros(1), 6)  # a subtree past the elements
    with pytest.raises(ValueError):
        modern_columns(["p"], {"p": 6}, u8, zero, zero, zero, np.zeros(1), 6)  # a landmark past the columns
    with pytest.raises(ValueError):
        modern_columns(["p", "p"], {}, u8, zero, zero, zero, np.zeros(1), 6)  # lengths differ
    with pytest.raises(ValueError):
        modern_columns(["p"], {}, u8, zero, zero, zero, np.zeros(1), 7)  # not the columns' landmarks
    with pytest.raises(IndexError):
        page_rows(one, minus, zero, 5, True)  # a row past the elements
    with pytest.raises(IndexError):
        page_rows(zero, minus, one, 5, True)  # a block's owner past the elements
    with pytest.raises(ValueError):
        page_rows(zero, zero, zero, 5, True)  # an element its own parent
    with pytest.raises(ValueError):
        page_rows(zero, minus, zero, -1, True)


# Generated pages: nested elements with class, id and marking attributes drawn from the names above.
TAGS = ["div", "p", "span", "a", "li", "ul", "h1", "section", "article", "nav", "footer", "main", "aside", "header", "x-card", "b", "form", "dialog"]
WORDS = ["word", "x", "é", " ", "\n", "\xa0", "A sentence of several words.", "&amp;"]
texts = st.lists(st.sampled_from(WORDS), max_size=6).map("".join)
attributes = st.tuples(
    st.sampled_from(["", "class", "id"]),
    names,
    st.sampled_from(["", " itemprop='headline'", " role='main'", " role='navigation'", " hidden", " aria-hidden='true'",
                     " style='display:none'", " itemprop='author' role='note'", " data-x='1'",
                     # The other landmarks' roles (the modern group), one in capitals, and a hidden role.
                     " role='Complementary'", " role='dialog'", " role='search' aria-hidden='true'", " role='banner'"]),
).map(lambda a: (f" {a[0]}='{a[1]}'" if a[0] else "") + a[2])  # fmt: skip
leaves = texts | st.sampled_from(["<!-- c -->", "<br>", "<img src=x>"])


def _element(tag: str, attrs: str, children: list[str]) -> str:
    return f"<{tag}{attrs}>{''.join(children)}</{tag}>"


fragments = st.recursive(leaves, lambda inner: st.builds(_element, st.sampled_from(TAGS), attributes, st.lists(inner, max_size=4)), max_leaves=30)
HEAD = "<html><head><meta property='og:type' content='article'></head><body>"
pages = st.lists(fragments, max_size=5).map(lambda parts: HEAD + "".join(parts) + "</body></html>")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages)
def test_generated_pages_have_the_reference_features(page: str) -> None:
    check(body_of(page), n_hashes=(N_HASH,))


# --- The shared datasets' pages ----------------------------------------------------------------


def _check_pages(every: bool) -> int:
    compared = 0
    for pages in dataset_pages(every).values():
        for body in bodies(pages):
            # The walk extraction makes (elements made on access), the shipped model's n_hash.
            compared += check(body, n_hashes=(N_HASH,), proxies_=(False,))
    return compared


@pytest.mark.datasets
def test_a_sample_of_every_dataset_has_the_reference_features() -> None:
    skip_without_datasets()
    assert _check_pages(every=False) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_has_the_reference_features() -> None:
    skip_without_datasets()
    assert _check_pages(every=True) > 0


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages)
def test_the_marked_elements_read_without_names_are_those_read_with_them(page: str) -> None:
    # The features read class and id in C: PageTree.marked() then reads no str of either.
    from forest.classifier._walk import read_names
    from forest.classifier.blocks import MARKING

    tree = walk(body_of(page), proxies=False)
    assert isinstance(tree.elements, Nodes)
    classes, ids, marked, attributes = read_names(tree.elements, MARKING)
    assert read_names(tree.elements, MARKING, False) == ([], [], marked, attributes)
    assert (tree.marked(), tree.marked_attributes()) == (marked, attributes) and tree._names is None


# --- The descendant levels' rows gathered into the float32 features (gather_rows) ---------------


@given(st.integers(0, 6), st.integers(0, 5), st.integers(0, 9), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_gathered_rows_are_numpys_gather_cast_to_float32(n: int, columns: int, rows: int, offset: int, seed: int) -> None:
    # Values of every magnitude (float32 rounding, overflow to inf, subnormals), into a strided view as page_features' is.
    rng = np.random.default_rng(seed)
    source = rng.normal(size=(max(n, 1), columns)) * 10.0 ** rng.integers(-45, 40, size=(max(n, 1), columns))
    index = rng.integers(0, max(n, 1), size=rows).astype(np.int64)
    wide = np.zeros((rows, offset + columns + 2), dtype=np.float32)
    expected = wide.copy()
    transposed = np.zeros((columns, rows), dtype=np.float32).T  # a view whose rows are not contiguous
    with np.errstate(over="ignore"):  # numpy's cast of a value past float32's range is inf, as C's
        expected[:, offset : offset + columns] = source[index]
        cast = source[index].astype(np.float32)
    gather_rows(source, index, wide[:, offset : offset + columns])
    gather_rows(source, index, transposed)
    assert wide.tobytes() == expected.tobytes()
    assert np.ascontiguousarray(transposed).tobytes() == cast.tobytes()


def test_gather_rows_refuses_bad_arrays() -> None:
    source = np.zeros((3, 2))
    with pytest.raises(ValueError, match="out's shape"):
        gather_rows(source, np.zeros(2, dtype=np.int64), np.zeros((2, 3), dtype=np.float32))
    with pytest.raises(IndexError, match="out of range"):
        gather_rows(source, np.asarray([0, 3], dtype=np.int64), np.zeros((2, 2), dtype=np.float32))
