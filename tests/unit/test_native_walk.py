"""The native page pass (forest.classifier._walk) against its reference, the walk in Python over lxml's elements.

``reference_walk`` below is the walk forest ran before the pass was native, kept as the
definition of PageTree: the native walk must equal it on every array, tag, block, owner and
piece, over generated HTML fragments (hypothesis) and a fixed sample of every shared dataset's
pages (``-m bench``: all of them).  Also here: the lazily made elements, the attributes read
from libxml2, the children's sums of the features, the lxml version check at import, and the
one-line error of a build without a C compiler (``-m bench``: pip sets up a build environment).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from dataset_pages import bodies, body_of, dataset_pages, skip_without_datasets
from forest.classifier.blocks import MARKING, PageTree, walk
from patterns.text import BLOCK_TAGS, Block

ROOT = Path(__file__).resolve().parents[2]


# --- The reference: the walk in Python (numpy over lxml's element lists) -------------------


def reference_walk(body: etree._Element, *, keep_pieces: bool = False) -> PageTree:
    """The walk in Python over lxml's elements: what forest.classifier.blocks.walk computes in C.

    :param keep_pieces: also keep every text run with its element and block (for labels).
    """
    # lxml lists the elements and their strings in C; the walk's order of events is then
    # rebuilt with numpy, which is 2-3x faster than reacting to each event of an iterwalk
    # in Python.  Like iterwalk, iter(Element) never shows comments, nor so their tails.
    elements = list(body.iter(etree.Element))
    n = len(elements)
    tags = [e.tag for e in elements]
    index = {e: i for i, e in enumerate(elements)}
    parent = np.asarray([index.get(e.getparent(), -1) for e in elements], dtype=np.int64)
    parent[0] = -1
    is_block = np.fromiter(map(BLOCK_TAGS.__contains__, tags), dtype=bool, count=n)
    is_link = np.fromiter(map("a".__eq__, tags), dtype=bool, count=n)
    depth, last, in_link, block_owner = _structure(parent, is_block, is_link)
    ev_element, ev_end = _events(depth, last)
    runs = _Runs.of(elements, ev_element, ev_end, parent, is_block)
    run_link = runs.chars * in_link[runs.element]
    own_words = np.zeros(len(runs.text), dtype=np.int64)
    # Most runs are only whitespace (indentation between tags): no words, no block text.
    real = runs.chars > 0
    words = map(len, map(str.split, itertools.compress(runs.text, real.tolist())))
    own_words[real] = np.fromiter(words, dtype=np.int64, count=int(real.sum()))

    # The owner of a group is the innermost block-level element open when its closing boundary
    # comes: the element itself at its end, its enclosing block (or the body) at its start.
    closing = np.flatnonzero(is_block[ev_element])
    closer = ev_element[closing]
    # After the last boundary, the final flush: the body's (index 0).
    group_owner = np.append(np.where(ev_end[closing], closer, block_owner[np.maximum(parent[closer], 0)]), 0)
    blocks, owner, block_of_group = _blocks(runs, run_link, group_owner)
    pieces: list[tuple[int, int, str]] = []
    if keep_pieces:
        pieces = [(e, block_of_group.get(g, -1), t) for e, g, t in zip(runs.element.tolist(), runs.group.tolist(), runs.text)]
    return PageTree(
        elements=elements,
        tags=tags,
        parent=parent,
        depth=depth,
        position=_positions(parent, n),
        n_children=np.bincount(parent[1:], minlength=n).astype(np.int64),
        own_chars=np.bincount(runs.element, weights=runs.chars, minlength=n).astype(np.int64),
        own_link_chars=np.bincount(runs.element, weights=run_link, minlength=n).astype(np.int64),
        own_words=np.bincount(runs.element, weights=own_words, minlength=n).astype(np.int64),
        blocks=blocks,
        owner=np.asarray(owner, dtype=np.int64),
        pieces=pieces,
        last=last,
    )


def _events(depth: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The walk's start and end events in document order: the element of each, and whether it ends.

    Element i starts (key i), then the elements whose subtree ends at i end, deepest first.
    """
    n = len(depth)
    element = np.arange(n)
    ev_element = np.concatenate([element, element])
    ev_end = np.repeat(np.array([False, True]), n)
    order = np.lexsort((np.concatenate([np.zeros(n, np.int64), -depth]), ev_end, np.concatenate([element, last])))
    return ev_element[order], ev_end[order]


@dataclass(frozen=True, slots=True)
class _Runs:
    """The non-empty text runs of a walk, in document order (an element's text follows its
    start event, its tail its end event)."""

    text: list[str]
    element: np.ndarray  # whose own text the run is: a tail is the parent's text
    group: np.ndarray  # block boundaries (block-level starts and ends) before the run
    chars: np.ndarray  # characters without the surrounding whitespace

    @staticmethod
    def of(elements: list[etree._Element], ev_element: np.ndarray, ev_end: np.ndarray, parent: np.ndarray, is_block: np.ndarray) -> _Runs:
        n = len(elements)
        strings: list[str | None] = [e.text for e in elements] + [e.tail for e in elements]
        strings[n] = None  # the body's tail is not its text
        string_of_event = ev_element + n * ev_end
        at = np.flatnonzero(np.fromiter(map(bool, strings), dtype=bool, count=2 * n)[string_of_event])
        text = [strings[k] for k in string_of_event[at].tolist()]
        element = np.where(ev_end[at], parent[ev_element[at]], ev_element[at])
        group = np.cumsum(is_block[ev_element])[at]
        chars = np.fromiter(map(len, map(str.strip, text)), dtype=np.int64, count=len(text))
        return _Runs(text, element, group, chars)


def _blocks(runs: _Runs, run_link: np.ndarray, group_owner: np.ndarray) -> tuple[list[Block], list[int], dict[int, int]]:
    """The blocks (the whitespace-normalized text of each group with any), their owners, and the block of each such group."""
    if not runs.text:
        return [], [], {}
    first = np.flatnonzero(np.diff(runs.group, prepend=-1))
    links = np.add.reduceat(run_link, first).tolist()
    # Only a group with a non-blank run has text: the others would normalize to nothing.
    with_text = np.flatnonzero(np.add.reduceat(runs.chars, first) > 0).tolist()
    groups = runs.group[first].tolist()
    bounds = np.append(first, len(runs.text)).tolist()
    owners = group_owner.tolist()
    blocks: list[Block] = []
    owner: list[int] = []
    block_of_group: dict[int, int] = {}
    for k in with_text:
        text = " ".join("".join(runs.text[bounds[k] : bounds[k + 1]]).split())
        block_of_group[groups[k]] = len(blocks)
        blocks.append(Block(text, min(links[k], len(text))))
        owner.append(owners[groups[k]])
    return blocks, owner, block_of_group


def _structure(parent: np.ndarray, is_block: np.ndarray, is_link: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per element: depth, last element of its subtree, whether it is inside an <a> (or one), and
    its innermost block-level ancestor-or-self (the body when none).

    By pointer jumping: each round doubles how far up every element looks, so a page of depth d
    takes log2(d) rounds of numpy instead of a Python step per element.
    """
    n = len(parent)
    up = np.maximum(parent, 0)
    # Depth: the distance to the body, summed over jumps of doubling length.
    depth = (parent >= 0).astype(np.int64)
    jump = up.copy()
    while jump.any():
        depth += depth[jump]
        jump = jump[jump]
    # A subtree ends just before the next sibling of its nearest ancestor-or-self that has one
    # (elements are in document order), or with the page.
    order = np.argsort(parent[1:], kind="stable") + 1
    following = np.full(n, n, dtype=np.int64)
    same = parent[order[1:]] == parent[order[:-1]]
    following[order[:-1][same]] = order[1:][same]
    has_next = following < n
    anchor = _nearest(up, has_next)
    last = np.where(has_next[anchor], following[anchor], n) - 1
    link = is_link[_nearest(up, is_link)]
    block = _nearest(up, is_block)
    return depth, last, link, block


def _nearest(up: np.ndarray, marked: np.ndarray) -> np.ndarray:
    # The nearest ancestor-or-self of each element that is ``marked``, else the body (0).
    target = np.where(marked, np.arange(len(up)), up)
    target[0] = 0
    while True:
        further = target[target]
        if np.array_equal(further, target):
            return target
        target = further


def _positions(parent: np.ndarray, n: int) -> np.ndarray:
    # Elements come in document order, so siblings appear in order: a stable sort by parent
    # lines each family up, and an element's position is its offset from its family's first.
    position = np.zeros(n, dtype=np.int64)
    order = np.argsort(parent[1:], kind="stable")
    grouped = parent[1:][order]
    position[1 + order] = np.arange(n - 1) - np.searchsorted(grouped, grouped, side="left")
    return position


# --- The tests ---

ARRAYS = ("parent", "depth", "position", "n_children", "own_chars", "own_link_chars", "own_words", "last", "owner")


def assert_same(native: PageTree, reference: PageTree) -> None:
    """Every field of the two walks is equal: the same element objects, tags, arrays (values and dtype), blocks and pieces."""
    assert len(native.elements) == len(reference.elements)
    assert all(a is b for a, b in zip(native.elements, reference.elements))
    assert native.tags == reference.tags
    for name in ARRAYS:
        ours, theirs = getattr(native, name), getattr(reference, name)
        assert ours.dtype == theirs.dtype == np.int64, name
        assert np.array_equal(ours, theirs), name
    assert native.blocks == reference.blocks
    assert native.pieces == reference.pieces
    # What the walk counted and listed of its blocks as it wrote them: the blocks' own (Block.words, link_chars).
    counts = native.block_counts()
    assert counts.dtype == np.int64 and counts.shape == (3, len(reference.blocks))
    assert counts.tolist() == [[len(b.text) for b in reference.blocks], [b.words for b in reference.blocks],
                               [b.link_chars for b in reference.blocks]]
    assert native.block_texts() == [b.text for b in reference.blocks]


def check(body: etree._Element) -> None:
    for keep_pieces in (False, True):
        reference = reference_walk(body, keep_pieces=keep_pieces)
        assert_same(walk(body, keep_pieces=keep_pieces), reference)
        assert_same(walk(body, keep_pieces=keep_pieces, proxies=False), reference)
    check_attributes(body)


def check_attributes(body: etree._Element) -> None:
    """The attribute reads in C equal what lxml's items() gives, element by element."""
    attributes = [dict(e.items()) for e in body.iter(etree.Element)]
    marked = [i for i, a in enumerate(attributes) if not MARKING.isdisjoint(a)]
    for tree in (walk(body), walk(body, proxies=False)):
        assert tree.attributes() == attributes
        assert tree.class_and_id() == ([a.get("class") or "" for a in attributes], [a.get("id") or "" for a in attributes])
        assert tree.marked() == marked
        assert tree.marked_attributes() == {i: attributes[i] for i in marked}


@pytest.mark.parametrize(
    "page",
    [
        "<html><body></body></html>",
        "<html><body>text only</body></html>",
        "<html><body><div>a<br>b<span>c<p>d</p>e</span></div><!-- x -->tail</body></html>",
        # A link across a block boundary, and link text in a tail outside the link.
        "<html><body><a href='#'>one <p>two</p> three</a> four<a>five</a>six</body></html>",
        # Python's whitespace beyond ASCII: no-break space, ideographic space, \x1c-\x1f, U+2028.
        "<html><body><p>\xa0a\u3000b\x1cc\u2028</p><p>\xa0\u3000</p><div>\x1f\x1e</div>\n \t</body></html>",
        "<html><body>\n<ul>\n <li>one</li>\n <li> two <b>2</b>\n</li></ul>\n\n<table><tr><td>c</td></tr></table></body></html>",
        "<html><body><p>a <em>b <strong>c</strong> d</em> e</p><custom-tag>x<p>y</p>z</custom-tag></body></html>",
        "<html><body><svg><text>drawn</text></svg><math><mi>x</mi></math>after</body></html>",
        "<html><body>" + "<div>" * 200 + "deep" + "</div>" * 200 + "</body></html>",
    ],
    ids=["empty", "text-only", "comment-tail", "links", "unicode-space", "indented", "inline", "foreign", "deep"],
)
def test_the_native_walk_equals_the_reference(page: str) -> None:
    check(body_of(page))


def test_every_latin1_character_and_a_wider_ones_runs_walk_as_the_reference() -> None:
    # The walk reads a text as its kind of str holds it (1, 2 or 4 bytes a character), Latin-1
    # characters' whitespace by table: each such character, in a text of every kind, between letters,
    # alone and around a run's ends, counts and joins as the reference's str.split() does.
    wider = ["", "中", "\U0001f600"]
    for code in [*range(1, 256), 0x1680, 0x2000, 0x200B, 0x2028, 0x3000, 0xFEFF, 0x1F600]:
        c = chr(code)
        for extra in wider:
            page = f"<html><body><p>a{c}b {c}{extra}</p><p>{c}</p><div>{c}x{c}<b>{extra}{c}</b>{c}</div></body></html>"
            try:
                body = body_of(page)
            except Exception:  # a character the parser refuses: nothing to walk
                continue
            check(body)


def test_a_walk_from_any_element_equals_the_reference() -> None:
    body = body_of("<html><body><a href='/'>x<div>in <b>a</b></div>tail</a><div id=d>d<p>p</p>t</div></body></html>")
    for element in body.iter(etree.Element):
        check(element)


def test_namespaced_and_xml_trees_equal_the_reference() -> None:
    # An XML tree: namespaced tags ("{uri}div" is not block-level), CDATA and a split text node.
    root = etree.fromstring(
        b"<body xmlns:x='urn:x'><div x:class='n' class='c' x:role='r'>a<![CDATA[ b ]]>c</div><x:div id='i'>d<p>e</p></x:div>"
        b"<?pi data?>f<a><p>g</p></a></body>",
        etree.XMLParser(strip_cdata=False),
    )
    check(root)
    built = etree.Element("body")
    etree.SubElement(built, "p").text = "made by hand"
    etree.SubElement(built, "div").tail = " and a tail "
    check(built)


def test_thousands_of_element_names_walk_as_the_reference() -> None:
    # The walk's tag entries are found by the address of libxml2's name, in a direct-mapped cache of a few
    # hundred slots before a dict that is emptied past MAX_TAGS names: pages whose names collide in the
    # slots, then enough names to empty both, then the first pages again (their names' addresses reused).
    def page(names: list[str]) -> str:
        return "<html><body>" + "".join(f"<{n}>{n} text<p>in</p></{n}>" for n in names) + "</body></html>"

    names = [f"x-tag{k}" for k in range(5000)]
    for start in (*range(0, 5000, 500), 0, 250):
        body = body_of(page(names[start: start + 500] + ["div", "p", "a", "x-tag0"]))
        check(body)
        assert walk(body).tags == [e.tag for e in body.iter()]


# Generated pages: nested block-level, inline, link and unknown elements with attributes, text with
# every kind of whitespace, comments (whose tails the walk never sees) and entities.
TAGS = ["div", "p", "span", "a", "b", "li", "ul", "td", "tr", "table", "br", "h1", "section", "em", "font", "x-card", "nav"]
WORDS = ["word", "x", "é", "中文", "\U0001f600", " ", "  ", "\n", "\t", "\xa0", "\x85", "\u3000", "\x1c", "&amp;", "&nbsp;", "&#160;", "a.b"]
ATTRIBUTES = [
    "", " class='story main'", " id='x'", " role='navigation'", " itemprop='headline'", " style='display:none'", " hidden",
    " class='' id=''", " aria-hidden='true' class='a'", " href='/' itemprop='url' role='link' id='l'", " xml:lang='en' data-role='x'",
    # Values read from their text node in C, or by lxml: entities, a repeated name, characters past ASCII, empty values.
    " title='a &amp; b &#233;&nbsp;' role='main'", " class='a' class='b' style=\"color:red\"", " data-x='中文 é' itemprop=''",
    " alt=x hidden=''",
]
texts = st.lists(st.sampled_from(WORDS), max_size=6).map("".join)
leaves = texts | st.sampled_from(["<!-- c -->", "<br>", "<img src=x>"])


def _element(tag: str, attributes: str, children: list[str]) -> str:
    return f"<{tag}{attributes}>{''.join(children)}</{tag}>"


fragments = st.recursive(
    leaves, lambda inner: st.builds(_element, st.sampled_from(TAGS), st.sampled_from(ATTRIBUTES), st.lists(inner, max_size=4)), max_leaves=30
)
pages = st.lists(fragments, max_size=5).map(lambda parts: "<html><body>" + "".join(parts) + "</body></html>")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages)
def test_generated_pages_walk_as_the_reference(page: str) -> None:
    body = body_of(page)
    check(body)
    for child in body:  # and from an element inside the body
        if isinstance(child.tag, str):
            check(child)


def test_lazy_elements_are_the_elements_and_attributes_read_from_libxml2_equal_lxmls() -> None:
    body = body_of("<html><body><div class='a b' id=x data-k='v'>t<p hidden>p</p><!-- c --><a href='/'>l</a></div></body></html>")
    eager, lazy = walk(body), walk(body, proxies=False)
    assert isinstance(eager.elements, list)
    assert list(lazy.elements) == eager.elements and lazy.elements == eager.elements
    assert lazy.elements[-1] is eager.elements[-1] and lazy.elements[1:3] == eager.elements[1:3]
    assert list(reversed(lazy.elements)) == eager.elements[::-1]
    assert lazy.elements.index(eager.elements[2]) == 2 and eager.elements[3] in lazy.elements and body.getparent() not in lazy.elements
    with pytest.raises(IndexError):
        lazy.elements[len(eager)]
    expected = [dict(e.items()) for e in body.iter(etree.Element)]
    assert eager.attributes() == lazy.attributes() == expected
    assert expected[1] == {"class": "a b", "id": "x", "data-k": "v"}
    assert eager.marked() == lazy.marked() == [2]


def test_lazy_elements_keep_the_document_alive() -> None:
    lazy = walk(body_of("<html><body><div><p>kept</p></div></body></html>"), proxies=False)
    import gc

    gc.collect()  # no proxy of the page is left but the walk's root
    assert [e.tag for e in lazy.elements] == ["body", "div", "p"] and lazy.elements[2].text == "kept"


def test_the_pass_refuses_another_lxml_than_it_was_built_against() -> None:
    # The struct layouts it reads are those of the lxml it was compiled with.
    code = "import lxml; lxml.__version__ = '1.0.0'; import forest.classifier._walk"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode != 0
    assert "forest.errors.ForestError: forest's native page pass was built against lxml " in result.stderr
    assert "but lxml 1.0.0 is installed: reinstall forest" in result.stderr


# Behind -m bench: pip sets up an isolated build environment from PyPI, 20-30 s.
@pytest.mark.bench
def test_a_build_without_a_c_compiler_says_what_to_install(tmp_path: Path) -> None:
    # pip builds forest as a user's install does, from a copy of the sources, with CC naming no
    # compiler: the build stops with one line that says what to install (issue 44).
    source = tmp_path / "forest"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "*.so", "results", "tests"))
    env = {**os.environ, "CC": "/nonexistent/cc", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "wheels"), str(source)]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    output = result.stdout + result.stderr
    if "Could not find a version that satisfies the requirement" in output:
        pytest.skip("pip cannot reach PyPI for the build environment")
    assert result.returncode != 0
    message = [line.strip() for line in output.splitlines() if line.strip().startswith("forest: ")]
    assert len(message) == 1, output[-3000:]
    assert "needs a C compiler and Python's headers" in message[0] and "apt-get install gcc python3-dev" in message[0]
    assert "/nonexistent/cc" in message[0]
    assert not list(tmp_path.rglob("*.whl"))


# --- The shared datasets' pages ----------------------------------------------------------------

# The default run reads a fixed sample of each dataset (tests/dataset_pages.py), -m bench every page.


@dataclass(frozen=True)
class _Pages:
    name: str
    html: tuple[str, ...]


def _dataset_pages(every: bool) -> list[_Pages]:
    return [_Pages(name, tuple(pages)) for name, pages in dataset_pages(every, sample=12).items()]


def _check_pages(pages: _Pages) -> int:
    walked = 0
    for body in bodies(pages.html):
        check(body)
        walked += 1
    return walked


@pytest.mark.datasets
def test_a_sample_of_every_dataset_walks_as_the_reference() -> None:
    skip_without_datasets()
    assert sum(_check_pages(pages) for pages in _dataset_pages(every=False)) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_walks_as_the_reference() -> None:
    skip_without_datasets()
    assert sum(_check_pages(pages) for pages in _dataset_pages(every=True)) > 0


@settings(max_examples=60, deadline=None)
@given(pages, st.integers(0, 2**32 - 1))
def test_child_sums_are_the_bits_of_the_children_matrix_product(page: str, seed: int) -> None:
    # features._descendant_levels summed children with a CSR product before; its bits must not move.
    import scipy.sparse as sp

    from forest.classifier._walk import child_sums

    tree = walk(body_of(page))
    n = len(tree)
    values = np.random.default_rng(seed).normal(size=(n, 7)) * 10.0 ** np.arange(-3, 4)
    values[::3, 0] = -0.0
    below = tree.parent[1:]
    indptr = np.concatenate([[0], np.cumsum(np.bincount(below, minlength=n))])
    children = sp.csr_matrix((np.ones(n - 1), np.argsort(below, kind="stable") + 1, indptr), shape=(n, n))
    assert (children @ values).tobytes() == child_sums(tree.parent, values).tobytes()


# --- The node count of forest.limits.classifiable -------------------------------------------------


def reference_classifiable(root: etree._Element, limit: int) -> bool:
    """forest.limits.classifiable as it was before its count was native: root.iter()'s nodes, one by one."""
    for count, _ in enumerate(root.iter(), 1):
        if count > limit:
            return False
    return True


def check_count(root: etree._Element) -> None:
    from forest.classifier._walk import count_nodes

    every = sum(1 for _ in root.iter())
    assert count_nodes(root, every) == every
    for limit in {0, 1, every // 2, max(every - 1, 0), every, every + 1}:
        assert count_nodes(root, limit) == min(every, limit + 1)
        assert (count_nodes(root, limit) <= limit) == reference_classifiable(root, limit)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pages)
def test_the_native_node_count_is_iters(page: str) -> None:
    root = body_of(page).getroottree().getroot()
    check_count(root)
    for element in root.iter():
        check_count(element)


def test_the_native_node_count_reads_comments_pis_and_entities_as_iter_does() -> None:
    parser = etree.XMLParser(resolve_entities=False)
    root = etree.fromstring(b'<!DOCTYPE r [<!ENTITY e "<b>x</b>">]><r><!--c--><?pi x?><a>&e;<c/></a>t<d><!--e--></d></r>', parser)
    assert {type(node).__name__ for node in root.iter()} >= {"_Comment", "_ProcessingInstruction", "_Entity"}
    check_count(root)
    for node in root.iter():
        check_count(node)
    from forest.classifier._walk import count_nodes

    with pytest.raises(ValueError):
        count_nodes(root, -1)


@pytest.mark.datasets
def test_a_sample_of_every_dataset_has_iters_node_count() -> None:
    skip_without_datasets()
    for pages in dataset_pages(every=False).values():
        for body in bodies(pages):
            check_count(body.getroottree().getroot())


# --- Frozen dataclasses made without their __init__ --------------------------------------------


def test_blocks_and_predictions_made_in_c_equal_those_their_init_makes() -> None:
    from forest.classifier._walk import _plain_fields, predictions
    from forest.classifier.predictor import BlockPrediction

    body = body_of("<html><body><div><p>one <a href='/'>two</a></p>loose<p>three</p></div></body></html>")
    tree = walk(body, proxies=False)
    assert [Block(b.text, b.link_chars) for b in tree.blocks] == tree.blocks
    assert all(type(b) is Block for b in tree.blocks)
    owners, p = tree.owner.tolist(), [0.25, 0.5, 0.75][: len(tree.blocks)]
    content = [True, False, True][: len(tree.blocks)]
    made = predictions(BlockPrediction, tree.blocks, tree.elements, owners, p, content)
    reference = [BlockPrediction(j, b, tree.elements[o], pj, cj) for j, (b, o, pj, cj) in enumerate(zip(tree.blocks, owners, p, content))]
    assert made == reference and all(type(m) is BlockPrediction for m in made)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made[0].probability = 1.0  # type: ignore[misc]
    assert _plain_fields(BlockPrediction, ("index", "block", "element", "probability", "is_content"))


@dataclasses.dataclass(frozen=True)
class _Unslotted:
    text: str
    link_chars: int


def test_fields_written_to_their_slots_hold_one_reference_each() -> None:
    # Block and BlockPrediction have slots (dataclass slots=True): the walk and predictions() write each
    # field to its slot, as the descriptor would; a class without slots is made through setattr still.
    from forest.classifier._walk import flatten, predictions
    from forest.classifier.predictor import BlockPrediction

    body = body_of("<html><body><p>one</p><p>two</p></body></html>")
    tree = walk(body, proxies=False)
    p = [float(f"0.{k + 1}") for k in range(len(tree.blocks))]  # floats of their own, counted
    before = [sys.getrefcount(x) for x in p]
    made = predictions(BlockPrediction, tree.blocks, tree.elements, tree.owner.tolist(), p, [True] * len(p))
    assert [sys.getrefcount(x) for x in p] == [n + 1 for n in before]
    assert [m.probability for m in made] == p and made[1].block is tree.blocks[1]
    del made
    assert [sys.getrefcount(x) for x in p] == before
    blocks = flatten(body, BLOCK_TAGS, _Unslotted)[10]  # type: ignore[arg-type]
    assert blocks == [_Unslotted("one", 0), _Unslotted("two", 0)]


@dataclasses.dataclass(frozen=True)
class _Checked:
    text: str
    link_chars: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self.text.upper())


@dataclasses.dataclass
class _Own:
    text: str
    link_chars: int

    def __init__(self, text: str, link_chars: int) -> None:
        self.text, self.link_chars = text + "!", link_chars


def test_a_class_whose_init_does_more_than_store_its_fields_is_made_through_it() -> None:
    from forest.classifier._walk import _plain_fields, flatten

    for cls, expected in ((_Checked, "ONE"), (_Own, "one!")):
        assert not _plain_fields(cls, ("text", "link_chars"))
        blocks = flatten(body_of("<html><body><p>one</p></body></html>"), BLOCK_TAGS, cls)[10]  # type: ignore[arg-type]
        assert [b.text for b in blocks] == [expected]
