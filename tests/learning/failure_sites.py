"""Small hand-made sites, one per failure class of issue 38, generated from a template with varied article text.

Each site is a handful of pages of one template: the first ``LEARN`` are the sample a user
learns from, the rest are held out and extracted.  Every page carries its hand-known
article text (``SitePage.gold``: the headline and the article's own text), so the wrapper's
extraction and the cold path's can both be scored against it.  The boilerplate each class
is about sits where the issue saw it: inside the article's region.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from prose import TOPICS, Story, sentence, story

LEARN = 5


@dataclass(frozen=True, slots=True)
class SitePage:
    url: str
    html: str
    gold: str


@dataclass(frozen=True, slots=True)
class Site:
    """A hand-made site: its pages, the first ``LEARN`` the sample and the rest held out."""

    name: str
    pages: tuple[SitePage, ...]

    @property
    def sample(self) -> tuple[SitePage, ...]:
        return self.pages[:LEARN]

    @property
    def held_out(self) -> tuple[SitePage, ...]:
        return self.pages[LEARN:]


def _topics(rng: random.Random, n: int) -> list[str]:
    return rng.sample(sorted(TOPICS), n)


def _head(title: str, site: str, url: str, description: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(title)} | {site}</title>'
            f'<meta name="description" content="{escape(description)}"><link rel="canonical" href="{url}">'
            f'<meta property="og:url" content="{url}"></head>')


def _paragraphs(story: Story, attrs: str = "") -> list[str]:
    return [f"<p{attrs}>{escape(p)}</p>" for p in story.paragraphs]


def _most_read(rng: random.Random, host: str, count: int = 5) -> str:
    items = []
    for _ in range(count):
        vocab = TOPICS[rng.choice(sorted(TOPICS))]
        items.append(f'<li><a href="https://{host}/news/{rng.randint(1000, 9999)}">'
                     f'{escape(rng.choice(vocab["nouns"]).capitalize())} plans put on hold</a></li>')
    return "".join(items)


# -- 1. Sign-up and related-video boxes inside the region of a site with CSS-in-JS class names.

def live_blog(seed: int = 1) -> Site:
    """A news site built with styled-components: every class a hash (``sc-fwko30-0 fDORXM main-wrapper``), its
    stories live blogs of timestamped entries, and inside the story's wrapper, between entries, a newsletter
    sign-up box (heading, pitch, e-mail field, "SIGN UP", "Please enter a valid email address", a "✕" button)
    and a "Related video" embed with its caption."""
    rng = random.Random(seed)
    host = "www.livewire.test"
    pages = []
    for i, topic in enumerate(_topics(rng, 8)):
        url = f"https://{host}/live/2026/nov/{10 + i}/{topic}-latest"
        told = story(rng, topic, paragraphs=(8, 12))
        entries = []
        for j, paragraph in enumerate(told.paragraphs):
            stamp = f"{9 + j // 2:02d}.{rng.randint(0, 59):02d} GMT"
            entries.append(f'<div class="sc-1ktc6ev-0 hYtQjK"><p class="sc-1ktc6ev-1 jwUrtA"><time>{stamp}</time></p>'
                           f'<p class="sc-77igqf-0 bOfvBY">{escape(paragraph)}</p></div>')
        vocab = TOPICS[topic]
        video = (f'<div class="sc-9w0a2r-0 gKfTzn"><span class="sc-9w0a2r-1 cXDpLm">Related video:</span>'
                 f'<div class="sc-9w0a2r-2 dFhQwe"><button class="sc-9w0a2r-3 kYtRbn">Play video</button>'
                 f'<p class="sc-9w0a2r-4 lMnOpq">{escape(sentence(rng, vocab))} (1:{rng.randint(10, 59)})</p></div></div>')
        signup = ('<div class="sc-15wp3ra-0 fSfQzb"><button class="sc-15wp3ra-5 eQwCzA">\u2715</button>'
                  '<h3 class="sc-15wp3ra-1 hGvLzx">Sign up for the Livewire Daily email</h3>'
                  '<p class="sc-15wp3ra-2 iXyZab">Our morning briefing breaks down the key stories of the day, telling you '
                  'what\u2019s happening and why it matters</p>'
                  '<form class="sc-15wp3ra-3 jKlMno"><label>Enter your email address</label><input type="email">'
                  '<button class="sc-15wp3ra-4 bNmVcX">SIGN UP</button></form>'
                  '<p class="sc-15wp3ra-6 cVbNmA">Please enter a valid email address</p>'
                  '<p class="sc-15wp3ra-7 aSdFgH">Privacy Notice: Newsletters may contain info about charities, online ads, '
                  'and content funded by outside parties.</p></div>')
        cut1, cut2 = sorted(rng.sample(range(1, len(entries)), 2))
        body = "".join(entries[:cut1]) + signup + "".join(entries[cut1:cut2]) + video + "".join(entries[cut2:])
        html = (_head(told.headline, "Livewire", url, told.paragraphs[0][:150])
                + '<body><div id="__next"><header class="sc-1mtb3d-0 kQwEzp"><a href="/">Livewire</a>'
                '<nav class="sc-1mtb3d-1 fGhJkl"><a href="/world">World</a> <a href="/politics">Politics</a> '
                '<a href="/climate">Climate</a> <a href="/business">Business</a></nav></header>'
                '<main class="sc-1v2q8t-0 bXyWrT">'
                '<div class="sc-fwko30-0 fDORXM main-wrapper">'
                f'<h1 class="sc-1efpnfq-0 dQvEcH">{escape(told.headline)}</h1>'
                f'<div class="sc-1efpnfq-1 cZxVbn">Live updates \u00b7 {rng.randint(2, 9)} min read</div>'
                f'{body}</div>'
                f'<aside class="sc-kpq2sd-0 hHjJkK"><h2>Most viewed</h2><ul>{_most_read(rng, host)}</ul></aside></main>'
                '<footer class="sc-7pl2fx-0 jJkKlL"><p>\u00a9 2026 Livewire Media Ltd. All rights reserved.</p>'
                '<a href="/terms">Terms</a> <a href="/privacy">Privacy</a></footer></div></body></html>')
        pages.append(SitePage(url, html, told.text))
    return Site("live blog with hashed class names", tuple(pages))


# -- 2. A video playlist and a "Follow @x on Twitter" line inside the region.

def playlist(seed: int = 2) -> Site:
    """A newspaper whose region is the story container's child divs (``//div[@class='trb_ar_main']/div``), and
    among them a video playlist ("Caption", "4 stories you can't miss", repeated video blurbs) and the
    author's "Follow @x on Twitter" line."""
    rng = random.Random(seed)
    host = "www.metrotimes.test"
    blurbs = [(f"{noun.capitalize()} {rng.choice(['explained', 'in 90 seconds', 'caught on camera', 'what we know'])}",
               f"{rng.choice(['Watch', 'See', 'Raw video'])}: {rng.choice(vocab['people'])} on the {noun} in {rng.choice(vocab['places'])}")
              for vocab in TOPICS.values() for noun in rng.sample(vocab["nouns"], 2)]
    pages = []
    for i, topic in enumerate(_topics(rng, 8)):
        url = f"https://{host}/local/la-me-{topic}-20170{3 + i}-story.html"
        told = story(rng, topic)
        author = rng.choice(["Joseph Serna", "Laura Nelson", "Hailey Branson", "Matt Hamilton"])
        handle = author.split()[0].lower() + author.split()[1][:3].lower()
        videos = "".join(f'<li class="trb_vid_item"><div class="trb_vid_title">{escape(title)}</div>'
                         f'<p class="trb_vid_desc">{escape(blurb)} ({rng.randint(0, 3)}:{rng.randint(10, 59)})</p></li>'
                         for title, blurb in rng.sample(blurbs, 4))
        html = (_head(told.headline, "Metro Times", url, told.paragraphs[0][:150])
                + '<body><div class="trb_nh"><a href="/">Metro Times</a><ul class="trb_nh_lm">'
                '<li><a href="/local">Local</a></li><li><a href="/sports">Sports</a></li>'
                '<li><a href="/opinion">Opinion</a></li></ul></div>'
                '<div class="trb_allContentWrapper"><div class="trb_ar_main">'
                f'<div class="trb_ar_hl"><h1 class="trb_ar_hl_t">{escape(told.headline)}</h1></div>'
                f'<div class="trb_ar_by">By <a href="/la-bio-{handle}">{author}</a> \u00b7 Contact Reporter</div>'
                '<div class="trb_ar_playlist"><div class="trb_pl_caption">Caption</div>'
                '<h3 class="trb_pl_title">4 stories you can\u2019t miss</h3>'
                f'<ul class="trb_vid_list">{videos}</ul></div>'
                f'<div class="trb_ar_page">{"".join(_paragraphs(told))}</div>'
                f'<div class="trb_ar_bio"><p>Follow @{handle} on Twitter</p></div>'
                '</div><div class="trb_ar_rr"><h2>Most popular</h2>'
                f'<ul>{_most_read(rng, host)}</ul></div></div>'
                '<div class="trb_ft"><p>Copyright \u00a9 2017, Metro Times</p></div></body></html>')
        pages.append(SitePage(url, html, told.text))
    return Site("video playlist inside the region", tuple(pages))


# -- 3. Paragraphs with no common container; a lede outside the main div.

def scattered(seed: int = 3) -> Site:
    """A 2005 news site in a layout table: the lede is a bold paragraph before the story's div, the story's
    paragraphs are bare ``<p>`` siblings split over several divs (by an inline fact box, a pull quote and a
    crosshead), and the sidebar and footer hold ``<p>`` elements of their own."""
    rng = random.Random(seed)
    host = "news.wireless.test"
    pages = []
    for i, topic in enumerate(_topics(rng, 8)):
        url = f"http://{host}/1/hi/uk/{4_300_000 + 137 * i}.stm"
        told = story(rng, topic, paragraphs=(8, 12))
        lede, *rest = told.paragraphs
        thirds = [rest[: len(rest) // 3], rest[len(rest) // 3 : 2 * len(rest) // 3], rest[2 * len(rest) // 3 :]]
        vocab = TOPICS[topic]
        crosshead = f"{rng.choice(vocab['nouns']).capitalize()} concerns"
        quote = f"\u201c{sentence(rng, vocab)}\u201d"
        story_html = (
            f'<div class="mxb">{"".join(_paragraphs(Story("", tuple(thirds[0]))))}</div>'
            f'<div class="quote"><span class="quote">{escape(quote)}</span></div>'
            f'<div class="mxb">{"".join(_paragraphs(Story("", tuple(thirds[1]))))}</div>'
            f'<div class="box"><b>{escape(crosshead)}</b></div>'
            f'<div class="mxb">{"".join(_paragraphs(Story("", tuple(thirds[2]))))}</div>'
        )
        gold = "\n".join((told.headline, lede, *thirds[0], quote, *thirds[1], crosshead, *thirds[2]))
        related = "".join(f'<p class="rel"><a href="/1/hi/uk/{rng.randint(4_000_000, 4_400_000)}.stm">'
                          f'{escape(rng.choice(vocab["nouns"]).capitalize())} inquiry opens</a></p>' for _ in range(4))
        html = (_head(told.headline, "Wireless News", url, lede[:150])
                + '<body><table width="100%"><tr><td class="nav" width="120">'
                '<p><a href="/1/hi/default.stm">News Front Page</a></p><p><a href="/1/hi/world">World</a></p>'
                '<p><a href="/1/hi/uk">UK</a></p><p><a href="/1/hi/business">Business</a></p></td>'
                '<td class="story" width="416">'
                f'<div class="ds">Last Updated: {rng.randint(1, 28)} June, 2005, {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d} GMT</div>'
                f'<div class="sh">{escape(told.headline)}</div>'
                f'<p><b>{escape(lede)}</b></p>{story_html}'
                '<div class="ep"><p>E-mail this to a friend</p><p>Printable version</p></div></td>'
                f'<td class="side" width="200"><div class="rel"><p><b>SEE ALSO:</b></p>{related}</div>'
                '<div class="links"><p><b>RELATED INTERNET LINKS:</b></p>'
                '<p>The Wireless is not responsible for the content of external internet sites</p></div></td></tr></table>'
                '<p class="foot">Wireless News \u00a9 MMV. Help | Privacy and cookies policy | News sources | About the Wireless</p>'
                '</body></html>')
        pages.append(SitePage(url, html, gold))
    return Site("paragraphs with no common container", tuple(pages))


def loose_lede(seed: int = 6) -> Site:
    """The same news site's other layout: the story's paragraphs are ``<p>`` elements of a ``<font>`` no
    attribute names, the lede a ``<b>`` before them and outside any ``<p>``, a fact box and a pull quote
    are tables between them, and the page's other ``<p>`` elements sit in its footer."""
    rng = random.Random(seed)
    host = "news.wireless.test"
    pages = []
    for i, topic in enumerate(_topics(rng, 8)):
        url = f"http://{host}/2/hi/technology/{4_500_000 + 211 * i}.stm"
        told = story(rng, topic, paragraphs=(8, 12))
        lede, *rest = told.paragraphs
        vocab = TOPICS[topic]
        facts = [f"{noun.capitalize()}: {rng.randint(2, 90)} per cent" for noun in rng.sample(vocab["nouns"], 4)]
        title = f"{rng.choice(vocab['nouns']).upper()} IN NUMBERS"
        quote = sentence(rng, vocab)
        at = rng.randint(2, len(rest) - 2)
        box = (f'<table class="fact" align="right" width="208"><tr><td><div class="o"><b>{escape(title)}</b></div>'
               f'<ul>{"".join(f"<li>{escape(fact)}</li>" for fact in facts)}</ul></td></tr></table>')
        pull = f'<table align="right" width="208"><tr><td><div class="mva"><b>{escape(quote)}</b></div></td></tr></table>'
        body = (f'<b>{escape(lede)}</b>' + "".join(_paragraphs(Story("", tuple(rest[:at])))) + box
                + "".join(_paragraphs(Story("", tuple(rest[at : at + 2])))) + pull + "".join(_paragraphs(Story("", tuple(rest[at + 2 :])))))
        gold = "\n".join((told.headline, lede, *rest[:at], title, *facts, *rest[at : at + 2], quote, *rest[at + 2 :]))
        related = "".join(f'<div class="arr"><a href="/2/hi/technology/{rng.randint(4_000_000, 4_400_000)}.stm">'
                          f'{escape(rng.choice(vocab["nouns"]).capitalize())} inquiry opens</a><br>'
                          f'{escape(sentence(rng, TOPICS[rng.choice(sorted(TOPICS))]))}</div>' for _ in range(5))
        html = (_head(told.headline, "Wireless News", url, lede[:150])
                + '<body><table width="770"><tr><td class="nav" width="120"><div><a href="/2/hi/default.stm">News Front Page</a></div>'
                '<div><a href="/2/hi/world">World</a></div><div><a href="/2/hi/technology">Technology</a></div></td>'
                f'<td><table width="629"><tr><td colspan="2"><div class="sh">{escape(told.headline)}</div></td></tr>'
                f'<tr><td width="416"><div class="mvb"><span class="byl">By {rng.choice(["Alfred Hermida", "Jo Twist", "Darren Waters"])}'
                f'</span></div><font size="2">{body}</font></td>'
                f'<td width="213"><div class="rel"><b>SEE ALSO:</b>{related}</div></td></tr></table></td></tr></table>'
                '<div class="footer"><p>Wireless News \u00a9 MMV. Help | Privacy and cookies policy | News sources</p>'
                '<p>Back to top | Wireless Homepage | Contact us</p></div></body></html>')
        pages.append(SitePage(url, html, gold))
    return Site("paragraphs of an unnamed container, the lede outside them", tuple(pages))


# -- 4. Code inside an excluded-looking figure (Hexo).

CODE = [
    ["import os", "", "def main():", "    path = os.environ.get('DATA_DIR', '/var/data')", "    for name in sorted(os.listdir(path)):",
     "        print(name)", "", "if __name__ == '__main__':", "    main()"],
    ["$ git clone https://example.test/repo.git", "$ cd repo", "$ make build", "$ ./bin/server --port 8080"],
    ["server {", "    listen 80;", "    server_name example.test;", "    location / {", "        proxy_pass http://127.0.0.1:8080;",
     "    }", "}"],
    ["SELECT author, count(*) AS posts", "FROM entries", "WHERE published > '2024-01-01'", "GROUP BY author",
     "ORDER BY posts DESC;"],
    ["const cache = new Map();", "export async function load(key) {", "  if (cache.has(key)) return cache.get(key);",
     "  const value = await fetch(`/api/${key}`).then(r => r.json());", "  cache.set(key, value);", "  return value;", "}"],
    ["[build]", "command = \"hexo generate\"", "publish = \"public\"", "", "[build.environment]", "NODE_VERSION = \"18\""],
]


def _hexo_figure(lines: list[str]) -> str:
    gutter = "".join(f'<span class="line">{n + 1}</span><br>' for n in range(len(lines)))
    code = "".join(f'<span class="line">{escape(line)}</span><br>' for line in lines)
    return (f'<figure class="highlight plain"><table><tr><td class="gutter"><pre>{gutter}</pre></td>'
            f'<td class="code"><pre>{code}</pre></td></tr></table></figure>')


def hexo(seed: int = 4) -> Site:
    """A Hexo blog: each post's code listings are ``<figure class="highlight plain">`` tables whose code
    column is a ``<pre>``, and the post ends with a copyright notice and a share bar inside its container."""
    rng = random.Random(seed)
    host = "blog.devnotes.test"
    pages = []
    for i, topic in enumerate(_topics(rng, 8)):
        url = f"https://{host}/2024/0{1 + i}/{10 + i}/{topic}-notes/"
        told = story(rng, topic, paragraphs=(5, 8))
        listings = rng.sample(CODE, 2)
        parts = _paragraphs(told)
        vocab = TOPICS[topic]
        heading = f"Setting up the {rng.choice(vocab['nouns'])}"
        steps = [f"Check the {noun} first" for noun in rng.sample(vocab["nouns"], 3)]
        parts[1] = f"<h2>{escape(heading)}</h2>{parts[1]}<ul>{''.join(f'<li>{escape(s)}</li>' for s in steps)}</ul>"
        at = sorted(rng.sample(range(1, len(parts)), 2))
        body = "".join(parts[: at[0]]) + _hexo_figure(listings[0]) + "".join(parts[at[0] : at[1]]) \
            + _hexo_figure(listings[1]) + "".join(parts[at[1] :])
        said = [[paragraph] for paragraph in told.paragraphs]  # each part's text, as parts holds its HTML
        said[1] = [heading, told.paragraphs[1], *steps]
        gold_lines = [told.headline, *sum(said[: at[0]], []), *listings[0], *sum(said[at[0] : at[1]], []), *listings[1],
                      *sum(said[at[1] :], [])]
        html = (_head(told.headline, "devnotes", url, told.paragraphs[0][:150])
                + '<body><header id="header"><div id="logo"><a href="/">devnotes</a></div>'
                '<nav id="main-nav"><a class="main-nav-link" href="/">Home</a><a class="main-nav-link" href="/archives">Archives</a>'
                '</nav></header><div class="outer"><section id="main">'
                f'<article class="article article-type-post"><div class="article-inner"><header class="article-header">'
                f'<h1 class="article-title" itemprop="name">{escape(told.headline)}</h1></header>'
                f'<div class="article-entry" itemprop="articleBody">{body}</div>'
                '<footer class="article-footer"><a class="article-share-link">Share</a>'
                '<ul class="article-tag-list"><li><a href="/tags/notes/">notes</a></li></ul></footer></div></article>'
                '</section><aside id="sidebar"><div class="widget-wrap"><h3 class="widget-title">Recent Posts</h3>'
                f'<ul>{_most_read(rng, host)}</ul></div></aside></div>'
                '<footer id="footer"><div id="footer-info">&copy; 2024 devnotes<br>Powered by Hexo</div></footer>'
                '</body></html>')
        pages.append(SitePage(url, html, "\n".join(gold_lines)))
    return Site("code inside an excluded-looking figure", tuple(pages))


# -- 5. A short page of a learned site.

def short_page(seed: int = 5) -> Site:
    """A magazine whose sample pages are long features and whose held-out pages are briefs of one or two
    short paragraphs and a one-line note, under the same template: an author bio, a newsletter box, a
    licence line and a footer around a story body much smaller than the sample's."""
    rng = random.Random(seed)
    host = "www.quarterly.test"
    pages = []
    for i, topic in enumerate(_topics(rng, 8)):
        url = f"https://{host}/{'features' if i < LEARN else 'briefs'}/{topic}-{2026 + i}"
        told = story(rng, topic, paragraphs=(10, 14) if i < LEARN else (1, 2))
        if i == 7:  # a one-line note: too small a region for the wrapper's patterns
            told = Story(told.headline, (sentence(rng, TOPICS[topic]),))
        author = rng.choice(["Ada Whitfield", "Marcus Obi", "Lena Petrova"])
        html = (_head(told.headline, "The Quarterly", url, told.paragraphs[0][:150])
                + '<body><div class="site"><header class="masthead"><a href="/">The Quarterly</a>'
                '<ul class="menu"><li><a href="/features">Features</a></li><li><a href="/briefs">Briefs</a></li>'
                '<li><a href="/about">About</a></li></ul></header><div class="content"><article class="entry">'
                f'<h1 class="entry-title">{escape(told.headline)}</h1><div class="byline">By {author}</div>'
                f'<div class="entry-content">{"".join(_paragraphs(told))}</div>'
                f'<div class="author-bio"><p>{author} is a contributing editor at The Quarterly. She has written about '
                'science, cities and the people who run them for twenty years, and teaches long-form journalism.</p></div>'
                '<div class="newsletter"><h4>Get The Quarterly in your inbox</h4><p>Our best stories, once a week, '
                'with nothing else. Sign up now and read the first chapter of our new book for free.</p>'
                '<form><input type="email" placeholder="you@example.com"><button>Subscribe</button></form></div>'
                '<p class="licence">This article is published under a Creative Commons Attribution-NoDerivatives 4.0 '
                'licence: you may republish it for free, online or in print, with credit to The Quarterly.</p>'
                '</article></div><footer class="colophon"><p>The Quarterly is an independent, reader-funded magazine. '
                'Registered charity in England and Wales. 14 Harbour Street, Bristol.</p>'
                '<p><a href="/privacy">Privacy</a> \u00b7 <a href="/contact">Contact</a></p></footer></div></body></html>')
        pages.append(SitePage(url, html, told.text))
    return Site("a short page of a learned site", tuple(pages))


# -- 6. A box in one page's region that no sample page had.

CREDITS = ("Christopher Sadowski", "Helayne Seidman", "Stefano Giovannini", "Associated Press", "Getty Images")


def slideshow(seed: int = 7) -> Site:
    """A tabloid whose sample pages are text stories, and whose held-out pages carry, inside the story's
    body between its paragraphs, a slideshow none of the sample had: each slide's photographer credit and
    caption, and "View Slideshow" (nypost.com 2017: 0.918 against 0.990 cold)."""
    rng = random.Random(seed)
    host = "www.citypost.test"
    pages = []
    for i, topic in enumerate(_topics(rng, 8)):
        url = f"https://{host}/2017/10/{10 + i}/{topic}-story/"
        told = story(rng, topic, paragraphs=(8, 12))
        vocab = TOPICS[topic]
        # A subhead between the paragraphs: the region is the body's container, not its paragraphs.
        subhead = rng.choice(vocab["nouns"]).capitalize()
        told = Story(told.headline, (*told.paragraphs[:3], subhead, *told.paragraphs[3:]))
        paragraphs = [f"<h2>{escape(p)}</h2>" if p == subhead else f"<p>{escape(p)}</p>" for p in told.paragraphs]
        if i >= LEARN:
            slides = "".join(f'<figure class="slide"><img src="/photos/{rng.randint(100, 999)}.jpg">'
                             f'<figcaption class="slide-caption"><p class="credit">{rng.choice(CREDITS)}</p>'
                             f'<p>{escape(rng.choice(vocab["people"]))} at the {escape(rng.choice(vocab["places"]))}.</p>'
                             '</figcaption></figure>' for _ in range(6))
            show = (f'<div class="inline-slideshow"><div class="slideshow-header">'
                    f'<a href="/slideshow/{topic}">View Slideshow</a></div><div class="slides">{slides}</div></div>')
            paragraphs.insert(len(paragraphs) // 2, show)
        html = (_head(told.headline, "City Post", url, told.paragraphs[0][:150])
                + '<body><div class="site-header"><a href="/">City Post</a><ul class="nav">'
                '<li><a href="/news">News</a></li><li><a href="/metro">Metro</a></li><li><a href="/sports">Sports</a></li>'
                '</ul></div><div class="article-header">'
                f'<div class="headline"><h1>{escape(told.headline)}</h1></div>'
                f'<div class="entry-content">{"".join(paragraphs)}</div></div>'
                f'<div class="sidebar"><h2>Most read</h2><ul>{_most_read(rng, host)}</ul></div>'
                '<div class="site-footer"><p>\u00a9 2017 City Post Holdings</p></div></body></html>')
        pages.append(SitePage(url, html, told.text))
    return Site("a box in one page's region that no sample page had", tuple(pages))


SITES: dict[str, Callable[[], Site]] = {
    "live_blog": live_blog,
    "playlist": playlist,
    "scattered": scattered,
    "loose_lede": loose_lede,
    "hexo": hexo,
    "short_page": short_page,
    "slideshow": slideshow,
}
