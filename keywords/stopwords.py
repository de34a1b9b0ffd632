"""Stopword lists for seven languages, language detection, and the list to use for a text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType

# Hand-written lists of function words (articles, pronouns, prepositions, conjunctions,
# auxiliaries and modal verbs, common adverbs), lower-cased and in the forms that
# keywords.tokenize produces: it splits on apostrophes, so elided forms appear bare
# ("l'homme" gives "l" and "homme", "don't" gives "don" and "t", "dell'arte" gives
# "dell" and "arte").  Content words that merely happen to be frequent ("said", "new",
# "people") are left out on purpose: on a news site they can be the article's keywords.

_EN = """
a about above across after again against ago ain all almost along already also although
always am among an and another any anybody anyone anything are aren around as at
be because been before being below between both but by can cannot could couldn d did
didn do does doesn doing don done down during each either else enough etc even ever
every everybody everyone everything few for from further had hadn has hasn have haven
having he hence her here hers herself him himself his how however i if in indeed into
is isn it its itself just least less ll m many may me might mightn more most much must
mustn my myself needn neither never no nobody none nor not nothing now of off often on
once one only onto or other others otherwise our ours ourselves out over own per perhaps
quite rather re s same several shall shan she should shouldn since so some somebody
someone something sometimes still such t than that the their theirs them themselves then
there thereby therefore these they this those though through throughout thus to too
toward towards under unless until up upon us ve very via was wasn we were weren what
whatever when whenever where whereas wherever whether which while who whoever whom whose
why will with within without would wouldn yet you your yours yourself yourselves
"""

_FR = """
a à afin ai aie aient aies ainsi ait alors après as assez au aucun aucune aujourd
auprès auquel aussi autant autre autres aux auxquels avaient avais avait avant avec
avez aviez avions avoir avons ayant beaucoup c ça car ce ceci cela celle celles celui
cependant ces cet cette ceux chacun chacune chaque chez ci comme comment contre d dans
de depuis des desquels dès donc dont du duquel durant elle elles en encore entre es est
et étaient étais était étant été êtes être eu eurent eut eux furent fut hui ici il ils
j je jusqu jusque l la là laquelle le lequel les lesquelles lesquels leur leurs lors
lorsqu lorsque lui m ma mais malgré me même mêmes mes moi moins mon n ne ni nos notre
nous on ont ou où outre par parce parmi pas pendant peu peut peuvent plus plusieurs
pour pourquoi pourtant puis puisqu puisque qu quand que quel quelle quelles quelqu
quelque quelques quels qui quoi quoiqu quoique s sa sans sauf se selon sera seraient
serait seront ses si sien sienne soi soient soit sommes son sont sous suis sur t ta
tandis tant te tel telle telles tels tes toi ton toujours tous tout toute toutes très
trop tu un une unes uns vers via voici voilà vos votre vôtre vous y
"""

_DE = """
ab aber alle allem allen aller alles als also am an ander andere anderem anderen anderer
anderes auch auf aus außer bei beide beiden beim bereits bin bis bist bzw da dabei
dadurch dafür dagegen daher damit dann daran darauf daraus darf darin darüber darum das
dass daß davon dazu dein deine deinem deinen deiner dem den denen denn der deren derer
des dessen deshalb dich die dies diese diesem diesen dieser dieses dir doch dort du
durch ein eine einem einen einer eines einige einigen einiger einmal er es etwa etwas
euch euer eure für gegen gewesen hab habe haben hat hatte hätte hatten hier hin hinter
ich ihm ihn ihnen ihr ihre ihrem ihren ihrer ihres im immer in indem ins ist ja jede
jedem jeden jeder jedes jedoch jene jenem jenen jener jenes jetzt kann kein keine keinem
keinen keiner können könnte man mehr mein meine meinem meinen meiner mich mir mit muss
musste müssen nach nachdem neben nein nicht nichts noch nun nur ob obwohl oder ohne
schon sehr sei seien sein seine seinem seinen seiner seit selbst sich sie sind so
solche solchen soll sollen sollte sondern sowie sowohl über um und uns unser unsere
unserem unseren unter viel viele vom von vor während war wäre waren warum was weil
weiter welche welchem welchen welcher welches wenn wer werde werden wie wieder will wir
wird wo worden wurde würde wurden würden zu zum zur zwar zwischen
"""

_ES = """
a al algo alguien algún alguna algunas alguno algunos allí ante antes aquel aquella
aquellas aquellos aquí así aún aunque bajo cada casi como cómo con contra cual cuál
cuales cuáles cuando cuándo cuanto cuánto cuya cuyo de del desde donde dónde durante e
el él ella ellas ello ellos en entonces entre era eran es esa esas ese eso esos esta
está estaba estaban están estar estas este esto estos estoy fue fueron ha había habían
han hasta hay he hemos hacia la las le les lo los luego más me mi mí mientras mis misma
mismas mismo mismos mucho muchos muy nada ni ninguna ninguno no nos nosotras nosotros
nuestra nuestras nuestro nuestros o os otra otras otro otros para pero poco pocos por
porque pues qué que quien quién quienes se sea según ser será serán si sí sido siempre
siendo sin sino sobre sois somos son su sus suya suyas suyo suyos también tampoco tan
tanto te tenía tiene tienen toda todas todavía todo todos tras tu tú tus tuya tuyo u
un una unas uno unos usted ustedes vosotras vosotros vuestra vuestro y ya yo
"""

_IT = """
a ad agli ai al alla alle allo all allora altri altro anche ancora avere aveva avevano
avete abbiamo anzi c ciò che chi ci coi col come com con contro cosa così cui d da
dagli dai dal dalla dalle dallo dall degli dei del della delle dello dell dentro dev
deve devono di dopo dove dunque e è ed era erano essa esse essere essi esso fa fino fra
fu furono già gli ha hanno ho i il in infatti intanto invece io l la le lei li lo loro
lui ma mentre mi mia mie miei mio molta molte molti molto ne negli nei nel nella nelle
nello nell neanche nemmeno noi non nostra nostre nostri nostro o ogni oltre oppure per
perché però più po poi poiché proprio può qua qual quale quali qualche quand quando
quanto quella quelle quelli quello quell questa queste questi questo quest quindi
sarà sarebbe se sei senza si sia siamo siete solo sono sopra sotto sta stata state
stati stato stessa stesso su sua sue sugli sui sul sulla sulle sullo sull suo suoi
tale tali tanto tra tu tua tue tuo tuoi tutta tutte tutti tutto un una uno v vi voi
vostra vostre vostri vostro
"""

_PT = """
a à ao aos apenas após aquela aquelas aquele aqueles aquilo agora ainda ali as às
assim até cada com como contra contudo cuja cujo da daquele das de dela delas dele
deles depois desde dessa desse desta deste disso disto do dos duma dum durante e é ela
elas ele eles em embora enquanto então entre era eram essa essas esse esses esta está
estão estar estas estava estavam este estes eu foi foram há havia isso isto já lá lhe
lhes mais mas me mesma mesmo meu meus mim minha minhas muito muitos na naquele nas nem
nessa nesse nesta neste nisso nisto no nos nós nossa nossas nosso nossos num numa nunca
não o onde os ou outra outras outro outros para pela pelas pelo pelos perante pode
podem pois por porém porque qual quais qualquer quando quanto que quem se seja sem
sempre sendo ser será seu seus si sido sob sobre sua suas são só também tão tanto te
tem têm ter teu ti tinha tinham toda todas todo todos tua tudo um uma umas uns você
vocês vos
"""

_NL = """
aan achter al alle alleen alles als altijd ander andere beide ben bent bij binnen
boven daar daarna daarom dan dat de der des deze die dit doch door dus echter een eens
elk elke en enkele er erg even ge geen geweest haar had hadden heb hebben heeft hem hen
het hetzelfde hier hij hoe hoewel hun ieder iedere iemand iets ik in is ja je jij jou
jouw jullie kan kon konden kunnen maar me meer men met mij mijn moet moeten n na naar
niemand niet niets nog nooit nu of om omdat ondanks onder ons onze ook op over reeds s
sinds sommige steeds t te tegen tenzij terwijl toch toen tot tussen u uit uw van veel
voor waar waarom wanneer want waren was wat we weer wel welk welke werd werden wie wij
wil worden wordt zal ze zeer zelf zich zij zijn zo zoals zodat zonder zou zouden zowel
"""

# A read-only view: the lists are shared by every caller and must not be changed at run time.
STOPWORDS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "en": frozenset(_EN.split()),
        "fr": frozenset(_FR.split()),
        "de": frozenset(_DE.split()),
        "es": frozenset(_ES.split()),
        "it": frozenset(_IT.split()),
        "pt": frozenset(_PT.split()),
        "nl": frozenset(_NL.split()),
    }
)

# Used when the language is unknown (too few terms, or a language we have no list for).
# The union can only remove words, never add noise: a few content words of one language
# that are function words of another are lost ("car" is French for "because", "die" is
# German and Dutch), which costs a keyword or two, whereas keeping the function words of
# an undetected language would make "the"/"de"/"la" the most frequent "keywords" of every page.
ALL_STOPWORDS: frozenset[str] = frozenset().union(*STOPWORDS.values())

# On the test paragraphs (tests/unit/test_tokenize.py) the right list covers 50-60% of
# the terms, a wrong one 0-22% (Spanish on Portuguese, through "a", "de", "que"), and
# the largest share always wins.  Polish, Indonesian and Finnish text score at most 9%
# on every list, so 0.15 keeps a language we have no list for from borrowing one.
# Under 20 terms (a title, a short tag list) the shares are too noisy to trust.
MIN_SHARE = 0.15
MIN_TERMS = 20


def detect_language(terms: Sequence[str], counted: Mapping[str, int] | None = None) -> str | None:
    """The language (``"en"``, ``"fr"``...) whose stopwords cover the largest share of ``terms``.

    Returns ``None`` when there are fewer than ``MIN_TERMS`` terms or no language reaches
    ``MIN_SHARE``.  Ties go to the language listed first in ``STOPWORDS``.

    :param counted: each distinct term of ``terms`` with its occurrences, where the caller
        counted them already (keyword selection does: a page's terms are counted once).
    """
    if len(terms) < MIN_TERMS:
        return None
    # Count each distinct term once, not each occurrence, and look up per language only the
    # few that are some language's stopword: a page has far fewer of those than terms.
    counts = {term: n for term, n in (Counter(terms) if counted is None else counted).items() if term in ALL_STOPWORDS}
    best_language: str | None = None
    best_hits = 0
    for language, words in STOPWORDS.items():
        hits = sum(n for term, n in counts.items() if term in words)
        if hits > best_hits:
            best_language, best_hits = language, hits
    if best_hits < MIN_SHARE * len(terms):
        return None
    return best_language


def stopwords_for(terms: Sequence[str]) -> frozenset[str]:
    """The stopwords to remove from ``terms``: the detected language's list, else ``ALL_STOPWORDS``."""
    language = detect_language(terms)
    return STOPWORDS[language] if language is not None else ALL_STOPWORDS
