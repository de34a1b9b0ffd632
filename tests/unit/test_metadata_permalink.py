"""A page's date read from its own URL (forest.metadata.url_date), where it states and prints none."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest.bylines import FIRST_YEAR
from forest.config import Settings
from forest.extraction import extract
from forest.fields import extract_fields, saved_from
from forest.html import parse_html
from forest.metadata import url_date

ARTICLE = "<p>" + " ".join(["The orchard path was cleared by volunteers over the weekend."] * 6) + "</p>"


def _page(head: str = "", *, before: str = "", byline: str = "By Ana Lima", after: str = "") -> str:
    return (f"<html lang='en'><head><title>Volunteers clear the orchard path | Larkford Courier</title>{head}</head><body>"
            f"{before}<article><h1>Volunteers clear the orchard path</h1><p class='meta'>{byline}</p>{ARTICLE}</article>"
            f"{after}<footer><p>&copy; 2009-2026 Larkford Courier</p></footer></body></html>")


@pytest.mark.parametrize(
    ("url", "day"),
    [
        ("http://techcrunch.com/2012/08/09/ten-million-views/", "2012-08-09"),
        ("https://www.cnn.com/2005/WORLD/meast/04/05/iraq.main/index.html", "2005-04-05"),
        ("/blog/2012-10-29-hello-again", "2012-10-29"),
        ("http://news.yahoo.com/s/ap/20050922/ap_on_re_us/rita", "2005-09-22"),
        ("http://arstechnica.com:80/news.ars/post/20051228-5858.html", "2005-12-28"),
        ("http://www.latimes.com/news/local/la-me-sheriff25-2009jun25,0,3184855.story", "2009-06-25"),
    ],
    ids=["segments", "sections-between", "dashes", "eight-digits", "eight-digits-id", "month-name"],
)
def test_a_permalink_states_its_day(url: str, day: str) -> None:
    assert url_date(url) == day


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/2012/10/autumn-walks/",  # a month's archive
        "http://example.com/archive?date=2008/01/15",  # a query's parameter
        "http://example.com/2012/13/40/x",  # no such day
        "http://example.com/photos/2012/10/1024/768/",  # sizes
        "http://example.com/item/123456789012/",
        "http://example.com/seven/02252009/news.htm",  # month first or day first: either
        "http://example.com/1850/01/02/history",  # before the web
    ],
)
def test_no_day_where_a_url_states_none(url: str) -> None:
    assert url_date(url) is None


@settings(max_examples=300, deadline=None)
@given(st.dates(date(FIRST_YEAR, 1, 1), date(2026, 12, 31)), st.sampled_from(["/{y}/{m}/{d}/", "/{y}/{m:02}/{d:02}/", "/{y}-{m:02}-{d:02}-",
                                                                              "/{y}{m:02}{d:02}/", "/news/{y}/US/{m:02}/{d:02}/x.html"]),
       st.text(alphabet="abcdefgh-/", max_size=12))
def test_every_day_written_in_a_permalink_is_read(day: date, form: str, slug: str) -> None:
    path = form.format(y=day.year, m=day.month, d=day.day)
    assert url_date(f"https://example.org/blog{path}{slug.lstrip('0123456789')}") == day.isoformat()


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789/-._?#:abcjunJUN", max_size=40))
def test_any_url_gives_a_valid_day_or_none(url: str) -> None:
    found = url_date(url)
    assert found is None or FIRST_YEAR <= date.fromisoformat(found).year <= date.today().year + 1


def test_a_page_that_states_no_date_is_dated_by_its_canonical_url() -> None:
    html = _page("<link rel='canonical' href='https://larkford.example/2017/02/11/orchard-path/'>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2017-02-11"
    og = _page("<meta property='og:url' content='https://larkford.example/2017/02/11/orchard-path/'>")
    assert extract(None, og.encode(), settings=Settings()).date == "2017-02-11"


def test_the_date_the_page_prints_wins_over_its_url() -> None:
    html = _page("<link rel='canonical' href='https://larkford.example/2017/02/10/orchard-path/'>", byline="By Ana Lima | 11 February 2017")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2017-02-11"


def test_a_related_storys_url_dates_nothing() -> None:
    # Links to other stories carry their days; only the page's own URL states its day.
    related = "<aside><ul><li><a href='https://larkford.example/2019/06/02/council-meets/'>Council meets</a></li></ul></aside>"
    html = _page("<link rel='canonical' href='https://larkford.example/news/orchard-path/'>", after=related)
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_an_archived_copy_is_dated_by_the_url_it_was_read_from() -> None:
    toolbar = ('<script>__wm.bt(550,27,25,2,"web","http://news.example.com/s/ap/20050922/ap_on_re_us/rita",'
               '"2005-09-23",1996);</script>')
    html = _page(toolbar, byline="By Mike Graczyk, Associated Press Writer 1 hour, 41 minutes ago")
    assert saved_from(html) == "http://news.example.com/s/ap/20050922/ap_on_re_us/rita"
    # The URL's day, not the capture's (2005-09-23), nor a relative time's.
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2005-09-22"
    saved = _page().replace("<html", "<!-- saved from url=(0052)https://larkford.example/2014/03/03/orchard-path/ -->\n<html")
    assert extract_fields(parse_html(saved), {}, html=saved.encode())["date"] == "2014-03-03"


def test_a_page_is_dated_by_the_url_it_was_read_from_where_it_names_no_url_of_its_own() -> None:
    # A WARC record's, a fetched page's URL: extract(url=) passes it down; the page's own canonical URL comes first.
    html = _page()
    assert extract(None, html, url="https://larkford.example/2016/05/04/orchard-path/").date == "2016-05-04"
    canonical = _page("<link rel='canonical' href='https://larkford.example/2017/02/11/orchard-path/'>")
    assert extract(None, canonical, url="https://larkford.example/2016/05/04/orchard-path/").date == "2017-02-11"
    assert extract(None, html, url="https://larkford.example/news/orchard-path/").date is None


def test_no_url_no_date() -> None:
    assert saved_from(_page()) is None
    html = _page()
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


# --- dates an old news page prints where the search did not read them -----------------------------


def test_a_date_the_title_states_as_one_of_its_parts() -> None:
    html = _page().replace("<title>Volunteers clear the orchard path | Larkford Courier</title>",
                           "<title>Volunteers clear the orchard path | January 15, 2008 | Larkford Courier</title>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2008-01-15"
    weekday = html.replace("January 15, 2008", "Tuesday, 15 January 2008")
    assert extract_fields(parse_html(weekday), {}, html=weekday)["date"] == "2008-01-15"


@pytest.mark.parametrize("title", ["Best hikes of 2008 | Larkford Courier", "Events after March 3, 2014 in town | Larkford Courier",
                                   "Larkford Courier | 01/02/2008 | Volunteers clear the orchard path"],
                         ids=["bare-year", "mentioned", "month-or-day-first"])
def test_no_date_from_a_title_that_only_mentions_one(title: str) -> None:
    html = _page().replace("<title>Volunteers clear the orchard path | Larkford Courier</title>", f"<title>{title}</title>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_posted_with_a_time_before_the_date() -> None:
    # A TV station's story: no <h1>, no title the page prints; "Posted:" then a time, then the day.
    html = ("<html lang='en'><head><title>WLRK - Sports section front</title></head><body><div class='story'>"
            "<span class='headline'>Larkford wins the county cup</span><span>Posted: 6:12 PM Dec 30, 2007</span>"
            f"<span>Last Updated: 6:10 PM Dec 31, 2007</span>{ARTICLE}</div><p>&copy; 2007 WLRK</p></body></html>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2007-12-30"


def test_a_page_without_a_title_has_its_only_h1_for_headline() -> None:
    # The masthead's date (today's, above the article) is not the article's; the one under its only <h1> is.
    html = ("<html lang='en'><body><div class='top'><nav><a href='/'>Home</a></nav><p>Sunday, January 20, 2008</p></div>"
            "<div class='story'><h1>Volunteers clear the orchard path</h1><p class='info'>Saturday, December 29 2007, 15:03 GMT</p>"
            f"{ARTICLE}</div></body></html>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2007-12-29"


def test_a_page_whose_only_dates_are_its_copyright_and_a_related_storys_has_none() -> None:
    related = ("<aside><h2>More news</h2><ul><li><a href='https://larkford.example/2019/06/02/council-meets/'>Council meets</a>"
               " <span>June 2, 2019</span></li></ul></aside>")
    html = _page("<link rel='canonical' href='https://larkford.example/news/orchard-path'>", after=ARTICLE * 8 + related)
    assert extract(None, html.encode(), settings=Settings()).date is None


def _portal(*dated: str) -> str:
    # An old news portal's story page: no <h1>, a <title> that is the site's name, no byline.
    return ("<html lang='en'><head><title>The Larkford Courier Online</title></head><body><table><tr><td>"
            f"<a href='/'>Home</a> <a href='/sport'>Sport</a></td></tr><tr><td>{''.join(dated)}"
            f"<b>Larkford wins the county cup</b>{ARTICLE}</td></tr></table><p>&copy; 2008 Larkford Courier</p></body></html>")


def test_an_old_portals_timestamp_printed_alone_dates_its_story() -> None:
    html = _portal("<p>Sunday, January 20, 2008</p>", "<font>Monday, 31 December 2007, 10:46 GMT</font>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2007-12-31"
    hours = _portal("<font>Friday, January 11, 2008 : 1530 Hrs</font>")
    assert extract_fields(parse_html(hours), {}, html=hours)["date"] == "2008-01-11"


@pytest.mark.parametrize("dated", [("<p>Sunday, January 20, 2008</p>",),
                                   ("<p>Jan 3, 2008 10:46 GMT</p>", "<p>Jan 5, 2008 11:02 GMT</p>")],
                         ids=["masthead-today", "a-list-of-stories"])
def test_no_date_from_a_masthead_or_a_list_of_timestamps(dated: tuple[str, ...]) -> None:
    html = _portal(*dated)
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(['__wm.bt(', '__wm.wombat(', '"web",', '"http://x.example/2005/09/22/a"', "saved from url=(0042)",
                                 "http://y.example/p", " -->", ",", "550", '"', "(", ")", " ", "\n"]), max_size=14).map("".join))
def test_a_saved_url_is_a_url_or_none(text: str) -> None:
    for source in (text, text.encode()):
        found = saved_from(source)
        assert found is None or (found.startswith("http") and '"' not in found and " " not in found)


def _captured(toolbar: str, age: str, *, related: str = "") -> str:
    # A Wayback Machine copy of an old news page that prints its date only as an age under the byline.
    return _page(byline=f"By ANA LIMA, Associated Press Writer <em>{age}</em>",
                 after=related).replace("<body>", f"<body><script>{toolbar}</script>")


SNAPSHOT = "__wm.saveSnapshot('http://news.example/s/ap/orchard', '20050905001648')"
BT = '__wm.bt(550,27,25,2,"web","http://news.example/s/ap/orchard","2005-09-05",1996);'


@pytest.mark.parametrize(
    ("toolbar", "age", "day"),
    [
        (SNAPSHOT, "2 minutes ago", "2005-09-05"),
        (SNAPSHOT, "1 hour,  19 minutes ago", "2005-09-04"),  # captured at 00:16: an hour and more before is the day before
        (SNAPSHOT, "an hour ago", "2005-09-04"),
        (SNAPSHOT.replace("saveSnapshot('http://news.example/s/ap/orchard', ", 'wombat("http://news.example/s/ap/orchard",')
         .replace("'", '"'), "3 days ago", "2005-09-02"),
        (BT, "6 hrs ago", "2005-09-05"),  # the capture's day alone: an age under a day is that day's
        (BT, "2 days ago", "2005-09-03"),
    ],
    ids=["minutes", "hours-and-minutes", "an-hour", "wombat-days", "day-only-hours", "day-only-days"],
)
def test_an_archived_page_that_prints_its_age_is_dated_by_its_capture(toolbar: str, age: str, day: str) -> None:
    html = _captured(toolbar, age)
    assert extract_fields(parse_html(html), {}, html=html)["date"] == day
    assert extract(None, html.encode(), settings=Settings()).date == day


def test_an_age_by_the_byline_dates_a_page_whose_headline_is_not_found() -> None:
    # A page read from a wrapper's span: its title is printed in the part only as a related story's link, far below.
    html = _captured(SNAPSHOT, "2 minutes ago").replace("<h1>Volunteers clear the orchard path</h1>", "").replace(
        "</article>", ARTICLE * 12 + "<ul><li><a href='/s/ap/orchard'>Volunteers clear the orchard path</a></li></ul></article>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2005-09-05"


def test_an_age_is_no_date_without_a_capture_nor_far_from_the_headline() -> None:
    # Served live, "2 minutes ago" says nothing of the day; a related story's age far below is not the article's.
    assert extract_fields(parse_html(html := _captured("", "2 minutes ago")), {}, html=html)["date"] is None
    related = ARTICLE * 12 + "<ul class='related'><li><a href='/s/ap/rain'>Rain returns</a> <em>AP, 28 minutes ago</em></li></ul>"
    html = _captured(SNAPSHOT, "", related=related)
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_a_blog_posts_footer_dates_it() -> None:
    # The date under a long post, far from its headline, in the theme's footer of the post.
    html = _page(after="").replace("</article>", ARTICLE * 12 + "<div class='post-footer'>August 9th, 2012 | Category: "
                                   "<a href='/c/recipes'>Recipes</a></div></article>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2012-08-09"
