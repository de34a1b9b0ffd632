"""Dates a page prints beside its headline and states nowhere a machine reads (forest.bylines.visible_date)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forest.config import Settings
from forest.extraction import extract
from forest.fields import extract_fields
from forest.html import parse_html
from forest.learning.induce import Inducer
from forest.bylines import FIRST_YEAR, person_name, visible_date, written_dates
from forest.metadata import parse_date
from forest.model import Page

ARTICLE = "<p>" + " ".join(["The orchard path was cleared by volunteers over the weekend."] * 6) + "</p>"


def _page(headline: str, byline: str, *, before: str = "", after: str = "", title: str | None = None) -> str:
    return (f"<html lang='en'><head><title>{title or headline} | Larkford Courier</title></head><body>"
            f"<header><p>Today: Friday 27 November 2026</p><nav><a href='/'>Home</a></nav></header>{before}"
            f"<article><h1>{headline}</h1><p class='meta'>{byline}</p>{ARTICLE}</article>{after}"
            "<footer><p>&copy; 2009-2026 Larkford Courier</p></footer></body></html>")


@pytest.mark.parametrize(
    ("byline", "day"),
    [
        ("Sat 11 February 2017", "2017-02-11"),
        ("Posted on March 3, 2014 by Ana Lima", "2014-03-03"),
        ("Publié le 3 mars 2014", "2014-03-03"),
        ("2014-03-03 09:15", "2014-03-03"),
        ("Veröffentlicht am 3. März 2014", "2014-03-03"),
        ("8:43 AM, April 19, 2013", "2013-04-19"),
        ("12/28/2005 3:33:49 PM, by Anders Bylund", "2005-12-28"),
        ("12/4/13 at 11:47 AM", "2013-12-04"),
    ],
    ids=["pelican", "posted-on", "french", "iso", "german", "time-first", "us-slashes", "two-digit-year"],
)
def test_the_date_printed_by_the_headline_is_found(byline: str, day: str) -> None:
    html = _page("Volunteers clear the orchard path", byline)
    assert extract_fields(parse_html(html), {}, html=html)["date"] == day


def test_not_the_first_date_on_the_page_but_the_one_by_the_headline() -> None:
    # The masthead prints today's date first, a related story its own, the footer a copyright year.
    related = "<aside><h2>Related</h2><ul><li><a href='/x'>Council meets</a> <span>June 2, 2019</span></li></ul></aside>"
    html = _page("Volunteers clear the orchard path", "By Ana Lima | 11 February 2017", after=related)
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2017-02-11"


def test_a_page_with_only_misleading_dates_has_none() -> None:
    # No date beside the headline: the masthead's, a related story's far below and the copyright are not the article's.
    related = "<aside><ul>" + "".join(f"<li>Story {i} <span>June {i}, 2019</span></li>" for i in range(1, 4)) + "</ul></aside>"
    html = _page("Volunteers clear the orchard path", "By Ana Lima", after=ARTICLE * 8 + related)
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_an_updated_date_gives_way_to_the_published_one() -> None:
    html = _page("Volunteers clear the orchard path", "Updated 5 March 2017 <span>Published 11 February 2017</span>")
    assert extract_fields(parse_html(html), {}, html=html)["date"] == "2017-02-11"


def test_a_date_in_a_paragraph_is_not_the_byline() -> None:
    html = _page("Volunteers clear the orchard path", "By Ana Lima",
                 after="").replace("<p>The orchard", "<p>On March 3, 2014 the council first asked for help. The orchard", 1)
    assert extract_fields(parse_html(html), {}, html=html)["date"] is None


def test_the_headline_is_found_from_a_part_of_the_title() -> None:
    html = _page("Volunteers clear the orchard path", "Sat 11 February 2017", title="Garnix Blog: Volunteers clear the orchard path")
    html = html.replace(" class='meta'", "")  # no element named for a date: the headline alone leads to it
    root = parse_html(html)
    assert visible_date(root, ["Garnix Blog: Volunteers clear the orchard path"]) == "2017-02-11"
    # No text states the title: the page's only <h1> is its headline; of several, none is.
    assert visible_date(root, ["A title no element states"]) == "2017-02-11"
    two = parse_html(html.replace("<footer>", "<h1>Newsletter</h1><footer>"))
    assert visible_date(two, ["A title no element states"]) is None


def test_without_the_headline_an_element_named_for_the_date_gives_it_unless_a_listing() -> None:
    page = ("<html><head><title>Notes</title></head><body><h2>A post about orchards</h2>"
            "<div class='entry-meta'><span class='post-date'>11 February 2017</span></div>" + ARTICLE + "{more}</body></html>")
    assert visible_date(parse_html(page.format(more="")), ["Notes"]) == "2017-02-11"
    listing = "".join(f"<div><h2>Story {i}</h2><span class='post-date'>{i} March 2017</span></div>" for i in range(1, 6))
    assert visible_date(parse_html(page.format(more=listing)), ["Notes"]) is None


@pytest.mark.parametrize(
    ("text", "lang", "day"),
    [("03/04/2014", "en-US", "2014-03-04"), ("03/04/2014", "en-GB", "2014-04-03"), ("03/04/2014", "fr", "2014-04-03"),
     ("28/12/2005", "en", "2005-12-28"), ("won 5 out 2017 matches", "en", None), ("31 February 2017", "en", None)],
)
def test_written_dates(text: str, lang: str, day: str | None) -> None:
    found = written_dates(text, lang)
    assert (found[0][0].isoformat() if found else None) == day


def test_a_short_text_with_two_different_dates_is_not_a_date() -> None:
    assert parse_date("From 3 March 2014 to 5 March 2014") is None


def _blog(n: int, day: int) -> Page:
    # A Pelican or Hugo theme: the date printed under the headline, no <time datetime>, no meta, no JSON-LD.
    topic = ["apples", "brambles", "cedars", "dahlias", "elders", "ferns"][n]
    body = " ".join(f"The {topic} along path {k} need care, says the {topic} keeper in note {k}." for k in range(12))
    html = (f"<html><head><title>Caring for {topic} | Todd's notes</title></head><body><nav><a href='/'>Home</a> "
            f"<a href='/about'>About</a></nav><article><h1 class='entry-title'>Caring for {topic}</h1>"
            f"<footer class='post-info'><span class='published'>Sat {day:02d} February 2017</span> "
            f"<span class='byline'>By Todd Libby</span></footer>"
            f"<div class='entry-content'><p>{body}</p></div></article><footer>Powered by Pelican</footer></body></html>")
    return Page(html, url=f"http://blog.test/post-{n}.html", site="blog.test")


def test_a_site_learned_from_files_finds_the_printed_date_and_author() -> None:
    # Issue 43: learned from files (no feed), such a blog's date was None; learned from its feed it was found.
    pages = [_blog(n, n + 1) for n in range(6)]
    wrapper = Inducer(Settings()).fit(pages[:5], "blog.test").wrapper_
    assert {"date", "author"} <= set(wrapper.fields)
    article = extract(wrapper, pages[5].html, url=pages[5].url)
    assert article.method == "wrapper"
    assert (article.date, article.author) == ("2017-02-06", "Todd Libby")


# --- authors -----------------------------------------------------------------------------------


def _fields(html: str) -> dict[str, str | None]:
    return extract_fields(parse_html(html), {}, html=html)


@pytest.mark.parametrize(
    ("byline", "author"),
    [
        ("By Ana Lima | March 3, 2014", "Ana Lima"),
        ("<span>Written by</span> <a href='/people/ana'>Ana Lima</a>", "Ana Lima"),
        ("<span class='author-name'>Ana Lima</span> <span>5 min read</span>", "Ana Lima"),
        ("<div class='post-author'><a href='/u/ana'>ana_lima</a></div>", "ana_lima"),
        ("Par Ana Lima, 3 mars 2014", "Ana Lima"),
        # A forum's poster: the link's rel ("nofollow") is read among its names, and says nothing of a follow button.
        ("<a class='author' href='/profile/Fitzg' rel='nofollow'>Fitzg</a> | Posted in General", "Fitzg"),
        # A column's authors listed under its masthead, the list named for them.
        ("<ul class='authors'><li><a href='mailto:a@x.example'>Ana Lima</a></li><li><a href='mailto:b@x.example'>Bo Chen</a></li></ul>",
         "Ana Lima, Bo Chen"),
    ],
    ids=["by-pipe-date", "written-by-link", "class-author-name", "forum-user-name", "french", "rel-nofollow", "list-of-authors"],
)
def test_the_byline_by_the_headline_names_the_author(byline: str, author: str) -> None:
    assert _fields(_page("Volunteers clear the orchard path", byline))["author"] == author


def test_a_follow_button_named_for_the_author_is_no_byline() -> None:
    follow = "<a class='author-follow' href='/follow/ana'>Follow Ana Lima</a>"
    assert _fields(_page("Volunteers clear the orchard path", "March 3, 2014", after=follow))["author"] is None


def test_a_comment_authors_name_is_not_the_articles_author() -> None:
    comments = ("<section class='comments'><div class='comment'><span class='comment-author'>Bo Chen</span>"
                "<p>Nice work.</p></div><div><span class='author'>Cy Diaz</span></div></section>")
    assert _fields(_page("Volunteers clear the orchard path", "March 3, 2014", after=comments))["author"] is None


def test_by_clicking_is_no_byline() -> None:
    form = "<form><p>By clicking Subscribe you agree to our terms.</p></form>"
    assert _fields(_page("Volunteers clear the orchard path", "March 3, 2014", after=form))["author"] is None


def test_a_profile_blocks_reputation_is_not_part_of_the_name() -> None:
    # Stack Exchange: the name is a <meta itemprop=name>, the element's text carries the badges.
    card = ("<div itemprop='author' itemscope><a href='/users/1/ana'>ana_lima</a><meta itemprop='name' content='ana_lima'>"
            "<div>15.9k 1 silver badge 6 bronze badges</div></div>")
    assert _fields(_page("Volunteers clear the orchard path", card))["author"] == "ana_lima"


def test_the_sites_name_as_author_gives_way_to_the_byline() -> None:
    head = "<meta name='author' content='Larkford Courier'><meta property='og:site_name' content='Larkford Courier'>"
    html = _page("Volunteers clear the orchard path", "By Ana Lima").replace("<head>", f"<head>{head}")
    assert _fields(html)["author"] == "Ana Lima"
    # With no byline, the site's name is all the page says of who wrote it.
    alone = _page("Volunteers clear the orchard path", "").replace("<head>", f"<head>{head}")
    assert _fields(alone)["author"] == "Larkford Courier"


@pytest.mark.parametrize(
    ("head", "author"),
    [
        ("<meta name='author' content='By Thai Vong'>", "Thai Vong"),
        ("<meta name='twitter:label1' content='Written by'><meta name='twitter:data1' content='Jayesh Shinde'>", "Jayesh Shinde"),
        ("<meta name='citation_author' content='Berger, Emery D.'><meta name='citation_author' content='Lima, Ana'>", "Emery D. Berger"),
        ("<meta name='citation_author' content='Aniruddha Roy'>", "Aniruddha Roy"),
    ],
    ids=["by-in-meta", "twitter-label", "citation-last-first", "citation-as-written"],
)
def test_authors_meta_tags_state(head: str, author: str) -> None:
    html = _page("Volunteers clear the orchard path", "").replace("<head>", f"<head>{head}")
    assert _fields(html)["author"] == author


def test_a_learned_place_missing_from_a_page_falls_back_to_what_it_prints() -> None:
    # The wrapper's date is in <span class=published>; this page, of another template, prints it in its byline.
    html = _page("Volunteers clear the orchard path", "By Ana Lima, March 3, 2014")
    learned = {"date": "//span[@class='published']", "author": "//span[@class='who']"}
    found = extract_fields(parse_html(html), learned, html=html, statements=False)
    assert (found["date"], found["author"]) == ("2014-03-03", "Ana Lima")
    # No place learned for a field: what the page prints by its headline is searched all the same (a
    # site may print a byline on some pages only); the head alone (what learning compares) has none.
    assert extract_fields(parse_html(html), {}, html=html, statements=False)["date"] == "2014-03-03"
    assert extract_fields(parse_html(html), {}, html=html, body=False)["date"] is None


@pytest.mark.parametrize(
    ("text", "name"),
    [("By Ana Lima | March 3, 2014", "Ana Lima"), ("Luke Kim December 17, 2025", "Luke Kim"), ("undefined", None),
     ("Hi My Account", None), ("C", None), ("Share this", None)],
)
def test_person_name(text: str, name: str | None) -> None:
    assert person_name(text) == name


# --- dates more pages state (issue 43: found where trafilatura finds them, and right) ----------------


@pytest.mark.parametrize(
    ("head", "day"),
    [
        ("<meta name='Issue_Date' content='January 30, 2009  5:50 PM'>", "2009-01-30"),
        ("<meta name='DC.Date' scheme='ISO8601' content='2019-06-25'>", "2019-06-25"),
        ("<meta name='citation_date' content='2019/06/25'>", "2019-06-25"),
        ("<meta name='DATE' content='2019-06-25'>", "2019-06-25"),
        # The Hindu's pages of 2008: one word, ISO 8601's basic format.
        ("<META NAME='PublicationDate' CONTENT='20080115'>", "2008-01-15"),
    ],
    ids=["magazine-issue-date", "dublin-core-capitals", "scholarly-citation-date", "upper-case-name", "one-word-basic-format"],
)
def test_meta_tags_state_the_date_whatever_their_case(head: str, day: str) -> None:
    html = _page("Volunteers clear the orchard path", "By Ana Lima").replace("<head>", f"<head>{head}")
    assert _fields(html)["date"] == day


def test_a_byline_meta_tag_names_the_author() -> None:
    # New York Magazine's old pages: <meta name="Byline">, no "author".
    html = _page("Volunteers clear the orchard path", "").replace("<head>", "<head><meta name='Byline' content=' David Amsden '>")
    assert _fields(html)["author"] == "David Amsden"


def test_a_meta_date_that_is_no_date_gives_way_to_the_printed_one() -> None:
    # "01/07/16" reads as no day: it was given as the date, untouched, where the byline prints one.
    html = _page("Volunteers clear the orchard path", "Sat 11 February 2017").replace(
        "<head>", "<head><meta name='date' content='01/07/16'>")
    assert _fields(html)["date"] == "2017-02-11"
    assert _fields(html.replace("Sat 11 February 2017", "By Ana Lima"))["date"] is None


def test_a_year_first_dotted_date_by_the_headline() -> None:
    assert _fields(_page("Volunteers clear the orchard path", "Essay - Published: 2025.12.17 | programming"))["date"] == "2025-12-17"


def _old_news(byline: str, lead: str, *, footer: str = "") -> str:
    # A 2005 portal's story: no <h1> (the headline is a <b>), no machine-readable date, the site's name as <title>.
    return ("<html lang='en'><head><title>New York Post Online Edition: Breaking News</title></head><body>"
            "<table><tr><td><a href='/'>HOME</a> <a href='/news'>NEWS</a> <a href='/sports'>SPORTS</a></td></tr></table>"
            f"<div><b>POPE LYING IN STATE OF GRACE</b><br>{byline}<p>{lead} A sea of humanity half a million strong waited "
            "for hours to bid farewell as the line stretched for two miles along the river and past the square, where "
            "volunteers handed out water through the night.</p>" + ARTICLE + f"</div><p>{footer}</p></body></html>")


def test_a_dateline_opening_the_first_paragraph_is_the_date() -> None:
    assert _fields(_old_news("By ANDY GELLER", "April 5, 2005 --"))["date"] == "2005-04-05"
    # A date the paragraph only mentions is none.
    assert _fields(_old_news("By ANDY GELLER", "Since April 5, 2005 --"))["date"] is None


def test_a_weekday_dateline_without_its_year_takes_the_copyright_notices_year() -> None:
    page = _page("Bush tours Katrina damage", "By JENNIFER LOVEN, Associated Press Writer <span>Fri Sep 2, 5:13 PM ET</span>",
                 after="<p>Copyright &copy; 2005 The Associated Press. All rights reserved.</p>")
    # Friday, September 2nd is 2005's (and 2011's, 2016's): the notice's year, whose calendar agrees.
    assert _fields(page)["date"] == "2005-09-02"
    # A weekday the notice's year does not have on that day: no year is guessed.
    assert _fields(page.replace("Fri Sep 2", "Sat Sep 2"))["date"] is None
    # Without a time it is as often a shop's delivery estimate ("Tue, Apr 14"): none.
    assert _fields(page.replace(", 5:13 PM ET", ""))["date"] is None


def test_a_date_posted_far_below_the_headline_is_found_where_it_is_the_only_one() -> None:
    footer = "<div class='sign'>Posted on the 15/12/2025 at 19:00 by <a href='/'>Guillaume</a></div>"
    html = _page("Volunteers clear the orchard path", "", after=ARTICLE * 12 + footer)
    assert _fields(html)["date"] == "2025-12-15"
    # Two posts' different dates (a listing, a thread): neither is the page's.
    two = footer + footer.replace("15/12/2025", "16/12/2025")
    assert _fields(_page("Volunteers clear the orchard path", "", after=ARTICLE * 12 + two))["date"] is None


def test_an_abbr_titled_with_a_timestamp_gives_it() -> None:
    # hAtom, as Yahoo! News printed it in 2009: the text has no year, the title the instant.
    byline = "<abbr title='2009-04-01T22:08:02-0700' class='timedate'>Thu Apr 2, 1:08 am ET</abbr>"
    assert _fields(_page("Volunteers clear the orchard path", byline))["date"] == "2009-04-01T22:08:02-07:00"


@pytest.mark.parametrize(
    ("text", "name"),
    [("Thu", None), ("By Tyler Marshall and Alissa J. Rubin", "Tyler Marshall and Alissa J. Rubin"),
     ("Authorities Governing Board Actions Open submenu LSC Code of Ethics and Conduct", None),
     ("By DAVID ESPO, AP Special Correspondent", "DAVID ESPO")],
    ids=["weekday", "two-long-names", "a-menu-with-and", "agency-role"],
)
def test_person_name_of_news_bylines(text: str, name: str | None) -> None:
    assert person_name(text) == name


def test_a_learned_byline_drops_by_and_its_colon() -> None:
    html = _page("Volunteers clear the orchard path", "<span class='who'>By: Mark Graham</span>")
    assert extract_fields(parse_html(html), {"author": "//span[@class='who']"}, html=html, statements=False)["author"] == "Mark Graham"


_MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "March", "Sept", "mars"]
_PIECES = st.one_of(
    st.sampled_from(["Fri", "Thu", "Sunday", ",", " ", ".", "-", "/", ":", "--", "©", "Posted on", "5:13 PM ET", "the", "2005",
                     "1991", "2099", "0", "00"]),
    st.sampled_from(_MONTH_NAMES), st.integers(0, 40).map(str), st.integers(1980, 2100).map(str), st.text(max_size=4),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12).map(" ".join), st.sampled_from(["", "en", "en-GB", "fr"]))
def test_written_dates_never_raise_and_give_valid_days_where_they_are(text: str, lang: str) -> None:
    for day, start, end in written_dates(text, lang):
        assert FIRST_YEAR <= day.year <= date.today().year + 1
        assert 0 <= start < end <= len(text)
    parsed = parse_date(text)
    assert parsed is None or isinstance(parsed, date)


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=10).map(" ".join), st.integers(1990, 2030))
def test_a_printed_date_is_a_valid_day_or_none(byline: str, year: int) -> None:
    html = _page("Volunteers clear the orchard path", byline.replace("<", " ").replace("\x00", " "), after=f"<p>&copy; {year} Larkford</p>")
    day = visible_date(parse_html(html), ["Volunteers clear the orchard path"])
    assert day is None or FIRST_YEAR <= date.fromisoformat(day).year <= date.today().year + 1


def test_a_dateline_names_its_author_after_the_date() -> None:
    # Ars Technica, 2005: the byline is the dateline's end.
    assert _fields(_page("Volunteers clear the orchard path", "12/28/2005 3:33:49 PM, by Anders Bylund"))["author"] == "Anders Bylund"
    # A book cited in the text ("..., by Tom Miller") names its own author, not the article's.
    cited = "<p><em>Achieving Your Pinnacle</em>, by Tom Miller, Copyright 2013. Reprinted with permission.</p>"
    assert _fields(_page("Volunteers clear the orchard path", "", after=cited))["author"] is None


def test_bbcs_byl_class_names_the_author_but_not_a_class_that_only_holds_the_letters() -> None:
    byline = "<span class='byl'>Matt McGrath</span><br><span class='bylr'>BBC environment reporter</span>"
    assert _fields(_page("More bad news on climate change", byline))["author"] == "Matt McGrath"
    shop = "<a class='shopbylink'>Day Hiking Boots</a>"
    assert _fields(_page("More bad news on climate change", shop))["author"] is None


def test_a_dateline_without_weekday_or_year_takes_the_year_of_the_notice_after_it() -> None:
    # New York Post, 2005: an AP story's dateline, the AP's notice under the story, the site's older one in its footer.
    page = _page("Clerics call for release of Iraq hostages", "Dec 10, 2:59 AM EST",
                 after="<p>&copy; 2005 The Associated Press.</p><div>Copyright 2003 NYP Holdings, Inc.</div>")
    assert _fields(page.replace("&copy; 2009-2026 Larkford Courier", ""))["date"] == "2005-12-10"
    # No notice after it: no year to give it.
    assert _fields(_page("Clerics call for release of Iraq hostages", "Dec 10, 2:59 AM EST").replace(
        "&copy; 2009-2026", ""))["date"] is None


def test_a_listings_stories_times_are_not_the_pages_date() -> None:
    stories = "".join(f"<div><h2>Story {i}</h2><p>4 March 0{i}:00 PM EST - News - {i} Comments</p></div>" for i in range(1, 7))
    assert _fields(_page("Phoronix", "", after=stories).replace("<h1>Phoronix</h1>", "<h1>Phoronix</h1>" + stories))["date"] is None


def test_an_update_line_dates_a_page_without_h1_but_not_a_service_page() -> None:
    # BBC News, 2007 (a saved copy without its head): the dateline is "Last Updated", the page has no <h1>.
    dateline = "<span class='ds'><span class='lu'>Last Updated: </span>Saturday, 12 January 2008, 14:28 GMT</span>"
    bbc = f"<html><body><table><tr><td>{dateline}<div class='mvb'>England pick their squad</div>{ARTICLE}</td></tr></table></body></html>"
    assert _fields(bbc)["date"] == "2008-01-12"
    # A shop's or a service's page (with an <h1>) says when it was last updated, not when it was published.
    service = _page("Our consulting services", "", after=ARTICLE * 8 + "<p>Last updated: November 13, 2025</p>")
    assert _fields(service)["date"] is None


@pytest.mark.parametrize(
    ("text", "lang", "found"),
    [
        ("12/4/13 at 11:47 AM", "en-US", [date(2013, 12, 4)]),
        ("14/01/08 7:36 AM", "en", [date(2008, 1, 14)]),  # over 12 first: the day
        ("01/08/08, 05:30 PM", "en-GB", [date(2008, 8, 1)]),
        ("5/6/98 10:00", "en-US", [date(1998, 5, 6)]),  # the web's century: not 2098
        ("Won 1/2/25 on aggregate", "en", []),  # no time after it: a score as often as a date
        ("Version 3/4/12", "en", []),
    ],
)
def test_a_two_digit_year_is_read_before_a_time_only(text: str, lang: str, found: list[date]) -> None:
    assert [day for day, _, _ in written_dates(text, lang)] == found


@pytest.mark.parametrize("space", ["\u00a0", "\u00c2\u00a0", "\u00c3\u201a\u00c2\u00a0"])
def test_a_no_break_space_in_the_wrong_charset_still_opens_the_posted_date(space: str) -> None:
    # A page served in another charset than it was written in prints its no-break space as "Â " or,
    # decoded twice, "Ã‚Â " (a Canadian newspaper's "Published:Ã‚Â Thursday, January 17, 2008").
    footer = f"<div class='sign'><span>Published:{space}Thursday, January 17, 2008</span></div>"
    assert _fields(_page("Volunteers clear the orchard path", "", after=ARTICLE * 12 + footer))["date"] == "2008-01-17"
