"""Deal pages without a browser: the page's data, the escaping, the Content Security
Policy, the size, and the commands that write pages (``tarot html``, ``tarot replay
--html``). What a person sees in the page is tested in a real browser in
``test_html_browser.py``."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import webbrowser
from pathlib import Path
from typing import Any

import orjson
import pytest
from cli_runs import EXAMPLES, FAULTY, ROOT, invoke, rel
from processes import group

from tarotnotation import notation
from tarotnotation.formats import json as tarot_json
from tarotnotation.html import (
    DealSource,
    build_site,
    deal_data,
    deal_page,
    read_sources,
    site_problem,
    write_site,
)
from tarotnotation.html.escape import clean, json_bytes, json_script, text
from tarotnotation.html.layout import SCRIPT_NAME, STYLE_NAME, asset, compact, csp
from tarotnotation.narrator import running_points, score_lines

HOSTILE = ROOT / "tests" / "fixtures" / "html" / "hostile-strings.tarot"
PAYLOAD = "</script><img src=x onerror=alert(1)>"
EXAMPLE_FILES = sorted(EXAMPLES.rglob("*.tarot"))


def source(path: Path, number: int = 1) -> DealSource:
    """The ``number``-th deal of a file, as the pages read it."""
    for src in read_sources([str(path)]):
        if src.number == number:
            return src
    raise AssertionError(f"{path} has no deal {number}")


def embedded(page: str, element: str = "tarot-data") -> Any:
    """The JSON data embedded in a page, as the page's script reads it."""
    m = re.search(f'<script type="application/json" id="{element}">(.*?)</script>', page,
                  re.S)
    assert m is not None
    return orjson.loads(m.group(1))


# --- escaping ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", [
    PAYLOAD, "<!-- x", "]]>", "a & b", "\u2028\u2029", "<\u2028/script>", "\"'`${x}",
    "</SCRIPT >", "\\u003c", "é\u202e\U0001f0a1",
])
def test_json_for_a_script_element_hides_every_dangerous_character(value: str) -> None:
    raw = json_bytes({"s": value, "list": [value]})
    for bad in (b"<", b">", b"&", "\u2028".encode(), "\u2029".encode()):
        assert bad not in raw
    assert orjson.loads(raw) == {"s": value, "list": [value]}
    assert json_script(value) == raw.decode("utf-8").split(":", 1)[1].split(",")[0]


def test_html_text_escaping_covers_text_and_attributes() -> None:
    assert text(PAYLOAD) == "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"
    assert text('a"b\'c&d') == "a&quot;b&#x27;c&amp;d"


def test_control_characters_and_lone_surrogates_are_cleaned() -> None:
    assert clean("a\x00b\x1bc\x7fd\x85e\tf\ng") == "abcde\tf\ng"
    assert clean("x\ud800y") == "x\ufffdy"
    assert json_bytes(clean("x\udfffy")).decode() == '"x\ufffdy"'


# --- the page's data --------------------------------------------------------------------


def test_page_data_has_every_card_and_trick_with_its_seat() -> None:
    src = source(EXAMPLES / "annotated.tarot")
    assert src.replay is not None
    data = deal_data(src)
    rep = src.replay
    ids = [s["id"] for s in data["seats"]]
    played = [(c.code, ids.index(rep.record.seat_ids[seat]))
              for t in rep.tricks for c, seat in zip(t.cards, t.seats, strict=True)]
    assert [(c["c"], c["s"]) for c in data["cards"]] == played
    assert [t["w"] for t in data["tricks"]] == [t.winner for t in rep.tricks]
    # the hands at the first card hold exactly the cards each seat plays
    for seat, hand in enumerate(data["hands"]):
        assert sorted(hand) == sorted(c["c"] for c in data["cards"] if c["s"] == seat)
    assert data["exact"] == [True] * 4


def test_page_data_running_points_and_score_are_the_replays() -> None:
    for path in EXAMPLE_FILES:
        for src in read_sources([str(path)]):
            if src.replay is None:
                continue
            data = deal_data(src)
            counts = running_points(src.replay)
            assert [(t.get("tk"), t.get("df")) for t in data["tricks"][:len(counts)]] == [
                (f"{c.taker_half // 2}" + (".5" if c.taker_half % 2 else ""),
                 f"{c.defence_half // 2}" + (".5" if c.defence_half % 2 else ""))
                for c in counts], path
            assert data["score"] == score_lines(src.replay), path


def test_page_data_puts_comments_and_glyphs_at_their_card() -> None:
    data = deal_data(source(EXAMPLES / "annotated.tarot"))
    card = data["cards"][7]
    assert (card["c"], card["g"], card["m"]) == ("5H", "?", ["il fallait garder cette carte"])
    assert data["tricks"][2]["g"] == "!"
    assert data["tricks"][2]["m"] == ["le tournant de la donne"]
    assert data["deal"]["g"] == "!"
    assert data["auction"][1] == {"s": 2, "bid": "Garde", "g": "!?", "m": [
        "Chloé garde avec deux bouts seulement", "pari risqué mais le jeu est long en atout"]}


def test_page_data_puts_a_diagnostic_at_its_card() -> None:
    data = deal_data(source(FAULTY / "revoke.tarot"))
    at = [k for k, c in enumerate(data["cards"]) if c.get("d")]
    assert at == [9]
    diag = data["diags"][data["cards"][9]["d"][0]]
    assert (diag["code"], diag["sev"], diag["slug"]) == ("P105", "error", "must-follow-suit")
    # (the source was given by its absolute path: a page names it by its base name)
    assert diag["at"] == "revoke.tarot:21:8"
    assert data["errors"] == 1


WRONG_SEAT = ROOT / "tests" / "fixtures" / "html" / "trick-written-from-the-wrong-seat.tarot"


def test_page_data_says_the_cause_and_marks_what_follows_from_it() -> None:
    src = source(WRONG_SEAT)
    data = deal_data(src)
    assert data["diags"][0]["code"] == "Y001"
    assert "list its cards from N" in data["diags"][0]["msg"]
    follows = [d for d in data["diags"] if d.get("cause")]
    assert len(follows) == 65
    assert {d["cause"] for d in follows} == {"Y001"}
    assert data["errors"] == src.errors == 1  # the cause alone is counted
    trick5 = data["tricks"][4]
    assert 0 in trick5["d"]  # the cause is said at its trick


def test_page_data_reads_the_analysis_of_each_card_with_the_analysis_parser() -> None:
    data = deal_data(source(ROOT / "tests" / "fixtures" / "html" / "analysed-deal.tarot"))
    assert data["cards"][7]["a"] == {
        "cost": "-3", "best": ["KH"], "changed": True,
        "note": "costs 3 points (best KH): lost by 2 with best play, was made by 1",
        "after": "lost by 2", "made": False, "by": -2}
    assert data["cards"][7]["m"] == ["il fallait garder cette carte"]
    assert "k" not in data["cards"][7]  # the analysis comment is read, not repeated
    assert data["cards"][0]["a"]["cost"] == "0"
    assert data["cards"][10]["a"]["cost"] == "-1..0"
    assert "a" not in data["cards"][3]
    assert data["deal"]["a"] == {"from": 1, "note": "made by 1 with best play",
                                 "after": "made by 1", "made": True, "by": 1}


def test_page_data_puts_a_wrong_score_at_the_result() -> None:
    data = deal_data(source(FAULTY / "wrong-score.tarot"))
    codes = {data["diags"][i]["code"] for i in data["result"]["d"]}
    assert codes
    assert all(code.startswith("R1") for code in codes)


def test_page_data_of_a_deal_that_cannot_be_read_keeps_its_text() -> None:
    src = source(FAULTY / "syntax-error.tarot", 1)
    assert src.record is None
    data = deal_data(src)
    assert data["errors"] >= 1
    assert data["deal"]["d"] == list(range(len(data["diags"])))
    assert "cards" not in data
    assert data["text"]
    assert data["text"] in (FAULTY / "syntax-error.tarot").read_text()


def test_five_players_data_knows_the_partner_and_when_the_called_card_falls() -> None:
    data = deal_data(source(EXAMPLES / "five-players.tarot"))
    ids = [s["id"] for s in data["seats"]]
    assert (ids[data["taker"]], ids[data["partner"]], data["called"]) == ("F", "W", "KD")
    assert data["cards"][data["calledAt"]]["c"] == "KD"
    assert data["cards"][data["calledAt"]]["s"] == data["partner"]


def test_each_deal_of_an_archive_keeps_its_own_text() -> None:
    path = EXAMPLES / "score-sheet.tarot"
    sources = list(read_sources([str(path)]))
    assert len(sources) == 8
    for src in sources:
        assert src.text_name == f"score-sheet-{src.index}.tarot"
        assert notation.loads(src.text) == src.record
        assert src.text in path.read_text(encoding="utf-8")


def test_a_json_lines_deal_keeps_its_line_and_a_json_document_its_file(
        tmp_path: Path) -> None:
    records = [notation.load(EXAMPLES / "prise.tarot"), notation.load(EXAMPLES / "misere.tarot")]
    lines = tmp_path / "two.jsonl"
    with lines.open("wb") as fh:
        tarot_json.write(records, fh, lines=True)
    got = list(read_sources([str(lines)]))
    assert [orjson.loads(s.text) for s in got] == [orjson.loads(tarot_json.dumps_bytes(r))
                                                   for r in records]
    assert got[1].text_name == "two-2.jsonl"
    one = tmp_path / "one.json"
    one.write_bytes(tarot_json.dumps_bytes(records[0]))
    (src,) = read_sources([str(one)])
    assert (src.text, src.text_name) == (one.read_text().rstrip() + "\n", "one.json")


# --- the page -----------------------------------------------------------------------------


def _hash(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode()).digest()).decode() + "'"


def test_the_page_carries_a_policy_that_allows_only_its_own_script_and_style() -> None:
    page = deal_page(deal_data(source(EXAMPLES / "prise.tarot")))
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert policy is not None
    rules = dict(part.strip().split(" ", 1) for part in policy.group(1).split(";"))
    assert rules["default-src"] == "'none'"
    assert rules["script-src"] == _hash(asset(SCRIPT_NAME, index=False))
    assert rules["style-src"] == _hash(asset(STYLE_NAME, index=False))
    assert rules["require-trusted-types-for"] == "'script'"
    assert "unsafe" not in policy.group(1)
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert scripts == [asset(SCRIPT_NAME, index=False)]
    assert styles == [asset(STYLE_NAME, index=False)]
    assert "function Index" not in scripts[0]
    assert "function Index" in asset(SCRIPT_NAME)
    assert ".deals" not in styles[0]  # nor the index's style
    assert ".deals" in asset(STYLE_NAME)
    assert " on" not in re.sub(r"<script.*?</script>|<style>.*?</style>", "", page, flags=re.S
                               ).lower().replace("\n", " ").split("<body", 1)[1].split(">")[0]
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page


def test_a_sites_policy_allows_its_own_files_only() -> None:
    assert "script-src 'self'; style-src 'self'" in csp(False)
    assert "'unsafe" not in csp(False)


def test_the_script_never_writes_html_from_strings() -> None:
    script = asset(SCRIPT_NAME)
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "Function(", "setAttribute(\"on", "srcdoc", "javascript:"):
        assert sink not in script, sink
    assert "</script" not in script.lower()
    assert "<!--" not in script
    assert "</style" not in asset(STYLE_NAME).lower()


def test_hostile_strings_are_escaped_everywhere_in_the_page() -> None:
    src = source(HOSTILE)
    page = deal_page(deal_data(src))
    body = page.split("<body", 1)[1]
    # nothing of a record can open or close an element: the only tags are the page's own
    assert "<img" not in page
    assert "<iframe" not in page
    assert "<b " not in page
    # the page's own three: its words (tarot-words), the deal's data, the script
    assert page.count("</script>") == 3
    assert page.lower().count("<script") == 3
    assert "<svg/onload" not in page
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in page  # the title
    data = embedded(page)
    assert data["title"].startswith(PAYLOAD)
    assert data["seats"][0]["name"] == PAYLOAD
    assert data["cards"][7]["m"][0] == "</script><script>window.pwned=1</script>"
    assert data["text"] == HOSTILE.read_text(encoding="utf-8")
    assert "\u2028" not in body
    assert "\u2029" not in body


_JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


@pytest.mark.parametrize(("index", "play"), [(True, False), (False, False), (False, True)],
                         ids=["site", "deal", "play"])
def test_the_pages_script_loses_only_white_space_and_comments(index: bool, play: bool) -> None:
    source = (ROOT / "tarotnotation" / "html" / SCRIPT_NAME).read_text(encoding="utf-8")
    if not index:
        source = re.sub(r"^ */\* index: begin.*?^ */\* index: end \*/\n", "", source,
                        flags=re.S | re.M)
    if not play:  # (the game's part is only in tarot play's page)
        source = re.sub(r"^ */\* play: begin.*?^ */\* play: end \*/\n", "", source,
                        flags=re.S | re.M)
    plain = re.sub(r"/\*[\s\S]*?\*/", "", compact(source))  # (compact keeps some comments)
    script = asset(SCRIPT_NAME, index, play)
    assert re.sub(r"\s", "", script) == re.sub(r"\s", "", plain)
    assert _JS_STRING.findall(script) == _JS_STRING.findall(plain)  # strings whole
    assert "/*" not in script
    assert len(script) < 0.92 * len(compact(source))


@pytest.mark.process  # node, when there is one, parses the script
def test_the_pages_script_parses(tmp_path: Path) -> None:
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to parse the script (the browser tests run it)")
    for index, play in ((True, False), (False, False), (False, True)):
        path = tmp_path / f"tarot-{index}-{play}.js"
        path.write_text(asset(SCRIPT_NAME, index, play), encoding="utf-8")
        done = subprocess.run([node, "--check", str(path)], capture_output=True, text=True,
                              check=False, timeout=60)
        assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_a_deal_page_is_under_60_kb_before_the_record(path: Path) -> None:
    for src in read_sources([str(path)]):
        page = deal_page(deal_data(src)).encode("utf-8")
        record = len(json_bytes(src.text)) - 2
        assert len(page) - record < 60_000, (path, src.index, len(page) - record)


# --- tarot html -------------------------------------------------------------------------------


def _no_temporary_files(folder: Path) -> None:
    left = [p.name for p in folder.iterdir() if p.name.startswith(".")]
    assert not left, left


def test_tarot_html_help_shows_examples_and_the_readme_shows_the_viewer() -> None:
    ran = invoke("html", "--help")
    assert ran.code == 0
    assert "tarot html examples/ -o site/" in ran.out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "tarot html examples/ -o site/" in readme
    assert "![A deal page after trick 9](docs/viewer.png)" in readme
    assert (ROOT / "docs" / "viewer.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_tarot_html_writes_one_self_contained_page_for_one_deal(tmp_path: Path) -> None:
    out = tmp_path / "deal.html"
    ran = invoke("html", rel(EXAMPLES / "annotated.tarot"), "-o", str(out))
    assert ran.code == 0, ran
    assert "1 deal written to" in ran.err
    page = out.read_text(encoding="utf-8")
    assert 'data-page="deal"' in page
    assert "<script>" in page
    assert "<style>" in page
    assert 'src="' not in page
    assert 'href="' not in page.split("</head>")[0].replace(
        'rel="stylesheet"', "")
    assert embedded(page)["title"].startswith("Club de Tarot de Lyon")
    _no_temporary_files(tmp_path)


def test_tarot_html_to_standard_output() -> None:
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", "-")
    assert ran.code == 0
    assert ran.out.startswith("<!doctype html>")


def test_tarot_html_writes_a_site_for_an_archive(tmp_path: Path) -> None:
    out = tmp_path / "site"
    ran = invoke("html", rel(EXAMPLES), "-o", str(out))
    assert ran.code == 1, ran  # the faulty examples have errors: said, and shown
    assert "with errors" in ran.err
    files = sorted(p.name for p in out.iterdir())
    pages = [f for f in files if f.startswith("deal-")]
    count = sum(1 for _ in read_sources([rel(EXAMPLES)]))
    assert len(pages) == count
    assert {"index.html", "tarot.js", "tarot.css"} <= set(files)
    assert (out / "tarot.js").read_text() == asset(SCRIPT_NAME)
    index = (out / "index.html").read_text(encoding="utf-8")
    rows = embedded(index, "tarot-index")
    assert [row[0] for row in rows] == list(range(1, count + 1))
    # the files in the order the folder is read, each deal at its place
    assert [row[1] for row in rows] == [f"{src.file}:{src.index}"
                                        for src in read_sources([rel(EXAMPLES)])]
    annotated = next(row for row in rows if row[1] == "examples/annotated.tarot:1")
    assert annotated[5:10] == ["Garde", "N (Chloé Dubois)", "lost", -7, -192]
    assert 'data-pages="deal-{n}.html"' in index
    first = (out / "deal-1.html").read_text(encoding="utf-8")
    assert '<script src="tarot.js"></script>' in first
    assert "<style>" not in first
    assert embedded(first)["nav"] == {"index": "index.html", "prev": None, "next": "deal-2.html"}
    last = embedded((out / f"deal-{count}.html").read_text(encoding="utf-8"))
    assert last["nav"]["next"] is None
    _no_temporary_files(tmp_path)


@pytest.mark.process
def test_a_site_written_by_two_workers_is_the_one_written_by_one(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert build_site([rel(EXAMPLES)], one).deals == len(list(read_sources([rel(EXAMPLES)])))
    ran = invoke("html", rel(EXAMPLES), "-o", str(two), "-j", "2")
    assert ran.code == 1, ran
    files = sorted(p.name for p in one.iterdir())
    assert files == sorted(p.name for p in two.iterdir())
    for name in files:
        assert (one / name).read_bytes() == (two / name).read_bytes(), name
    _no_temporary_files(tmp_path)


def test_tarot_html_titles_the_index(tmp_path: Path) -> None:
    out = tmp_path / "site"
    ran = invoke("html", rel(EXAMPLES / "score-sheet.tarot"), "-o", str(out))
    assert ran.code == 0
    assert "<title>Tarot du jeudi — Café des Sports</title>" in (out / "index.html").read_text()
    ran = invoke("html", rel(EXAMPLES), "-o", str(out), "--title", "Saison <2026>")
    assert ran.code == 1
    assert "<title>Saison &lt;2026&gt;</title>" in (out / "index.html").read_text()


def test_tarot_html_replaces_its_own_site_and_refuses_other_folders(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert invoke("html", rel(EXAMPLES / "score-sheet.tarot"), "-o", str(out)).code == 0
    assert len(list(out.glob("deal-*.html"))) == 8
    assert invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", str(out)).code == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "deal-1.html", "index.html", "tarot.css", "tarot.js"]
    _no_temporary_files(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", str(mine))
    assert ran.code == 2
    assert "holds files not written by tarot html (notes.txt)" in ran.err
    assert (mine / "notes.txt").read_text() == "mine"
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", rel(EXAMPLES))
    assert ran.code == 2
    assert "holds the input" in ran.err


@pytest.mark.parametrize("command", [["html", "{deal}", "-o", "{page}"],
                                     ["replay", "{deal}", "--html", "--no-open"],
                                     ["replay", "{deal}", "--html", "-o", "{page}", "--no-open"]])
def test_files_the_tool_did_not_write_are_not_replaced(tmp_path: Path,
                                                       command: list[str]) -> None:
    # tarot replay rh.tarot --html replaced the user's rh.html, tarot html -o notes.html
    # too (issue 31), where the folder form refused: a page is replaced only when tarot
    # html wrote it (the generator mark in its head)
    deal = tmp_path / "rh.tarot"
    deal.write_bytes((EXAMPLES / "prise.tarot").read_bytes())
    page = tmp_path / "rh.html"
    page.write_text("<p>my notes</p>\n")
    args = [a.format(deal=deal, page=page) for a in command]
    ran = invoke(*args)
    assert ran.code == 2, ran
    assert ran.err.endswith(f" {page}: a file not written by tarot html is there: remove it"
                            " first to replace it, or give another name\n"), ran.err
    assert page.read_text() == "<p>my notes</p>\n"
    _no_temporary_files(tmp_path)
    page.unlink()  # removed, as the message says: written, then replaced by the next run
    assert invoke(*args).code == 0
    assert invoke(*args).code == 0
    assert b'<meta name="generator" content="tarotnotation' in page.read_bytes()
    link = tmp_path / "link.html"  # a link to the tool's page is written through
    link.symlink_to(page)
    assert invoke("html", str(deal), "-o", str(link)).code == 0
    assert link.is_symlink()


def test_html_dash_o_a_link_to_a_site_writes_through_the_link(tmp_path: Path) -> None:
    # tarot html -o link, where link names an earlier site, replaced the link by a folder
    # (issue 31): the site it names is replaced, and the link stays, as split does
    site = tmp_path / "site-2026"
    assert invoke("html", rel(EXAMPLES / "score-sheet.tarot"), "-o", str(site)).code == 0
    link = tmp_path / "current"
    link.symlink_to(site.name)
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", str(link))
    assert ran.code == 0, ran
    assert link.is_symlink()
    assert os.readlink(link) == site.name
    assert sorted(p.name for p in site.iterdir()) == [
        "deal-1.html", "index.html", "tarot.css", "tarot.js"]
    _no_temporary_files(tmp_path)


def test_a_failed_site_leaves_the_earlier_one_and_no_temporary_folder(tmp_path: Path) -> None:
    out = tmp_path / "site"
    write_site(read_sources([str(EXAMPLES / "prise.tarot")]), out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}

    def broken() -> Any:
        yield from read_sources([str(EXAMPLES / "misere.tarot")])
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_site(broken(), out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    _no_temporary_files(tmp_path)


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An archive of 500 random deals (JSON Lines)."""
    archive = tmp_path_factory.mktemp("many") / "many.jsonl"
    assert invoke("new", "--count", "500", "--seed", "3", "-o", str(archive)).code == 0
    return archive


@pytest.mark.process
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to see the processes")
@pytest.mark.parametrize("how", ["SIGTERM to the command", "SIGINT to its group"])
def test_an_interrupted_site_leaves_no_folder_and_no_process(tmp_path: Path, many: Path,
                                                             how: str) -> None:
    import signal
    import subprocess
    import time

    from cli_runs import TAROT

    archive = tmp_path / "many.jsonl"
    archive.write_bytes(many.read_bytes())
    out = tmp_path / "site"
    proc = subprocess.Popen([str(TAROT), "html", str(archive), "-o", str(out), "-j", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(".tmp") and any(p.glob("deal-*.html"))
                  for p in tmp_path.iterdir() if p.is_dir()):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.02)
    if how.startswith("SIGTERM"):
        proc.send_signal(signal.SIGTERM)
    else:
        os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    # the README's exit-status table: 130 for SIGINT, 128 + 15 for SIGTERM
    assert proc.returncode == (143 if how.startswith("SIGTERM") else 130), err
    assert b"Traceback" not in err
    deadline = time.monotonic() + 10
    while group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group(proc.pid) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["many.jsonl"]


def test_site_problem_names_what_is_wrong(tmp_path: Path) -> None:
    assert site_problem(tmp_path / "new") is None
    assert site_problem(tmp_path) is None  # empty
    (tmp_path / "f").write_text("x")
    assert site_problem(tmp_path / "f") == "exists and is not a folder"
    problem = site_problem(tmp_path)
    assert problem is not None
    assert "not written by tarot html" in problem


def test_tarot_html_several_deals_need_a_folder_or_single_file(tmp_path: Path) -> None:
    page = tmp_path / "all.html"
    ran = invoke("html", rel(EXAMPLES / "score-sheet.tarot"), "-o", str(page))
    assert ran.code == 2
    assert "more than one deal" in ran.err
    assert "--single-file" in ran.err
    assert not page.exists()
    ran = invoke("html", rel(EXAMPLES / "score-sheet.tarot"), "--single-file", "-o", str(page))
    assert ran.code == 0, ran
    book = page.read_text(encoding="utf-8")
    assert 'data-page="book"' in book
    assert len(embedded(book, "tarot-index")) == 8
    for n in range(1, 9):
        data = embedded(book, f"deal-{n}")
        assert data["n"] == n
        assert data["nav"]["index"] == "#index"
    assert book.index('id="index"') < book.index('id="deal-1"')
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), "--single-file", "-o", str(tmp_path / "d"))
    assert ran.code == 2
    assert "--single-file writes one page" in ran.err
    _no_temporary_files(tmp_path)


@pytest.mark.parametrize(("args", "message"), [
    (("html", "examples/prise.tarot"), "tarot: missing option '--output'"),  # one line
    (("html", "nowhere.tarot", "-o", "x.html"), "nowhere.tarot: F001 error: no such file"),
    (("html", "examples/prise.tarot", "-o", "no/such/folder/x.html"), "no such folder"),
    (("html", "examples/prise.tarot", "-o", "examples/prise.tarot.html", "--set", "x=y"),
     "--rules/--set"),
])
def test_tarot_html_usage_errors_exit_two(args: tuple[str, ...], message: str) -> None:
    ran = invoke(*args)
    assert ran.code == 2, ran
    assert message in ran.err


def test_tarot_html_will_not_write_over_its_input(tmp_path: Path) -> None:
    copy = tmp_path / "deal.html"
    copy.write_bytes((EXAMPLES / "prise.tarot").read_bytes())  # a record named .html
    ran = invoke("html", str(copy), "-o", str(copy))
    assert ran.code == 2
    assert "is one of the inputs" in ran.err
    assert copy.read_bytes() == (EXAMPLES / "prise.tarot").read_bytes()


def test_tarot_html_reads_standard_input(tmp_path: Path) -> None:
    out = tmp_path / "in.html"
    ran = invoke("html", "-", "-o", str(out),
                 stdin=(EXAMPLES / "prise.tarot").read_text(encoding="utf-8"))
    assert ran.code == 0, ran
    data = embedded(out.read_text(encoding="utf-8"))
    assert data["file"] is None
    assert data["textName"] == "deal-1.tarot"
    assert notation.loads(data["text"]) == notation.load(EXAMPLES / "prise.tarot")


@pytest.mark.process
def test_tarot_html_of_nothing_writes_nothing(tmp_path: Path) -> None:
    empty = tmp_path / "empty.tarot"
    empty.write_text("")
    for out, jobs in (("x.html", "1"), ("site", "1"), ("site2", "2")):
        ran = invoke("html", str(empty), "-o", str(tmp_path / out), "-j", jobs)
        assert ran.code == 1  # the README's table: no deal read at all
        assert "F005 warning" in ran.err
        assert "no deal was read" in ran.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.tarot"]


# --- tarot replay --html ------------------------------------------------------------------------


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages the command asked the browser to open."""
    seen: list[str] = []

    def record(url: str, *args: object, **kwargs: object) -> bool:
        seen.append(url)
        return True

    monkeypatch.setattr(webbrowser, "open", record)
    return seen


def test_replay_html_writes_the_page_next_to_the_record(tmp_path: Path,
                                                        opened: list[str]) -> None:
    record = tmp_path / "deal.tarot"
    record.write_bytes((EXAMPLES / "annotated.tarot").read_bytes())
    ran = invoke("replay", str(record), "--html")
    assert ran.code == 0, ran
    page = tmp_path / "deal.html"
    assert f"page written: {page}" in ran.err
    assert embedded(page.read_text(encoding="utf-8"))["contract"] == "Garde"
    assert opened == []  # not a terminal: no browser
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deal.html", "deal.tarot"]


def test_replay_html_opens_the_page_on_a_terminal_unless_told_not_to(
        tmp_path: Path, opened: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tarotnotation.cli import replay as replay_cli

    monkeypatch.setattr(replay_cli, "on_terminal", lambda: True)
    page = tmp_path / "p.html"
    args = ("replay", rel(EXAMPLES / "prise.tarot"), "--html", "-o", str(page))
    assert invoke(*args, "--no-open").code == 0
    assert opened == []
    assert invoke(*args).code == 0
    assert opened == [page.resolve().as_uri()]


def test_replay_html_one_deal_of_an_archive_and_usage_errors(tmp_path: Path,
                                                             opened: list[str]) -> None:
    page = tmp_path / "three.html"
    ran = invoke("replay", rel(EXAMPLES / "score-sheet.tarot"), "--deal", "3", "--html",
                 "-o", str(page))
    assert ran.code == 0, ran
    data = embedded(page.read_text(encoding="utf-8"))
    assert (data["n"], data["index"]) == (3, 3)
    ran = invoke("replay", rel(EXAMPLES / "score-sheet.tarot"), "--html", "-o", str(page))
    assert ran.code == 0
    assert 'data-page="book"' in page.read_text(encoding="utf-8")
    assert invoke("replay", rel(EXAMPLES / "prise.tarot"), "-o", str(page)).code == 2
    ran = invoke("replay", rel(EXAMPLES / "score-sheet.tarot"), "--deal", "9", "--html",
                 "-o", str(page))
    assert ran.code == 2
    assert "no deal number 9" in ran.err
    ran = invoke("replay", "-", "--html", stdin="")
    assert ran.code == 2
    assert "give -o PAGE" in ran.err
    assert opened == []


def test_replay_html_of_a_faulty_deal_exits_one(tmp_path: Path, opened: list[str]) -> None:
    ran = invoke("replay", rel(FAULTY / "revoke.tarot"), "--html", "-o",
                 str(tmp_path / "r.html"))
    assert ran.code == 1
    data = embedded((tmp_path / "r.html").read_text(encoding="utf-8"))
    assert data["diags"][0]["code"] == "P105"


@pytest.mark.process
@pytest.mark.parametrize(("required", "expected"), [
    ("", "1 skipped"), ("required", "1 error")])
def test_without_a_browser_the_browser_tests_skip_unless_required(
        tmp_path: Path, required: str, expected: str) -> None:
    import subprocess
    import sys

    env = {**os.environ, "TAROT_CHROMIUM": str(tmp_path / "no-chromium"),
           "TAROT_BROWSER": required}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         "tests/html/test_html_browser.py::test_three_players"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert expected in done.stdout, done.stdout + done.stderr
    assert f"no Chromium at {tmp_path / 'no-chromium'}" in done.stdout


def test_ci_installs_chromium_and_makes_the_browser_tests_required() -> None:
    # CI is a fresh machine: .ci/run must install Debian's Chromium when it is missing and
    # require the browser before it runs the tests, so that a missing browser fails them.
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line.strip() and not line.strip().startswith("#")]
    install = next(i for i, line in enumerate(lines)
                   if line.startswith("apt-get install") and " chromium" in line)
    assert any(line.startswith("if ! command -v chromium") for line in lines[:install])
    required = lines.index("export TAROT_BROWSER=required")
    tests = next(i for i, line in enumerate(lines) if "-m pytest -q" in line)
    assert install < tests
    assert required < tests
    assert all("TAROT_BROWSER=" not in line for line in lines[required + 1:])


# --- no local path in a published page (issue 32) ------------------------------------------


@pytest.mark.process  # -j 2 forks its workers
@pytest.mark.parametrize("jobs", ["1", "2"], ids=["j1", "j2"])
def test_the_sources_local_path_never_goes_into_a_published_page(tmp_path: Path,
                                                                 jobs: str) -> None:
    private = tmp_path / "home" / "ann" / "club"
    private.mkdir(parents=True)
    for name in ("prise.tarot", "faulty/revoke.tarot"):  # a clean deal (the fast path), a fault
        (private / Path(name).name).write_bytes((EXAMPLES / name).read_bytes())
    given = [str(private / "prise.tarot"), str(private / "revoke.tarot")]
    site = tmp_path / "site"
    ran = invoke("html", *given, "-o", str(site), "-j", jobs)
    assert ran.code == 1, ran  # revoke.tarot has an error
    ran = invoke("html", given[1], "-o", str(tmp_path / "one.html"))
    assert ran.code == 1, ran
    pages = [*site.glob("*.html"), tmp_path / "one.html"]
    assert len(pages) == 4
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert str(private) not in text, page.name
        assert "/home/ann" not in text, page.name
    index = (site / "index.html").read_text(encoding="utf-8")
    assert '"prise.tarot:1"' in index  # its base name
    assert "revoke.tarot:" in (tmp_path / "one.html").read_text(encoding="utf-8")


def test_a_relative_source_keeps_its_name_as_given(tmp_path: Path) -> None:
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", str(tmp_path / "p.html"))
    assert ran.code == 0, ran
    assert '"file":"examples/prise.tarot"' in (tmp_path / "p.html").read_text(encoding="utf-8")


# --- --source-name: the name a published page shows for its source (issue 32) -------------


def _named_source(tmp_path: Path, kind: str) -> Path:
    """A clean deal then a faulty one in a private folder, in the notation or in JSON
    Lines (whose clean deals take the fast path, :mod:`tarotnotation.html.fast`)."""
    private = tmp_path / "home" / "ann" / "club"
    private.mkdir(parents=True)
    records = [notation.load(EXAMPLES / "prise.tarot"),
               notation.load(EXAMPLES / "faulty" / "revoke.tarot")]
    if kind == "tarot":
        path = private / "night.tarot"
        path.write_text(notation.dumps(records), encoding="utf-8")
    else:
        path = private / "night.jsonl"
        with path.open("wb") as fh:
            tarot_json.write(records, fh, lines=True)
    return path


def _shows_only_the_name(pages: list[Path], private: Path, name: str) -> None:
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert str(private) not in text, page.name
        if page.name == "index.html":
            rows = embedded(text, "tarot-index")
            assert [row[1] for row in rows] == [f"{name}:1", f"{name}:2"]
            continue
        datas = ([embedded(text)] if 'id="tarot-data"' in text else
                 [orjson.loads(m) for m in re.findall(
                     r'<script type="application/json" id="deal-\d+">(.*?)</script>', text)])
        assert datas, page.name
        for data in datas:
            assert data["file"] == name, page.name
            for d in data["diags"]:
                assert d["at"].startswith(f"{name}:"), (page.name, d)
        if page.name != "deal-1.html":
            assert any(d["sev"] == "error" for data in datas for d in data["diags"])


@pytest.mark.parametrize("kind", ["tarot", "jsonl"])
def test_source_name_names_the_source_of_one_page(tmp_path: Path, kind: str) -> None:
    path = _named_source(tmp_path, kind)
    one, book = tmp_path / "one.html", tmp_path / "book.html"
    ran = invoke("html", str(path), "-o", str(book), "--single-file",
                 "--source-name", "club/5-12.tarot")
    assert ran.code == 1, ran  # the second deal has an error
    ran = invoke("html", "-", "-o", str(one), "--source-name", "club/5-12.tarot",
                 stdin=(EXAMPLES / "faulty" / "revoke.tarot").read_bytes())
    assert ran.code == 1, ran
    data = embedded(one.read_text(encoding="utf-8"))
    assert data["file"] == "club/5-12.tarot"
    assert data["diags"]
    assert all(d["at"].startswith("club/5-12.tarot:") for d in data["diags"])
    _shows_only_the_name([book], path.parent, "club/5-12.tarot")


@pytest.mark.process  # -j 2 forks its workers
@pytest.mark.parametrize("jobs", ["1", "2"], ids=["j1", "j2"])
@pytest.mark.parametrize("kind", ["tarot", "jsonl"])
def test_source_name_names_the_source_of_a_site(tmp_path: Path, kind: str, jobs: str) -> None:
    path = _named_source(tmp_path, kind)
    site = tmp_path / "site"
    ran = invoke("html", str(path), "-o", str(site), "-j", jobs, "--source-name", "Nuit 5.12")
    assert ran.code == 1, ran
    pages = sorted(site.glob("*.html"))
    assert [p.name for p in pages] == ["deal-1.html", "deal-2.html", "index.html"]
    _shows_only_the_name(pages, path.parent, "Nuit 5.12")


@pytest.mark.parametrize(("name", "says"), [
    ("/home/ann/x.tarot", "not a local path (such as x.tarot)"),
    ("../x.tarot", "not a local path (such as x.tarot)"),
    ("C:\\club\\x.tarot", "not a local path (such as x.tarot)"),
    (" ", "not a local path"),
])
def test_source_name_refuses_a_local_path(tmp_path: Path, name: str, says: str) -> None:
    out = tmp_path / "p.html"
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), "-o", str(out), "--source-name", name)
    assert ran.code == 2, ran
    assert says in ran.err
    assert not out.exists()


def test_source_name_names_one_source(tmp_path: Path) -> None:
    ran = invoke("html", rel(EXAMPLES / "prise.tarot"), rel(EXAMPLES / "annotated.tarot"),
                 "-o", str(tmp_path / "site"), "--source-name", "club.tarot")
    assert ran.code == 2, ran
    assert "--source-name names one source: 2 files were given" in ran.err
    assert not (tmp_path / "site").exists()
