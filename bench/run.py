"""The benchmark: reading, validating and writing Tarot archives, beside python-chess.

Run: ``python bench/run.py [--deals N] [--quick] [--repeat R] [--seed S] [--json PATH]``.

It generates seeded archives of N random legal deals (default 20,000; 4 players; a glyph
and comments on some cards and deals) as ``.tarot`` and ``.jsonl``, and a PGN archive of N
random legal chess games of about 80 plies, cached in a folder of the system's temporary
directory keyed by N and the seed. Then it measures each stage in its own subprocess (so
that the peak RSS is that stage's own), on one core:

- reading the text notation (records built, no replay), skimming its tags, and reading
  JSON Lines;
- full validation (read + replay + score) of each format, as ``tarot validate`` does it
  (``archive.check_paths(keep=False)``), and of JSON Lines with the Replay objects kept;
- writing each format (the records are loaded first, outside the timing);
- ``tarot validate -j 1`` and ``-j 2`` end to end on the ``.jsonl`` archive and on the
  ``.tarot`` one (process start-up included; RSS is the largest single process), and
  ``-j 1`` on archives of as many deals at five players (a called King, a partner;
  generated, plain, the first time they are asked for);
- the same check in-process, ``-j 1`` and ``-j 2`` on each format
  (``archive.check_paths_batched``, as ``tarot validate -q`` runs it), timed after a first
  run has done the imports: the process start-up, which no worker shares, is left out,
  the workers' forks are in (CPU time: this process's only);
- the machine itself: a loop of pure arithmetic, in one process and shared by two
  (``spin-j1``, ``spin-j2``): no memory traffic, nothing shared, so its ratio is the most
  that any ``-j 2`` can gain here (a shared or virtual machine's two cores are seldom two
  whole cores). The table is followed by each ``-j 2`` row's ratio to its ``-j 1`` row,
  beside that ceiling;
- the archive tools end to end on the ``.jsonl`` archive: ``tarot query --count``
  (``-j 1`` and ``-j 2``), ``tarot stats`` and ``tarot dedupe``;
- python-chess reading the PGN archive (``chess.pgn.read_game`` loop: headers, SAN moves
  parsed and played on a board), the reference that makes the figures comparable from one
  machine to another;
- ``html``: ``tarot html`` writing a site of the first ``--html-deals`` deals (10,000 by
  default) of the JSON Lines archive, with ``-j 1`` (the row) and ``-j 2``, end to end;
  then, in Chromium (Playwright driving the system's browser, as the tests do), the index
  opened from the disk: its first paint, the moment its script is ready, the time to
  filter it by typing and to sort it (each until the next frame is painted), and a deal
  page's first paint. It needs the ``test`` extra and Chromium; without them the row says
  why.

The table gives each stage's items per second of wall time and per second of CPU time
(its processes' user and system time: steadier than the wall time on a shared machine,
and for ``-j 2`` the sum over both workers).
Each stage runs ``--repeat`` times (3 by default), round after round of all the stages,
and its fastest run is its row, as ``timeit`` keeps the best: on a shared machine the same
work can take a third longer from one minute to the next, and the slowest run is shown
beside it. It prints one table and writes it as JSON (``--json``, default
``bench/results.json``), every run's rate included.
``--startup RUNS`` measures the start-up instead (issue 17): the whole process of
``tarot --version`` and of ``tarot validate -q`` on one clean deal (the text notation, JSON
Lines, and examples/garde-sans.tarot, whose result gives the contract, taker, points and
bouts), beside ``python -c pass``, each run RUNS times, round after round, and reports the
median and fastest wall time and the median CPU time, with the load average before and
after (written to ``bench/startup-results.json`` unless ``--json`` names a file). Measure
a regular install (``pip install .``): an editable one adds its finder's imports, and the
report says which one it measured.
``--profile STAGE`` runs one stage in this process under pyinstrument instead (e.g.
``--profile validate-jsonl``), to see where the time goes. ``--memory DEALS`` adds
``tarot validate -j 1`` and ``-j 2`` on a JSON Lines archive of that many deals (the
generated ones repeated), to see that the peak RSS does not grow with the archive, and
``tarot query``, ``stats`` and ``dedupe`` on it (dedupe on as many *different* deals: the
generated ones with their cards renamed, a permutation a round).
"""

from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import platform
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Final

from tarotnotation.records import DealRecord

HERE = Path(__file__).resolve().parent
STAGES = (
    "read-tarot",
    "skim-tarot",
    "read-jsonl",
    "validate-tarot",
    "validate-jsonl",
    "replay-jsonl",
    "write-tarot",
    "write-jsonl",
    "cli-j1",
    "cli-j2",
    "cli-tarot-j1",
    "cli-tarot-j2",
    "check-jsonl-j1",
    "check-jsonl-j2",
    "check-tarot-j1",
    "check-tarot-j2",
    "spin-j1",
    "spin-j2",
    "cli-5p-j1",
    "cli-tarot-5p-j1",
    "query-j1",
    "stats-j1",
    "dedupe-j1",
    "query-j2",
    "pgn-read",
    "html",
)
LABELS = {
    "read-tarot": "read .tarot (records, no replay)",
    "skim-tarot": "skim .tarot tags (notation.skim_tags)",
    "read-jsonl": "read .jsonl (records, no replay)",
    "validate-tarot": "validate .tarot (read+replay+score)",
    "validate-jsonl": "validate .jsonl (read+replay+score)",
    "replay-jsonl": "validate .jsonl, Replay objects kept",
    "write-tarot": "write .tarot",
    "write-jsonl": "write .jsonl",
    "cli-j1": "tarot validate -j 1 (.jsonl, end to end)",
    "cli-j2": "tarot validate -j 2 (.jsonl, end to end)",
    "cli-tarot-j1": "tarot validate -j 1 (.tarot, end to end)",
    "cli-tarot-j2": "tarot validate -j 2 (.tarot, end to end)",
    "check-jsonl-j1": "validate's check -j 1 (.jsonl, in-process)",
    "check-jsonl-j2": "validate's check -j 2 (.jsonl, in-process)",
    "check-tarot-j1": "validate's check -j 1 (.tarot, in-process)",
    "check-tarot-j2": "validate's check -j 2 (.tarot, in-process)",
    "spin-j1": "the machine: a CPU loop, 1 process",
    "spin-j2": "the machine: the same loop, 2 processes",
    "cli-5p-j1": "tarot validate -j 1 (.jsonl, 5 players)",
    "cli-tarot-5p-j1": "tarot validate -j 1 (.tarot, 5 players)",
    "query-j1": "tarot query --count -j 1 (.jsonl)",
    "stats-j1": "tarot stats -j 1 (.jsonl)",
    "dedupe-j1": "tarot dedupe -j 1 (.jsonl)",
    "query-j2": "tarot query --count -j 2 (.jsonl)",
    "pgn-read": "python-chess: read PGN (~80 plies)",
    "html": "tarot html: a site, -j 1 (end to end)",
}
#: Deals in the site the ``html`` stage writes (``--html-deals``).
HTML_DEALS = 10_000
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


# --- the data --------------------------------------------------------------------------------


def _annotate(rng: random.Random, record: DealRecord) -> DealRecord:
    """A glyph and a comment on about one card in eight, and a comment on the deal."""
    tricks = []
    for trick in record.play:
        cards = tuple(
            pc.model_copy(update={"glyph": rng.choice(("!", "?", "!?")),
                                  "comments": ("bien joué",)})
            if rng.random() < 1 / 8 else pc
            for pc in trick.cards
        )
        tricks.append(trick.model_copy(update={"cards": cards}))
    return record.model_copy(update={"play": tuple(tricks), "comments": ("une donne",)})


def _deals(n: int, seed: int) -> Iterable[DealRecord]:
    from tarotnotation.simulate import random_deal

    rng = random.Random(seed)
    for _ in range(n):
        record = random_deal(rng, 4)
        yield _annotate(rng, record) if rng.random() < 0.25 else record


def _pgn_games(n: int, seed: int) -> Iterable[str]:
    import chess
    import chess.pgn

    rng = random.Random(seed + 1)
    for i in range(n):
        board = chess.Board()
        for _ in range(80):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "Random game"
        game.headers["Site"] = "bench"
        game.headers["Date"] = "2026.11.29"
        game.headers["Round"] = str(i + 1)
        game.headers["White"] = "White"
        game.headers["Black"] = "Black"
        game.headers["Result"] = board.result()
        yield str(game)


def data_dir(n: int, seed: int) -> Path:
    """The cache folder of the archives for ``n`` deals and ``seed`` (made if missing)."""
    folder = Path(tempfile.gettempdir()) / "tarotnotation-bench" / f"n{n}-seed{seed}"
    folder.mkdir(parents=True, exist_ok=True)
    tarot, jsonl, pgn = folder / "deals.tarot", folder / "deals.jsonl", folder / "games.pgn"
    if not (tarot.exists() and jsonl.exists()):
        from tarotnotation.formats import json as tjson
        from tarotnotation.notation import write_record

        print(f"generating {n:,} deals (seed {seed}) in {folder} ...", file=sys.stderr)
        with (folder / "deals.tarot.tmp").open("w", encoding="utf-8") as ft, \
                (folder / "deals.jsonl.tmp").open("wb") as fj:
            for i, record in enumerate(_deals(n, seed)):
                if i:
                    ft.write("\n")
                ft.write(write_record(record))
                fj.write(tjson.dumps_bytes(record) + b"\n")
        (folder / "deals.tarot.tmp").replace(tarot)
        (folder / "deals.jsonl.tmp").replace(jsonl)
    if not pgn.exists():
        print(f"generating {n:,} chess games (seed {seed}) ...", file=sys.stderr)
        with (folder / "games.pgn.tmp").open("w", encoding="utf-8") as fp:
            for text in _pgn_games(n, seed):
                fp.write(text + "\n\n")
        (folder / "games.pgn.tmp").replace(pgn)
    return folder


def five_player_archive(folder: Path, n: int, suffix: str) -> Path:
    """The archive of ``n`` plain deals at five players in ``folder`` (``suffix``:
    ``.jsonl`` or ``.tarot``), both formats generated the first time, seeded by the
    folder's name."""
    path = folder / f"deals-5p{suffix}"
    if not path.exists():
        from tarotnotation.formats import json as tjson
        from tarotnotation.notation import write_record
        from tarotnotation.simulate import random_deal

        print(f"generating {n:,} deals at five players in {folder} ...", file=sys.stderr)
        rng = random.Random(f"five {folder.name}")
        tmp_tarot, tmp_jsonl = folder / "deals-5p.tarot.tmp", folder / "deals-5p.jsonl.tmp"
        with tmp_tarot.open("w", encoding="utf-8") as ft, tmp_jsonl.open("wb") as fj:
            for i in range(n):
                record = random_deal(rng, 5)
                if i:
                    ft.write("\n")
                ft.write(write_record(record))
                fj.write(tjson.dumps_bytes(record) + b"\n")
        tmp_tarot.replace(folder / "deals-5p.tarot")
        tmp_jsonl.replace(folder / "deals-5p.jsonl")
    return path


# --- the stages (each runs in its own process) ----------------------------------------------


def _count(items: Iterable[object]) -> int:
    count = 0
    for _ in items:
        count += 1
    return count


def _load_all(folder: Path) -> list[DealRecord]:
    from tarotnotation.formats import json as tjson

    out = []
    for item in tjson.read(folder / "deals.jsonl"):
        assert item.record is not None
        out.append(item.record)
    return out


def _validate(path: Path, keep: bool = False) -> int:
    import inspect

    from tarotnotation.archive import check_paths

    # (older versions of the library, measured for comparison, had no ``keep``)
    options: dict[str, Any] = (
        {"keep": keep} if "keep" in inspect.signature(check_paths).parameters else {})
    count = 0
    for checked in check_paths([path], **options):
        count += 1
        if checked.errors:
            raise SystemExit(f"{path}: deal {checked.index} has errors: {checked.diagnostics}")
    return count


def _check_batched(path: Path, jobs: int) -> int:
    """The deals ``tarot validate -q -j jobs`` checks, as it checks them (runs of clean
    deals counted in bulk: :func:`tarotnotation.archive.check_paths_batched`)."""
    from tarotnotation.archive import CleanDeals, check_paths_batched

    count = 0
    for item in check_paths_batched([path], jobs=jobs, keep=False):
        if isinstance(item, CleanDeals):
            count += item.count
            continue
        count += 1
        if item.errors:
            raise SystemExit(f"{path}: deal {item.index} has errors: {item.diagnostics}")
    return count


#: Turns of the ``spin`` stages' loop: about as long as ``check-jsonl-j1`` at 20,000 deals.
SPIN: Final = 4_000_000
#: The pairs of stages whose ratio says how ``-j 2`` scales, and the machine's own.
SCALING: Final = (("cli-j1", "cli-j2", "tarot validate, .jsonl"),
                  ("cli-tarot-j1", "cli-tarot-j2", "tarot validate, .tarot"),
                  ("check-jsonl-j1", "check-jsonl-j2", "check in-process, .jsonl"),
                  ("check-tarot-j1", "check-tarot-j2", "check in-process, .tarot"),
                  ("spin-j1", "spin-j2", "the machine: a CPU loop, no memory"))


def _spin(processes: int) -> int:
    """:data:`SPIN` turns of a loop of pure arithmetic (no memory traffic, nothing shared),
    split among ``processes`` processes (this one and forked ones): how far two processes
    scale on this machine at best, the ceiling of any ``-j 2``."""
    share = SPIN // processes
    children = []
    for _ in range(processes - 1):
        pid = os.fork()
        if pid == 0:
            try:
                _turns(share)
            finally:
                os._exit(0)
        children.append(pid)
    _turns(share)
    for pid in children:
        os.waitpid(pid, 0)
    return share * processes


def _turns(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i & 1023
    return total


def stage_work(name: str, folder: Path) -> Callable[[], int]:
    """The timed work of a stage (after its set-up); returns the number of items done."""
    tarot, jsonl, pgn = folder / "deals.tarot", folder / "deals.jsonl", folder / "games.pgn"
    if name.startswith("check-"):
        # In-process -j: the same check as the CLI's, timed after a first run has done
        # the imports (the start-up no worker shares is left out; the pool's forks are in).
        kind, _, jobs = name[len("check-"):].partition("-j")
        path = jsonl if kind == "jsonl" else tarot
        _check_batched(path, 1)
        return lambda: _check_batched(path, int(jobs))
    if name in ("spin-j1", "spin-j2"):
        return lambda: _spin(int(name[-1]))
    if name == "read-tarot":
        from tarotnotation.notation import read_file

        return lambda: _count(read_file(tarot))
    if name == "skim-tarot":
        from tarotnotation.notation import skim_tags

        return lambda: _count(skim_tags(tarot))
    if name == "read-jsonl":
        from tarotnotation.formats import json as tjson

        return lambda: _count(tjson.read(jsonl))
    if name == "validate-tarot":
        return lambda: _validate(tarot)
    if name == "validate-jsonl":
        return lambda: _validate(jsonl)
    if name == "replay-jsonl":
        return lambda: _validate(jsonl, keep=True)
    if name in ("write-tarot", "write-jsonl"):
        records = _load_all(folder)
        out = Path(tempfile.mkdtemp()) / ("out" + name[5:].replace("-", "."))

        def write() -> int:
            if name == "write-tarot":
                from tarotnotation.notation import dump

                with out.open("w", encoding="utf-8") as ft:
                    dump(records, ft)
            else:
                from tarotnotation.formats import json as tjson

                with out.open("wb") as fj:
                    tjson.write(records, fj)
            out.unlink()
            return len(records)

        return write
    if name == "pgn-read":
        import chess.pgn

        def read_pgn() -> int:
            count = 0
            with pgn.open(encoding="utf-8") as fp:
                while chess.pgn.read_game(fp) is not None:
                    count += 1
            return count

        return read_pgn
    raise SystemExit(f"unknown stage {name!r}")


def _measure(name: str, folder: Path) -> None:
    """Run one stage in this process and print its figures as JSON (the child's side)."""
    work = stage_work(name, folder)
    cpu = time.process_time()
    start = time.perf_counter()
    count = work()
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"count": count, "seconds": elapsed, "cpu_seconds": cpu,
                      "peak_rss_mb": rss / 1024}))


def _tarot_command() -> list[str]:
    script = Path(sys.executable).with_name("tarot")
    base = [str(script)] if script.exists() else [
        sys.executable, "-c", "from tarotnotation.cli.app import main; main()"]
    names = subprocess.run([*base, "--help"], capture_output=True, text=True).stdout
    return [*base, "validate" if "validate" in names else "check"]


class StageError(Exception):
    """A stage that could not run (reported in the table, the others go on)."""


def _run_cli(jobs: int, path: Path, n: int) -> dict[str, Any]:
    cmd = [*_tarot_command(), "-q", "-j", str(jobs), str(path)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    out = (proc.stdout.read() if proc.stdout else b"").decode()
    err = (proc.stderr.read() if proc.stderr else b"").decode()
    if os.waitstatus_to_exitcode(status) != 0 or str(n) not in out.replace(",", ""):
        raise StageError(f"{' '.join(cmd)} failed:\n{out}\n{err}")
    return {"count": n, "seconds": elapsed, "cpu_seconds": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": usage.ru_maxrss / 1024, "command": " ".join(cmd[-5:])}


#: The archive tools' stages: the command's words (before the file), and what its output
#: must hold (a number of deals) for the run to count.
TOOLS = {
    "query": (["query", "--where", "contract >= garde and not made", "--count"], None),
    "stats": (["stats", "--format", "json"], '"deals": {n}'),
    "dedupe": (["dedupe"], "of {n:,} deals"),
}


def _run_tool(tool: str, jobs: int, path: Path, n: int) -> dict[str, Any]:
    """``tarot TOOL -j JOBS PATH`` end to end (start-up included): time, CPU, peak RSS."""
    words, expect = TOOLS[tool]
    base = _tarot_command()[:-1]
    cmd = [*base, *words, "-j", str(jobs), str(path)]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    out = (proc.stdout.read() if proc.stdout else b"").decode()
    err = (proc.stderr.read() if proc.stderr else b"").decode()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1 if tool == "dedupe" else 0) or (
            expect is not None and expect.format(n=n) not in out + err):
        raise StageError(f"{' '.join(cmd)} failed ({code}):\n{out[-2000:]}\n{err[-2000:]}")
    return {"count": n, "seconds": elapsed, "cpu_seconds": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": usage.ru_maxrss / 1024,
            "command": " ".join(["tarot", *words, "-j", str(jobs), path.name])}


def _distinct_archive(folder: Path, n: int, total: int, seed: int) -> Path:
    """A JSON Lines archive of ``total`` different legal deals, for dedupe: the generated
    ones, then the same with their plain suits renamed (each of the 24 orders of the four
    suits gives other deals, as legal, scoring the same), then more deals generated with
    the next seeds, renamed again, until there are enough. Written line by line."""
    import orjson

    from tarotnotation.formats import json as tjson

    big = folder / f"distinct-{total}.jsonl"
    if big.exists():
        return big
    orders = list(itertools.permutations("SHDC"))
    written = 0
    with (folder / "distinct.tmp").open("wb") as out:
        for base in itertools.count():
            source = folder / "deals.jsonl" if base == 0 else folder / f"deals-{base}.jsonl"
            if not source.exists():
                with (folder / "base.tmp").open("wb") as made:
                    for record in _deals(n, seed + base):
                        made.write(tjson.dumps_bytes(record) + b"\n")
                (folder / "base.tmp").replace(source)
            for order in orders:
                rename = {code: code[:-1] + order["SHDC".index(code[-1])]
                          if code[-1] in "SHDC" and not code.startswith("T") else code
                          for code in _CODES}

                def cards(value: Any, rename: dict[str, str] = rename) -> Any:
                    return [rename[c] for c in value] if isinstance(value, list) else value

                with source.open("rb") as fh:
                    for line in fh:
                        deal = orjson.loads(line)
                        deal["hands"] = {s: cards(h) for s, h in deal["hands"].items()}
                        deal["chien"] = cards(deal.get("chien"))
                        ecart = deal.get("ecart") or {}
                        for key in ("cards", "shown"):
                            if key in ecart:
                                ecart[key] = cards(ecart[key])
                        for decl in deal.get("declarations", []):
                            if "cards" in decl:
                                decl["cards"] = cards(decl["cards"])
                        for trick in deal.get("play", []):
                            for played in trick["cards"]:
                                played["card"] = rename[played["card"]]
                        out.write(orjson.dumps(deal) + b"\n")
                        written += 1
                        if written == total:
                            break
                if written == total:
                    break
            if written == total:
                break
    (folder / "distinct.tmp").replace(big)
    return big


def _card_codes() -> list[str]:
    from tarotnotation.cards import Card

    return [c.code for c in Card]


_CODES = _card_codes()


def _html_command() -> list[str]:
    script = Path(sys.executable).with_name("tarot")
    return [str(script)] if script.exists() else [
        sys.executable, "-c", "from tarotnotation.cli.app import main; main()"]


def _timed(cmd: list[str]) -> tuple[float, float, float]:
    """Run a command; its wall and CPU seconds and peak RSS (MB). Raises StageError."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        err = (proc.stderr.read() if proc.stderr else b"").decode()
        raise StageError(f"{' '.join(cmd)} failed: {err.strip()}")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


_NEXT_FRAME = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
_FILTER = """async (query) => {
    const input = document.querySelector('input.filter');
    const t0 = performance.now();
    input.value = query;
    input.dispatchEvent(new Event('input', {bubbles: true}));
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    return [performance.now() - t0, document.querySelector('.count').textContent];
}"""
_SORT = """async (column) => {
    const button = document.querySelector('.deals th.' + column + ' button');
    const t0 = performance.now();
    button.click();
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
}"""
_PAINT = """() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const ready = performance.getEntriesByName('tarot-ready')[0];
    return [paint ? paint.startTime : null, ready ? ready.startTime : null];
}"""


def _run_html(folder: Path, deals: int) -> dict[str, Any]:
    """The ``html`` stage: write a site of ``deals`` deals, then open it in Chromium."""
    archive = folder / f"html-{deals}.jsonl"
    if not archive.exists():
        with (folder / "deals.jsonl").open("rb") as fh, (folder / "html.tmp").open("wb") as dst:
            dst.writelines(itertools.islice(fh, deals))
        (folder / "html.tmp").replace(archive)
    out = Path(tempfile.mkdtemp(prefix="tarot-html-bench-"))
    try:
        site = out / "site"
        seconds, cpu, rss = _timed([*_html_command(), "html", str(archive), "-o", str(site)])
        seconds_j2, _, _ = _timed([*_html_command(), "html", str(archive), "-o",
                                   str(out / "site2"), "-j", "2"])
        count = sum(1 for p in site.iterdir() if p.name.startswith("deal-"))
        row: dict[str, Any] = {
            "count": count, "seconds": seconds, "cpu_seconds": cpu, "peak_rss_mb": rss,
            "seconds_j2": seconds_j2,
            "index_bytes": (site / "index.html").stat().st_size,
            "deal_page_bytes": (site / "deal-1.html").stat().st_size,
        }
        row.update(_browse(site))
        return row
    finally:
        import shutil

        shutil.rmtree(out, ignore_errors=True)


def _browse(site: Path) -> dict[str, Any]:
    """Open a site's index and a deal page in Chromium; the timings in milliseconds."""
    chromium = os.environ.get("TAROT_CHROMIUM", "/usr/bin/chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise StageError("needs Playwright (pip install -e '.[test]')") from None
    if not Path(chromium).exists():
        raise StageError(f"needs Chromium at {chromium} (apt-get install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            start = time.perf_counter()
            page.goto(site.joinpath("index.html").as_uri())
            page.wait_for_selector("body[data-ready]", timeout=60_000)
            loaded = (time.perf_counter() - start) * 1000
            paint, ready = page.evaluate(_PAINT)
            page.evaluate(_NEXT_FRAME)
            filtered, shown = page.evaluate(_FILTER, "garde sans")
            narrow, _ = page.evaluate(_FILTER, "garde sans 99")
            cleared, _ = page.evaluate(_FILTER, "")
            sort = page.evaluate(_SORT, "c-score")
            page.goto(site.joinpath("deal-1.html").as_uri())
            page.wait_for_selector("body[data-ready]")
            deal_paint, deal_ready = page.evaluate(_PAINT)
            step = page.evaluate("""async () => {
                const t0 = performance.now();
                for (let i = 0; i < 72; i++) document.dispatchEvent(
                    new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
                await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
                return (performance.now() - t0) / 72;
            }""")
        finally:
            browser.close()
    return {"first_paint_ms": paint, "ready_ms": ready, "loaded_ms": loaded,
            "filter_ms": filtered, "filter_shown": shown, "filter_narrow_ms": narrow,
            "filter_clear_ms": cleared, "sort_ms": sort, "deal_first_paint_ms": deal_paint,
            "deal_ready_ms": deal_ready, "step_ms": step}


def _html_line(row: dict[str, Any]) -> str:
    def ms(key: str) -> str:
        value = row.get(key)
        return "?" if value is None else f"{value:,.0f} ms"

    return (f"tarot html, {row['count']:,} deals: {row['seconds']:.2f} s with -j 1,"
            f" {row['seconds_j2']:.2f} s with -j 2; index {row['index_bytes'] / 1e6:.1f} MB,"
            f" a deal page {row['deal_page_bytes'] / 1e3:.1f} KB.\n"
            f"In Chromium, the index: first paint {ms('first_paint_ms')}, script ready"
            f" {ms('ready_ms')}; filter by typing {ms('filter_ms')} ({row['filter_shown']}),"
            f" narrower {ms('filter_narrow_ms')}, cleared {ms('filter_clear_ms')};"
            f" sort {ms('sort_ms')}. A deal page: first paint {ms('deal_first_paint_ms')},"
            f" ready {ms('deal_ready_ms')}, a step {row['step_ms']:.2f} ms.")


def _run_stage(name: str, folder: Path, n: int, html_deals: int = HTML_DEALS
               ) -> dict[str, Any]:
    if name == "html":
        return _run_html(folder, min(html_deals, n))
    if name in ("cli-j1", "cli-j2"):
        return _run_cli(int(name[-1]), folder / "deals.jsonl", n)
    if name in ("cli-tarot-j1", "cli-tarot-j2"):
        return _run_cli(int(name[-1]), folder / "deals.tarot", n)
    if name in ("cli-5p-j1", "cli-tarot-5p-j1"):
        suffix = ".tarot" if "tarot" in name else ".jsonl"
        return _run_cli(1, five_player_archive(folder, n, suffix), n)
    tool, _, jobs = name.partition("-j")
    if tool in TOOLS:
        return _run_tool(tool, int(jobs), folder / "deals.jsonl", n)
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--measure", name, "--dir", str(folder)],
        capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise StageError(f"stage {name} failed:\n{out.stdout}\n{out.stderr}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _big_archive(folder: Path, n: int, total: int) -> Path:
    """A JSON Lines archive of ``total`` deals: the generated ones, repeated.

    Written line by line, never held: the commands measured next are children of this
    process, and a child's peak RSS counts what this process held when it started it.
    """
    big = folder / f"big-{total}.jsonl"
    if not big.exists():
        with (folder / "big.tmp").open("wb") as out:
            for i in range(0, total, n):
                with (folder / "deals.jsonl").open("rb") as fh:
                    out.writelines(itertools.islice(fh, min(n, total - i)))
        (folder / "big.tmp").replace(big)
    return big


def _distributed(folder: Path, n: int, deals: int, out: Path, analysis_only: bool,
                 budget: int | None) -> int:
    """``--distributed DEALS``: the stages of bench/scheduler.py, their table, the JSON
    (``analysis_only``: the analysis stages, without the 1,000,000 deals' validation;
    ``budget``: the analysis's nodes a deal, bench/scheduler.py's BUDGET if None)."""
    sys.path.insert(0, str(HERE))
    import scheduler as stages  # (bench/scheduler.py)

    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as scratch:
        found = stages.rows(folder, None if analysis_only else _big_archive(folder, n, deals),
                            deals, Path(scratch), budget or stages.BUDGET)
    after = os.getloadavg()
    print(f"{os.cpu_count()} cores; load {load[0]:.2f} before, {after[0]:.2f} after")
    print(stages.table(found))
    out.write_text(json.dumps({"cores": os.cpu_count(), "load_before": load,
                               "load_after": after, "deals": deals,
                               "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                               "budget": budget or stages.BUDGET, "stages": found},
                              indent=2) + "\n", encoding="utf-8")
    print(f"(written to {out})")
    return 0


def _scaling(rows: dict[str, dict[str, Any]]) -> dict[str, float]:
    """How much faster ``-j 2`` ran than ``-j 1`` (their best runs), pair by pair, and the
    machine's own ceiling (the CPU loop): a ``-j 2`` nearer that than 2 is all this
    machine can show."""
    return {label: rows[two]["rate"] / rows[one]["rate"] for one, two, label in SCALING
            if "rate" in rows.get(one, {}) and "rate" in rows.get(two, {})}


def _table(rows: dict[str, dict[str, Any]], n: int) -> str:
    pgn = rows.get("pgn-read", {}).get("rate")
    head = (f"{'stage':<42} {'items/s':>10} {'slowest':>8} {'seconds':>8} {'per CPU s':>9}"
            f" {'peak RSS':>9} {'vs PGN':>7}")
    lines = [head, "-" * len(head)]
    for name, row in rows.items():
        if "rate" not in row:
            lines.append(f"{LABELS.get(name, name):<42} {'failed: ' + row['error'][:60]}")
            continue
        ratio = f"{row['rate'] / pgn:6.1f}x" if pgn else ""
        slowest = min(row.get("runs", [row["rate"]]))
        cpu = row.get("cpu_seconds")
        per_cpu = f"{row['count'] / cpu:>9,.0f}" if cpu else f"{'':>9}"
        lines.append(f"{LABELS.get(name, name):<42} {row['rate']:>10,.0f} {slowest:>8,.0f}"
                     f" {row['seconds']:>8.2f} {per_cpu} {row['peak_rss_mb']:>6.0f} MB"
                     f" {ratio:>7}")
    return "\n".join(lines)


# --- start-up ---------------------------------------------------------------------------


def _startup_cases(folder: Path) -> dict[str, list[str]]:
    """The command lines measured (after ``tarot``), on one-deal files made in ``folder``."""
    from tarotnotation.formats import json as tjson
    from tarotnotation.notation import dumps
    from tarotnotation.simulate import random_deal

    rec = random_deal(random.Random(1), 4)
    (folder / "one.tarot").write_text(dumps(rec), encoding="utf-8")
    (folder / "one.jsonl").write_bytes(tjson.dumps_bytes(rec) + b"\n")
    return {
        "tarot --version": ["--version"],
        "validate -q, one deal (.tarot)": ["validate", "-q", str(folder / "one.tarot")],
        "validate -q, one deal (.jsonl)": ["validate", "-q", str(folder / "one.jsonl")],
        "validate -q, garde-sans.tarot (result)": [
            "validate", "-q", str(HERE.parent / "examples" / "garde-sans.tarot")],
    }


def _run_once(cmd: list[str], cwd: str) -> tuple[float, float]:
    """Wall and CPU milliseconds of one run of ``cmd`` (which must exit 0)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = (time.perf_counter() - start) * 1000
    if os.waitstatus_to_exitcode(status) != 0:
        raise StageError(f"{' '.join(cmd)} exited {os.waitstatus_to_exitcode(status)}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def startup(runs: int) -> dict[str, Any]:
    """The start-up figures (see the module doc): by case, each run's wall and CPU ms."""
    import statistics

    script = Path(sys.executable).with_name("tarot")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "tarotnotation"]
    with tempfile.TemporaryDirectory(prefix="tarot-startup-") as tmp:
        # (run from elsewhere than the source tree: there, its own folder would be imported)
        where = subprocess.run(
            [sys.executable, "-c", "import tarotnotation; print(tarotnotation.__file__)"],
            capture_output=True, text=True, check=True, cwd=tmp).stdout.strip()
        editable = Path(where).resolve().is_relative_to(HERE.parent.resolve())
        cases = {"python -c pass": [sys.executable, "-c", "pass"]} | {
            name: [*base, *words] for name, words in _startup_cases(Path(tmp)).items()}
        load_before = os.getloadavg()
        runs_of: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
        for _ in range(runs):  # round after round: a busy spell falls on every case alike
            for name, cmd in cases.items():
                runs_of[name].append(_run_once(cmd, tmp))
        load_after = os.getloadavg()
    rows = {}
    for name, measured in runs_of.items():
        wall = [w for w, _ in measured]
        cpu = [c for _, c in measured]
        rows[name] = {"median_ms": round(statistics.median(wall), 1),
                      "fastest_ms": round(min(wall), 1),
                      "median_cpu_ms": round(statistics.median(cpu), 1),
                      "runs_ms": [round(w, 1) for w in wall]}
    return {"runs": runs, "editable_install": editable, "package": where,
            "load_before": load_before, "load_after": load_after,
            "python": platform.python_version(), "cores": os.cpu_count(),
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cases": rows}


def _startup_table(report: dict[str, Any]) -> str:
    head = f"{'start-up (whole process)':<42} {'median':>8} {'fastest':>8} {'CPU':>8}"
    lines = [head, "-" * len(head)]
    for name, row in report["cases"].items():
        lines.append(f"{name:<42} {row['median_ms']:>5.1f} ms {row['fastest_ms']:>5.1f} ms"
                     f" {row['median_cpu_ms']:>5.1f} ms")
    before, after = report["load_before"], report["load_after"]
    kind = "an editable" if report["editable_install"] else "a regular"
    lines.append(f"{report['runs']} runs each; load average {before[0]:.2f} before,"
                 f" {after[0]:.2f} after; {kind} install ({report['package']})")
    return "\n".join(lines)


def _profile(name: str, folder: Path) -> None:
    from pyinstrument import Profiler

    work = stage_work(name, folder)
    profiler = Profiler(interval=0.0005)
    profiler.start()
    count = work()
    profiler.stop()
    print(f"{name}: {count:,} items")
    print(profiler.output_text(unicode=True, color=False, show_all=False))


def main(argv: list[str] | None = None) -> int:
    """Generate (or reuse) the archives, run every stage, print the table, write the JSON.
    ``--solver`` runs the solver's benchmark instead (``bench/solver.py``)."""
    argv = sys.argv[1:] if argv is None else argv
    if "--solver" in argv:
        sys.path.insert(0, str(HERE))
        import solver

        return int(solver.main([a for a in argv if a != "--solver"]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=None,
                        help="deals (and chess games) per archive: 20,000 by default")
    parser.add_argument("--quick", action="store_true", help="2,000 deals (a quick look)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", nargs="+", choices=STAGES, help="run only these stages")
    parser.add_argument("--startup", type=int, metavar="RUNS",
                        help="measure the start-up instead, RUNS runs of each command")
    parser.add_argument("--json", type=Path, default=None,
                        help="where to write the table as JSON (default: bench/results.json;"
                        " with --startup, bench/startup-results.json)")
    parser.add_argument("--profile", choices=STAGES[:8], help="profile one stage instead")
    parser.add_argument("--memory", type=int, metavar="DEALS",
                        help="also run tarot validate -j 1 and -j 2 on a JSON Lines archive of"
                        " this many deals (the generated ones, repeated), for the peak RSS")
    parser.add_argument("--repeat", type=int, default=3, metavar="N",
                        help="runs of each stage, the fastest kept: 3 by default (the"
                        " figures of a shared machine vary from one run to the next)")
    parser.add_argument("--html-deals", type=int, default=HTML_DEALS, metavar="N",
                        help="deals in the site of the html stage (10,000 by default)")
    parser.add_argument("--distributed", type=int, metavar="DEALS",
                        help="measure --scheduler instead (bench/scheduler.py): the analysis"
                        " of 100 deals on 1 and 2 workers, and tarot validate of DEALS deals"
                        " through the scheduler against -j 2 (the issue: 1,000,000)")
    parser.add_argument("--analysis-only", action="store_true",
                        help="with --distributed: the analysis stages only")
    parser.add_argument("--budget", type=int, metavar="NODES",
                        help="with --distributed: the analysis's nodes a deal (1,000,000 by"
                        " default)")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        _measure(args.measure, args.dir)
        return 0
    if args.startup:
        report = startup(args.startup)
        print(_startup_table(report))
        out = args.json or HERE / "startup-results.json"
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"(written to {out})")
        return 0
    if args.json is None:
        args.json = HERE / "results.json"
    n = args.deals or (2000 if args.quick else 20_000)
    folder = data_dir(n, args.seed)
    if args.distributed:
        named = ("distributed-analysis-results.json" if args.analysis_only
                 else "distributed-results.json")
        return _distributed(folder, n, args.distributed, args.json.with_name(named)
                            if args.json == HERE / "results.json" else args.json,
                            args.analysis_only, args.budget)
    if args.profile:
        _profile(args.profile, folder)
        return 0
    rows: dict[str, dict[str, Any]] = {}
    stages = args.only or STAGES
    # Round after round of every stage, so that a slower spell of a shared machine falls
    # on all of them alike; each stage's fastest run is its row (as timeit keeps the best).
    for round_ in range(1, args.repeat + 1):
        for name in stages:
            if "error" in rows.get(name, {}):
                continue
            print(f"  {name} (run {round_} of {args.repeat}) ...", file=sys.stderr, flush=True)
            try:
                row = _run_stage(name, folder, n, args.html_deals)
            except StageError as err:
                print(err, file=sys.stderr)
                rows[name] = {"error": str(err).splitlines()[0]}
                continue
            row["rate"] = row["count"] / row["seconds"]
            runs = [*rows.get(name, {}).get("runs", []), round(row["rate"], 1)]
            best = rows.get(name)
            rows[name] = {**(row if best is None or row["rate"] > best["rate"] else best),
                          "runs": runs}
    if args.memory:
        big = _big_archive(folder, n, args.memory)
        for jobs in (1, 2):
            name = f"memory-j{jobs}"
            print(f"  {name} ({args.memory:,} deals) ...", file=sys.stderr, flush=True)
            LABELS[name] = f"tarot validate -j {jobs}, {args.memory:,} deals"
            try:
                row = _run_cli(jobs, big, args.memory)
            except StageError as err:
                rows[name] = {"error": str(err).splitlines()[0]}
                continue
            row["rate"] = row["count"] / row["seconds"]
            rows[name] = row
        distinct = _distinct_archive(folder, n, args.memory, args.seed)
        for tool, jobs in (("query", 1), ("stats", 1), ("dedupe", 1), ("query", 2)):
            name = f"memory-{tool}-j{jobs}"
            print(f"  {name} ({args.memory:,} deals) ...", file=sys.stderr, flush=True)
            LABELS[name] = f"tarot {tool} -j {jobs}, {args.memory:,} deals"
            try:
                row = _run_tool(tool, jobs, distinct if tool == "dedupe" else big,
                                args.memory)
            except StageError as err:
                rows[name] = {"error": str(err).splitlines()[0]}
                continue
            row["rate"] = row["count"] / row["seconds"]
            rows[name] = row
    load = os.getloadavg()
    print(f"{n:,} deals (4 players), seed {args.seed}; {platform.python_implementation()}"
          f" {platform.python_version()}, {os.cpu_count()} cores,"
          f" load {load[0]:.2f} before the end; the best of {args.repeat} runs")
    print(_table(rows, n))
    if "rate" in rows.get("html", {}):
        print(_html_line(rows["html"]))
    scaling = _scaling(rows)
    if scaling:
        print("-j 2 against -j 1 (best runs): " + "; ".join(
            f"{label} {ratio:.2f}x" for label, ratio in scaling.items()))
    report = {
        "deals": n, "seed": args.seed, "repeat": args.repeat,
        "python": platform.python_version(),
        "machine": platform.machine(), "cores": os.cpu_count(),
        "load_average": load, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "sizes_bytes": {p.name: p.stat().st_size for p in sorted(folder.iterdir())
                        if p.suffix in (".tarot", ".jsonl", ".pgn")},
        "stages": rows,
        "scaling": scaling,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"(written to {args.json})")
    return 0


if __name__ == "__main__":
    sys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=True)
    raise SystemExit(main())
