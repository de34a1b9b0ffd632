"""Article text for the hand-made sites: real-looking sentences of varied lengths, one topic per article.

Each article draws its nouns, people and places from its own topic, so tf-idf over a site's
pages finds each page's words where its article is, as it does on a real site; the
sentences' shapes (a short statement, a quote, a long clause with numbers) vary so that
no two paragraphs look alike and none reads as a template line.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

TOPICS: dict[str, dict[str, list[str]]] = {
    "flood": {
        "nouns": ["flood barrier", "river gauge", "sandbags", "pumping station", "embankment", "storm drain",
                  "evacuation centre", "rainfall", "culvert", "floodwater"],
        "people": ["Councillor Aisha Rahman", "the Environment Agency", "hydrologist Peter Lindqvist",
                   "the fire brigade", "residents of Mill Street"],
        "places": ["Tewkesbury", "the lower Severn", "Upton", "the Avon meadows"],
    },
    "vaccine": {
        "nouns": ["trial", "booster dose", "antibody levels", "placebo group", "side effects", "regulator",
                  "clinic", "participants", "immune response", "manufacturer"],
        "people": ["Dr Hannah Okoye", "the health ministry", "professor Luis Carvalho", "the trial's sponsor",
                   "nurses at the clinic"],
        "places": ["Lisbon", "the northern district", "Porto", "three regional hospitals"],
    },
    "election": {
        "nouns": ["ballot", "turnout", "polling station", "candidate", "recount", "manifesto", "coalition",
                  "constituency", "electoral commission", "swing voters"],
        "people": ["Senator Maria Delgado", "the opposition leader", "campaign manager Tom Whitaker",
                   "election observers", "first-time voters"],
        "places": ["Maricopa County", "the suburbs", "Phoenix", "the rural precincts"],
    },
    "wildfire": {
        "nouns": ["containment line", "air tanker", "evacuation order", "acres", "ember", "firefighters",
                  "red flag warning", "smoke plume", "power lines", "fire crews"],
        "people": ["Cal Fire spokesman Jason Ruiz", "the sheriff's office", "meteorologist Dana Kim",
                   "ranchers near the ridge", "utility engineers"],
        "places": ["Sonoma County", "the Napa hills", "Santa Rosa", "Highway 12"],
    },
    "transit": {
        "nouns": ["light rail", "fare increase", "bus lane", "ridership", "signal upgrade", "depot",
                  "timetable", "commuters", "tram extension", "ticket machines"],
        "people": ["transport commissioner Ingrid Sorensen", "the drivers' union", "planner Kwame Mensah",
                   "disability campaigners", "shop owners on the route"],
        "places": ["the city centre", "Eastgate", "the airport line", "Harbour Road"],
    },
    "chess": {
        "nouns": ["opening", "endgame", "rook", "tiebreak", "grandmaster", "blunder", "time control",
                  "rating", "queen sacrifice", "tournament"],
        "people": ["grandmaster Elena Volkova", "the defending champion", "arbiter Samuel Achebe",
                   "the 16-year-old challenger", "commentators"],
        "places": ["Wijk aan Zee", "the playing hall", "Round 7", "the final table"],
    },
    "bakery": {
        "nouns": ["sourdough", "rye loaves", "ovens", "flour prices", "croissants", "starter", "night shift",
                  "wholesale orders", "pastry chef", "proofing baskets"],
        "people": ["baker Giulia Ferraro", "the owners", "apprentice Noah Brandt", "regular customers",
                   "the local grain mill"],
        "places": ["Kreuzberg", "the market hall", "Oranienstrasse", "the old fire station"],
    },
    "museum": {
        "nouns": ["exhibition", "curator", "loan agreement", "bronze sculptures", "restoration", "gallery",
                  "visitors", "archive", "catalogue", "donors"],
        "people": ["curator Yusuf Demir", "the museum's trustees", "conservator Claire Dubois",
                   "the culture minister", "school groups"],
        "places": ["the east wing", "Istanbul", "the former customs house", "the sculpture court"],
    },
    "drought": {
        "nouns": ["reservoir", "hosepipe ban", "groundwater", "irrigation", "crop yields", "water tankers",
                  "wells", "rationing", "aquifer", "dry spell"],
        "people": ["farmer Ruth Mwangi", "the water authority", "agronomist Pablo Serrano",
                   "village elders", "the regional governor"],
        "places": ["the Rift Valley", "Nakuru", "the highland farms", "Lake Naivasha"],
    },
    "startup": {
        "nouns": ["funding round", "valuation", "investors", "battery cells", "prototype", "factory",
                  "engineers", "supply chain", "layoffs", "customers"],
        "people": ["founder Priya Natarajan", "the lead investor", "chief engineer Marek Nowak",
                   "former employees", "industry analysts"],
        "places": ["Bangalore", "the pilot plant", "Gothenburg", "the new campus"],
    },
    "orchestra": {
        "nouns": ["symphony", "conductor", "rehearsals", "cellos", "premiere", "concert hall", "subscribers",
                  "score", "brass section", "encore"],
        "people": ["conductor Akiko Tanaka", "the orchestra's board", "composer Felix Hartmann",
                   "the principal oboist", "season ticket holders"],
        "places": ["the Musikverein", "Vienna", "the summer festival", "the new hall"],
    },
    "fishing": {
        "nouns": ["quota", "trawlers", "cod stocks", "harbour", "catch limits", "fish market", "nets",
                  "crew", "fuel costs", "processing plant"],
        "people": ["skipper Angus McLeod", "the fisheries minister", "marine biologist Freya Olsen",
                   "the harbour master", "young deckhands"],
        "places": ["Peterhead", "the North Sea", "Fraserburgh", "the Shetland grounds"],
    },
}

VERBS = ["said", "warned", "told reporters", "wrote in a statement", "added", "confirmed", "argued", "admitted"]
QUOTES = [
    "We did not expect it to happen this quickly",
    "Nobody here has seen anything like it in thirty years",
    "It is too early to say what this means for next year",
    "We are doing everything we can, and we will keep going",
    "The numbers speak for themselves",
    "People deserve a straight answer, and they have not had one",
    "This was always going to be difficult",
    "We will look at every option before we decide",
    "I think most people will be relieved",
    "There is a lot of work still to do",
]
TIMES = ["on Monday", "on Tuesday", "late on Wednesday", "on Thursday morning", "on Friday", "over the weekend",
         "last month", "earlier this week", "in March", "since the spring"]


@dataclass(frozen=True, slots=True)
class Story:
    """One article: its headline and paragraphs (what a reader sees as the article)."""

    headline: str
    paragraphs: tuple[str, ...]

    @property
    def text(self) -> str:
        """The hand-known article text: the headline and the paragraphs, one a line."""
        return "\n".join((self.headline, *self.paragraphs))


def story(rng: random.Random, topic: str, *, paragraphs: tuple[int, int] = (6, 10)) -> Story:
    """An article on ``topic`` with between ``paragraphs[0]`` and ``paragraphs[1]`` paragraphs."""
    vocab = TOPICS[topic]
    count = rng.randint(*paragraphs)
    body = tuple(" ".join(sentence(rng, vocab) for _ in range(rng.randint(1, 4))) for _ in range(count))
    noun = rng.choice(vocab["nouns"])
    headline = rng.choice([
        f"{noun.capitalize()} row deepens in {rng.choice(vocab['places'])}",
        f"What the {noun} means for {rng.choice(vocab['places'])}",
        f"{_who(rng, vocab).capitalize()} faces questions over {noun}",
        f"{rng.randint(3, 95)} days on, the {noun} still divides {rng.choice(vocab['places'])}",
    ])
    return Story(headline, body)


def sentence(rng: random.Random, vocab: dict[str, list[str]]) -> str:
    """One sentence, of one of a dozen shapes, 5 to 45 words long."""
    a, b, c = rng.sample(vocab["nouns"], 3)
    who, place, when = _who(rng, vocab), rng.choice(vocab["places"]), rng.choice(TIMES)
    n = rng.randint(2, 900)
    shapes = [
        f"The {a} was finished {when}.",
        f"{who.capitalize()} {rng.choice(VERBS)} that the {a} in {place} had cost {n} thousand pounds more than planned.",
        f"\u201c{rng.choice(QUOTES)},\u201d {who} {rng.choice(VERBS)}.",
        f"By {when.replace('on ', '')}, {n} people had signed a petition about the {a}, and the {b} had become the "
        f"main subject of every meeting in {place}.",
        f"Few in {place} were surprised.",
        f"The {b} is not new: it was first raised {rng.randint(2, 19)} years ago, when the {c} was still being "
        f"discussed and nobody was sure who would pay for it.",
        f"{who.capitalize()} disagreed.",
        f"Asked whether the {a} would be ready in time, {who} would only say that the {b} came first.",
        f"Figures released {when} show the {a} up by {rng.randint(2, 60)} per cent on last year, while the {b} "
        f"fell for the {rng.choice(['second', 'third', 'fourth'])} year running.",
        f"In {place}, the mood is different.",
        f"Critics point out that the {a}, the {b} and the {c} were all promised before, and that little changed.",
        f"Some of the {b} will be reviewed again {when}, {who} {rng.choice(VERBS)}, though no date has been set.",
        f"The {c} alone accounts for {n} of the complaints received so far.",
        f"Others remember the last time the {a} was tried, and how quickly the {b} was forgotten afterwards.",
    ]
    return rng.choice(shapes)


def _who(rng: random.Random, vocab: dict[str, list[str]]) -> str:
    return rng.choice(vocab["people"])
