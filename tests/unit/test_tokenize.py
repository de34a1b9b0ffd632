"""Unit tests for keywords.tokenize and keywords.stopwords."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keywords.stopwords import ALL_STOPWORDS, STOPWORDS, detect_language, stopwords_for
from keywords.tokenize import _terms, tokenize


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Café CRÈME brûlée", ["café", "crème", "brûlée"]),
        ("Straße ÉCOLE", ["straße", "école"]),
        ("東京タワー", ["東", "京", "タ", "ワ", "ー"]),
        ("Visit 東京 today", ["visit", "東", "京", "today"]),
        ("In 2024, 3.14 and 1,000 people", ["in", "and", "people"]),
        ("mp3 and 1st stay", ["mp3", "and", "1st", "stay"]),
        ("snake_case_name", ["snake", "case", "name"]),
        ("l'homme don't", ["l", "homme", "don", "t"]),
        ("l\u2019homme dell\u2019arte", ["l", "homme", "dell", "arte"]),
        ("Hello, world! -- (really?)", ["hello", "world", "really"]),
        ("한국어 문장", ["한국어", "문장"]),
        ("", []),
        ("  \n\t ... 42 !!", []),
    ],
    ids=[
        "accents",
        "german-and-upper",
        "cjk-split",
        "cjk-inside-latin",
        "numbers-dropped",
        "alphanumerics-kept",
        "underscores-split",
        "apostrophes-split",
        "curly-apostrophes",
        "punctuation",
        "hangul-spaced",
        "empty",
        "no-words",
    ],
)
def test_tokenize(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


PARAGRAPHS = {
    "en": (
        "The weather was cold this morning, but the children still wanted to walk to the river "
        "with their grandmother. She told them that they should wear warm coats because the wind "
        "from the north would be strong until the evening."
    ),
    "fr": (
        "Le temps était froid ce matin, mais les enfants voulaient quand même marcher jusqu'à la "
        "rivière avec leur grand-mère. Elle leur a dit qu'ils devaient porter des manteaux chauds "
        "parce que le vent du nord serait fort jusqu'au soir."
    ),
    "de": (
        "Das Wetter war heute Morgen kalt, aber die Kinder wollten trotzdem mit ihrer Großmutter "
        "zum Fluss gehen. Sie sagte ihnen, dass sie warme Mäntel tragen sollten, weil der Wind "
        "aus dem Norden bis zum Abend stark sein würde."
    ),
    "es": (
        "El tiempo estaba frío esta mañana, pero los niños todavía querían caminar hasta el río "
        "con su abuela. Ella les dijo que debían llevar abrigos calientes porque el viento del "
        "norte sería fuerte hasta la noche."
    ),
    "it": (
        "Il tempo era freddo questa mattina, ma i bambini volevano comunque camminare fino al "
        "fiume con la loro nonna. Lei ha detto loro che dovevano indossare cappotti caldi perché "
        "il vento del nord sarebbe stato forte fino alla sera."
    ),
    "pt": (
        "O tempo estava frio esta manhã, mas as crianças ainda queriam caminhar até o rio com a "
        "sua avó. Ela disse-lhes que deviam usar casacos quentes porque o vento do norte seria "
        "forte até a noite."
    ),
    "nl": (
        "Het weer was vanochtend koud, maar de kinderen wilden toch met hun oma naar de rivier "
        "lopen. Ze zei tegen hen dat ze warme jassen moesten dragen, omdat de wind uit het "
        "noorden tot de avond sterk zou blijven."
    ),
}


def test_numbers_before_cjk_dropped() -> None:
    assert tokenize("2024年3月") == ["年", "月"]


@pytest.mark.parametrize(("language", "text"), PARAGRAPHS.items(), ids=list(PARAGRAPHS))
def test_detect_language(language: str, text: str) -> None:
    assert detect_language(tokenize(text)) == language


@pytest.mark.parametrize(("language", "text"), PARAGRAPHS.items(), ids=list(PARAGRAPHS))
def test_stopwords_for_detected_language(language: str, text: str) -> None:
    assert stopwords_for(tokenize(text)) is STOPWORDS[language]


def test_detect_language_needs_twenty_terms() -> None:
    terms = tokenize("The cat and the dog were in the garden with the bird")
    assert len(terms) < 20
    assert detect_language(terms) is None


def test_detect_language_needs_a_share_of_stopwords() -> None:
    terms = tokenize(
        "quantum chromodynamics lattice gauge fermion boson gluon quark hadron meson baryon "
        "lepton muon neutrino photon graviton axion tachyon plasma spectrum the"
    )
    assert len(terms) >= 20
    assert detect_language(terms) is None


def test_stopwords_for_falls_back_to_all_languages() -> None:
    assert stopwords_for(["le", "chat"]) is ALL_STOPWORDS
    assert {"the", "le", "der", "el", "il", "o", "het"} <= ALL_STOPWORDS


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        ("en", {"s", "t", "don", "doesn", "ll", "ve"}),
        ("fr", {"l", "d", "qu", "s", "n", "j", "c", "m", "t", "jusqu", "lorsqu"}),
        ("it", {"l", "dell", "all", "nell", "sull", "un", "c", "d", "quest"}),
        ("nl", {"s", "t", "n"}),
    ],
    ids=["en", "fr", "it", "nl"],
)
def test_stopwords_hold_elided_forms(language: str, forms: set[str]) -> None:
    assert forms <= STOPWORDS[language]


@pytest.mark.parametrize("language", list(STOPWORDS), ids=list(STOPWORDS))
def test_stopwords_are_tokenizer_forms(language: str) -> None:
    words = STOPWORDS[language]
    assert 120 <= len(words) <= 250
    assert all(tokenize(word) == [word] for word in words)


def test_stopwords_are_read_only() -> None:
    with pytest.raises(TypeError):
        STOPWORDS["xx"] = frozenset()  # type: ignore[index]


def test_combining_accents_stay_in_the_word() -> None:
    assert tokenize("cafe\u0301 noir") == ["caf\u00e9", "noir"]


def test_numerals_of_unspaced_scripts_are_dropped_like_digits() -> None:
    # Hypothesis found "A叁": the numeral came back as a term of its own.
    assert tokenize("A叁 東京 三月 2024") == ["a", "東", "京", "月"]


@given(st.text(alphabet=st.sampled_from("aZ09_ -.'\t\n\x7f"), max_size=60) | st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_text_tokenizes_as_any_text(text: str) -> None:
    # tokenize reads ASCII text by one regex; _terms is the general reading it must equal.
    assert tokenize(text) == _terms(text)


def test_a_long_run_of_digits_is_read_once() -> None:
    # The ASCII regex must not retry a run of digits from each of its positions: this took
    # minutes where it did (a script's array of numbers), a fraction of a second here.
    assert tokenize("7" * 200_000 + " x " + "1" * 200_000 + "b") == ["x", "1" * 200_000 + "b"]
