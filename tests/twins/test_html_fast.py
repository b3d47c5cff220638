"""The fast page data of plain clean deals (tarotnotation/html/fast.py) against the full
path (the record read into its model and replayed, html/data.py): the same bytes.

Every test also runs on the pure-Python twin (``TAROT_PURE=1``, as CI runs the suite a
second time): the fast path then parses with orjson and steps the kernel's PlayState.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from processes import group, wait_for

from tarotnotation import native
from tarotnotation.formats import json as tjson
from tarotnotation.html import data as full
from tarotnotation.html import fast, read_sources
from tarotnotation.html.escape import json_bytes
from tarotnotation.simulate import random_deal

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")


def _noted(obj: dict[str, Any], rng: random.Random, everywhere: bool) -> dict[str, Any]:
    """Glyphs and comments (people's, and computed ones) on some cards and on the deal;
    with ``everywhere``, on bids, tricks, the call, the écart, declarations and the result
    too."""
    for trick in obj["play"]:
        for pc in trick["cards"]:
            if rng.random() < 0.15:
                pc["glyph"] = rng.choice(GLYPHS)
            if rng.random() < 0.15:
                pc["comments"] = rng.choice((["bien joué"], ["</script><b>x</b>", "deux"],
                                             ["tarot: a computed note"]))
    if rng.random() < 0.5:
        obj["comments"] = ["une donne"]
    if rng.random() < 0.3:
        obj["glyph"] = "!"
    if everywhere:
        obj["auction"][-1]["comments"] = ["enfin"]
        obj["play"][3]["comments"] = ["la troisième"]
        obj["play"][5]["glyph"] = "?"
        if obj.get("call"):
            obj["call"]["glyph"] = "!?"
            obj["call"]["comments"] = ["le Roi"]
        if obj.get("ecart"):
            obj["ecart"]["comments"] = ["un écart"]
        for decl in obj.get("declarations", ()):
            decl["glyph"] = "!"
        if obj.get("result"):
            obj["result"]["comments"] = ["vu"]
    return obj


def _archive(tmp_path: Path, players: int, count: int, seed: int, *,
             everywhere: bool = False, names: bool = False) -> Path:
    rng = random.Random(seed)
    lines = []
    for k in range(count):
        rec = random_deal(rng, players, poignee_chance=0.5, chelem_chance=0.1,
                          with_result=k % 3 != 0)
        obj = orjson.loads(tjson.dumps_bytes(rec))
        if names and k % 2:
            obj["seats"] = [{"id": s["id"], "name": f"P{i} <é>"}
                            for i, s in enumerate(obj["seats"])]
            obj["tags"] = [["Event", "Club </script>"], ["Round", str(k)], ["Table", "2"]]
        if k % 4 == 1:
            obj["ruleset"] = "pagat"
        lines.append(orjson.dumps(_noted(obj, rng, everywhere)))
    path = tmp_path / f"deals-{players}-{seed}.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _compare(path: Path, ruleset: str | None = None, default: str | None = None) -> int:
    """Compare every deal of a JSON Lines file; the number that took the fast path."""
    read = fast.reader(ruleset, default)
    lines = [line.strip() for line in path.read_bytes().splitlines() if line.strip()]
    sources = list(read_sources([str(path)], ruleset=ruleset, default_ruleset=default))
    assert len(sources) == len(lines)
    taken = 0
    for line, src in zip(lines, sources, strict=True):
        deal = fast.reader(ruleset, default)(line) if taken % 7 == 3 else read(line)
        if deal is None:  # (another shape, or a fault: the full path)
            continue
        taken += 1
        assert not src.diagnostics, src.diagnostics
        nav = {"index": "index.html", "prev": None, "next": "deal-2.html"}
        got = fast.deal_data(deal, src.number, str(src.file), src.index, src.text,
                             src.text_name, nav)
        want = full.deal_data(src, nav)
        assert json_bytes(got) == json_bytes(want), (src.number, _diff(got, want))
        assert fast.index_row(deal, src.number, str(src.file), src.index) == full.index_row(src)
    return taken


def _diff(got: dict[str, Any], want: dict[str, Any]) -> list[str]:
    return [f"{k}: {got.get(k)!r} != {want.get(k)!r}" for k in {*got, *want}
            if got.get(k) != want.get(k)] or [f"order {list(got)} != {list(want)}"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fast_page_data_is_the_full_paths(tmp_path: Path, players: int) -> None:
    path = _archive(tmp_path, players, 60, seed=players)
    taken = _compare(path)
    assert taken >= 50  # the fast path is taken, not silently left for the full one


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fast_page_data_with_names_tags_and_notes_everywhere(tmp_path: Path,
                                                             players: int) -> None:
    path = _archive(tmp_path, players, 30, seed=10 + players, everywhere=True, names=True)
    # (notes beyond the deal and the cards: the C scanner leaves the record to orjson)
    assert _compare(path) >= 25


@pytest.mark.parametrize(("ruleset", "default"), [
    ("pagat", None), (None, "pagat"),
    ("fft excuse_last_trick=to_trick_winner petit_au_bout=in_last_trick", None)])
def test_fast_page_data_under_a_ruleset(tmp_path: Path, ruleset: str | None,
                                        default: str | None) -> None:
    path = _archive(tmp_path, 4, 25, seed=7)
    assert _compare(path, ruleset, default) >= 20


def test_five_players_take_the_fast_path(tmp_path: Path) -> None:
    """A partner, and a taker alone (his own card called, or one in the chien): the
    camps, the call and the score's words as the full path gives them."""
    path = _archive(tmp_path, 5, 40, seed=5)
    read = fast.reader()
    partners = [deal.facts.partner for line in path.read_bytes().splitlines()
                if (deal := read(line)) is not None]
    assert len(partners) >= 35
    assert None in partners
    assert any(p is not None for p in partners)
    assert _compare(path) == len(partners)


def test_faulty_deals_take_the_full_path(tmp_path: Path) -> None:
    rng = random.Random(2)
    obj = orjson.loads(tjson.dumps_bytes(random_deal(rng, 4)))
    cards = obj["play"][4]["cards"]
    cards[0], cards[1] = cards[1], cards[0]  # out of turn, or illegal
    line = orjson.dumps(obj)
    assert fast.reader()(line) is None


def test_examples(tmp_path: Path) -> None:
    """Every example, as one JSON Lines record each."""
    from tarotnotation.archive import read_path

    lines = []
    for path in sorted(EXAMPLES.iterdir()):
        for item in read_path(str(path)):
            if item.record is not None:
                lines.append(tjson.dumps_bytes(item.record))
    archive = tmp_path / "examples.jsonl"
    archive.write_bytes(b"\n".join(lines) + b"\n")
    taken = _compare(archive)
    assert taken >= 2, taken


def test_the_compiled_twin_is_used_when_built() -> None:
    """With the C extension built, a canonical record is scanned in C."""
    twin = native.compiled()
    if twin is None:
        pytest.skip("the pure-Python twin (TAROT_PURE=1 or no compiler)")
    line = tjson.dumps_bytes(random_deal(random.Random(1), 4))
    assert twin.scan_json(line) is not None
    assert fast.reader()(line) is not None


def _mixed_archive(tmp_path: Path) -> Path:
    """Clean deals with notes, and among them what the fast path leaves to the full one
    (a fault, a broken line, blank lines) and a clean deal of five players, which it
    takes."""
    path = _archive(tmp_path, 4, 40, seed=21, names=True)
    lines = path.read_bytes().splitlines()
    bad = orjson.loads(lines[7])
    cards = bad["play"][2]["cards"]
    cards[0], cards[1] = cards[1], cards[0]
    lines[7] = orjson.dumps(bad)
    five = orjson.loads(tjson.dumps_bytes(random_deal(random.Random(4), 5)))
    lines[12:12] = [orjson.dumps(five), b"", b"   ", b'{"players": 4, "broken"']
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.process
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_site_of_json_lines_is_the_plain_ways(tmp_path: Path, jobs: int,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The site of a JSON Lines archive cut into parts, its clean deals on the fast path,
    is byte for byte the site of every deal read and replayed in one process."""
    from tarotnotation import archive, cutting
    from tarotnotation.html import build_site, write_site

    path = _mixed_archive(tmp_path)
    second = _archive(tmp_path, 3, 12, seed=8)
    alone = tmp_path / "alone.jsonl"  # (one deal: its page offers the whole file)
    alone.write_bytes(b"\n" + tjson.dumps_bytes(random_deal(random.Random(9), 4)) + b"\n\n")
    inputs = [str(path), str(alone), str(second)]
    plain = tmp_path / "plain"
    write_site(read_sources(inputs), plain)
    monkeypatch.setattr(cutting, "CHUNK_BYTES", 8000)  # (several parts a file)
    assert len(list(archive.parts_of(str(path)))) > 3
    site = tmp_path / "site"
    tally = build_site(inputs, site, jobs=jobs)
    assert tally.deals == 40 + 2 + 1 + 12
    assert tally.with_errors == 2
    got, want = _files(site), _files(plain)
    assert sorted(got) == sorted(want)
    for name in want:
        assert got[name] == want[name], name


def test_a_fifo_with_two_jobs_gives_every_deal_once(tmp_path: Path) -> None:
    """A FIFO can be read once: this process reads it, whatever -j says (two workers
    reading it each took a share of its bytes, and half the deals were lost)."""
    import threading

    from tarotnotation.html import build_site

    path = _archive(tmp_path, 4, 30, seed=11)
    fifo = tmp_path / "deals.jsonl"
    os.mkfifo(fifo)
    feeder = threading.Thread(target=lambda: fifo.write_bytes(path.read_bytes()))
    feeder.start()
    try:
        tally = build_site([str(fifo), str(path)], tmp_path / "site", jobs=2)
    finally:
        feeder.join()
    assert tally.deals == 60
    pages = {p.name for p in (tmp_path / "site").glob("deal-*.html")}
    assert pages == {f"deal-{n}.html" for n in range(1, 61)}


def test_a_site_takes_the_fast_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the deals that are not plain and clean are read and replayed (a fast path
    that fell back silently would replay them all)."""
    from tarotnotation.archive import check_deal
    from tarotnotation.html import build_site

    replayed: list[int] = []

    def counted(item: Any, *args: Any, **kwargs: Any) -> Any:
        replayed.append(item.index)
        return check_deal(item, *args, **kwargs)

    monkeypatch.setattr("tarotnotation.html.site.check_deal", counted)
    path = _mixed_archive(tmp_path)
    build_site([str(path)], tmp_path / "site")
    # The file's first record (read whole: the file's start), the fault, the broken line
    # (five players, deal 13: the fast path).
    assert sorted(replayed) == [1, 8, 14]


@pytest.mark.process
@pytest.mark.parametrize(("jobs", "sig", "status"), [
    ("1", signal.SIGINT, 130), ("1", signal.SIGTERM, 143), ("2", signal.SIGINT, 130),
    ("2", signal.SIGTERM, 143)])
def test_an_interrupted_site_of_json_lines_leaves_nothing(
        tmp_path: Path, jobs: str, sig: int, status: int) -> None:
    """Stopped while its pages are written (by the writing thread, by the workers), the
    run leaves no folder, no temporary one and no process."""
    line = tjson.dumps_bytes(random_deal(random.Random(6), 4))
    big = tmp_path / "big.jsonl"
    big.write_bytes((line + b"\n") * 20000)
    tarot = Path(sys.executable).with_name("tarot")
    proc = subprocess.Popen(
        [str(tarot), "html", str(big), "-o", str(tmp_path / "site"), "-j", jobs],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        def writing() -> bool:
            hidden = [p for p in tmp_path.iterdir() if p.name.startswith(".site.")]
            return bool(hidden) and any(p.name.startswith("deal-")
                                        for p in hidden[0].iterdir())

        wait_for(writing)
        if sig == signal.SIGINT:
            os.killpg(proc.pid, sig)  # Ctrl-C at a terminal: the whole group
        else:
            os.kill(proc.pid, sig)
        assert proc.wait(timeout=60) == status
        wait_for(lambda: group(proc.pid) == [], seconds=30)
        assert proc.stderr is not None
        assert b"Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        for stream in (proc.stdout, proc.stderr):
            assert stream is not None
            stream.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.jsonl"]



#: Run in a process of its own (a lock left taken would hang it: the test's timeout
#: tells). A signal's handler runs as a function starts and after a call written in C
#: returns (CPython checks for one there): the profile hook raises at each start of the
#: page writer's methods and at each such return in them and in the threading and queue
#: code they call, one run per step, wherever the signals are not held. A first run
#: imports what the runs need, so that every run counts the same steps.
_EVERY_STEP = r"""
import signal, sys
from pathlib import Path
from tarotnotation.html import build_site

class Stop(BaseException):
    pass

big = Path(sys.argv[1])
work = Path.cwd()
WATCHED = ("_Writer.", "_end_writers", "_forget_writer")

def hook_at(k, seen):
    def hook(frame, event, arg):
        code = frame.f_code
        if (event in ("call", "c_return")
                and (code.co_qualname.startswith(WATCHED)
                     or (event == "c_return"
                         and code.co_filename.endswith(("threading.py", "queue.py"))))
                and signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, [])):
            seen[0] += 1
            if seen[0] == k:
                raise Stop
    return hook

build_site([str(big)], work / "first")
k = 0
while True:  # (until a run ends before its k-th step: every step was tried)
    k += 1
    seen = [0]
    sys.setprofile(hook_at(k, seen))
    try:
        build_site([str(big)], work / "site")
    except Stop:
        left = sorted(p.name for p in work.iterdir())
        assert left == sorted([big.name, "first"]), (k, left)
        continue
    finally:
        sys.setprofile(None)
    assert seen[0] < k
    assert sorted(p.name for p in work.iterdir()) == sorted([big.name, "first", "site"])
    break
print(k - 1)
"""


@pytest.mark.process
def test_a_signal_at_any_step_of_handing_pages_over_ends_the_site_whole(
        tmp_path: Path) -> None:
    """A signal's exception at any step of handing pages to the writing thread ends the
    run: no lock is left taken (a :class:`queue.Queue`'s, taken just before the signal,
    hung ``tarot html`` under SIGTERM for ever), no error comes of it, no page is
    written after the block, and no folder is left."""
    line = tjson.dumps_bytes(random_deal(random.Random(6), 4))
    archive = tmp_path / "twelve.jsonl"
    archive.write_bytes((line + b"\n") * 12)
    done = subprocess.run([sys.executable, "-c", _EVERY_STEP, archive.name],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert int(done.stdout) >= 2 * 12  # (a page takes two steps at least)
