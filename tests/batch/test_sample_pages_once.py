"""Issue 44: a batch that learns a site extracts its sample pages from the trees learning parsed, and its
second pass skips them: every page is output once, in input order, a sample page is parsed once, and the
records are those a batch makes with the wrapper already stored (every page then extracted in the second pass).

Every lxml parse forest makes of a page goes through ``lxml.html.document_fromstring``
(forest.html.parse_html): the tests count its calls by the page's text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from eval.warc import WarcPage, write_warc
from forest.batch import Inputs, Options, Result, Summary, run_batch
from forest.batch.warc import read_warc

pytest.importorskip("fastwarc", reason="reading WARC files needs FastWARC (the [warc] extra)")

TOPICS = [
    "harbour cranes unload grain", "lighthouse keeper logs storms", "ferry timetable changes winter",
    "fishing quotas divide council", "shipyard launches research vessel", "tide gauge records surge",
    "dockers vote on new contract", "marina dredging finds cannon",
]
K = 5


def article(site: str, topic: str) -> bytes:
    """A page of ``site`` about ``topic``: a menu, the story, a footer."""
    words = topic.split()
    paragraphs = "".join(
        f"<p>{topic} {n}: the {words[0]} and the {words[1]} were {words[2]} at the {words[-1]} again, "
        f"said the {words[1]} to reporters on day {n} of the {words[0]} story.</p>" for n in range(6)
    )
    return (f'<html><head><title>{topic.title()} | {site}</title></head><body><div id="nav"><a href="/">Home</a> '
            f'<a href="/news">News</a></div><div class="story"><h1>{topic.title()}</h1>{paragraphs}</div>'
            f'<div id="footer">Copyright {site} newsroom</div></body></html>').encode()


def pages() -> list[WarcPage]:
    """harbour.test, learned (one of its first K pages is not HTML at all); quay.test, too few pages to learn;
    blank.test, whose pages hold no words to learn from; a 404 between them."""
    found = []
    for i, topic in enumerate(TOPICS):
        found.append(WarcPage(f"http://harbour.test/{i}.html", article("harbour.test", topic)))
        if i % 3 == 0:
            found.append(WarcPage(f"http://quay.test/{i}.html", article("quay.test", topic)))
        if i < K + 1:
            found.append(WarcPage(f"http://blank.test/{i}.html", f"<html><body><p>{i}</p></body></html>".encode()))
    found.insert(3, WarcPage("http://harbour.test/missing.html", b"<html><body>Not found</body></html>", status="404 Not Found"))
    found.insert(5, WarcPage("http://harbour.test/blob.html", b"\x00\x01\x02 not a page" * 20))
    return found


@pytest.fixture
def warc(tmp_path: Path) -> Path:
    path = tmp_path / "crawl.warc.gz"
    with open(path, "wb") as out:
        write_warc(pages(), out)
    return path



def run(warc: Path, db: Path, jobs: int, learn: int | None = K) -> tuple[list[Result], Summary]:
    summary = Summary()
    return list(run_batch(Inputs([str(warc)]), Options(db=db, learn=learn, jobs=jobs), summary)), summary


def test_every_page_is_output_once_in_order_and_a_sample_page_is_parsed_once(warc: Path, tmp_path: Path,
                                                                           parsed: list[str]) -> None:
    results, summary = run(warc, tmp_path / "forest.db", jobs=1)
    assert [r.source for r in results] == [item.source for item in read_warc(str(warc))]
    assert (summary.learned, summary.learn_failed, summary.skipped) == (1, 1, 1)
    methods = {r.article.url: r.article.method for r in results if r.article is not None}
    assert {methods[f"http://harbour.test/{i}.html"] for i in range(len(TOPICS))} == {"wrapper"}
    assert "error" in results[5].record()  # the page that is no HTML: its error, once
    for page in pages():
        if page.status.startswith("2") and page.body.startswith(b"<html>"):
            assert parsed.count(page.body.decode()) == 1, page.url


def test_the_records_are_those_of_a_batch_with_the_wrapper_stored(warc: Path, tmp_path: Path) -> None:
    db = tmp_path / "forest.db"
    learning, _ = run(warc, db, jobs=1)
    stored, summary = run(warc, db, jobs=1)  # harbour.test is stored now: every page of it comes from the second pass
    assert summary.learned == 0
    assert [r.record() for r in learning] == [r.record() for r in stored]
    # blank.test's pages, extracted cold from the trees of a learning that failed, are those of a batch that learns nothing.
    unlearned, _ = run(warc, tmp_path / "none.db", jobs=1, learn=None)
    blank = [i for i, r in enumerate(learning) if r.article is not None and "blank.test" in str(r.article.url)]
    assert len(blank) == K + 1
    assert [learning[i].record() for i in blank] == [unlearned[i].record() for i in blank]


def test_a_pool_outputs_the_records_one_process_does(warc: Path, tmp_path: Path) -> None:
    alone, _ = run(warc, tmp_path / "one.db", jobs=1)
    pooled, summary = run(warc, tmp_path / "two.db", jobs=2)
    assert summary.learned == 1
    assert [r.record() for r in pooled] == [r.record() for r in alone]
