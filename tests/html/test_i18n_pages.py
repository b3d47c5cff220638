"""The pages in French (issue 20): the deal viewer, the archive index and the standings
page speak the run's language. Every word of the viewer's script exists in both
languages and is the one the script uses; a French page says ``<html lang="fr">``, its
data and its labels are French, and a person in a browser reads no English on it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from cli_runs import EXAMPLES, FAULTY, ROOT, invoke, rel
from frenchtext import decimal_points, misreadable_cards, prose
from test_html import embedded, source
from test_html_browser import ANALYSED, Tab, hand, position, trick

from tarotnotation.html import deal_data, deal_page, index_page
from tarotnotation.html.layout import index_data
from tarotnotation.html.words import OUTCOMES, page_words
from tarotnotation.i18n import set_language

#: The examples that hold no fault (a site of them is written with exit status 0).
EXAMPLE_FILES = [rel(p) for p in sorted(EXAMPLES.glob("*.tarot"))]
SCRIPT = (ROOT / "tarotnotation" / "html" / "tarot.js").read_text(encoding="utf-8")
#: Words a person checked are the same in French.
SAME_IN_FRENCH = frozenset({"_zeroOne", "excuseShort", "navIndex", "verdict", "chien", "ecart",
                            "score", "bid.prise", "bid.garde", "bid.garde_sans",
                            "bid.garde_contre"})


@pytest.fixture
def french() -> Iterator[None]:
    """This test's run in French (the language ends with it)."""
    set_language("fr")
    try:
        yield
    finally:
        set_language(None)


def test_every_word_of_the_script_exists_in_both_languages() -> None:
    """Each word the script asks for (``say("key")``, ``sayN("key", n)``, or a family
    ``say("sev." + ...)``) is in the table, in English and in French; no word of the
    table is left unused; every French word is translated (or checked as the same)."""
    english, french = page_words("en"), page_words("fr")
    assert set(english) == set(french)
    asked = set(re.findall(r'\bsayN?\("([\w.]+)"[,)]', SCRIPT))
    assert asked - set(english) == set(), "words the script asks for that the table lacks"
    families = set(re.findall(r'\bsayN?\("(\w+\.)" \+', SCRIPT)) | set(
        re.findall(r'WORDS\["(\w+\.)" \+', SCRIPT))
    literals = set(re.findall(r'"([\w.]+)"', SCRIPT))  # say(a ? "x" : "y") names both
    for key in english:
        if key.startswith("_"):
            assert key in SCRIPT, key
            continue
        family = key.split(".")[0] + "."
        assert key in literals or family in families, f"unused word {key}"
    for family in families:
        assert any(k.startswith(family) for k in english), family
    for key, word in english.items():
        if key in SAME_IN_FRENCH:
            continue
        assert french[key] != word, f"not translated: {key} = {word!r}"
        if isinstance(word, list):
            translated = french[key]
            assert isinstance(translated, list), key
            assert len(word) == len(translated) == 2, key
    # every outcome an index row may carry has its words
    assert {f"outcome.{o}" for o in OUTCOMES} <= set(english)


def test_the_script_holds_no_sentence_of_its_own() -> None:
    """The words come from the page: no English text is left in the script's strings
    (CSS classes, keys, element names and JSON ids only)."""
    strings = re.findall(r'"([^"\\]*(?:\\.[^"\\]*)*)"', SCRIPT)
    sentences = [s for s in strings if re.search(r"[A-Za-z]{3,} [a-z]{2,} [a-z]{2,}", s)]
    assert sentences == []


def test_the_plural_forms_follow_each_language() -> None:
    """French takes the singular for 0 (``_zeroOne``), English does not; both have the
    two forms of each plural word."""
    assert page_words("fr")["_zeroOne"] is True
    assert page_words("en")["_zeroOne"] is False
    assert page_words("fr")["cards"] == ["{n} carte", "{n} cartes"]
    assert page_words("en")["errors"] == ["{n} error", "{n} errors"]


def test_a_french_deal_page_has_french_words_and_data(french: None) -> None:
    page = deal_page(deal_data(source(EXAMPLES / "annotated.tarot")))
    assert page.startswith('<!doctype html>\n<html lang="fr">')
    words = embedded(page, "tarot-words")
    assert words["nextCard"] == "Carte suivante (flèche droite)"
    assert words["plays"] == "Pli {n} : {seat} joue {card}"
    assert words["cardName"] == "{rank} de {suit}"
    data = embedded(page)
    assert data["score"][0] == "Garde par N : 44 points avec 1 bout, il en faut 51 : chutée de 7"
    assert data["score"][1] == "contrat (25 + 7) × 2 = -64"
    assert data["rest"] == "l'écart, 4 points, pour l'attaque"
    assert data["title"].endswith("manche 5 — donne 9")
    assert "Cette page déroule la donne avec JavaScript" in page


def test_a_french_page_keeps_the_datas_keys_and_codes(french: None) -> None:
    """Only the words change: the keys, codes, cards and numbers are the English page's."""
    fr = deal_data(source(ROOT / "examples" / "faulty" / "revoke.tarot"))
    set_language("en")
    en = deal_data(source(ROOT / "examples" / "faulty" / "revoke.tarot"))
    assert fr.keys() == en.keys()
    assert [d["code"] for d in fr["diags"]] == [d["code"] for d in en["diags"]] == ["P105"]
    assert [d["sev"] for d in fr["diags"]] == ["error"]
    assert fr["diags"][0]["msg"] == ("renonce\xa0: Trèfle demandé, le joueur doit fournir"
                                     " (2♣, 5♣, 8♣, V♣ ou C♣)")
    assert en["diags"][0]["msg"].startswith("Clubs led and the player holds Clubs")
    assert fr["cards"] == en["cards"]
    assert fr["tricks"] == en["tricks"]


def test_a_french_index_has_french_headers_and_filter(french: None) -> None:
    rows = index_data([{"n": 1, "file": "a.tarot", "index": 1, "outcome": "made",
                        "margin": 3, "score": 84, "errors": 0, "warnings": 0}])
    page = index_page("Club", rows)
    assert '<html lang="fr">' in page
    heads = re.findall(r'<button type="button">([^<]*)</button>', page)
    assert heads == ["#", "Date", "Fichier", "Événement", "Manche", "Table", "Contrat",
                     "Preneur", "Résultat", "Score", "Fautes"]
    assert 'placeholder="événement, joueur, contrat…"' in page
    assert 'aria-label="Filtrer les donnes par n&#x27;importe quel texte"' in page
    assert ">1 donne</p>" in page
    assert embedded(page, "tarot-words")["outcome.made"] == "remplie"


@pytest.mark.process
def test_the_run_language_reaches_the_pages_of_a_site_written_by_workers(
        tmp_path: Path) -> None:
    """``tarot html -j 2 --lang fr``: every page of the site is French, those written by
    the worker processes too."""
    site = tmp_path / "site"
    ran = invoke("html", "--lang", "fr", "-j", "2", *EXAMPLE_FILES, "-o", str(site))
    assert ran.code == 0, ran
    assert re.match(r"\d+ donnes écrites dans .*index.html : 0 avec erreurs, 0 avec"
                    r" avertissements\n$", ran.err), ran.err
    pages = sorted(site.glob("deal-*.html"))
    assert len(pages) > 4
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert '<html lang="fr">' in text, page.name
        score = embedded(text)["score"]
        assert not score or " par " in score[0] or "marquée" in score[0], (page.name, score)
    assert '<html lang="fr">' in (site / "index.html").read_text(encoding="utf-8")


def test_the_standings_page_in_french(tmp_path: Path) -> None:
    out = tmp_path / "league.html"
    ran = invoke("standings", "--lang", "fr", rel(EXAMPLES / "score-sheet.tarot"),
                 "--html", str(out))
    assert ran.code == 0, ran
    assert ran.err.endswith(f"page du classement écrite dans {out}\n")
    page = out.read_text(encoding="utf-8")
    assert '<html lang="fr">' in page
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", page)
    assert heads == ["rang", "joueur", "donnes", "duplicate", "score", "total", "évolution"]
    assert "Classé par le total des résultats." in page
    assert 'aria-label="Bruno Lefèvre : +727 après 8 donnes"' in page
    english = invoke("standings", rel(EXAMPLES / "score-sheet.tarot"), "--html",
                     str(tmp_path / "en.html"))
    assert english.code == 0
    assert re.findall(r"<th[^>]*>([^<]*)</th>", (tmp_path / "en.html").read_text("utf-8")) == [
        "rank", "player", "deals", "duplicates", "score", "total", "running"]


# --- in the browser ------------------------------------------------------------------------


@pytest.fixture
def fr_tab(browser: Any) -> Iterator[Tab]:
    t = Tab(browser, {"width": 1280, "height": 900})
    yield t
    try:
        t.check_clean()
    finally:
        t.close()


@pytest.fixture(scope="module")
def french_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("pages-fr")
    ran = invoke("html", "--lang", "fr", rel(EXAMPLES / "annotated.tarot"), "-o",
                 str(out / "annotated.html"))
    assert ran.code == 0, ran
    ran = invoke("html", "--lang", "fr", *EXAMPLE_FILES, "-o", str(out / "site"))
    assert ran.code == 0, ran
    return {"annotated": out / "annotated.html", "site": out / "site" / "index.html"}


def _english_words() -> list[str]:
    """The English words of the pages that French says otherwise, without their
    placeholders: none of them may be read on a French page."""
    english, french = page_words("en"), page_words("fr")
    out = []
    for key, word in english.items():
        if key in SAME_IN_FRENCH:
            continue
        for form in word if isinstance(word, list) else [str(word)]:
            for part in re.split(r"\{\w+\}", form):
                part = part.strip(" .,:;()")
                if len(part) >= 4 and part not in str(french[key]):
                    out.append(part)
    assert len(out) > 80  # the check below has teeth
    return out


def _everything_read(page: Any) -> str:
    """What a person reads on the page: its text, and every aria label and title."""
    labels = page.eval_on_selector_all(
        "[aria-label], [title], [placeholder]",
        "els => els.map(e => [e.getAttribute('aria-label'), e.title,"
        " e.getAttribute('placeholder')].filter(Boolean).join(' | '))")
    return str(page.inner_text("body")) + "\n" + "\n".join(labels)


@pytest.mark.browser
def test_a_french_page_in_the_browser_speaks_french(fr_tab: Tab,
                                                    french_pages: dict[str, Path]) -> None:
    page = fr_tab.open(french_pages["annotated"])
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert position(page) == "Carte 0 sur 72"
    assert "Roi de Cœur" in hand(page, "E")
    assert "21 d'atout" in hand(page, "N")
    assert "l'Excuse" in hand(page, "W")
    assert "PRENEUR" in page.inner_text(".seat[data-seat=N] .badge").upper()
    assert page.inner_text(".bidding h2") == "Enchères et annonces"
    assert page.get_attribute(".steps button:nth-child(4)", "aria-label") == (
        "Carte suivante (flèche droite)")
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    assert position(page) == "Carte 10 sur 72"
    assert trick(page) == [("6 de Cœur", "S"), ("Roi de Cœur", "E")]
    assert page.inner_text(".trick-info") == (
        "Pli 3 sur 18\u00a0: S a entamé, E le remporte pour l'instant")
    assert "Attaque 6 · Défense 4" in page.inner_text(".running")
    assert "Pli 3, carte 2 : E (Bruno Lefèvre) joue Roi de Cœur." in page.inner_text(
        "[role=status]")
    page.keyboard.press("End")
    lines = page.inner_text(".score-lines")
    assert "Garde par N : 44 points avec 1 bout, il en faut 51 : chutée de 7" in lines
    assert "Enregistré : S+64 E+64 N-192 O+64" in page.inner_text(".score")  # West: O
    assert "Fin du jeu." in page.inner_text("[role=status]")
    page.click(".views button:nth-child(2)")  # the view of S: the others' cards hidden
    assert page.inner_text(".seat[data-seat=E] .count") == "0 carte"  # 0: singular in French
    read = _everything_read(page)
    left = sorted({w for w in _english_words() if w in read})
    assert left == [], f"English on the French page: {left}"


@pytest.mark.browser
def test_a_french_index_in_the_browser(fr_tab: Tab, french_pages: dict[str, Path]) -> None:
    page = fr_tab.open(french_pages["site"])
    total = int(page.get_attribute("table.deals", "aria-rowcount") or 0) - 1
    assert page.inner_text(".count") == f"{total} donnes"
    assert page.get_attribute("input.filter", "placeholder") == "événement, joueur, contrat…"
    page.fill("input.filter", "garde sans")
    page.wait_for_function("() => document.querySelector('.count').textContent.includes('sur')")
    assert re.fullmatch(rf"\d+ sur {total} donnes", page.inner_text(".count"))
    results = page.eval_on_selector_all(".deals tbody tr:not(.spacer)",
                                        "rs => rs.map(r => r.cells[8].textContent)")
    assert results
    # (a flag of the deal may follow: « remplie de 55 · chelem réussi »)
    assert all(re.fullmatch(r"(remplie|chutée) de \d+( · [^·]+)*", r) for r in results), results
    read = _everything_read(page)
    left = sorted({w for w in _english_words() if w in read})
    assert left == [], f"English on the French index: {left}"


def test_french_pages_json_is_valid(french: None) -> None:
    """The words embedded in a page are JSON a script reads back (accents kept)."""
    page = deal_page(deal_data(source(EXAMPLES / "five-players.tarot")))
    words = embedded(page, "tarot-words")
    fr_words: dict[str, Any] = orjson.loads(orjson.dumps(page_words("fr")))
    assert words == {k: v for k, v in fr_words.items() if k in words}
    # a deal's page carries every word but the index's and the game's (tarot play)
    assert sorted(set(fr_words) - set(words)) == sorted(
        k for k in fr_words if k.startswith(("deals", "shownOf", "resultBy", "any", "outcome.",
                                           "flag.", "column.", "faults.", "play.", "bid.")))


@pytest.mark.browser
def test_a_french_analysed_page_says_cards_costs_and_seats_as_a_french_player_reads_them(
        fr_tab: Tab, french_pages: dict[str, Path], tmp_path: Path) -> None:
    """Issue 32's French pages: the analysis' tooltip names the best card as a French
    player writes it (« meilleure carte R♥ », not "best KH"), a cost has a decimal comma,
    the card of a note is said (5♥?), no diagnostic shows its English slug
    (``must-follow-suit``), the index's taker West is O; and nothing read on these pages
    is an English word the English pages translate, a decimal point or a card in the
    notation's letters."""
    ran = invoke("html", "--lang", "fr", str(ANALYSED), "-o", str(tmp_path / "analysed.html"))
    assert ran.code == 0, ran
    page = fr_tab.open(tmp_path / "analysed.html")
    costs = dict(page.eval_on_selector_all(
        ".tricklist button[data-k] .cost",
        "ms => ms.map(m => [m.closest('button').getAttribute('data-k'), m.textContent])"))
    assert costs == {"2": "-0,5", "8": "-3", "11": "-1..0"}, costs
    page.hover(".tricklist [data-k='8']")
    best = page.inner_text(".tricklist [data-k='8'] .best")
    assert best.startswith("meilleure carte R♥. coûte 3 points (meilleure carte R♥)"), best
    page.focus(".tricklist [data-k='2']")
    assert "meilleure carte atout\u00a016" in page.inner_text(".tricklist [data-k='2'] .best")
    fr_tab.page.goto((tmp_path / "analysed.html").resolve().as_uri() + "#deal=1&card=8")
    page.wait_for_selector("body[data-ready]")
    assert page.inner_text(".now-notes .at-card").endswith(" 5♥?")
    read = [_everything_read(page)]
    ran = invoke("html", "--lang", "fr", rel(FAULTY / "revoke.tarot"), "-o",
                 str(tmp_path / "revoke.html"))
    page = fr_tab.open(tmp_path / "revoke.html")
    page.keyboard.press("End")
    assert page.query_selector(".diag .code") is not None
    assert page.query_selector(".diag .slug") is None
    read.append(_everything_read(page))
    page = fr_tab.open(french_pages["site"])
    takers = page.eval_on_selector_all(".deals tbody td.c-taker",
                                       "ts => ts.map(t => t.textContent)")
    assert "O (David Moreau)" in takers
    assert [t for t in takers if t.startswith("W")] == []
    text = prose("\n".join(read))  # (the files' names are not words of the page)
    assert sorted({w for w in _english_words() if w in text}) == []
    # (the index shows the records' own words too: an event "Study deal: …" is English)
    text += _everything_read(page)
    assert (misreadable_cards(text), decimal_points(text)) == ([], [])
