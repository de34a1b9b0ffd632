"""A hand-made site whose articles have every structure an article may have, for the rendering tests.

Each page: a headline, paragraphs with inline links, an h2 and an h3, a bulleted and a
numbered list, a table of data, a blockquote, a code block, a captioned figure and a
paragraph full of markdown metacharacters; around it a menu, a "related" aside, a share
box with a handler and a form, and a comment thread.  The pages share the template and
differ in their words, so tf-idf keywords find the article.
"""

from __future__ import annotations

import json
import random

SITE = "gazette.test"
TOPICS = (
    ("harbour", ["harbour", "trawler", "quay", "fishermen", "tide", "crane", "cargo", "pier"]),
    ("orchard", ["orchard", "apple", "blossom", "frost", "growers", "cider", "pruning", "harvest"]),
    ("library", ["library", "archive", "manuscript", "readers", "catalogue", "librarian", "shelves", "loans"]),
    ("railway", ["railway", "platform", "signal", "carriages", "timetable", "commuters", "junction", "track"]),
    ("brewery", ["brewery", "malt", "hops", "barrels", "brewers", "fermentation", "taproom", "yeast"]),
    ("theatre", ["theatre", "actors", "rehearsal", "stage", "audience", "premiere", "costumes", "script"]),
)
FILLER = ["residents", "volunteers", "officials", "visitors", "engineers", "students", "council", "weekend",
          "season", "record", "plans", "survey", "careful", "steady", "remarkable", "modest"]
# The text of the metacharacter paragraph, and how CommonMark must write it.
META_TEXT = "# Not a heading {i}: *stars*, _under_ [brackets] <b> and `ticks` 1. too"
META_MARKDOWN = r"\# Not a heading {i}: \*stars\*, \_under\_ \[brackets\] \<b> and \`ticks\` 1. too"


def _sentence(rng: random.Random, words: list[str], n: int = 14) -> str:
    chosen = [rng.choice(words if i % 3 else FILLER) for i in range(n)]
    return " ".join(chosen).capitalize() + "."


def page(i: int, *, date: str = "2024-04-16T09:15:00+02:00", header: tuple[str, str] | None = None) -> tuple[str, str]:
    """Page ``i``'s HTML and its headline.

    :param header: the table's header cells (default: words of the page's topic; give the same on
        every page for a table whose header repeats across the site).
    """
    name, words = TOPICS[i % len(TOPICS)]
    first, second = header or (f"{name.capitalize()} year", f"{words[0].capitalize()} count")
    rng = random.Random(i)
    title = f"The {name} {words[1]} story number {i}"
    s = [_sentence(rng, words) for _ in range(12)]
    graph = {"@context": "https://schema.org", "@graph": [
        {"@type": "WebSite", "name": "The Gazette"},
        {"@type": ["NewsArticle"], "headline": title, "author": [{"@type": "Person", "name": "Ruth Adeyemi"}],
         "datePublished": date},
    ]}
    html = f"""<!DOCTYPE html><html><head><title>{title} | The Gazette</title>
<meta property="og:title" content="{title}">
<script type="application/ld+json">{json.dumps(graph)}</script>
<script>var tracker = 1;</script><style>p {{ color: red }}</style></head>
<body onload="init()">
<nav class="menu"><a href="/">Home</a> <a href="/news/">News</a> <a href="/sport/">Sport</a></nav>
<div class="page">
<article class="story">
<h1>{title}</h1>
<p>{s[0]} See <a href="/{name}/more.html" onclick="track()">the {name} report</a> for more.</p>
<h2>What the {words[4]} said</h2>
<p>{s[1]}</p>
<h3>The {words[2]} in detail</h3>
<ul><li>{s[2]}</li><li>{s[3]}</li></ul>
<ol><li>{s[4]}</li><li>{s[5]}</li><li>{s[6]}</li></ol>
<table><tr><th>{first}</th><th>{second}</th></tr><tr><td>{2000 + i}</td><td>{10 + i}</td></tr>
<tr><td>{2010 + i}</td><td>{20 + i}</td></tr></table>
<blockquote><p>{s[7]}</p></blockquote>
<pre><code>count = survey("{name}")
print(count * 2)</code></pre>
<figure><img src="/img/{name}.jpg" alt="The {name}"><figcaption>The {words[5]} at dawn, {s[8]}</figcaption></figure>
<p>{META_TEXT.format(i=i).replace("<", "&lt;")}</p>
<p>{s[9]} {s[10]}</p>
<div class="share"><button onclick="share()">Share this</button>
<form action="/subscribe"><input name="email"> Subscribe to the newsletter</form></div>
</article>
<aside class="related"><h4>Related</h4><ul><li><a href="/a.html">Another story here</a></li>
<li><a href="/b.html">And one more story</a></li></ul></aside>
<div id="comments"><h3>Comments</h3>
<div class="comment"><p class="who">Maren Holt</p><p>I walked past the {name} yesterday and it looked wonderful, well done to all.</p></div>
<div class="comment"><p class="who">Joel Fairweather</p><p>Does anyone know when the {words[3]} open again to the public this spring?</p></div>
</div>
</div>
<footer><p>The Gazette, 1 High Street. All rights reserved.</p></footer>
</body></html>"""
    return html, title
