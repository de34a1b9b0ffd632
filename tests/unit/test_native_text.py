"""The text counts in C (forest.classifier._text) against their reference, the regular expressions in Python.

``reference_text_stats`` below is the definition of the counts (Python's ``re`` and ``str``
methods, text by text), and ``reference_block_stats`` how forest counted a page's blocks at once
with numpy before the counts were native.  The native counts must equal them on generated texts
(hypothesis: any Unicode, whitespace of every kind, case changes that change a text's length),
and the text features of blocks and tags, built on them, must keep their bits on a fixed sample of
every shared dataset's pages (``-m bench``: all of them).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_pages import bodies, dataset_pages, skip_without_datasets
from forest.classifier import text
from forest.classifier._text import COLUMNS, Stopwords, text_stats
from forest.classifier.blocks import PageTree
from keywords.stopwords import ALL_STOPWORDS

# --- The reference: the regular expressions in Python, and the numpy counts of a page's blocks ---

_WORD = re.compile(r"\w+")
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)")
_PUNCTUATION = re.compile(r"[^\w\s]")
_DIGIT = re.compile(r"\d")
_ENDINGS = tuple(".!?:\"'”’»)")


def reference_text_stats(texts: Sequence[str]) -> np.ndarray:
    """Raw counts per text: chars, words, sentences, punctuation, stopwords, tokens, digits, capitals, ends."""
    stats = np.zeros((len(texts), 9))
    is_stopword = ALL_STOPWORDS.__contains__
    for i, t in enumerate(texts):
        words = t.split()
        toks = _WORD.findall(t.lower())
        stats[i] = (
            len(t),
            len(words),
            len(_SENTENCE_END.findall(t)),
            len(_PUNCTUATION.findall(t)),
            sum(map(is_stopword, toks)),
            len(toks),
            len(_DIGIT.findall(t)),
            sum(w[:1].isupper() for w in words),
            t.rstrip().endswith(_ENDINGS),
        )
    return stats


def reference_block_stats(texts: Sequence[str]) -> np.ndarray:
    """reference_text_stats of whitespace-normalized texts, counted for the whole page at once from
    per-character classes with numpy (the regex counts for other texts)."""
    n = len(texts)
    joined = "\n".join(texts)
    if n == 0 or joined.count("\n") != n - 1 or not all(texts):
        return reference_text_stats(texts)
    stats = np.zeros((n, 9))
    code = _code_points(joined)
    word, space, digit, upper = _classes(code)
    block = np.cumsum(code == 10)
    stats[:, 0] = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    stats[:, 1] = np.fromiter(map(operator.methodcaller("count", " "), texts), dtype=np.int64, count=n) + 1
    mark = (code == 46) | (code == 33) | (code == 63)
    followed = np.append(space[1:], True)
    ends = mark & ~np.append(mark[1:], False) & followed
    stats[:, 2] = np.bincount(block[ends], minlength=n)
    stats[:, 3] = np.bincount(block[~word & ~space], minlength=n)
    lower = joined.lower()
    lower_code = _code_points(lower)
    lower_word = _classes(lower_code)[0]
    starts = lower_word & ~np.concatenate(([False], lower_word[:-1]))
    tokens = np.bincount(np.cumsum(lower_code == 10)[starts], minlength=n)
    stopword = np.fromiter(map(ALL_STOPWORDS.__contains__, _WORD.findall(lower)), dtype=bool, count=int(tokens.sum()))
    stats[:, 4] = np.bincount(np.repeat(np.arange(n), tokens), weights=stopword, minlength=n)
    stats[:, 5] = tokens
    stats[:, 6] = np.bincount(block[digit], minlength=n)
    first = ~space & np.concatenate(([True], space[:-1]))
    stats[:, 7] = np.bincount(block[first & upper], minlength=n)
    stats[:, 8] = np.fromiter(map(operator.methodcaller("endswith", _ENDINGS), map(str.rstrip, texts)), dtype=bool, count=n)
    return stats


def _code_points(t: str) -> np.ndarray:
    return np.frombuffer(t.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)


def _classes(code: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    bits = _char_classes([chr(c) for c in range(128)])[np.minimum(code, 127)]
    other = np.flatnonzero(code > 127)
    if len(other):
        distinct = np.unique(code[other])
        bits[other] = _char_classes([chr(c) for c in distinct.tolist()])[np.searchsorted(distinct, code[other])]
    return (bits & 1) > 0, (bits & 2) > 0, (bits & 4) > 0, (bits & 8) > 0


def _char_classes(chars: Sequence[str]) -> np.ndarray:
    bits = [(c.isalnum() or c == "_") | c.isspace() << 1 | c.isdecimal() << 2 | c.isupper() << 3 for c in chars]
    return np.array(bits, dtype=np.uint8)


def assert_bits(native: np.ndarray, reference: np.ndarray) -> None:
    assert native.dtype == reference.dtype == np.float64
    assert native.shape == reference.shape
    assert native.tobytes() == reference.tobytes()


# --- Texts ---------------------------------------------------------------------------------

# Stopwords in several cases, marks in runs, every kind of whitespace (Python's beyond ASCII too),
# the endings, digits of other scripts, and characters whose lower case is longer (U+0130) or
# changes class.
PIECES = [
    "The", "the", "AND", "und", "of", "word", "x", "é", "中文", "İ", "İstanbul", "ǅ", "ΣΑΣ", "x_y", "_", "٣٤", "42", "½",
    ".", "!", "?", "...", "?!", "a.b", ":", '"', "'", "”", "’", "»", ")", "«", "-", "—", "&",
    " ", "  ", "\n", "\t", "\r", "\xa0", "\u3000", "\x1c", "\x1f", "\u2028", "\x85", "\u200b",
]  # fmt: skip
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(texts, max_size=8))
def test_generated_texts_count_as_the_regular_expressions(values: list[str]) -> None:
    assert_bits(text._text_stats(values), reference_text_stats(values))


@settings(max_examples=300, deadline=None)
@given(st.lists(texts.map(lambda t: " ".join(t.split())).filter(bool), max_size=8))
def test_normalized_blocks_count_as_the_numpy_counts_of_a_page(values: list[str]) -> None:
    assert_bits(text._text_stats(values), reference_block_stats(values))


@pytest.mark.parametrize(
    "values",
    [
        ["Hello world. It is 2024!", "Menu", "a.b. ..x ok?! «Quoted»"],
        ["İstanbul İİ ünïcode ΣΑΣ ǅ x_y", "٣٤ digits ١٢٣ and 42", "end:"],
        ["one"],
        [],
        ["", "   ", "\n the end .\n", "«»"],
    ],
    ids=["english", "unicode", "single", "none", "blank"],
)
def test_examples_count_as_the_regular_expressions(values: list[str]) -> None:
    assert_bits(text._text_stats(values), reference_text_stats(values))
    assert len(COLUMNS) == 9


def test_the_counts_by_hand() -> None:
    stats = text._text_stats(["The cat sat... Then it left! ok", "İ x"])
    # chars, words, sentences, punctuation, stopwords (the, then, it), tokens, digits, capitals, ends
    assert stats[0].tolist() == [31, 7, 2, 4, 3, 7, 0, 2, 0]
    # "İ".lower() is "i" and a combining dot: one token, "i", a stopword; upper case, no ending.
    assert stats[1].tolist() == [3, 2, 0, 0, 1, 2, 0, 1, 0]


def test_every_characters_lower_case_is_read_as_lower_reads_it() -> None:
    # A text beyond ASCII is read lower-cased in place, a character at a time, unless it holds U+0130
    # or U+03A3: every other character's class and stopword reading must be lower()'s.
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000]
    values = ["".join(chars[k : k + 512]) for k in range(0, len(chars), 512)]  # each among its neighbours
    values += [" ".join(chars[k : k + 512]) for k in range(0, len(chars), 512)]  # each alone
    # Latin-1 texts (read from their bytes): every such character between letters, alone, and all of them.
    latin1 = chars[:256]
    values += [f"a{c}b" for c in latin1] + [f" {c} " for c in latin1] + ["".join(latin1), " ".join(latin1)]
    # Every stopword upper-cased and capitalized, and after a character beyond ASCII.
    values += [f"{w.upper()} {w.capitalize()} é{w.upper()}" for w in sorted(ALL_STOPWORDS)]
    assert_bits(text._text_stats(values), reference_text_stats(values))


def test_a_final_sigma_and_a_dotted_capital_i_are_read_from_lower() -> None:
    # lower() turns a word's last capital sigma into a final sigma and U+0130 into two characters:
    # read a character at a time, they would match the wrong stopwords.
    endings = ".!?"
    assert "ΣΑΣ".lower() == "σας"
    assert text_stats(["ΣΑΣ ok"], Stopwords({"σας"}), endings)[0, 4] == 1
    assert text_stats(["ΣΑΣ ok"], Stopwords({"σασ"}), endings)[0, 4] == 0
    assert text_stats(["İs ok"], Stopwords({"is"}), endings)[0, 4] == 0
    assert text_stats(["Ünd ok"], Stopwords({"ünd"}), endings)[0, 4] == 1


@settings(max_examples=100, deadline=None)
@given(st.sets(st.text(max_size=6)), st.lists(st.text(max_size=6), max_size=20))
def test_stopwords_hold_exactly_their_words(words: set[str], probes: list[str]) -> None:
    from forest.classifier._text import Stopwords

    table = Stopwords(words)
    assert table.longest == max(map(len, words), default=0)
    assert all(w in table for w in words)
    assert [p in table for p in probes] == [p in words for p in probes]


def test_the_shipped_stopwords_are_found_and_their_neighbours_are_not() -> None:
    """The table at the shipped list's size (thousands of slots, most of whose home bits are clear): every
    word is found, read as it is and in capitals through text_stats; a word with one letter changed, cut
    or extended is found exactly when it is one of the list too."""
    from keywords.stopwords import ALL_STOPWORDS

    words = sorted(ALL_STOPWORDS)
    table = Stopwords(ALL_STOPWORDS)
    assert all(w in table for w in words)
    probes = [p for w in words for p in (w[:-1], w + "s", "x" + w[1:], w[:1] + "q" + w[2:])]
    assert [p in table for p in probes] == [p in ALL_STOPWORDS for p in probes]
    latin1 = [w for w in words if all(ord(c) < 256 for c in w) and w.upper().lower() == w and len(w.upper()) == len(w)]
    stats = text_stats([" ".join(latin1).upper(), " ".join(latin1)], table, text._ENDINGS)
    assert stats[0, 4] == stats[1, 4] == len(latin1)


# --- The reference of the text columns: numpy over the counts ----------------------------------


def reference_shallow(stats: np.ndarray, link_chars: np.ndarray) -> np.ndarray:
    """Shallow text features (Kohlschuetter et al. 2010) from raw counts: 11 columns."""
    chars = np.maximum(stats[:, 0], 1.0)
    words = stats[:, 1]
    tokens = np.maximum(stats[:, 5], 1.0)
    lines = np.maximum(np.ceil(stats[:, 0] / text.WRAP), 1.0)
    return np.column_stack(
        [
            np.log1p(stats[:, 0]),
            np.log1p(words),
            np.minimum(link_chars / chars, 1.0),
            words / lines,
            stats[:, 0] / np.maximum(words, 1.0),
            np.log1p(stats[:, 2]),
            stats[:, 3] / chars,
            stats[:, 4] / tokens,
            stats[:, 6] / chars,
            stats[:, 7] / np.maximum(words, 1.0),
            stats[:, 8] > 0,
        ]
    )


def _reference_context(shallow: np.ndarray, prev: np.ndarray, nxt: np.ndarray) -> np.ndarray:
    cols = shallow[:, [1, 2, 3]]
    before = np.where((prev >= 0)[:, None], cols[np.maximum(prev, 0)], 0.0)
    after = np.where((nxt >= 0)[:, None], cols[np.maximum(nxt, 0)], 0.0)
    return np.hstack([before, after])


def reference_assemble(shallow: np.ndarray, position: np.ndarray, offset: np.ndarray, share: np.ndarray,
                       prev: np.ndarray, nxt: np.ndarray, page_words: float, page_blocks: int) -> np.ndarray:  # fmt: skip
    n = len(shallow)
    page = np.tile([np.log1p(page_words), np.log1p(page_blocks)], (n, 1))
    return np.hstack([shallow, position[:, None], offset[:, None], share[:, None], _reference_context(shallow, prev, nxt), page])


def reference_block_text_features(tree: PageTree, stats: np.ndarray | None = None) -> np.ndarray:
    """text.block_text_features as numpy computed it before its columns were native (``stats``: the blocks' counts)."""
    blocks = tree.blocks
    n = len(blocks)
    stats = text._text_stats([b.text for b in blocks]) if stats is None else stats
    link = np.fromiter(map(operator.attrgetter("link_chars"), blocks), dtype=np.float64, count=n)
    shallow = reference_shallow(stats, link)
    index = np.arange(n)
    chars = stats[:, 0]
    total = max(chars.sum(), 1.0)
    owner_chars = tree.subtree_sums(tree.own_chars)[tree.owner] if n else np.zeros(0)
    return reference_assemble(shallow, index / max(n - 1, 1), (np.cumsum(chars) - chars) / total,
                              chars / np.maximum(owner_chars, 1.0), index - 1, np.where(index + 1 < n, index + 1, -1),
                              stats[:, 1].sum(), n)  # fmt: skip


def reference_tag_text_features(tree: PageTree, rows: np.ndarray, chars: np.ndarray,
                                counts: Callable[[list[str]], np.ndarray] | None = None) -> np.ndarray:  # fmt: skip
    """text.tag_text_features as numpy computed it before its columns were native (``counts``: how text runs are counted)."""
    counts = counts or text._text_stats
    n = len(tree)
    own = np.zeros((n, 9))
    if tree.pieces:
        stats = counts([t for _, _, t in tree.pieces])
        np.add.at(own, np.fromiter((e for e, _, _ in tree.pieces), dtype=np.int64, count=len(tree.pieces)), stats)
        own[:, 8] = 0
        last: dict[int, int] = {}
        for k, (e, _, t) in enumerate(tree.pieces):
            if t.strip():
                last[e] = k
        for e, k in last.items():
            own[e, 8] = stats[k, 8]
    else:
        own[:, 0], own[:, 1] = tree.own_chars, tree.own_words
    stats = tree.subtree_sums(own)
    stats[:, 0] = chars
    shallow = reference_shallow(stats, tree.subtree_sums(tree.own_link_chars))
    prev, nxt = text._siblings(tree)
    before = np.cumsum(tree.own_chars) - tree.own_chars
    total = max(float(chars[0]), 1.0)
    parent_chars = chars[np.maximum(tree.parent, 0)]
    full = reference_assemble(shallow, np.arange(n) / max(n - 1, 1), before / total, chars / np.maximum(parent_chars, 1.0),
                              prev, nxt, stats[0, 1], len(tree.blocks))  # fmt: skip
    picked: np.ndarray = full[rows]
    return picked


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30), st.integers(0, 2**32 - 1))
def test_the_columns_of_random_counts_are_numpys(n: int, seed: int) -> None:
    # Counts from 0 (an empty block: every guard against a zero divisor) to long texts, any neighbours.
    rng = np.random.default_rng(seed)
    stats = rng.integers(0, 3, size=(n, 9)) * rng.integers(0, 400, size=(n, 9)).astype(np.float64)
    link = np.minimum(rng.integers(0, 500, size=n), stats[:, 0] + rng.integers(0, 3, size=n)).astype(np.float64)
    position, offset, share = rng.random(n), rng.random(n), rng.random(n)
    prev, nxt = rng.integers(-1, max(n, 1), size=n), rng.integers(-1, max(n, 1), size=n)
    page_words, page_blocks = float(stats[:, 1].sum()), n
    native = text._columns(stats, link, position, offset, share, prev, nxt, page_words, page_blocks)
    reference = reference_assemble(reference_shallow(stats, link), position, offset, share, prev, nxt, page_words, page_blocks)
    assert_bits(native, reference)


def test_the_columns_refuse_bad_arguments() -> None:
    from forest.classifier._text import text_columns

    one, none = np.ones(1), np.array([-1], dtype=np.int64)
    with pytest.raises(ValueError):
        text_columns(np.ones((1, 8)), one, one, one, one, none, none, 80)
    with pytest.raises(ValueError):
        text_columns(np.ones((1, 9)), np.ones(2), one, one, one, none, none, 80)
    with pytest.raises(IndexError):
        text_columns(np.ones((1, 9)), one, one, one, one, np.array([1], dtype=np.int64), none, 80)
    with pytest.raises(ValueError):
        text_columns(np.ones((1, 9)), one, one, one, one, none, none, 0)


_WORDS = st.sampled_from(["", "a", "Word", "the end.", "x" * 90, "12 34", "Hi! ok?"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from(["div", "p", "a", "li", "span"]), _WORDS, _WORDS), max_size=25))
def test_the_blocks_columns_of_generated_pages_are_numpys(items: list[tuple[int, str, str, str]]) -> None:
    # Pages of nested elements with text and tails (empty blocks, one block, owners holding others):
    # the positions, offsets, owners' shares and neighbours block_columns works out, against numpy's.
    from forest.classifier.blocks import walk
    from forest.html import parse_html

    html, open_tags = "", []
    for close, tag, inner, tail in items:
        for _ in range(min(close, len(open_tags))):
            html += f"</{open_tags.pop()}>"
        html += f"<{tag}>{inner}"
        open_tags.append(tag)
        html += tail
    body = parse_html(f"<html><body>{html}</body></html>").find("body")
    assert body is not None
    tree = walk(body)
    assert_bits(text.block_text_features(tree), reference_block_text_features(tree))


def test_the_blocks_columns_refuse_bad_arguments() -> None:
    from forest.classifier._text import block_columns

    one, zero = np.ones(1), np.zeros(1, dtype=np.int64)
    with pytest.raises(ValueError):
        block_columns(np.ones((1, 8)), one, zero, zero, zero, 80)
    with pytest.raises(ValueError):
        block_columns(np.ones((1, 9)), np.ones(2), zero, zero, zero, 80)
    with pytest.raises(IndexError):
        block_columns(np.ones((1, 9)), one, zero, zero, np.array([1], dtype=np.int64), 80)
    with pytest.raises(IndexError):
        block_columns(np.ones((1, 9)), one, zero, np.array([5], dtype=np.int64), zero, 80)
    with pytest.raises(ValueError):
        block_columns(np.ones((1, 9)), one, zero, zero, zero, 0)


# --- The features of the shared datasets' pages ------------------------------------------------

def _pages(every: bool) -> list[str]:
    return [html for pages in dataset_pages(every).values() for html in pages]


def _check_pages(pages: list[str]) -> int:
    """The text features of every page's blocks and tags, native against the reference: the counts, and the columns in numpy."""
    from forest.classifier.blocks import walk

    checked = 0
    for body in bodies(pages):
        tree = walk(body, keep_pieces=True)
        chars = tree.subtree_sums(tree.own_chars)
        rows = np.flatnonzero(chars > 0)
        native = text.block_text_features(tree), text.tag_text_features(tree, rows, chars)
        blocks = [b.text for b in tree.blocks]
        counts = _reference_counts(blocks)
        reference = reference_block_text_features(tree, counts(blocks)), reference_tag_text_features(tree, rows, chars, counts)
        assert_bits(native[0], reference[0])
        assert_bits(native[1], reference[1])
        checked += 1
    return checked


def _reference_counts(blocks: list[str]) -> Callable[[list[str]], np.ndarray]:
    # Before, a page's blocks were counted by the numpy pass, the text runs of tags by the regular expressions.
    def counts(values: list[str]) -> np.ndarray:
        return reference_block_stats(values) if values == blocks else reference_text_stats(values)

    return counts


@pytest.mark.datasets
def test_a_sample_of_every_dataset_has_the_references_text_features() -> None:
    skip_without_datasets()
    assert _check_pages(_pages(every=False)) > 0


@pytest.mark.bench
@pytest.mark.datasets
def test_every_dataset_page_has_the_references_text_features() -> None:
    skip_without_datasets()
    assert _check_pages(_pages(every=True)) > 0

