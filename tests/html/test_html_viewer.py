"""The deal pages, second round (issue 32), in Chromium: accessibility checked by axe-core
on every page kind at a phone's and a desktop's width, the play list as one tab stop, the
address following a key at once, the cards' values of an analysed record, the margin
graph, the quiz mode, finding a deal in a big index, and phones.

axe-core is the one ``axe-playwright-python`` ships (``axe.min.js``), run in the page by
the test (the pages themselves load nothing); the tests skip when it is missing, and fail
with ``TAROT_BROWSER=required``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import axe_check
import pytest
from axe_check import COLOUR_RULES, axe
from cli_runs import EXAMPLES, ROOT, rel
from cli_runs import invoke as run_cli
from test_html_browser import HOSTILE, Tab, position

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
WIDE = {"width": 1440, "height": 900}


def accessible_name(page: Any, selector: str) -> str:
    """The name the browser gives the element (what a screen reader says)."""
    snapshot = str(page.locator(selector).aria_snapshot())
    start = snapshot.index('"') + 1
    return snapshot[start:snapshot.rindex('"')]


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's script, or a skip (a failure when the browser is required)."""
    return axe_check.axe_source()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every page kind, written by the command: a deal page in English and in French, a
    site (index and deal pages), one file holding every deal, a score sheet's deal."""
    out = tmp_path_factory.mktemp("viewer")
    made: dict[str, Path] = {}
    for key, args in {
        "deal": ("html", rel(EXAMPLES / "annotated.tarot"), "-o", str(out / "deal.html")),
        "deal-fr": ("html", "--lang", "fr", rel(EXAMPLES / "annotated.tarot"), "-o",
                    str(out / "deal-fr.html")),
        "book": ("html", rel(EXAMPLES / "score-sheet.tarot"), rel(EXAMPLES / "annotated.tarot"),
                 "--single-file", "-o", str(out / "book.html")),
        "book-fr": ("html", "--lang", "fr", rel(EXAMPLES / "annotated.tarot"),
                    "--single-file", "-o", str(out / "book-fr.html")),
    }.items():
        ran = run_cli(*args)
        assert ran.code == 0, ran
        made[key] = Path(args[-1])
    # a record analysed with --all-cards from trick 14 (every legal card valued)
    ran = run_cli("analyze", rel(EXAMPLES / "annotated.tarot"), "--all-cards", "--from-trick",
                  "14", "-o", str(out / "analysed.tarot"))
    assert ran.code == 0, ran
    ran = run_cli("html", str(out / "analysed.tarot"), "-o", str(out / "analysed.html"))
    assert ran.code == 0, ran
    made["analysed"] = out / "analysed.html"
    ran = run_cli("html", rel(EXAMPLES), str(HOSTILE), "-o", str(out / "site"))
    assert ran.code == 1, ran  # the hostile record holds faults
    made["index"] = out / "site" / "index.html"
    made["site-deal"] = out / "site" / "deal-1.html"
    return made


@pytest.fixture
def phone(browser: Any) -> Iterator[Tab]:
    t = Tab(browser, PHONE)
    yield t
    try:
        t.check_clean()
    finally:
        t.close()


@pytest.fixture
def wide(browser: Any) -> Iterator[Tab]:
    t = Tab(browser, WIDE)
    yield t
    try:
        t.check_clean()
    finally:
        t.close()




# --- accessibility ----------------------------------------------------------------------

#: Each page kind, at the points a person stops at: (page, fragment).
POINTS = [
    ("deal", ""), ("deal", "#deal=1&card=40"), ("deal", "#deal=1&card=5&seat=E"),
    ("deal", "#deal=1&card=72"), ("deal-fr", "#deal=1&card=20"),
    ("index", ""), ("site-deal", "#deal=1&card=3"), ("book", ""), ("book", "#deal=1"),
    ("book", "#deal=9&card=10"),
    ("book-fr", "#deal=1&card=72&seat=N"), ("analysed", "#deal=1&card=52"),
    ("analysed", "#deal=1&card=52&seat=E&quiz=1"),
]


@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["375px", "1440px"])
def test_axe_finds_nothing_serious_on_any_page_kind_at_375_and_1440_px(
        browser: Any, viewport: dict[str, int], site: dict[str, Path],
        axe_source: str) -> None:
    # Each point opened once, axe-core in it from the start: every rule on the light
    # scheme; then, the system's preference turned dark on the same page, which changes
    # colours only (see test_the_dark_scheme_changes_colours_only; the script never asks,
    # so the page is as it would open dark), the rules that read colours.
    tab = Tab(browser, viewport)
    try:
        tab.page.add_init_script(axe_source)
        findings = []
        for key, fragment in POINTS:
            tab.page.emulate_media(color_scheme="light")
            page = tab.open(site[key], fragment)
            findings += [f"{key}{fragment} (light): {f}" for f in axe(page, axe_source)]
            page.emulate_media(color_scheme="dark")
            findings += [f"{key}{fragment} (dark): {f}"
                         for f in axe(page, axe_source, COLOUR_RULES)]
        assert findings == []
        tab.check_clean()
    finally:
        tab.close()


#: What a rule of the dark scheme may set: colours, and nothing that shows, hides or moves.
COLOUR_PROPERTIES = frozenset({"color", "background", "background-color", "border-color",
                               "color-scheme", "fill", "stroke"})
COLOUR_VALUE = re.compile(r"#[0-9a-f]{3,8}|rgba?\([0-9., ]+\)|var\(--[a-z-]+\)|dark")


def dark_declarations(css: str) -> list[tuple[str, str]]:
    """The (property, value) pairs the ``prefers-color-scheme: dark`` blocks of a
    stylesheet set."""
    found = []
    for start in (m.end() for m in re.finditer(r"@media \(prefers-color-scheme: dark\) \{",
                                                css)):
        depth, end = 1, start
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        for body in re.findall(r"\{([^{}]*)\}", css[start:end - 1]):
            for declaration in filter(None, (d.strip() for d in body.split(";"))):
                name, _, value = declaration.partition(":")
                found.append((name.strip(), value.strip()))
    return found


def test_the_dark_scheme_changes_colours_only() -> None:
    # What lets the axe runs of the dark scheme check the colour rules only: the pages'
    # one stylesheet sets colours in its dark blocks, and their script never asks.
    css = (ROOT / "tarotnotation" / "html" / "tarot.css").read_text(encoding="utf-8")
    declarations = dark_declarations(css)
    assert len(declarations) >= 10  # the blocks were found
    for name, value in declarations:
        assert name in COLOUR_PROPERTIES or name.startswith("--"), (name, value)
        assert COLOUR_VALUE.fullmatch(value), (name, value)
    script = (ROOT / "tarotnotation" / "html" / "tarot.js").read_text(encoding="utf-8")
    assert "matchMedia" not in script
    assert "color-scheme" not in script
    assert [p.name for p in (ROOT / "tarotnotation" / "html").glob("*.css")] == ["tarot.css"]
    assert dark_declarations("@media (prefers-color-scheme: dark) { a { display: none } }"
                             ) == [("display", "none")]


def test_the_colour_rules_alone_find_text_dark_on_the_dark_scheme(
        browser: Any, site: dict[str, Path], axe_source: str) -> None:
    # The dark runs are not vacuous: text as dark as the paper is found by the rules they run.
    tab = Tab(browser, PHONE)
    try:
        tab.page.emulate_media(color_scheme="dark")
        page = tab.open(site["deal"], "#deal=1&card=40")
        assert axe(page, axe_source, COLOUR_RULES) == []
        page.evaluate("() => { for (const e of document.querySelectorAll('body *'))"
                      " e.style.color = '#222'; }")
        assert any(f.startswith("color-contrast: ") for f in axe(page, axe_source, COLOUR_RULES))
    finally:
        tab.close()


def test_a_card_of_the_play_list_is_named_by_what_it_shows_and_says(
        wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["deal"], "#deal=1&card=5&seat=E")
    assert accessible_name(page, ".tricklist [data-k='5']") == "Trick 2: N plays 10 of Hearts"
    assert accessible_name(page, ".tricklist [data-k='6']") == "Trick 2: a card to come"
    assert page.get_attribute(".tricklist [data-k='6']", "aria-label") is None


def test_the_play_list_is_one_tab_stop_with_arrow_keys_inside(
        wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["deal"])
    assert page.eval_on_selector_all(".tricklist button", "bs => bs.filter(b => b.tabIndex"
                                     " === 0).map(b => b.dataset.k)") == ["1"]
    presses = 0
    while page.evaluate("document.activeElement.className") != "download":
        page.keyboard.press("Tab")
        presses += 1
        assert presses < 30, "Download is out of the keyboard's reach"
    # the controls (6 steps, 5 views, the link) and the play list's one stop, not 72 cards
    assert presses <= 16, presses
    page.focus(".tricklist [data-k='1']")
    page.keyboard.press("Enter")
    assert position(page) == "Card 1 of 72"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.k") == "3"
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.k") == "4"
    assert position(page) == "Card 4 of 72"
    assert page.eval_on_selector_all(".tricklist button", "bs => bs.filter(b => b.tabIndex"
                                     " === 0).map(b => b.dataset.k)") == ["4"]
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.closest('.tricklist')") is None


def test_the_address_follows_a_key_at_once(wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["deal"])
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#deal=1&card=1"  # no wait
    page.keyboard.press("ArrowDown")
    page.wait_for_function("() => location.hash === '#deal=1&card=4'")
    for _ in range(20):  # a held key: the last step reaches the address
        page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.hash === '#deal=1&card=24'")


# --- every card's value, the margin graph ------------------------------------------------


def hand_values(page: Any, seat: str) -> dict[str, tuple[str, bool]]:
    """The values a seat's hand shows: card name -> (mark, marked best)."""
    found = page.eval_on_selector_all(
        f'.seat[data-seat="{seat}"] .hand .card.valued',
        "els => els.map(e => [e.getAttribute('aria-label'), e.querySelector('.val').textContent,"
        " e.classList.contains('best')])")
    return {str(name).split(":")[0]: (str(mark), bool(best)) for name, mark, best in found}


def test_every_legal_card_of_the_hand_to_play_shows_its_value_on_an_all_cards_record(
        wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["analysed"], "#deal=1&card=52")
    # E to play the first card of trick 14: tarot analyze --all-cards valued five cards
    assert hand_values(page, "E") == {
        "2 of Clubs": ("-1", False), "8 of Clubs": ("-1", False),
        "6 of Diamonds": ("-1", False), "trump 6": ("0", True), "trump 9": ("0", True)}
    assert hand_values(page, "S") == {}  # only the hand to play
    label = page.get_attribute('.seat[data-seat="E"] .card[aria-label^="trump 6"]', "aria-label")
    assert label == "trump 6: a best card, made by 2 with best play"
    assert page.get_attribute('.seat[data-seat="E"] .card[aria-label^="2 of Clubs"]',
                              "title") == "2 of Clubs: costs 1 point"
    page.keyboard.press("ArrowRight")  # E played; N's card was forced: no list of values
    assert page.query_selector_all(".hand .card.valued") == []
    page.keyboard.press("ArrowRight")  # W to play
    assert hand_values(page, "W") == {
        "4 of Hearts": ("0", True), "8 of Hearts": ("0", True), "9 of Hearts": ("0", True),
        "4 of Diamonds": ("0", True), "Jack of Hearts": ("-1", False)}
    page.click("button[aria-label='Show only what N (Chloé Dubois) sees']")
    assert page.query_selector_all(".hand .card.valued") == []  # a hidden hand: no value


def test_without_all_cards_only_the_played_cards_cost_shows(
        wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["deal"], "#deal=1&card=1")
    assert page.query_selector_all(".hand .card.valued") == []
    assert page.query_selector(".margin-graph") is None  # no analysis, no graph


def test_the_margin_graph_draws_the_analysis_and_a_click_goes_there(
        wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["analysed"])
    graph = page.query_selector(".margin-graph svg")
    assert graph.get_attribute("role") == "img"
    assert graph.get_attribute("aria-label") == (
        "The taker's margin with best play, card by card, from 2 to -7")
    points = page.eval_on_selector_all(".margin-graph circle",
                                       "cs => cs.map(c => Number(c.dataset.k))")
    assert points == list(range(52, 73))  # from trick 14 on, every card
    assert page.eval_on_selector_all(".margin-graph circle.lost", "cs => cs.length") > 0
    page.click(".margin-graph circle[data-k='60']")
    assert position(page) == "Card 60 of 72"
    assert page.evaluate("location.hash") == "#deal=1&card=60"
    box = graph.bounding_box()  # anywhere on the graph: the nearest card
    page.mouse.click(box["x"] + 3, box["y"] + box["height"] / 2)
    assert position(page) == "Card 0 of 72"


# --- the quiz ---------------------------------------------------------------------------------


def test_quiz_mode_hides_the_play_to_come_and_says_whether_the_choice_was_played(
        wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["analysed"], "#deal=1&card=51")
    page.click(".quiz-toggle")  # from all hands: the view of the seat to play (E)
    page.wait_for_function("() => location.hash === '#deal=1&card=51&seat=E&quiz=1'")
    assert page.get_attribute(".quiz-toggle", "aria-pressed") == "true"
    assert page.get_attribute(".view[aria-pressed=true]", "aria-label") == (
        "Show only what E (Bruno Lefèvre) sees")
    page.keyboard.press("ArrowRight")  # E's T10 wins trick 13: E leads trick 14
    page.wait_for_function("() => location.hash === '#deal=1&card=52&seat=E&quiz=1'")
    assert not page.is_visible(".margin-graph")  # the graph would tell the future
    assert not page.is_visible(".tricklist [data-k='53'] .rank")
    assert not page.is_visible(".tricklist [data-k='53'] .cost")
    assert hand_values(page, "E") == {}  # not before the answer
    assert page.inner_text(".quiz-prompt") == (
        "E (Bruno Lefèvre) to play: what would you play?")
    choices = page.eval_on_selector_all(".quiz-card", "bs => bs.map(b => b.dataset.card)")
    assert choices == ["2C", "8C", "6D", "T6", "T9"]
    page.click(".quiz-card[data-card='2C']")
    assert page.inner_text(".quiz-result") == (
        "trump 9 was played, not 2 of Clubs. Your card: costs 1 point.")
    assert hand_values(page, "E")["trump 9"] == ("0", True)  # answered: the values show
    assert position(page) == "Card 52 of 72"  # the play does not move on by itself
    page.click(".quiz-card[data-card='T9']")
    assert page.inner_text(".quiz-result").startswith("Right: trump 9 was played.")
    page.keyboard.press("ArrowRight")
    assert page.inner_text(".quiz-prompt") == "Step on to the next card of E (Bruno Lefèvre)."
    page.wait_for_function("() => location.hash === '#deal=1&card=53&seat=E&quiz=1'")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert page.get_attribute(".quiz-toggle", "aria-pressed") == "true"  # the address keeps it
    assert position(page) == "Card 53 of 72"
    page.click("button:text('All hands')")
    assert page.get_attribute(".quiz-toggle", "aria-pressed") == "false"
    page.wait_for_function("() => location.hash === '#deal=1&card=53'")


# --- finding a deal in a big archive ----------------------------------------------------------

CHELEM = EXAMPLES / "chelem-announced.tarot"


def failed_chelem(folder: Path) -> Path:
    """chelem-announced.tarot where the taker keeps a small club instead of the Excuse
    and loses the last trick: a chelem announced and failed (no recorded result)."""
    text = CHELEM.read_text(encoding="utf-8")
    for old, new in (("T20 T21 EX\n", "T20 T21 2C\n"), ("1C 2C 5C 10C", "1C EX 5C 10C"),
                     (" 5. T17 8S 2C QS", " 5. T17 8S EX QS"),
                     ("18. EX 3C 10S 4S", "18. 2C 3C 10S 4S")):
        assert old in text, old
        text = text.replace(old, new)
    path = folder / "failed-chelem.tarot"
    path.write_text(text[:text.index("result:")], encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site of the examples and of a failed chelem: its index."""
    out = tmp_path_factory.mktemp("archive")
    ran = run_cli("html", rel(EXAMPLES), str(failed_chelem(out)), "-o", str(out / "site"))
    assert ran.code == 1, ran  # the faulty examples
    return out / "site" / "index.html"


def shown(page: Any) -> list[str]:
    """The deal numbers of the index's rows in view, in order."""
    return list(page.eval_on_selector_all(".deals tbody tr:not(.spacer) .c-n a",
                                          "as => as.map(a => a.textContent)"))


def type_filter(page: Any, text: str) -> None:
    page.fill("input.filter", text)
    page.wait_for_function("t => new URLSearchParams(location.hash.slice(1)).get('q') === t",
                           arg=text)


def row_of_deal(page: Any, number: str) -> str:
    return str(page.inner_text(f".deals tbody tr:has(.c-n a:text-is('{number}'))"))


def test_a_failed_chelem_is_shown_as_one(wide: Tab, archive: Path) -> None:
    page = wide.open(archive)
    assert "made by 55 · chelem made" in row_of_deal(page, "3")
    type_filter(page, "failed-chelem.tarot")
    assert len(shown(page)) == 1
    assert "made by 44 · chelem failed" in row_of_deal(page, shown(page)[0])


def test_the_index_filter_searches_names_date_deal_number_tags_and_flags(
        wide: Tab, archive: Path) -> None:
    page = wide.open(archive)
    type_filter(page, "failed-chelem.tarot")
    failed = shown(page)
    type_filter(page, "chelem failed")
    assert shown(page) == failed
    type_filter(page, "2026.09.25")  # the date
    assert shown(page) == ["11"]  # five-players.tarot
    type_filter(page, "Luc Chevalier")  # a player's name
    assert shown(page) == ["11"]
    type_filter(page, "Inès")  # a player who does not take in the five-player deal
    assert shown(page) == ["11"]
    type_filter(page, "poignée")
    assert len(shown(page)) >= 2
    assert all("poignée shown" in row_of_deal(page, n) for n in shown(page))
    type_filter(page, "petit au bout")
    assert shown(page)


def test_column_filters_for_contract_taker_result_and_faults(wide: Tab, archive: Path) -> None:
    page = wide.open(archive)
    page.select_option(".column-filters label:has-text('Contract') select", "Garde contre")
    assert "12" in shown(page)
    assert all("Garde contre" in row_of_deal(page, n) for n in shown(page))
    page.select_option(".column-filters label:has-text('Contract') select", "")
    page.select_option(".column-filters label:has-text('Result') select", "made")
    made = shown(page)
    assert made
    assert all("made by" in row_of_deal(page, n) for n in made)
    page.select_option(".column-filters label:has-text('Faults') select", "errors")
    assert shown(page)
    assert all("error" in row_of_deal(page, n) for n in shown(page))
    page.select_option(".column-filters label:has-text('Faults') select", "none")
    page.select_option(".column-filters label:has-text('Taker') select", "S (Alice Martin)")
    rows = shown(page)
    assert rows
    assert all("S (Alice Martin)" in row_of_deal(page, n) for n in rows)
    assert page.evaluate("location.hash") == (
        "#taker=S%20(Alice%20Martin)&result=made&faults=none")


def test_the_filter_and_the_sort_survive_back_and_the_whole_row_is_the_link(
        wide: Tab, archive: Path) -> None:
    page = wide.open(archive)
    type_filter(page, "garde")
    page.click(".deals th.c-score button")
    page.click(".deals th.c-score button")  # the highest score first
    page.select_option(".column-filters label:has-text('Result') select", "lost")
    order = shown(page)
    assert len(order) > 2
    page.wait_for_function("() => location.hash.includes('sort=')")
    address = page.evaluate("location.hash")
    assert "q=garde" in address
    assert "desc=1" in address
    box = page.query_selector(".deals tbody tr:nth-child(2) td.c-taker").bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + 5)  # not on the number: the row is the link
    page.wait_for_selector("body[data-page=deal][data-ready]")
    assert page.url.endswith(f"deal-{order[1]}.html")
    page.go_back()
    page.wait_for_selector("body[data-page=index][data-ready]")
    assert page.input_value("input.filter") == "garde"
    assert page.input_value(".column-filters label:has-text('Result') select") == "lost"
    assert page.get_attribute(".deals th.c-score", "aria-sort") == "descending"
    assert shown(page) == order


# --- a clearer table --------------------------------------------------------------------------


def test_mid_trick_the_table_says_who_led_and_who_is_winning_so_far(
        wide: Tab, site: dict[str, Path]) -> None:
    page = wide.open(site["deal"], "#deal=1&card=8")  # trick 2 complete: S won it
    assert page.inner_text(".trick-info") == "Trick 2 of 18: S wins, 4 points"
    assert page.query_selector(".played.ahead") is None
    page.keyboard.press("ArrowRight")  # S leads trick 3 with the 6 of Hearts
    assert page.inner_text(".trick-info") == "Trick 3 of 18: S led, S is winning it"
    page.keyboard.press("ArrowRight")  # E's King of Hearts beats it
    assert page.inner_text(".trick-info") == "Trick 3 of 18: S led, E is winning it"
    assert page.inner_text(".played.ahead .who") == "E"
    page.keyboard.press("ArrowRight")  # N trumps
    assert page.inner_text(".played.ahead .who") == "N"


# --- phones -----------------------------------------------------------------------------------

SWIPE = """([x0, x1, y]) => {
    const table = document.querySelector('.table');
    const touch = x => new Touch({identifier: 1, target: table, clientX: x, clientY: y});
    table.dispatchEvent(new TouchEvent('touchstart', {touches: [touch(x0)],
        changedTouches: [touch(x0)], bubbles: true}));
    table.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [touch(x1)],
        bubbles: true}));
}"""


def test_on_a_phone_a_swipe_steps_and_the_step_bar_stays_in_view(
        browser: Any, site: dict[str, Path]) -> None:
    tab = Tab(browser, PHONE)
    try:
        page = tab.open(site["deal"], "#deal=1&card=10")
        page.evaluate(SWIPE, [300, 100, 400])  # to the left: the next card
        assert position(page) == "Card 11 of 72"
        page.evaluate(SWIPE, [100, 300, 400])  # to the right: back
        page.evaluate(SWIPE, [100, 300, 400])
        assert position(page) == "Card 9 of 72"
        page.evaluate(SWIPE, [200, 220, 400])  # a tap, not a swipe
        assert position(page) == "Card 9 of 72"
        page.evaluate("document.querySelector('.tricklist').scrollIntoView()")
        bar = page.evaluate("document.querySelector('.steps').getBoundingClientRect().top")
        assert 0 <= bar < 60  # sticky: in view while the play list is read
        page.click(".steps button:nth-child(4)")
        assert position(page) == "Card 10 of 72"
        tab.check_clean()
    finally:
        tab.close()


def test_on_a_phone_the_index_rows_are_links_whole_and_keep_the_score(
        browser: Any, archive: Path) -> None:
    tab = Tab(browser, PHONE)
    try:
        page = tab.open(archive)
        assert page.is_visible(".deals th.c-score")
        row = page.query_selector(".deals tbody tr:nth-child(3)")
        box = row.bounding_box()
        assert box["height"] >= 44  # a finger's size
        assert box["x"] + box["width"] <= PHONE["width"]  # the score column is not cut off
        target = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('a')"
                               " && document.elementFromPoint(x, y).closest('a').href",
                               [box["x"] + box["width"] * .6, box["y"] + box["height"] / 2])
        assert str(target).endswith("deal-3.html")
        cut = page.eval_on_selector_all(
            ".deals tbody td.c-contract", "ts => ts.filter(t => t.scrollWidth > t.clientWidth)"
            ".map(t => t.textContent)")
        assert cut == []  # "Garde contre" is written whole
        tab.check_clean()
    finally:
        tab.close()



def test_dark_mode_follows_the_systems_preference(browser: Any, site: dict[str, Path]) -> None:
    tab = Tab(browser, WIDE)
    try:
        page = tab.open(site["deal"], "#deal=1&card=9")
        light = page.evaluate("getComputedStyle(document.body).backgroundColor")
        page.emulate_media(color_scheme="dark")
        assert light == "rgb(255, 255, 255)"
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == (
            "rgb(22, 22, 26)")
        assert page.evaluate("getComputedStyle(document.querySelector('.hand .card'))"
                             ".backgroundColor") == "rgb(255, 255, 255)"  # cards stay white
        tab.check_clean()
    finally:
        tab.close()


def test_at_the_end_the_running_points_reconcile_with_the_score(
        wide: Tab, site: dict[str, Path], tmp_path: Path) -> None:
    page = wide.open(site["deal"], "#deal=1&card=72")
    # the tricks gave the taker 40; the écart's 4 make the 44 the score counts
    assert page.inner_text(".running") == "Taker 40 + Écart 4 = 44 · Defence 47"
    assert "44 points" in page.inner_text(".score-lines")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text(".running") == "Taker 37 · Defence 47"  # before the last trick
    ran = run_cli("html", rel(EXAMPLES / "garde-contre.tarot"), "-o", str(tmp_path / "gc.html"))
    assert ran.code == 0, ran
    page = wide.open(tmp_path / "gc.html", "#deal=1&card=72")
    running = page.inner_text(".running")  # the chien counts for the defence
    assert running.startswith("Taker ")
    assert " · Defence " in running
    assert " + Chien " in running.split(" · ")[1]
