"""forest.classifier.blocks and .features: one walk, the same blocks as text_blocks, features by hand."""

from __future__ import annotations

import numpy as np
import pytest
from lxml import html as lxml_html

from forest.classifier.blocks import walk
from forest.classifier.features import (
    GROUPS,
    N_HASH,
    NODE_COLUMNS,
    TAGS,
    attribute_tokens,
    feature_names,
    group_columns,
    hash_tokens,
    hasher,
    name_tokens,
    page_features,
)
from forest.classifier.text import TEXT_COLUMNS
from patterns.text import text_blocks

PAGE = """<html><body>
<div id="nav" class="TopNav main-menu"><a href="/">Home</a> <a href="/news">News</a></div>
<div class="story">
  <h1>Storm hits the coast</h1>
  <p>The storm reached the coast on <b>Monday</b> night, said officials.</p>
  <p>Read <a href="/more">more</a> here.</p>
</div>
Loose text in the body.
<ul><li>one</li><li>two</li></ul>
</body></html>"""


def tree(page: str = PAGE, *, keep_pieces: bool = False):  # type: ignore[no-untyped-def]
    return walk(lxml_html.document_fromstring(page).find("body"), keep_pieces=keep_pieces)


def column(name: str) -> int:
    return feature_names().index(name)


@pytest.mark.parametrize(
    "page",
    [
        PAGE,
        "<html><body>text only</body></html>",
        "<html><body><div>a<br>b<span>c<p>d</p>e</span></div><!-- x -->tail</body></html>",
        "<html><body><a href='#'>link <b>bold</b></a> after<table><tr><td>cell</td></tr></table></body></html>",
        "<html><body></body></html>",
    ],
    ids=["page", "text-only", "nested-inline", "links-and-table", "empty"],
)
def test_walk_gives_exactly_text_blocks(page: str) -> None:
    # As forest.html.parse_html parses: without comments (lxml's walk never shows a comment's tail).
    parser = lxml_html.HTMLParser(remove_comments=True)
    body = lxml_html.document_fromstring(page, parser=parser).find("body")
    walked, blocks = walk(body).blocks, text_blocks([body])
    # Same blocks; link text may differ by the spaces between a link's inline pieces,
    # which text_blocks counts and the classifier's walk does not.
    assert [b.text for b in walked] == [b.text for b in blocks]
    assert all(0 <= b.link_chars - w.link_chars <= b.text.count(" ") for w, b in zip(walked, blocks))


def test_walk_records_elements_and_owners() -> None:
    t = tree()
    assert t.tags[:3] == ["body", "div", "a"] and len(t) == len(t.tags) == 13
    assert t.parent[0] == -1 and t.depth[0] == 0
    assert [t.tags[int(o)] for o in t.owner] == ["div", "h1", "p", "p", "body", "li", "li"]
    story = t.tags.index("div", 1 + t.tags.index("div"))
    assert t.n_children[story] == 3 and t.depth[story] == 1 and t.position[story] == 1
    assert t.own_chars[0] == len("Loose text in the body.")
    assert t.own_link_chars[2] == t.own_chars[2] == len("Home")  # a link's text is its own
    assert t.own_chars[1] == 0 and t.subtree_sums(t.own_link_chars)[1] == len("HomeNews")


def test_pieces_attribute_text_to_its_element_and_block() -> None:
    t = tree(keep_pieces=True)
    b = t.tags.index("b")
    assert (b, 2, "Monday") in t.pieces
    assert (t.tags.index("b") - 1, 2, " night, said officials.") in t.pieces  # the tail belongs to the <p>


def test_subtree_sums_and_end() -> None:
    t = tree()
    sums = t.subtree_sums(t.own_chars)
    assert sums[0] == t.own_chars.sum()
    end = t.subtree_end()
    assert end[0] == len(t) - 1
    story = 4
    assert t.tags[story] == "div" and end[story] == story + 5  # h1, p, b, p, a


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("NavBar nav-bar post-1234", ("nav", "bar", "nav", "bar", "post")),
        ("mainContent HTMLHeader", ("main", "content", "html", "header")),
        ("", ()),
        ("__x__ 42", ("x",)),
    ],
    ids=["camel-and-dash", "acronym", "empty", "digits"],
)
def test_attribute_tokens(value: str, expected: tuple[str, ...]) -> None:
    assert attribute_tokens(value) == expected


def test_hash_tokens_equals_hashing_vectorizer() -> None:
    docs = [["nav", "bar", "nav"], [], ["^story", "entry", "x" * 40, "é"]]
    assert (hash_tokens(docs, 64) != hasher(64).transform(docs)).nnz == 0


def test_columns_cover_the_names_once() -> None:
    ranges = group_columns()
    assert list(ranges) == [g for g in GROUPS if g != "tokens"]
    assert ranges["modern"][1] == len(feature_names()) == len(set(feature_names()))


def test_block_feature_shapes() -> None:
    t = tree()
    features, rows = page_features(t, "blocks")
    assert features.dense.shape == (len(t.blocks), len(feature_names()))
    assert features.hashed.shape == (len(t.blocks), N_HASH)
    assert features.spans is not None and features.spans.shape == (len(t.blocks), 6, 2)
    assert (rows == t.owner).all() and np.isfinite(features.dense).all()


def test_tag_feature_rows_are_the_elements_with_text() -> None:
    t = tree(keep_pieces=True)
    features, rows = page_features(t, "tags")
    assert len(features) == len(rows) == len(t)  # every element here has some text
    assert features.spans is None
    empty = tree("<html><body><div><img src='x'></div><p>text</p></body></html>", keep_pieces=True)
    assert [empty.tags[r] for r in page_features(empty, "tags")[1]] == ["body", "p"]


def test_block_features_by_hand() -> None:
    t = tree()
    x = page_features(t, "blocks")[0].dense
    nav, paragraph, loose = 0, 2, 4
    assert x[nav, column("text.link_density")] == pytest.approx(8 / 9)  # "Home News": the space is no link
    assert x[paragraph, column("text.chars")] == pytest.approx(np.log1p(len(t.blocks[paragraph].text)))
    assert x[paragraph, column("text.sentences")] == pytest.approx(np.log1p(1))
    assert x[paragraph, column("text.ends_sentence")] == 1.0
    assert x[paragraph, column("depth")] == 2 and x[paragraph, column("tag=p")] == 1.0
    assert x[paragraph, column("anc1.tag=div")] == 1.0 and x[paragraph, column("anc2.tag=body")] == 1.0
    # Past the body the ancestors are padded with the body (the thesis's padding).
    assert x[loose, column("tag=body")] == 1.0 and x[loose, column("anc5.tag=body")] == 1.0
    assert x[nav, column("class_len")] == pytest.approx(np.log1p(len("TopNav main-menu")))
    assert x[nav, column("n_classes")] == 2 and x[nav, column("n_tokens")] == 5  # top nav main menu nav
    assert x[paragraph, column("text.prev_words")] == pytest.approx(np.log1p(4))
    assert x[nav, column("text.position")] == 0.0 and x[6, column("text.position")] == 1.0
    # The <ul> below the body: 2 <li> children one level down, none two levels down.
    ul = page_features(t, "tags")[0].dense[t.tags.index("ul")]  # every element has text: row i is element i
    assert ul[column("desc1.nodes")] == pytest.approx(np.log1p(2)) and ul[column("desc2.nodes")] == 0.0
    assert len(NODE_COLUMNS) + len(TAGS) + 1 == group_columns()["node"][1]
    assert len(TEXT_COLUMNS) == group_columns()["text"][1] - group_columns()["text"][0]


def test_hashed_tokens_of_own_and_ancestor_attributes() -> None:
    t = tree()
    hashed = page_features(t, "blocks")[0].hashed
    own = set(hash_tokens([["story"]]).indices)
    ancestor = set(hash_tokens([["^story"]]).indices)
    paragraph = 2
    assert ancestor <= set(hashed[paragraph].indices) and not own & set(hashed[paragraph].indices) - ancestor


def test_block_spans_are_the_blocks_inside_each_ancestor() -> None:
    t = tree()
    spans = page_features(t, "blocks")[0].spans
    assert spans is not None
    heading = 1
    assert spans[heading, 0].tolist() == [1, 1]  # the <h1> holds block 1
    assert spans[heading, 1].tolist() == [1, 3]  # its story <div> holds blocks 1-3
    assert spans[heading, 2].tolist() == [0, 6]  # the body holds them all


def test_invisible_elements_and_their_subtrees() -> None:
    from forest.classifier.blocks import invisible

    t = tree(
        "<html><body><div style='display: none'><p>a</p></div><p hidden>b</p>"
        "<p aria-hidden='true'>c</p><p style='color:red'>d</p></body></html>"
    )
    assert [t.tags[i] for i in np.flatnonzero(invisible(t))] == ["div", "p", "p"]
    assert invisible(t).tolist() == [False, True, True, True, False, False]


def test_not_article_is_captions_footers_and_navigation_with_their_subtrees() -> None:
    from forest.classifier.blocks import not_article

    t = tree(
        "<html><body><figure><img><figcaption>A <b>storm</b> <i>at sea</i></figcaption></figure>"
        "<p>The storm.</p><figure><img></figure><footer><p>By Ann</p></footer><nav><a>Home</a></nav>"
        "<div role='navigation'><a>News</a></div><div role='main'><p>More.</p></div>"
        "<div role='contentinfo'><p>Copyright</p></div></body></html>"
    )
    # body, figure, img, figcaption, b, i, p, figure, img, footer, p, nav, a, div, a, div (main), p, div, p
    assert not_article(t).tolist() == [
        False, False, False, True, True, True, False, False, False, True, True, True, True, True, True, False, False, True, True,
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("sc-1pfx6hk-0 bXYFQI", ("sc",)),  # styled-components
        ("css-1dbjc4n r-1awozwy", ("css", "r")),  # emotion, react-native-web
        ("Header_title__3xY7z", ("header", "title")),  # CSS modules
        ("post1234 NavBar iPhone HTMLPage", ("post", "nav", "bar", "i", "phone", "html", "page")),
    ],
    ids=["styled-components", "emotion", "css-modules", "names-kept"],
)
def test_css_in_js_hashes_are_not_read_as_words(value: str, expected: tuple[str, ...]) -> None:
    assert name_tokens(value) == expected


MODERN_PAGE = """<html><head>
<meta property="og:type" content="article">
<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
  {"@type": "WebPage"}, {"@type": ["NewsArticle"], "articleBody": "The storm reached the coast on Monday night."}]}</script>
<script type="application/ld+json">{not json</script>
</head><body>
<header role="banner"><div class="sc-1pfx6hk-0 bXYFQI">Site name and a slogan</div></header>
<div role="dialog">We use cookies on this site.</div>
<main><article><p>The storm reached the coast on Monday night.</p>
<div aria-hidden="true">Share this</div></article>
<aside>Most read today elsewhere</aside></main>
<article><p>Another teaser</p></article>
</body></html>"""


def modern_row(t, text: str) -> dict[str, float]:  # type: ignore[no-untyped-def]
    features, _ = page_features(t, "blocks")
    row = [b.text for b in t.blocks].index(text)
    names = feature_names()
    start = group_columns()["modern"][0]
    return {n.removeprefix("modern."): float(v) for n, v in zip(names[start:], features.dense[row, start:])}


def test_modern_columns_read_landmarks_hiding_og_type_and_hashed_classes() -> None:
    t = tree(MODERN_PAGE)
    article = modern_row(t, "The storm reached the coast on Monday night.")
    assert article["in_main"] == article["in_article"] == article["in_largest_article"] == 1.0
    assert article["in_aside"] == article["in_header"] == article["in_dialog"] == article["in_aria_hidden"] == 0.0
    assert article["og_article"] == 1.0
    assert article["page_articles"] == pytest.approx(np.log1p(2))
    assert modern_row(t, "Share this")["in_aria_hidden"] == 1.0
    assert modern_row(t, "Most read today elsewhere")["in_aside"] == 1.0
    assert modern_row(t, "We use cookies on this site.")["in_dialog"] == 1.0
    teaser = modern_row(t, "Another teaser")
    assert teaser["in_article"] == 1.0 and teaser["in_largest_article"] == teaser["in_main"] == 0.0
    header = modern_row(t, "Site name and a slogan")
    assert header["in_header"] == header["hashed_class"] == 1.0 and header["page_hashed_classes"] > 0


def test_modern_columns_of_a_page_without_landmarks_are_zero() -> None:
    row = modern_row(tree(), "Storm hits the coast")
    assert set(row.values()) == {0.0}


def test_without_the_modern_group_the_rows_are_those_of_a_model_trained_before_it() -> None:
    t = tree(MODERN_PAGE)
    full, _ = page_features(t, "blocks")
    before, _ = page_features(t, "blocks", modern=False)
    start = group_columns()["modern"][0]
    assert before.dense.shape[1] == start and full.dense[:, start:].any()
    # The hashed class names are tokens again, as the shipped model learned them (n_tokens and the hashes).
    assert before.hashed.nnz > full.hashed.nnz
    assert np.array_equal(before.dense[:, :start] != full.dense[:, :start], _token_count_columns(before.dense[:, :start] != full.dense[:, :start]))


def _token_count_columns(differs: np.ndarray) -> np.ndarray:
    # Only the class/id token counts (of the element and its ancestors) may differ.
    allowed = np.zeros(differs.shape[1], dtype=bool)
    names = feature_names()
    allowed[[i for i in range(differs.shape[1]) if names[i].endswith("n_tokens")]] = True
    return differs & allowed
