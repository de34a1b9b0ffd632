"""The article panel and its markdown: forest's own renderings, equal to what `forest extract --format markdown` prints."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import BASE_URL, FAST, wait_for_job
from lxml import html as lxml_html
from starlette.testclient import TestClient

from forest import Article
from forest.cli import cli
from forest.demo import DemoServer, ExampleSite
from forest.webapp.article import rendered, rendered_of
from forest.webapp.jobs import JobStore

COLD_PAGE = Path(__file__).with_name("data") / "cold_article.html"
HEADLINE = "Bringing a network interface up by hand"


@pytest.fixture(scope="module")
def learned(site: DemoServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Path]]:
    """A client whose database has the example site learned as example.test."""
    from forest.webapp import create_app

    db = tmp_path_factory.mktemp("panel") / "forest.db"
    with TestClient(create_app(db, settings=FAST), base_url=BASE_URL) as client:
        response = client.post("/api/learn", json={"url": site.feed_url, "site": "example.test"})
        assert response.status_code == 200, response.text
        yield client, db


def pasted(client: TestClient, path: Path, site: str = "") -> int:
    """Extract the page at ``path`` through the form, as pasted HTML; the job's id once it finished."""
    response = client.post("/jobs", files={"action": (None, "extract"), "html": (None, path.read_text(encoding="utf-8")),
                                           "url": (None, ""), "site": (None, site)}, follow_redirects=False)
    assert response.status_code == 303
    job_id = int(response.headers["location"].rsplit("/", 1)[1])
    assert wait_for_job(client, job_id)["state"] == "finished"
    return job_id


def cli_markdown(db: Path, path: Path, *options: str) -> str:
    result = CliRunner(env={"FOREST_DB": str(db)}).invoke(cli, ["extract", *options, "--format", "markdown", str(path)])
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("page, options", [("cold", ()), ("wrapper", ("--site", "example.test"))])
def test_the_markdown_shown_and_served_is_what_forest_extract_prints(
    learned: tuple[TestClient, Path], example: ExampleSite, page: str, options: tuple[str, ...]
) -> None:
    client, db = learned
    path = COLD_PAGE if page == "cold" else example.held_out
    job_id = pasted(client, path, site="example.test" if options else "")
    expected = cli_markdown(db, path, *options)
    served = client.get(f"/jobs/{job_id}/article.md")
    assert served.status_code == 200 and served.headers["content-type"].startswith("text/markdown")
    assert served.text == expected
    shown = lxml_html.document_fromstring(client.get(f"/jobs/{job_id}").text).get_element_by_id("markdown")
    assert shown.text_content() == expected
    if page == "cold":  # the code keeps its lines; the headline is its title, once
        assert "```\n$ ip link show dev eth0\n2: eth0:" in expected and expected.count(HEADLINE) == 1


def test_the_panel_prints_the_headline_once_then_forests_html(learned: tuple[TestClient, Path],
                                                              example: ExampleSite) -> None:
    client, _ = learned
    job_id = pasted(client, example.held_out, site="example.test")
    root = lxml_html.document_fromstring(client.get(f"/jobs/{job_id}").text)
    body = root.get_element_by_id("article-body")
    title = root.get_element_by_id("title").text_content()
    assert title and " ".join(body.text_content().split()).count(title) == 1
    # The wrapper's region starts with the headline: not printed again under it.
    assert [e.tag for e in root.get_element_by_id("text")][:1] == ["p"]


def test_a_markdown_address_of_a_job_without_an_article_is_404(learned: tuple[TestClient, Path]) -> None:
    client, _ = learned
    learn = next(j for j in client.get("/api/jobs").json()["jobs"] if j["kind"] == "learn")
    assert client.get(f"/jobs/{learn['id']}/article.md").status_code == 200  # its sample page's article
    assert client.get("/jobs/999/article.md").status_code == 404


def test_the_learn_answer_is_the_report_without_the_renderings(learned: tuple[TestClient, Path],
                                                               site: DemoServer) -> None:
    client, _ = learned
    answer = client.post("/api/learn", json={"url": site.feed_url, "site": "example.test"}).json()
    assert "rendered" not in answer and "page" not in answer and answer["article"]["method"] == "wrapper"
    assert "html" not in answer["article"]  # the CLI's json record, as the extract answer is


def test_a_job_stored_before_the_renderings_were_kept_shows_its_text() -> None:
    old = {"article": {"title": "A title", "text": "A title\nFirst line <b>\n# not a heading", "method": "classifier",
                       "confidence": 0.5}}
    shown = rendered_of(old)
    assert shown.markdown == "# A title\n\nFirst line \\<b>\n\n\\# not a heading\n"
    assert shown.html == "<p>First line &lt;b&gt;</p>\n<p># not a heading</p>\n"


def test_only_web_links_stay_clickable_and_images_go() -> None:
    from forest.article.structure import Document, Leaf, Span

    spans = (Span("site", href="https://example.com/a"), Span(" run", href="javascript:alert(1)"),
             Span(" here", href="/relative"), Span("logo", image="http://tracker.example/p.gif"))
    article = Article(text="site run here", method="wrapper", confidence=1.0,
                      document=Document((Leaf("site run here", spans),)))
    html = rendered(article).html
    root = lxml_html.fragment_fromstring(html, create_parent="div")
    assert root.xpath("//a/@href") == ["https://example.com/a"]
    assert root.xpath("//a/@rel") == ["nofollow noopener noreferrer"]
    assert not root.xpath("//img") and "javascript" not in html and "tracker" not in html


def test_the_job_list_shows_a_running_jobs_progress_even_with_a_site(make_client: Callable[..., TestClient]) -> None:
    client = make_client(run_worker=False)
    client.post("/api/learn", json={"url": "http://example.com/feed.xml", "site": "example.com", "wait": 0})
    db = client.app.state.forest.db_path  # type: ignore[attr-defined]
    with JobStore(db) as jobs:
        job = jobs.claim("test")
        assert job is not None and jobs.heartbeat(job.id, "test", "fetched 3 of 10 pages")
    row = lxml_html.document_fromstring(client.get("/jobs").text).get_element_by_id("jobs").xpath(".//tbody/tr")[0]
    assert "fetched 3 of 10 pages" in row.text_content()
    page = lxml_html.document_fromstring(client.get(f"/jobs/{job.id}").text)
    assert page.get_element_by_id("progress-line").text_content() == "fetched 3 of 10 pages"
    bar = page.get_element_by_id("progress-bar")
    assert (bar.get("value"), bar.get("max")) == ("3", "10")
    assert client.get(f"/jobs/{job.id}").text.count('<meta http-equiv="refresh"') == 1
