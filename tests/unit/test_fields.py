"""forest.fields: learning where a site puts title, author and date, and reading them back with fallbacks."""

from __future__ import annotations

import json

import pytest
from lxml import etree

from forest.fields import extract_fields, learn_fields
from forest.metadata import json_ld_fields, normalize_date
from forest.html import parse_html
from forest.wrapper import Wrapper
from keywords.model import Metadata
from patterns.model import Pattern

SAMPLES = [
    ("Council votes on the new bridge", "Ana Lima", "2024-04-16T09:15:00+00:00", "16 April 2024"),
    ("Harbour cranes return to work", "Bo Chen", "2024-04-15T07:00:00+00:00", "15 April 2024"),
    ("Library opens on Sundays", "Cleo Park", "2024-04-14T18:30:00+00:00", "14 April 2024"),
    ("Orchard growers fear late frost", "Ana Lima", "2024-04-13T06:00:00+00:00", "13 April 2024"),
]


def page(title: str, author: str, shown_date: str, *, related: str = "Library opens on Sundays") -> str:
    # The related list repeats another article's title, and the sidebar a date: decoys.
    return f"""<html><head><title>{title} | Daily</title></head><body>
    <nav><a href="/">Home</a></nav>
    <aside><h3>Related</h3><ul><li><a href="/x">{related}</a></li></ul><p>Updated 16 April 2024</p></aside>
    <article><header><h2 class="headline">{title}</h2>
    <p class="byline">By <span class="who">{author}</span> on <span class="when">{shown_date}</span></p></header>
    <div class="body"><p>Some text about {title.lower()}.</p></div></article></body></html>"""


@pytest.fixture
def samples() -> list[tuple[object, Metadata]]:
    return [
        (parse_html(page(t, a, shown)), Metadata(title=t, author=a, published=published))
        for t, a, published, shown in SAMPLES
    ]


def test_learn_fields_finds_title_author_and_date(samples: list[tuple[object, Metadata]]) -> None:
    fields = learn_fields(samples)  # type: ignore[arg-type]
    assert fields == {
        "title": "//h2[@class='headline']",
        "author": "//span[@class='who']",
        "date": "//span[@class='when']",
    }


def test_learned_fields_read_a_new_page(samples: list[tuple[object, Metadata]]) -> None:
    fields = learn_fields(samples)  # type: ignore[arg-type]
    root = parse_html(page("Market moves to the square", "Dee Ray", "2nd May 2024"))
    assert extract_fields(root, fields) == {
        "title": "Market moves to the square", "author": "Dee Ray", "date": "2024-05-02",
    }


def test_fields_without_values_are_not_learned() -> None:
    root = parse_html(page("A title", "Ana Lima", "16 April 2024"))
    assert learn_fields([(root, Metadata(title="A title"))]) == {"title": "//h2[@class='headline']"}


def test_a_field_found_on_too_few_pages_is_not_learned(samples: list[tuple[object, Metadata]]) -> None:
    wrong = [(root, Metadata(title=meta.title, author="Nobody Here")) for root, meta in samples]
    assert "author" not in learn_fields(wrong)  # type: ignore[arg-type]


@pytest.mark.parametrize("first, second", [("xa", "xb"), ("xb", "xa")])
def test_a_tie_between_field_xpaths_goes_to_the_element_first_in_the_page(first: str, second: str) -> None:
    # Both paragraphs hold the title on every page, alone and named alike: the learned XPath must
    # not depend on how a set of elements happens to be ordered in memory.
    title = "Council votes on the new bridge"
    html = f"<html><body><p class='{first}'>{title}</p><p class='{second}'>{title}</p></body></html>"
    samples = [(parse_html(html), Metadata(title=title)) for _ in range(3)]
    assert learn_fields(samples) == {"title": f"//p[@class='{first}']"}


def test_a_byline_with_by_matches_the_author() -> None:
    html = "<html><body><h1>T</h1><div class='by'>By Ana Lima</div><p>text</p></body></html>"
    fields = learn_fields([(parse_html(html), Metadata(title="T", author="Ana Lima"))])
    assert fields["author"] == "//div[@class='by']"
    assert extract_fields(parse_html(html), fields)["author"] == "Ana Lima"


def test_a_time_element_gives_its_datetime_attribute() -> None:
    html = ("<html><body><h1>T</h1><time class='pub' datetime='2024-04-16T11:15:00+02:00'>Tuesday</time>"
            "<p>text</p></body></html>")
    fields = learn_fields([(parse_html(html), Metadata(title="T", published="2024-04-16T09:15:00+00:00"))])
    assert fields["date"] == "//time[@class='pub']"
    assert extract_fields(parse_html(html), fields)["date"] == "2024-04-16T11:15:00+02:00"


def test_a_title_with_the_site_name_nearly_matches() -> None:
    html = "<html><body><h1 class='t'>Council votes on the new bridge - Daily</h1><p>x</p></body></html>"
    fields = learn_fields([(parse_html(html), Metadata(title="Council votes on the new bridge"))])
    assert fields == {"title": "//h1[@class='t']"}


META = """<html><head>
<meta property="og:title" content="OG title">
<meta name="author" content="Meta Author">
<meta property="article:published_time" content="2024-04-16T09:15:00Z">
</head><body><p>x</p></body></html>"""

JSON_LD = """<html><head>
<script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
  {"@type": "WebSite", "name": "Daily"},
  {"@type": "NewsArticle", "headline": "LD headline", "datePublished": "2024-04-16",
   "author": [{"@type": "Person", "name": "Ana Lima"}, {"@type": "Person", "name": "Bo Chen"}]}]}</script>
</head><body><p>x</p></body></html>"""


def test_meta_tags_are_the_first_fallback() -> None:
    assert extract_fields(parse_html(META), {}, html=META) == {
        "title": "OG title", "author": "Meta Author", "date": "2024-04-16T09:15:00+00:00",
    }


def test_json_ld_is_the_second_fallback() -> None:
    # parse_html drops <script>, so JSON-LD is read from the page source.
    assert extract_fields(parse_html(JSON_LD), {}, html=JSON_LD.encode()) == {
        "title": "LD headline", "author": "Ana Lima, Bo Chen", "date": "2024-04-16",
    }


def test_learned_patterns_win_over_meta() -> None:
    html = META.replace("<p>x</p>", "<h1>Page title</h1>")
    assert extract_fields(parse_html(html), {"title": "//h1"}, html=html)["title"] == "Page title"


def test_a_pattern_that_matches_nothing_falls_back() -> None:
    assert extract_fields(parse_html(META), {"title": "//h9", "date": ""})["title"] == "OG title"


def test_a_malformed_field_xpath_is_an_error_not_a_silent_miss() -> None:
    # Stored wrappers are checked at load (forest.wrapper_schema); one passed by hand fails loudly.
    with pytest.raises(etree.XPathSyntaxError):
        extract_fields(parse_html(META), {"author": "//*["})


def test_nothing_found_is_none() -> None:
    html = "<html><body><p>x</p></body></html>"
    assert extract_fields(parse_html(html), {}, html=html) == {"title": None, "author": None, "date": None}


@pytest.mark.parametrize(
    "script",
    [
        '{"headline": "Broken", }',
        "{'headline': 'single quotes'}",
        "",
        "[1, 2, 3]",
        '"just a string"',
        '{"headline": {"nested": true}, "author": 5, "datePublished": null}',
        "[[[[[[[[[[[[{\"headline\": \"deep\"}]]]]]]]]]]]]",
    ],
    ids=["trailing-comma", "single-quotes", "empty", "list", "string", "wrong-types", "deep"],
)
def test_broken_json_ld_is_skipped(script: str) -> None:
    html = f'<html><head><script type="application/ld+json">{script}</script></head><body><p>x</p></body></html>'
    assert json_ld_fields(html) == {}


def test_json_ld_with_a_raw_newline_in_a_string_is_read() -> None:
    html = '<script type="application/ld+json">{"headline": "Two\nlines", "author": "Ana"}</script>'
    assert json_ld_fields(html) == {"title": "Two lines", "author": "Ana"}


def test_an_author_url_is_not_an_author() -> None:
    html = '<html><head><meta property="article:author" content="https://facebook.com/ana"></head><body><p>x</p></body></html>'
    assert extract_fields(parse_html(html), {})["author"] is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2024-04-16", "2024-04-16"),
        ("2024-04-16T09:15:00Z", "2024-04-16T09:15:00+00:00"),
        ("2024-04-16T11:15:00+02:00", "2024-04-16T11:15:00+02:00"),
        ("2024-04-16T09:15:00", "2024-04-16T09:15:00"),
        ("16 April 2024", "2024-04-16"),
        ("April 16th, 2024", "2024-04-16"),
        ("Tue, 16 Apr 2024 09:15:00 +0000", "2024-04-16T09:15:00+00:00"),
        ("last Tuesday", "last Tuesday"),
        ("", ""),
    ],
)
def test_normalize_date(value: str, expected: str) -> None:
    assert normalize_date(value) == expected


def test_wrapper_fields_round_trip_and_default_to_empty() -> None:
    wrapper = Wrapper(site="s", patterns=(Pattern("//div", score=1.0, support=1, level=3.0),), fields={"title": "//h1"})
    data = json.loads(json.dumps(wrapper.to_dict()))
    assert Wrapper.from_dict(data) == wrapper
    del data["fields"]  # a wrapper stored before fields existed
    assert Wrapper.from_dict(data).fields == {}


def test_a_field_by_id_reads_the_same_element() -> None:
    html = "<html><body><div id='x'><h1>Head</h1></div><div id='y'><h1>Other</h1></div></body></html>"
    assert extract_fields(parse_html(html), {"title": "//div[@id='y']/h1"})["title"] == "Other"


def test_a_short_elements_text_is_itertexts_without_comments_or_instructions() -> None:
    from forest.fields import _Body, _text

    root = parse_html("<html><body><div><p>Ana <!-- c --><b>Lima</b><?pi x?> | <i>March <u>3</u>,</i> 2014</p>"
                      "<span> \n By  <a>Bo</a>\tChen </span><p>a much longer paragraph that no byline or headline holds</p>"
                      "<img src='x.png'><span>   </span></div></body></html>")
    body = _Body.of(root)
    short = body.short(30)
    assert [e.tag for e in short] == ["p", "b", "i", "u", "span", "a"]  # no element without text, none too long
    assert [body.text(e) for e in short] == [_text(e) for e in short]
    assert body.text(short[0]) == "Ana Lima | March 3, 2014"
    assert body.text(root.find(".//div")) == _text(root.find(".//div"))  # not short: read whole


def test_a_date_an_element_holds_itself_is_learned_and_a_paragraph_mentioning_one_is_not() -> None:
    pages = [
        (f"<p class='when'><strong>Posted:</strong> {day} April 2024</p>"
         f"<p class='text'>On {day} April 2024 the council met, and it met again on the day after, for longer than a byline.</p>", day)
        for day in (16, 15, 14)
    ]
    samples = [(parse_html(f"<html><body><h1>T{day}</h1>{body}</body></html>"),
                Metadata(title="", author="", published=f"2024-04-{day}T09:00:00+00:00")) for body, day in pages]
    assert learn_fields(samples) == {"date": "//p[@class='when']"}


def test_a_text_the_sample_pages_share_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import forest.fields as fields

    read: list[str] = []

    def person_name(text: str) -> str | None:
        read.append(text)
        return None

    monkeypatch.setattr(fields, "person_name", person_name)
    pages = [(parse_html(f"<html><body><p class='menu'>Home News Sports Weather</p><p class='by'>By Ana {name}</p></body></html>"),
              Metadata(title="", author=f"Ana {name}", published="")) for name in ("Lima", "Souza", "Costa")]
    fields.learn_fields(pages)
    assert read.count("Home News Sports Weather") == 1  # the template's menu: once, not once a page
    assert len(read) == len(set(read))
