"""Deal pages in a real browser: Debian's Chromium driven by Playwright, pages opened
from ``file://`` as a person would, checked for what a person sees.

The tests skip, saying why, when Playwright or Chromium is missing; with
``TAROT_BROWSER=required`` (CI, ``.ci/run``) they fail instead. Chromium is the system's
(``TAROT_CHROMIUM``, default ``/usr/bin/chromium``): Playwright never downloads one. One
browser serves the whole session; each test gets a new page. Screenshots are kept
as artefacts in ``TAROT_ARTEFACTS`` (default: ``tarotnotation-artefacts`` in the
temporary folder), never in the repository.
"""

from __future__ import annotations

import os
import re
import tempfile
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_runs import EXAMPLES, FAULTY, ROOT, invoke, rel

from tarotnotation.html import deal_data, deal_page, read_sources

pytestmark = pytest.mark.browser

HOSTILE = ROOT / "tests" / "fixtures" / "html" / "hostile-strings.tarot"
WRONG_SEAT = ROOT / "tests" / "fixtures" / "html" / "trick-written-from-the-wrong-seat.tarot"
PAYLOAD = "</script><img src=x onerror=alert(1)>"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
ERROR_RED = "rgb(179, 38, 30)"


#: The browser contexts the tabs share, one for each browser and viewport: a context costs
#: a renderer process and about a quarter of a CPU second to start and end, a new page in
#: one already open a fraction of it. Closed with their browser (conftest's ``browser``).
_SHARED: weakref.WeakKeyDictionary[Any, dict[tuple[int, int], Any]] = (
    weakref.WeakKeyDictionary())


def shared_context(browser: Any, viewport: dict[str, int]) -> Any:
    """The context at ``viewport`` the tabs of ``browser`` share (downloads accepted, no
    permission granted)."""
    contexts = _SHARED.setdefault(browser, {})
    key = (viewport["width"], viewport["height"])
    if key not in contexts:
        contexts[key] = browser.new_context(viewport=viewport, accept_downloads=True)
    return contexts[key]


class Tab:
    """A new page, with what happened in it: dialogs (an ``alert`` that ran), script
    errors, console messages and every request. The page opens in the context its
    viewport's tabs share (the pages load nothing and keep nothing: no storage, no
    cookie), or in a context of its own (``own_context``: for a test that grants it a
    permission); :meth:`close` ends what it opened."""

    def __init__(self, browser: Any, viewport: dict[str, int], *,
                 own_context: bool = False) -> None:
        self.own_context = own_context
        self.context = (browser.new_context(viewport=viewport, accept_downloads=True)
                        if own_context else shared_context(browser, viewport))
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.console: list[str] = []
        self.requests: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def open(self, path: Path, fragment: str = "") -> Any:
        """Open a page from the disk and wait for its script to be ready."""
        self.page.goto(path.resolve().as_uri() + fragment)
        self.page.wait_for_selector("body[data-ready]", timeout=5000)
        return self.page

    def close(self) -> None:
        """Close the page (and its context, when it has one of its own)."""
        self.page.close()
        if self.own_context:
            self.context.close()

    def check_clean(self) -> None:
        """Nothing ran that should not, nothing was refused, nothing left the disk."""
        assert not self.dialogs, self.dialogs
        assert not self.errors, self.errors
        assert not [m for m in self.console if "Content Security Policy" in m
                    or m.startswith("error")], self.console
        assert all(url.startswith(("file:", "blob:", "about:")) for url in self.requests), (
            self.requests)


@pytest.fixture
def tab(browser: Any) -> Iterator[Tab]:
    """A desktop-sized tab; its page must stay clean (see :meth:`Tab.check_clean`)."""
    t = Tab(browser, DESKTOP)
    yield t
    try:
        t.check_clean()
    finally:
        t.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The pages under test, written by the command as a user would."""
    out = tmp_path_factory.mktemp("pages")
    made = {
        "annotated": (rel(EXAMPLES / "annotated.tarot"), "annotated.html"),
        "revoke": (rel(FAULTY / "revoke.tarot"), "revoke.html"),
        "five": (rel(EXAMPLES / "five-players.tarot"), "five.html"),
        "three": (rel(EXAMPLES / "three-players.tarot"), "three.html"),
        "hostile": (str(HOSTILE), "hostile.html"),
        "wrong-seat": (str(WRONG_SEAT), "wrong-seat.html"),
    }
    paths: dict[str, Path] = {}
    for key, (record, name) in made.items():
        ran = invoke("html", record, "-o", str(out / name))
        assert ran.code in (0, 1), ran
        paths[key] = out / name
    ran = invoke("html", rel(EXAMPLES), str(HOSTILE), "-o", str(out / "site"))
    assert ran.code == 1, ran
    paths["site"] = out / "site" / "index.html"
    ran = invoke("html", rel(EXAMPLES / "score-sheet.tarot"), rel(EXAMPLES / "annotated.tarot"),
                 str(HOSTILE), "--single-file", "-o", str(out / "book.html"))
    assert ran.code == 0, ran
    paths["book"] = out / "book.html"
    return paths


def artefacts() -> Path:
    """Where screenshots are kept (created on demand)."""
    folder = Path(os.environ.get("TAROT_ARTEFACTS")
                  or Path(tempfile.gettempdir()) / "tarotnotation-artefacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def hand(page: Any, seat: str) -> list[str]:
    """The cards a seat's hand shows, by their names."""
    return list(page.eval_on_selector_all(
        f'.seat[data-seat="{seat}"] .hand .card',
        "els => els.filter(e => e.offsetParent !== null).map(e => e.getAttribute('aria-label'))"))


def trick(page: Any) -> list[tuple[str, str]]:
    """The cards in the middle of the table: (card, seat)."""
    return [(e.query_selector(".card").get_attribute("aria-label"),
             e.query_selector(".who").inner_text()) for e in page.query_selector_all(".played")]


def position(page: Any) -> str:
    return str(page.inner_text(".pos"))


# --- the deal page ---------------------------------------------------------------------------


def test_the_hands_are_shown_at_the_start(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"])
    for seat in "SENW":
        assert len(hand(page, seat)) == 18, seat
    assert "King of Hearts" in hand(page, "E")
    assert "trump 21" in hand(page, "N")
    assert "the Excuse" in hand(page, "W")
    assert trick(page) == []
    assert position(page) == "Card 0 of 72"
    assert page.inner_text(".seat[data-seat=N] .seat-player") == "Chloé Dubois"
    assert "TAKER" in page.inner_text(".seat[data-seat=N] .badge").upper()
    # the chien, the auction and the écart beside the table
    assert page.inner_text(".bidding").count("Garde") >= 1
    chien = page.eval_on_selector_all(".facts .cards", "e => e.length")
    assert chien == 2  # the chien and the écart


def test_ten_right_arrows_put_the_right_cards_in_the_middle_and_out_of_the_hands(
        tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"])
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    assert position(page) == "Card 10 of 72"
    assert trick(page) == [("6 of Hearts", "S"), ("King of Hearts", "E")]
    # mid-trick: who led and who is winning it so far (issue 32)
    assert page.inner_text(".trick-info") == "Trick 3 of 18: S led, E is winning it"
    played = {"E": ["trump 20", "5 of Hearts", "King of Hearts"],
              "N": ["trump 21", "10 of Hearts"], "W": ["trump 7", "3 of Hearts"],
              "S": ["trump 15", "Knight of Hearts", "6 of Hearts"]}
    for seat, gone in played.items():
        shown = hand(page, seat)
        for card in gone:
            assert card not in shown, (seat, card)
    assert [len(hand(page, s)) for s in "SENW"] == [15, 15, 16, 16]
    assert "Taker 6 · Defence 4" in page.inner_text(".running")
    page.wait_for_function("() => location.hash === '#deal=1&card=10'")
    live = page.inner_text("[role=status]")
    assert "E (Bruno Lefèvre) plays King of Hearts" in live


def test_a_complete_trick_marks_its_winner(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"], "#deal=1&card=4")
    assert page.inner_text(".played.win .who").startswith("N")
    assert page.inner_text(".trick-info") == "Trick 1 of 18: N wins, 6 points"
    assert "wins the trick" not in page.inner_text("[role=status]")  # nothing announced yet
    page.keyboard.press("ArrowLeft")
    assert page.query_selector(".played.win") is None


def test_end_shows_the_score(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"])
    assert not page.is_visible(".score-lines")
    page.keyboard.press("End")
    assert position(page) == "Card 72 of 72"
    lines = page.inner_text(".score-lines")
    assert "Garde by N: 44 points with 1 bout, needs 51: lost by 7" in lines
    assert "S +64, E +64, N -192, W +64" in lines
    assert "Recorded: S+64 E+64 N-192 W+64" in page.inner_text(".score")
    assert all(not hand(page, s) for s in "SENW")
    page.keyboard.press("Home")
    assert position(page) == "Card 0 of 72"
    assert not page.is_visible(".score-lines")


def test_the_permalink_restores_the_position_and_the_address_follows(
        tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"], "#deal=1&card=37")
    assert position(page) == "Card 37 of 72"
    assert trick(page) == [("2 of Hearts", "W")]
    assert page.get_attribute(".permalink", "href") == "#deal=1&card=37"
    page.evaluate("location.hash = '#deal=1&card=5&seat=E'")
    page.wait_for_function("() => document.querySelector('.pos').textContent === 'Card 5 of 72'")
    assert page.get_attribute(".view[aria-pressed=true]", "aria-label") == (
        "Show only what E (Bruno Lefèvre) sees")
    page.keyboard.press("ArrowDown")  # to the end of the trick
    page.wait_for_function("() => location.hash === '#deal=1&card=8&seat=E'")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    assert position(page) == "Card 8 of 72"
    for fragment, shown in (("#deal=1&card=999", "Card 72 of 72"), ("#card=-4", "Card 0 of 72"),
                            ("#deal=1&card=x%ZZ&seat=nobody", "Card 0 of 72")):
        page.evaluate(f"() => {{ location.hash = '{fragment}'; }}")
        page.wait_for_function(f"() => document.querySelector('.pos').textContent === '{shown}'")
    assert page.get_attribute(".view[aria-pressed=true]", "aria-label") == "Show all hands"


def test_buttons_clicks_and_a_held_key_step_through_the_play(
        tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"])
    page.click("button[aria-label='Next trick (Down arrow)']")
    assert position(page) == "Card 4 of 72"
    page.click("button[aria-label='Next card (Right arrow)']")
    page.click("button[aria-label='Next trick (Down arrow)']")
    assert position(page) == "Card 8 of 72"
    page.click("button[aria-label='Previous trick (Up arrow)']")
    assert position(page) == "Card 4 of 72"
    # a held key: the browser repeats keydown events with repeat set
    page.evaluate("""() => { for (let i = 0; i < 12; i++) document.dispatchEvent(
        new KeyboardEvent('keydown', {key: 'ArrowRight', repeat: i > 0, bubbles: true})); }""")
    assert position(page) == "Card 16 of 72"
    page.click(".tricklist button[data-k='30']")
    assert position(page) == "Card 30 of 72"
    assert page.get_attribute(".tc.cur", "data-k") == "30"
    page.click("button[aria-label='Last: the end and the score (End)']")
    assert position(page) == "Card 72 of 72"
    next_card = "button[aria-label='Next card (Right arrow)']"
    assert page.get_attribute(next_card, "aria-disabled") == "true"
    page.focus(next_card)
    page.keyboard.press("Enter")  # at the end: nothing happens, the focus stays
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == (
        "Next card (Right arrow)")
    page.keyboard.press("ArrowRight")
    assert position(page) == "Card 72 of 72"


def test_a_comment_is_shown_at_its_card(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"], "#deal=1&card=7")
    assert "il fallait garder" not in page.inner_text(".now-notes")
    page.keyboard.press("ArrowRight")
    notes = page.inner_text(".now-notes")
    assert "il fallait garder cette carte" in notes
    assert "E 5H?" in notes
    assert "Comment: il fallait garder cette carte" in page.inner_text("[role=status]")
    page.keyboard.press("ArrowRight")  # trick 3: its own glyph and comment
    assert "le tournant de la donne" in page.inner_text(".now-notes")
    assert "il fallait garder" not in page.inner_text(".now-notes")


def test_a_diagnostic_is_shown_at_its_card_in_its_colour(tab: Tab,
                                                         pages: dict[str, Path]) -> None:
    page = tab.open(pages["revoke"], "#deal=1&card=9")
    assert page.query_selector(".now-notes .diag") is None
    page.keyboard.press("ArrowRight")
    diag = page.query_selector(".now-notes .diag.sev-error")
    assert diag is not None
    text = diag.inner_text()
    assert "P105" in text
    assert "must-follow-suit" in text
    assert "Clubs led" in text
    assert diag.evaluate("e => getComputedStyle(e).color") == ERROR_RED
    assert "sev-error" in (page.get_attribute(".tricklist [data-k='10']", "class") or "")
    assert "1 error" in page.inner_text(".verdict")
    # from the list of faults, straight to the card
    page.keyboard.press("Home")
    page.click(".faults .goto")
    assert position(page) == "Card 10 of 72"


def test_one_cause_is_said_at_its_trick_and_what_follows_is_marked(
        tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["wrong-seat"], "#deal=1&card=17")
    cause = page.query_selector(".now-notes .diag.sev-error:not(.follows)")
    assert cause is not None
    assert "Y001" in cause.inner_text()
    assert "list its cards from N" in cause.inner_text()
    assert "1 error," in page.inner_text(".verdict")
    follows = page.query_selector_all(".faults .diag.follows")
    assert len(follows) == 65
    assert "follows from Y001" in follows[0].inner_text()
    assert follows[0].evaluate("e => getComputedStyle(e).borderLeftStyle") == "dashed"
    assert "sev-follows" in (page.get_attribute(".tricklist [data-k='18']", "class") or "")


def test_one_seats_view_hides_the_other_hands(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"])
    page.click("button[aria-label='Show only what S (Alice Martin) sees']")
    assert len(hand(page, "S")) == 18
    for seat in "ENW":
        assert hand(page, seat) == [], seat
        assert page.inner_text(f".seat[data-seat={seat}] .backs") == "18 cards"
    ecart = page.inner_text(".facts")
    assert "face down" in ecart  # S is not the taker: the écart is hidden
    assert page.query_selector_all(".facts .cards")
    assert len(
        page.query_selector_all(".facts .cards")) == 1
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert page.inner_text(".seat[data-seat=E] .backs") == "17 cards"
    assert trick(page) == [("10 of Hearts", "N")]  # the cards played stay public
    # the trick list shows the cards played so far, not those to come
    assert page.is_visible(".tricklist [data-k='5'] .rank")
    assert not page.is_visible(".tricklist [data-k='6'] .rank")
    assert not page.is_visible(".trick-row:nth-child(2) .tafter")
    # (the play list's cards are named by a sentence in their content: see test_html_viewer)
    assert page.inner_text(".tricklist [data-k='6'] .sr-only") == "Trick 2: a card to come"
    assert page.inner_text(".tricklist [data-k='5'] .sr-only") == (
        "Trick 2: N plays 10 of Hearts")
    page.click("button[aria-label='Show only what N (Chloé Dubois) sees']")
    assert len(page.query_selector_all(".facts .cards")) == 2  # the taker sees her écart
    page.wait_for_function("() => location.hash.endsWith('&seat=N')")
    page.click("button:text('All hands')")
    assert len(hand(page, "E")) == 17


def test_five_players_the_partner_shows_when_the_called_card_falls(
        tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["five"], "#deal=1&card=0&seat=N")
    assert "not yet known" in page.inner_text(".partner")
    assert "PARTNER" not in page.inner_text(".table").upper()
    page.keyboard.press("End")
    assert "partner W" in page.inner_text(".partner")
    assert "PARTNER" in page.inner_text(".seat[data-seat=W] .badge").upper()
    page.click("button:text('All hands')")
    page.keyboard.press("Home")
    assert "partner W" in page.inner_text(".partner")
    assert len(hand(page, "F")) == 15


def test_three_players(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["three"])
    assert [len(hand(page, s)) for s in "SEN"] == [24, 24, 24]
    page.keyboard.press("ArrowDown")
    assert len(trick(page)) == 3


def test_the_record_is_embedded_and_downloads(tab: Tab, pages: dict[str, Path],
                                              tmp_path: Path) -> None:
    page = tab.open(pages["annotated"])
    text = (EXAMPLES / "annotated.tarot").read_text(encoding="utf-8")
    assert page.text_content(".record-text") == text
    with page.expect_download() as info:
        page.click(".download")
    download = info.value
    assert download.suggested_filename == "annotated.tarot"
    saved = tmp_path / "got.tarot"
    download.save_as(saved)
    assert saved.read_text(encoding="utf-8") == text


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and rows of RGBA bytes (8-bit RGBA, not interlaced: what a
    canvas gives), read without a library: the chunks, zlib, each row's filter undone."""
    import struct
    import zlib

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, head = 8, b"", b""
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + size]
        head = body if kind == b"IHDR" else head
        idat += body if kind == b"IDAT" else b""
        pos += 12 + size
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", head)
    assert (depth, colour, interlace) == (8, 6, 0), (depth, colour, interlace)
    raw, stride = zlib.decompress(idat), 4 * width
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        at = y * (stride + 1)
        kind, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b, c = prev[i], prev[i - 4] if i >= 4 else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows


def _picture(page: Any, tmp_path: Path, name: str) -> tuple[str, tuple[int, int, list[bytes]]]:
    with page.expect_download() as info:
        page.click(".picture")
    saved = tmp_path / name
    info.value.save_as(saved)
    data = saved.read_bytes()
    assert 1_000 < len(data) < 200_000, len(data)
    return info.value.suggested_filename, png_pixels(data)


def _rgb(rows: list[bytes], x: int, y: int) -> tuple[int, ...]:
    return tuple(rows[y][4 * x:4 * x + 3])


@pytest.fixture
def clipboard_tab(browser: Any) -> Iterator[Tab]:
    """A desktop-sized tab in a context of its own, allowed the clipboard."""
    t = Tab(browser, DESKTOP, own_context=True)
    t.context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield t
    try:
        t.check_clean()
    finally:
        t.close()


def test_the_table_downloads_as_a_png_picture(clipboard_tab: Tab, pages: dict[str, Path],
                                              tmp_path: Path) -> None:
    tab = clipboard_tab
    page = tab.open(pages["annotated"], "#deal=1&card=4")
    assert page.get_attribute(".picture", "title").startswith("Download the table at this")
    name, (width, height, rows) = _picture(page, tmp_path, "four.png")
    assert name == "deal-1-card-4.png"
    assert (width, height) == (720, 560)
    # copied too, the browser allowing it here
    copied = page.evaluate("""async () => {
      for (let i = 0; i < 50; i += 1) {
        const items = await navigator.clipboard.read();
        if (items.length && items[0].types.includes("image/png")) {
          return (await items[0].getType("image/png")).size;
        }
        await new Promise(r => setTimeout(r, 100));
      }
      return 0; }""")
    assert copied > 1_000, copied
    felt = (29, 107, 58)
    assert _rgb(rows, 5, 300) == felt
    # the first trick complete: South's card below the middle, its face (white, or
    # cream for a trump)
    assert min(_rgb(rows, 351, 340)) > 200, _rgb(rows, 351, 340)
    # South's hand (at the bottom, 17 cards left), its first card's face
    first = _rgb(rows, 360 - 17 * 13 + 4, 478)
    assert min(first) > 200, first
    page.keyboard.press("Home")
    name, (_, _, rows) = _picture(page, tmp_path, "zero.png")
    assert name == "deal-1-card-0.png"
    assert _rgb(rows, 351, 340) == felt  # no card played yet: the felt
    assert min(_rgb(rows, 360 - 18 * 13 + 4, 478)) > 200  # 18 cards in South's hand


def test_hostile_strings_do_nothing_and_show_as_written(tab: Tab,
                                                        pages: dict[str, Path]) -> None:
    page = tab.open(pages["hostile"])
    assert page.inner_text("h1").startswith(PAYLOAD)
    assert page.inner_text(".seat[data-seat=S] .seat-player") == PAYLOAD
    assert page.inner_text(".seat[data-seat=E] .seat-player") == "<b onmouseover=alert(2)>Bob</b>"
    assert "<svg/onload=alert(3)>" in page.inner_text(".tags")
    assert "<script>alert(6)</script>" in page.inner_text(".deal-head")
    assert "<iframe src=javascript:alert(5)>" in page.inner_text(".bidding")
    page.hover(".seat[data-seat=E] .seat-player")
    page.keyboard.press("End")
    page.goto(page.url.split("#")[0] + "#deal=1&card=8")
    page.wait_for_selector("body[data-ready]")
    assert "</script><script>window.pwned=1</script>" in page.inner_text(".now-notes")
    assert page.title().startswith(PAYLOAD)
    assert page.evaluate("window.pwned") is None
    assert page.query_selector_all("img, iframe, b, main script") == []
    # the index of a site and a single file that hold the deal
    for where in (pages["site"], pages["book"]):
        page = tab.open(where)
        filtered(page, "onerror")
        cells = page.eval_on_selector_all(".deals td", "els => els.map(e => e.textContent)")
        assert PAYLOAD in cells
        assert page.query_selector_all("img, iframe") == []
    page = tab.open(pages["book"], "#deal=10")
    assert page.inner_text("#tarot h1").startswith(PAYLOAD)
    assert page.evaluate("window.pwned") is None


def test_every_control_is_a_labelled_button_and_the_keyboard_reaches_it(
        tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"])
    unnamed = page.eval_on_selector_all(
        "button", "els => els.filter(b => !(b.getAttribute('aria-label') ||"
        " b.textContent.trim())).length")
    assert unnamed == 0
    labels = []
    for _ in range(12):  # the keyboard alone reaches the controls
        page.keyboard.press("Tab")
        labels.append(page.evaluate("document.activeElement.getAttribute('aria-label')"))
        if labels[-1] == "Next card (Right arrow)":
            break
    assert labels[-1] == "Next card (Right arrow)", labels
    page.keyboard.press("Enter")
    assert position(page) == "Card 1 of 72"
    assert page.get_attribute("[role=status]", "aria-live") == "polite"


def test_the_analysis_of_a_card_shows_its_cost_and_the_best_card(
        tab: Tab, tmp_path: Path) -> None:
    # The page data's analysis fields ("a"), as the analysis' comments give them: a card's
    # cost, its best cards, whether it changed the outcome, the note in words.
    src = next(read_sources([str(EXAMPLES / "annotated.tarot")]))
    data = deal_data(src)
    data["deal"]["a"] = {"from": 1, "note": "made by 1 with best play"}
    data["cards"][7]["a"] = {"cost": "-3", "best": ["KH"], "changed": True,
                             "note": "costs 3 points (best KH): lost by 2 with best play,"
                             " was made by 1"}
    data["cards"][1]["a"] = {"cost": "-0.5", "best": ["T16"], "changed": False,
                             "note": "costs 0.5 points (best T16): made by 1 with best play"}
    data["cards"][0]["a"] = {"cost": "0", "best": [], "changed": False,
                             "note": "costs nothing: made by 1 with best play"}
    path = tmp_path / "analysed.html"
    path.write_text(deal_page(data), encoding="utf-8")
    page = tab.open(path)
    assert "Double-dummy analysis from trick 1: made by 1 with best play" in page.inner_text(
        ".deal-head")
    button = page.query_selector(".tricklist [data-k='8']")
    assert button.query_selector(".cost.changed").inner_text() == "-3"
    assert page.query_selector(".tricklist [data-k='1'] .cost") is None  # a best card
    assert page.inner_text(".tricklist [data-k='2'] .cost") == "-0.5"
    best = button.query_selector(".best")
    assert not best.is_visible()
    button.focus()
    assert best.is_visible()
    assert best.inner_text() == ("best KH. costs 3 points (best KH): lost by 2 with best play,"
                                 " was made by 1")
    assert "Analysis: costs 3 points" in button.query_selector(".sr-only").inner_text()
    page.hover(".tricklist [data-k='2']")
    assert page.is_visible(".tricklist [data-k='2'] .best")
    page.keyboard.press("Enter")
    assert "Analysis: costs 3 points (best KH)" in page.inner_text(".now-notes")


ANALYSED = ROOT / "tests" / "fixtures" / "html" / "analysed-deal.tarot"


def test_an_analysed_records_marks_show_at_their_cards(tab: Tab, tmp_path: Path) -> None:
    # The record as tarot analyze leaves it (its "tarot: dd" comments), through tarot html:
    # each card's cost marked at the card, the best card on hover or focus, the deal's note.
    ran = invoke("html", str(ANALYSED), "-o", str(tmp_path / "analysed.html"))
    assert ran.code == 0, ran
    page = tab.open(tmp_path / "analysed.html")
    assert ("Double-dummy analysis from trick 1: made by 1 with best play"
            in page.inner_text(".deal-head"))
    marks = page.eval_on_selector_all(
        ".tricklist button[data-k]",
        "bs => bs.map(b => [b.getAttribute('data-k'), b.querySelector('.cost') ?"
        " b.querySelector('.cost').textContent : null])")
    costs = {int(k): cost for k, cost in marks if cost is not None}
    # T20 costs nothing (no mark); T21 half a point; 5H three (it changed the outcome); T17
    # between one point and nothing (bounds); the cards without analysis have no mark
    assert costs == {2: "-0.5", 8: "-3", 11: "-1..0"}, costs
    assert page.query_selector(".tricklist [data-k='8'] .cost.changed") is not None
    assert page.query_selector(".tricklist [data-k='2'] .cost.changed") is None
    # the analysis' own comments are read, not shown again as comments
    assert "tarot: dd" not in page.inner_text("body")
    best = page.query_selector(".tricklist [data-k='8'] .best")
    assert not best.is_visible()
    page.hover(".tricklist [data-k='8']")
    assert best.is_visible()
    assert best.inner_text() == ("best KH. costs 3 points (best KH): lost by 2 with best"
                                 " play, was made by 1")
    page.hover(".deal-head")
    assert not best.is_visible()
    page.focus(".tricklist [data-k='2']")
    assert page.is_visible(".tricklist [data-k='2'] .best")
    assert "best T16" in page.inner_text(".tricklist [data-k='2'] .best")
    # stepping to the card says its analysis beside its comment
    tab.page.goto((tmp_path / "analysed.html").resolve().as_uri() + "#deal=1&card=8")
    page.wait_for_selector("body[data-ready]")
    notes = page.inner_text(".now-notes")
    assert "il fallait garder cette carte" in notes
    assert "Analysis: costs 3 points (best KH)" in notes


def test_tarot_analyze_then_html_marks_the_card_that_lost_the_deal(tab: Tab,
                                                                   tmp_path: Path) -> None:
    # The whole chain a user runs: the study deal analysed by the solver, then its page.
    analysed = tmp_path / "analysis.tarot"
    ran = invoke("analyze", rel(EXAMPLES / "analysis.tarot"), "-o", str(analysed))
    assert ran.code == 0, ran
    ran = invoke("html", str(analysed), "-o", str(tmp_path / "analysis.html"))
    assert ran.code == 0, ran
    page = tab.open(tmp_path / "analysis.html")
    assert "made by 3 with best play" in page.inner_text(".deal-head")
    marks = page.eval_on_selector_all(
        ".tricklist button[data-k] .cost",
        "ms => ms.map(m => [m.closest('button').getAttribute('data-k'), m.textContent,"
        " m.classList.contains('changed')])")
    # one card lost the Garde: the Petit led at trick 6 (the 21st card)
    assert marks == [["21", "-16", True]], marks
    page.focus(".tricklist [data-k='21']")
    assert "best 7H" in page.inner_text(".tricklist [data-k='21'] .best")


def test_a_deal_that_cannot_be_read_shows_its_faults_and_text(
        tab: Tab, pages: dict[str, Path]) -> None:
    site = pages["site"].parent
    bad = next(p for p in site.glob("deal-*.html") if "syntax-error" in p.read_text()
               and '"seats"' not in p.read_text())
    page = tab.open(bad)
    assert page.query_selector(".faults .diag.sev-error") is not None
    assert page.query_selector(".record-text") is not None


# --- the index and the single file -----------------------------------------------------------


def filtered(page: Any, query: str) -> list[str]:
    """Type ``query`` into the index's filter; the text of the rows left shown."""
    page.fill(".filter", query)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return list(page.eval_on_selector_all(
        ".deals tbody tr:not(.spacer)", "rs => rs.map(r => r.textContent)"))


def test_the_index_filters_as_you_type_and_sorts(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["site"])
    total = int(page.get_attribute("table.deals", "aria-rowcount") or 0) - 1
    assert page.inner_text(".count") == f"{total} deals"
    shown = filtered(page, "garde sans")
    contracts = page.eval_on_selector_all(
        ".deals tbody tr:not(.spacer)", "rs => rs.map(r => r.cells[6].textContent)")
    assert shown
    assert set(contracts) == {"Garde sans"}
    assert page.inner_text(".count") == f"{len(shown)} of {total} deals"
    takers = filtered(page, "lefevre")  # accents and case do not matter
    assert takers
    # (every player's name is searched, issue 32: his deals as taker and the others)
    assert any("Lefèvre" in t for t in takers)
    assert page.inner_text(".count") == f"{len(takers)} of {total} deals"
    assert filtered(page, "LEFÈVRE") == takers
    filtered(page, "")
    assert page.inner_text(".count") == f"{total} deals"
    page.click("th:nth-child(10) button")  # Score, ascending (after the Date column)
    scores = page.eval_on_selector_all(
        ".deals tbody tr:not(.spacer)", "rs => rs.map(r => r.cells[9].textContent).filter(Boolean)"
        ".map(Number)")
    assert scores == sorted(scores)
    assert page.get_attribute("th:nth-child(10)", "aria-sort") == "ascending"
    page.click("th:nth-child(10) button")
    scores = page.eval_on_selector_all(
        ".deals tbody tr:not(.spacer)", "rs => rs.map(r => r.cells[9].textContent).filter(Boolean)"
        ".map(Number)")
    assert scores == sorted(scores, reverse=True)
    page.click(".deals tbody tr:first-child a")
    page.wait_for_selector("body[data-ready][data-page=deal]")
    assert "Score" in page.inner_text(".score h2")


def test_a_long_index_draws_only_the_rows_in_view(tab: Tab, tmp_path: Path) -> None:
    archive = tmp_path / "many.jsonl"
    assert invoke("new", "--count", "200", "--seed", "5", "-o", str(archive)).code == 0
    site = tmp_path / "site"
    assert invoke("html", str(archive), "-o", str(site), "-j", "2").code == 0
    page = tab.open(site / "index.html")
    drawn = page.eval_on_selector_all(".deals tbody tr:not(.spacer)", "rs => rs.length")
    assert 20 < drawn < 120
    assert page.get_attribute("table.deals", "aria-rowcount") == "201"
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_function("() => [...document.querySelectorAll('.deals tbody a')]"
                           ".some(a => a.textContent === '200')")
    assert page.get_attribute(".deals tbody tr:not(.spacer):last-child", "aria-rowindex") == "201"
    page.evaluate("() => window.scrollTo(0, 0)")
    shown = filtered(page, "garde contre")
    assert shown
    assert all("Garde contre" in row for row in shown)
    assert page.inner_text(".count").endswith(" of 200 deals")
    page.click("th:nth-child(1) button")
    page.click("th:nth-child(1) button")  # descending
    first = page.inner_text(".deals tbody tr:not(.spacer) a")
    filtered(page, "garde contre")
    numbers = [int(n) for n in page.eval_on_selector_all(  # (the rows' own numbers)
        ".deals tbody tr:not(.spacer) .c-n a", "as => as.map(a => a.textContent)")[:3]]
    assert numbers == sorted(numbers, reverse=True)
    assert int(first) == numbers[0]


def test_an_index_link_with_a_deal_opens_that_deals_page(tab: Tab,
                                                         pages: dict[str, Path]) -> None:
    page = tab.page
    page.goto(pages["site"].resolve().as_uri() + "#deal=3&card=4")
    page.wait_for_selector("body[data-ready][data-page=deal]")
    assert page.url.endswith("deal-3.html#deal=3&card=4")
    assert position(page) == "Card 4 of 72"
    page.click("a[rel=next]")
    page.wait_for_selector("body[data-ready][data-page=deal]")
    assert page.url.split("#")[0].endswith("deal-4.html")


def test_the_single_file_shows_each_deal_and_its_index(tab: Tab,
                                                       pages: dict[str, Path]) -> None:
    page = tab.open(pages["book"])
    assert page.is_visible("#index")
    assert not page.is_visible("#tarot")
    page.click(".deals tbody tr:nth-child(9) a")
    page.wait_for_function("() => location.hash === '#deal=9'")
    assert page.is_visible("#tarot")
    assert not page.is_visible("#index")
    assert page.inner_text("#tarot h1").startswith("Club de Tarot de Lyon")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => location.hash === '#deal=9&card=1'")
    page.click("a[rel=prev]")
    page.wait_for_function("() => document.querySelector('#tarot .meta') &&"
                           " document.querySelector('#tarot .meta').textContent.includes('deal 8')")
    page.click(".deal-nav a:text('Index')")
    page.wait_for_function("() => location.hash === '#index'")
    # (the hash changes before the page hears of it: wait for the index, then say it shows)
    page.wait_for_selector("#index", state="visible", timeout=5000)
    assert page.is_visible("#index")


# --- phones, print, screenshots --------------------------------------------------------------


def test_a_score_sheets_deal_shows_its_facts_and_score(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["book"], "#deal=2")
    assert page.query_selector("#tarot .controls") is None
    assert page.query_selector("#tarot .table") is None
    assert "S +32, E +32, N +32, W -96" in page.inner_text("#tarot .score-lines")
    assert page.is_visible("#tarot .score-lines")
    page.keyboard.press("End")  # no play to step through: nothing happens
    assert page.evaluate("location.hash") == "#deal=2"


def test_print_shows_the_whole_deal(tab: Tab, pages: dict[str, Path]) -> None:
    page = tab.open(pages["annotated"], "#deal=1&card=20&seat=S")
    page.emulate_media(media="print")
    assert page.is_visible(".score-lines")
    assert not page.is_visible(".controls")
    visible = page.eval_on_selector_all(
        ".hand .card", "els => els.filter(e => e.offsetParent !== null).length")
    assert visible == 72
    for name in ("annotated", "five", "three"):
        page = tab.open(pages[name], "#deal=1&card=30")
        pdf = page.pdf(format="A4")
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1, name  # one sheet of paper


@pytest.mark.parametrize(("name", "viewport"), [("desktop", DESKTOP), ("phone", PHONE)])
def test_screenshots_at_the_start_and_after_trick_9(browser: Any, pages: dict[str, Path],
                                                    name: str, viewport: dict[str, int]) -> None:
    t = Tab(browser, viewport)
    try:
        page = t.open(pages["annotated"])
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than a {name}"
        folder = artefacts()
        page.screenshot(path=str(folder / f"deal-start-{name}.png"), full_page=True)
        page.goto(pages["annotated"].resolve().as_uri() + "#deal=1&card=36")
        page.wait_for_selector("body[data-ready]")
        assert page.inner_text(".trick-info").startswith("Trick 9 of 18: W wins")
        page.screenshot(path=str(folder / f"deal-trick9-{name}.png"), full_page=True)
        for shot in ("start", "trick9"):
            assert (folder / f"deal-{shot}-{name}.png").stat().st_size > 10_000
        t.check_clean()
    finally:
        t.close()
