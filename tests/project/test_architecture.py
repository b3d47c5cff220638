"""The house rules of the code: one source of truth for every rule, no private reach, no
import circle.

- Each rule of play and counting lives in one function of the rules kernel
  (:mod:`tarotnotation.kernel`, which gives the rules it holds in
  :mod:`~tarotnotation.kerneldeal` and :mod:`~tarotnotation.kernelplay` too). The
  proof: replace each of them in turn by a wrong one, and the replay, the quick check
  of archives, the annotations, the page writer's fast path (html/fast.py) and the score
  sheets' reader all change their answer on the examples (none of them has a copy of its
  own that would go on giving the right one); and no module but the kernel calls the
  functions that count a trick (the Excuse's exchange, the last trick's rules, settling a
  trick): they count a deal's tricks with ``kernel.count_tricks`` or ``PlayState``.
- No module takes a private name (``_x``) from another module of the project, neither by
  ``from m import _x`` nor as ``m._x``.
- No import circle among the project's modules, counting the imports inside functions:
  an import inside a function keeps start-up short, and it reaches down, never back up
  (only a type-only import, under ``if TYPE_CHECKING:``, may name a module above).
"""

from __future__ import annotations

import ast
import functools
import pathlib
import random
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

import pytest
from builders import defence_chelem_excuse_led_last

from tarotnotation import kernel, kerneldeal, kernelplay, native, notation
from tarotnotation.cards import Card, CardSet
from tarotnotation.formats import csvsheet
from tarotnotation.formats import json as tjson
from tarotnotation.html import fast as html_fast
from tarotnotation.narrator import annotate
from tarotnotation.notation import dumps
from tarotnotation.plausibility import score_bounds
from tarotnotation.quick import forget_scores, quick_check_record
from tarotnotation.records import DealRecord, Poignee
from tarotnotation.replay import replay
from tarotnotation.rules import Contract, Ruleset
from tarotnotation.simulate import random_deal

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: The rules kernel: kernel.py, which gives every rule, and the modules it holds them in
#: (the rules of the deal, of play). Every other module calls the rules through
#: ``kernel``.
KERNEL = (kernel, kerneldeal, kernelplay)
KERNEL_MODULES = frozenset(m.__name__ for m in KERNEL)
PACKAGES = (("tarotnotation", "tarotnotation"), ("cli", "tarotnotation.cli"),
            ("grammar", "tarotnotation.grammar"))


# --- the import graph ---------------------------------------------------------------------


@functools.cache
def _modules() -> Mapping[str, pathlib.Path]:
    """The project's modules and their files, found once a test process (each module's
    check asks again; a read-only view)."""
    mods = {}
    for folder, package in PACKAGES:
        root = ROOT / folder
        for f in root.rglob("*.py"):
            parts = [p for p in f.relative_to(root).with_suffix("").parts if p != "__init__"]
            mods[".".join([package, *parts])] = f
    return MappingProxyType(mods)


def _target(module: str, path: pathlib.Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _type_only(nodes: tuple[ast.AST, ...]) -> set[int]:
    """The nodes under an ``if TYPE_CHECKING:`` block, anywhere (types only: never run),
    of a tree's ``nodes`` (:func:`_nodes`)."""
    out: set[int] = set()
    for node in nodes:
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"):
            out.update(id(n) for s in node.body for n in ast.walk(s))
    return out


@functools.cache
def _parsed(source: str) -> ast.Module:
    """The tree of a module's source, parsed once a test process: the tests below walk
    the same hundred modules five times (their trees are only read)."""
    return ast.parse(source)


@functools.cache
def _nodes(source: str) -> tuple[ast.AST, ...]:
    """Every node of :func:`_parsed`'s tree, in ``ast.walk``'s order: walked once a source
    (the checks go over each tree's nodes twice or more)."""
    return tuple(ast.walk(_parsed(source)))


def _imports(planted: dict[str, str] | None = None
             ) -> tuple[dict[str, set[str]], list[str]]:
    """The project's import graph (what each module imports, when it is loaded or inside
    a function: both run; a type-only import does not), and every private name taken from
    another module (anywhere)."""
    mods = _modules()
    sources = {m: path.read_text(encoding="utf-8") for m, path in mods.items()}
    sources.update(planted or {})
    graph: dict[str, set[str]] = {}
    private: list[str] = []
    for module, path in mods.items():
        imported, taken = _module_imports(module, path, sources[module])
        graph[module] = set(imported)
        private.extend(taken)
    return graph, private


@functools.cache
def _module_imports(module: str, path: pathlib.Path, source: str
                    ) -> tuple[frozenset[str], tuple[str, ...]]:
    """What one module imports when it runs, and the private names it takes from another
    module: worked out once a source in a test process (the checks below and their
    planted variants ask it of the same hundred modules again and again)."""
    mods = _modules()
    types_only = _type_only(_nodes(source))
    imported: set[str] = set()
    private: list[str] = []
    aliases: dict[str, str] = {}  # local name -> project module
    for node in _nodes(source):
        runs = id(node) not in types_only  # (at load or in a function)
        if isinstance(node, ast.ImportFrom):
            target = _target(module, path, node)
            for alias in node.names:
                full = f"{target}.{alias.name}"
                if full in mods:
                    if runs:
                        imported.add(full)
                    aliases[alias.asname or alias.name] = full
                elif target in mods:
                    if runs:
                        imported.add(target)
                    if (alias.name.startswith("_") and not alias.name.startswith("__")
                            and target != module):
                        private.append(f"{path.relative_to(ROOT)}:{node.lineno}"
                                       f" takes {alias.name} from {target}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in mods:
                    if runs:
                        imported.add(alias.name)
                    aliases[alias.asname or alias.name] = alias.name
    for node in _nodes(source):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.attr.startswith("_")
                and not node.attr.startswith("__") and aliases[node.value.id] != module):
            private.append(f"{path.relative_to(ROOT)}:{node.lineno} uses"
                           f" {node.value.id}.{node.attr}")
    return frozenset(imported), tuple(private)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_takes_a_private_name_of_another() -> None:
    _, private = _imports()
    assert private == []


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for an attribute chain on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _tests_taking_private_names(planted: dict[str, str] | None = None) -> list[str]:
    """Every private name of the package a test file (or a helper of the tests) takes: by
    ``from m import _x``, as ``m._x``, or patched as ``setattr(m, "_x", ...)`` or
    ``setattr("tarotnotation.m._x", ...)``. A name a test needs is public in its module."""
    files = {f.name: f.read_text(encoding="utf-8") for f in (ROOT / "tests").rglob("*.py")}
    files.update(planted or {})
    return [found for name, source in sorted(files.items())
            for found in _private_names_a_test_takes(name, source)]


@functools.cache
def _private_names_a_test_takes(name: str, source: str) -> tuple[str, ...]:
    """The private names of the package one test file takes: worked out once a source in
    a test process (the check and its planted variant read the same files)."""
    mods = _modules()
    out: list[str] = []
    aliases: dict[str, str] = {}  # local name -> project module
    for node in _nodes(source):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in mods:
            for alias in node.names:
                if f"{node.module}.{alias.name}" in mods:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                elif _private(alias.name):
                    out.append(f"{name}:{node.lineno} takes {alias.name} from {node.module}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in mods:
                    local = alias.asname or alias.name.split(".")[0]
                    aliases[local] = alias.name if alias.asname else local
    for node in _nodes(source):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain = _dotted(node.value)
            if chain is None:
                continue
            head, _, rest = chain.partition(".")
            module = ".".join(filter(None, [aliases.get(head, ""), rest]))
            if head in aliases and module in mods:
                out.append(f"{name}:{node.lineno} uses {chain}.{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "setattr" and node.args):
            first = node.args[0]
            if (isinstance(first, ast.Constant) and isinstance(first.value, str)
                    and first.value.rpartition(".")[0] in mods
                    and _private(first.value.rpartition(".")[2])):
                out.append(f"{name}:{node.lineno} patches {first.value}")
            elif (len(node.args) > 1 and isinstance(first, ast.Name)
                    and first.id in aliases and isinstance(node.args[1], ast.Constant)
                    and isinstance(node.args[1].value, str)
                    and _private(node.args[1].value)):
                out.append(f"{name}:{node.lineno} patches {first.id}.{node.args[1].value}")
    return tuple(out)


def test_no_test_takes_a_private_name_of_the_package() -> None:
    assert _tests_taking_private_names() == []


def test_the_tests_private_name_check_can_fail() -> None:
    # Each way a test could take a private name is seen; public names and the tests'
    # own private helpers are not.
    planted = {"test_planted.py": (
        "from tarotnotation import archive, notation\n"
        "from tarotnotation.quick import _judge, check_line\n"
        "import tarotnotation.atomic as atomic\n"
        "import tarotnotation.notation.reader\n"
        "def _mine() -> None: ...\n"
        "def test_x(monkeypatch):\n"
        "    archive._parts(1)\n"
        "    notation.reader._cut(2)\n"
        "    tarotnotation.notation.reader._cut(3)\n"
        "    monkeypatch.setattr(atomic, '_sync', None)\n"
        "    monkeypatch.setattr('tarotnotation.analysis.search._WARNED', [])\n"
        "    archive.parts_of('x'); _mine(); monkeypatch.setattr(atomic, 'sync', None)\n")}
    found = [f for f in _tests_taking_private_names(planted) if f.startswith("test_planted")]
    assert sorted(found, key=lambda f: int(f.split(":")[1].split()[0])) == [
        "test_planted.py:2 takes _judge from tarotnotation.quick",
        "test_planted.py:7 uses archive._parts",
        "test_planted.py:8 uses notation.reader._cut",
        "test_planted.py:9 uses tarotnotation.notation.reader._cut",
        "test_planted.py:10 patches atomic._sync",
        "test_planted.py:11 patches tarotnotation.analysis.search._WARNED",
    ]


def test_no_import_circle() -> None:
    graph, _ = _imports()
    assert _cycles(graph) == []


def test_the_import_checks_can_fail() -> None:
    # The checks above are not vacuous: they see the graph, and find a planted circle (at
    # load or through an import inside a function) and planted private reaches (by name
    # and by attribute), while a type-only import makes no circle.
    graph, _ = _imports()
    assert "tarotnotation.kernel" in graph["tarotnotation.replay"]
    kernel_source = (ROOT / "tarotnotation" / "kernel.py").read_text(encoding="utf-8")
    planted, private = _imports({"tarotnotation.kernel": kernel_source
                                 + "\nfrom .replay import _CODES\nfrom . import quick\n"
                                 "x = quick._FIRST\n"})
    assert _cycles(planted) != []
    assert any("takes _CODES" in p for p in private)
    assert any("quick._FIRST" in p for p in private)
    lazy, _ = _imports({"tarotnotation.kernel": kernel_source
                        + "\ndef f() -> None:\n    from . import replay\n"})
    assert _cycles(lazy) != []
    typed, _ = _imports({"tarotnotation.kernel": kernel_source
                         + "\nif TYPE_CHECKING:\n    from . import quick\n"
                         "def g() -> None:\n    if TYPE_CHECKING:\n"
                         "        from . import replay\n"})
    assert _cycles(typed) == []


# --- one source of truth ------------------------------------------------------------------


def _deals() -> list[DealRecord]:
    """Deals that exercise every kernel rule where the quick check takes them (3 or 4
    players, the usual shape): the examples, generated deals under every switch, the
    scripted chelems with the Excuse led to the last trick, and generated deals each with
    one fault that a rule of the deal catches (a bid not higher, the Petit sec, a King in
    the écart, the Excuse in a poignée hiding a trump, a card not following suit). The
    faulty and the scripted deals come first: a rule that only they reach is seen
    without going through the others (:func:`_callers_that_differ`)."""
    out = [_faulty(fault) for fault in FAULTS]
    for ruleset in ("fft", "fft chelem_excuse_wins=false"):
        for last in ("E", "S"):
            out.append(defence_chelem_excuse_led_last(last, ruleset))
    out += [deal.record for path in sorted((ROOT / "examples").rglob("*.tarot"))
            for deal in notation.read(path) if deal.record is not None]
    specs = ("fft", "pagat", "fft chelem_excuse_wins=false",
             "fft petit_au_bout=wins_last_trick", "fft petit_in_chien=annuls")
    rng = random.Random(13)
    for i in range(40):
        out.append(random_deal(rng, 3 + i % 2, ruleset=Ruleset.from_spec(specs[i % len(specs)]),
                               chelem_chance=0.3))
    return out


def _faulty(fault: str) -> DealRecord:
    """A generated 4-player deal with one fault, whose only fault code is ``fault``."""
    for seed in range(2000):
        rec = _inject(fault, random.Random(seed))
        if rec is not None and {d.code.value for d in replay(rec).diagnostics} == {fault}:
            return rec
    raise AssertionError(f"no deal with the fault {fault} alone")


FAULTS = ("A102", "D103", "E102", "H103", "H104", "P105")


def _inject(fault: str, rng: random.Random) -> DealRecord | None:
    if fault == "D103":  # a hand petit sec: deal a pack where one is
        order = list(range(78))
        rng.shuffle(order)
        rec = random_deal(rng, 4, deck=[Card(c) for c in order], contract=Contract.GARDE_SANS)
        return rec if any(kernel.petit_sec(h.bits) for h in (rec.hands or {}).values()) else None
    rec = random_deal(rng, 4, contract=Contract.GARDE_SANS if fault == "A102" else None,
                      poignee_chance=1.0 if fault in ("H103", "H104") else 0.0)
    assert rec.hands is not None
    if fault == "A102":  # the next player bids the taker's contract again
        bids = list(rec.auction)
        at = next(i for i, b in enumerate(bids) if b.contract is not None)
        if at == len(bids) - 1:
            return None
        bids[at + 1] = bids[at]
        return rec.model_copy(update={"auction": tuple(bids), "result": None})
    if fault == "E102":  # a King of the écart swapped with a small card the taker played
        if rec.ecart is None or rec.ecart.cards is None:
            return None
        small = next(iter(rec.ecart.cards), None)
        played = [(t, c, pc.card) for t, tr in enumerate(rec.play)
                  for c, pc in enumerate(tr.cards) if pc.card.is_king]
        if small is None or not played:
            return None
        t, c, king = played[0]
        play = [list(tr.cards) for tr in rec.play]
        play[t][c] = play[t][c].model_copy(update={"card": small})
        ecart = rec.ecart.cards - CardSet.of(small) | CardSet.of(king)
        taker = next(s for s, h in rec.hands.items() if king in h or small in h)
        hands = dict(rec.hands)
        hands[taker] = hands[taker] - CardSet.of(king) | CardSet.of(small)
        chien = rec.chien
        if chien is not None and small in chien:
            chien = chien - CardSet.of(small) | CardSet.of(king)
            hands[taker] = hands[taker] - CardSet.of(small) | CardSet.of(king)
        return rec.model_copy(update={
            "play": tuple(tr.model_copy(update={"cards": tuple(cards)})
                          for tr, cards in zip(rec.play, play, strict=True)),
            "ecart": rec.ecart.model_copy(update={"cards": ecart}), "hands": hands,
            "chien": chien, "result": None})
    if fault in ("H103", "H104"):  # the Excuse, or a plain card, shown in place of a trump
        decls = list(rec.declarations)
        for i, d in enumerate(decls):
            if isinstance(d, Poignee) and d.cards is not None and Card.EXCUSE not in d.cards:
                hand = rec.hands.get(d.seat, CardSet())
                instead = (Card.EXCUSE if fault == "H104" and Card.EXCUSE in hand
                           else next((c for c in hand if c.suit.is_plain), None)
                           if fault == "H103" else None)
                if instead is not None:
                    shown = d.cards - CardSet.of(next(iter(d.cards))) | CardSet.of(instead)
                    decls[i] = d.model_copy(update={"cards": shown})
                    return rec.model_copy(update={"declarations": tuple(decls),
                                                  "result": None})
        return None
    # P105: two cards of one player swapped between two tricks
    play = [list(tr.cards) for tr in rec.play]
    t1, t2 = rng.sample(range(len(play)), 2)
    r = replay(rec)
    seat = rng.randrange(4)
    c1 = r.tricks[t1].seats.index(seat)
    c2 = r.tricks[t2].seats.index(seat)
    play[t1][c1], play[t2][c2] = play[t2][c2], play[t1][c1]
    return rec.model_copy(update={
        "play": tuple(tr.model_copy(update={"cards": tuple(cards)})
                      for tr, cards in zip(rec.play, play, strict=True)), "result": None})


#: What each caller says of a deal: the replay, the quick check, the annotations, the page
#: writer's fast path and the score sheets' reader.
CALLERS = ("replay", "quick", "notes", "pages", "sheets")
Answers = list[tuple[Any, ...]]


def _answers_of(deals: list[DealRecord]) -> Iterator[tuple[Any, ...]]:
    """What the replay, the quick check, the annotations, the page writer's fast path and
    the score sheets' reader (the deal written as a sheet, read back and replayed: a
    sheet a deal, one table's players a sheet) say of each deal, deal by deal (in the
    order of :data:`CALLERS`)."""
    read_fast = html_fast.reader()
    nav = {"index": "index.html", "prev": None, "next": None}
    for i, rec in enumerate(deals):
        r = replay(rec)
        line = tjson.dumps(rec)
        deal = read_fast(line if isinstance(line, bytes) else line.encode())
        sheets = []
        if rec.result is not None:
            for read in csvsheet.read(csvsheet.dumps([rec]), name="sheet.csv"):
                answer = replay(read.record) if read.record is not None else None
                sheets.append((tuple(d.code for d in read.diagnostics), read.record,
                               None if answer is None
                               else tuple(d.code for d in answer.diagnostics),
                               None if answer is None or answer.scores is None
                               else tuple(answer.scores.items())))
        yield ((r.status, tuple(d.code for d in r.diagnostics),
                None if r.scores is None else tuple(r.scores.items()), r.counts),
               quick_check_record(rec), dumps([annotate(rec)]),
               None if deal is None else
               html_fast.deal_data(deal, i + 1, "a.jsonl", i, "", "a.jsonl", nav), sheets)


def _callers_that_differ(deals: list[DealRecord], baseline: Answers,
                         callers: frozenset[str]) -> set[str]:
    """Which of ``callers`` say something else of some deal than ``baseline`` (what each
    said before): the deals are taken in turn until each of them has differed, or to the
    last deal (what differs on a deal is enough; the deals after it change nothing)."""
    differ: set[str] = set()
    for answers, before in zip(_answers_of(deals), baseline, strict=True):
        differ.update(caller for caller, now, then in zip(CALLERS, answers, before, strict=True)
                      if now != then)
        if differ >= callers:
            break
    return differ & callers


def _lowest(bits: int) -> int:
    return (bits & -bits).bit_length() - 1


def _everything_legal(hand: int, led: int, top: int) -> tuple[int, int]:
    return hand, kernel.FREE


#: Each kernel function the quick check calls, and a wrong one in its place (the rules
#: the quick check leaves to the replay, such as five-player calls, misères or trumps in
#: the écart, are held by the replay's own tests).
WRONG: dict[str, Callable[..., Any]] = {
    "legal_in": _everything_legal,
    "step": lambda led, top, card: (led, top),
    "winning_card": lambda bits, led: _lowest(bits & kernel.CAN_WIN[led]),
    "excuse_settlement": lambda rules, owner, winner, last, won: (winner, 0),
    "settle_trick": lambda rules, bits, winner, owner, last, won: (
        (bits, 0, 0) if winner == kernel.TAKER else (0, bits, 0)),
    "unplayed_camp": lambda contract: kernel.DEFENCE,
    "petit_au_bout": lambda rules, trick, winner: -1,
    "chelem_camp": lambda taker_tricks, tricks: -1,
    "petit_sec": lambda hand: False,
    "outbids": lambda bid, best: True,
    "ecart_forbidden": lambda ecart: 0,
    "poignee_hidden_trumps": lambda hand, shown: 0,
    "excuse_wins_last_trick": lambda rules, led, won_all: False,
    "petit_trick_before_last": lambda led, won_all, same_camp: False,
    "petit_in_chien_annuls": lambda rules, contract, chien: contract.takes_chien,
    "first_leader": lambda first, announcer: first,
    "poignee_wrong_cards": lambda shown: 0,
    "shares": lambda players, partner: (players, 0, -1),
}


@pytest.fixture(scope="module")
def deals() -> list[DealRecord]:
    return _deals()


@pytest.fixture(scope="module")
def baseline(deals: list[DealRecord]) -> Answers:
    return list(_answers_of(deals))


@pytest.fixture
def fresh_tables() -> Iterator[None]:
    """The kernel's transition table is worked out from legal_in and step once, the quick
    check's scores and the score's bounds once a fact: work them out again from the wrong
    rule, and from the right one afterwards."""
    for forget in (kernel.transitions.cache_clear, forget_scores, score_bounds.cache_clear):
        forget()
    yield
    for forget in (kernel.transitions.cache_clear, forget_scores, score_bounds.cache_clear):
        forget()


@pytest.mark.parametrize("name", sorted(WRONG))
def test_each_kernel_rule_is_the_one_every_caller_uses(
        name: str, deals: list[DealRecord], baseline: Answers,
        monkeypatch: pytest.MonkeyPatch, fresh_tables: None) -> None:
    # (in every module of the kernel that holds the name: where it is written, and
    # kernel.py, which gives it; a rule that calls another calls the wrong one too)
    holders = [m for m in KERNEL if name in vars(m)]
    assert kernel in holders
    for module in holders:
        monkeypatch.setattr(module, name, WRONG[name])
    kernel.transitions.cache_clear()
    # The quick check's pure path, which calls the kernel: its compiled path plays on the
    # kernel's C twin (tarotnotation._kernel.play), which cannot see a Python function
    # replaced; that twin is held to the kernel by tests/twins/test_kernel_twin.py, and the two
    # paths of the quick check to each other by tests/twins/test_quick_native.py.
    monkeypatch.setattr(native, "compiled", lambda force=False: None)
    callers = frozenset(CALLERS if name in SHEETS_USE else CALLERS[:-1])
    differ = _callers_that_differ(deals, baseline, callers)
    assert "replay" in differ, f"the replay does not use kernel.{name}"
    assert "quick" in differ, f"the quick check does not use kernel.{name}"
    assert "notes" in differ, f"the annotations do not use kernel.{name}"
    assert "pages" in differ, f"the page writer does not use kernel.{name}"
    if name in SHEETS_USE:
        assert "sheets" in differ, f"the score sheets' reader does not use kernel.{name}"


#: The kernel's rules a score sheet depends on, written from a deal and read back: those
#: that count the deal's facts the sheet holds (the writer takes them from the replay),
#: and the score's sharing (the reader finds the camps from the scores). The rules of
#: play that only make a fault do not reach a sheet of clean deals' facts, nor does
#: ``petit_in_chien_annuls`` any more: a deal played out with the Petit in the chien is
#: flagged and scored as played (issue 31), so the rule adds a warning, not a score.
SHEETS_USE = ("chelem_camp", "excuse_settlement", "excuse_wins_last_trick", "first_leader",
              "petit_au_bout", "petit_trick_before_last", "settle_trick", "shares",
              "unplayed_camp", "winning_card")


#: The functions that count a trick: only the kernel calls them (its count_tricks and
#: PlayState do), except bounds.py, which asks the Excuse's rules of the tricks a camp
#: could win (the reachable counts of docs/rules.md), not of a deal's tricks.
TRICK_COUNTING = ("settle_trick", "excuse_settlement", "excuse_wins_last_trick",
                  "petit_trick_before_last", "petit_au_bout", "end_trick")
ALLOWED_OUTSIDE = {"tarotnotation.bounds": {"excuse_wins_last_trick", "excuse_settlement"}}


def _counting_outside_the_kernel(planted: dict[str, str] | None = None) -> list[str]:
    """Where a module other than the kernel's takes a function that counts a trick: as
    ``kernel.f`` (or from another module of the kernel) or imported from the kernel."""
    mods = _modules()
    sources = {m: path.read_text(encoding="utf-8") for m, path in mods.items()}
    sources.update(planted or {})
    out: list[str] = []
    for module, source in sorted(sources.items()):
        if module in KERNEL_MODULES:
            continue
        allowed = ALLOWED_OUTSIDE.get(module, set())
        for node in _nodes(source):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and f"tarotnotation.{node.value.id}" in KERNEL_MODULES):
                line, names = node.lineno, [node.attr]
            elif (isinstance(node, ast.ImportFrom) and node.module is not None
                    and _target(module, mods.get(module, ROOT / "x.py"), node)
                    in KERNEL_MODULES):
                line, names = node.lineno, [alias.name for alias in node.names]
            else:
                continue
            out.extend(f"{module}:{line} {name}" for name in names
                       if name in TRICK_COUNTING and name not in allowed)
    return out


def test_only_the_kernel_counts_a_trick() -> None:
    assert _counting_outside_the_kernel() == []


def test_the_trick_counting_check_can_fail() -> None:
    html = (ROOT / "tarotnotation" / "html" / "fast.py").read_text(encoding="utf-8")
    planted = {"tarotnotation.html.fast": html + (
        "\ndef again(rules, bits):\n"
        "    return kernel.settle_trick(rules, bits, 0, -1, False, False)\n"),
        "tarotnotation.quick": "from .kernel import excuse_wins_last_trick\n",
        "tarotnotation.scoring": "from .kernelplay import settle_trick\n"
                                 "x = kernelplay.end_trick\n"}
    assert _counting_outside_the_kernel(planted) == [
        f"tarotnotation.html.fast:{html.count(chr(10)) + 3} settle_trick",
        "tarotnotation.quick:1 excuse_wins_last_trick",
        "tarotnotation.scoring:1 settle_trick", "tarotnotation.scoring:2 end_trick"]


@pytest.mark.parametrize("module", ["quick.py", "judge.py"])
def test_the_quick_check_names_its_cards(module: str) -> None:
    # (no bare 77 and 56 for the Excuse and the Petit: cards.Card names them)
    tree = _parsed((ROOT / "tarotnotation" / module).read_text(encoding="utf-8"))
    assert [n.lineno for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and n.value in (56, 77)
            and not isinstance(n.value, bool)] == []


# --- rooms of a readable size ---------------------------------------------------------------

#: The most lines a module of the package may hold (issue 30: rooms named for what they
#: hold, each one a newcomer can read).
MAX_MODULE_LINES = 900


def _long_modules(lines: dict[str, int]) -> list[str]:
    """Each module over :data:`MAX_MODULE_LINES` lines."""
    return sorted(f"{m}: {n} lines" for m, n in lines.items() if n > MAX_MODULE_LINES)


def test_every_module_is_under_900_lines() -> None:
    lines = {m: path.read_text(encoding="utf-8").count("\n")
             for m, path in _modules().items()}
    assert _long_modules(lines) == []


def test_the_module_size_check_can_fail() -> None:
    lines = {"tarotnotation.kernel": 901, "tarotnotation.replay": 900,
             "tarotnotation.archive": 1400}
    assert _long_modules(lines) == [
        "tarotnotation.archive: 1400 lines", "tarotnotation.kernel: 901 lines"]


#: The README is for users (issue 30): what it is, the two commands, a tour, the library in
#: ten lines, links; the measures go to docs/benchmarks.md.
MAX_README_LINES = 350


def test_the_readme_is_under_350_lines() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count("\n") < MAX_README_LINES


# --- one route per format: a deal's text read once, a deal judged once ----------------------

#: Who reads a deal of the text notation into data, and who judges a deal: each called from
#: these functions only (module:function, the outermost one). A record's text is scanned
#: once, by the fast scanner (in Python) or its C twin (``scan_text``, which
#: ``_tarot_checked`` hands to notation.bulk), and the scan is offered to the quick judge
#: and then to the record builder; the grammar (Lark's ``parser()``) reads what the
#: scanners leave, and works out positions; every route of the quick check, whichever
#: reader cut the deal into parts, ends in ``quick._judge``, the one call of the judge.
READS: dict[str, set[str]] = {
    "tarotnotation.judge.judge": {"tarotnotation.quick:_judge"},
    "tarotnotation.notation.scanner.scan": {"tarotnotation.notation.reader:_scanned"},
    "tarotnotation.notation.parsing.parser": {
        "tarotnotation.notation.reader:_read_record",  # a record the scanners leave
        "tarotnotation.notation.reader:_result_tag",  # a [Result] tag's value
        "tarotnotation.notation.reader:_grammar_positions"},  # a fault's positions
    "scan_text": {"tarotnotation.checking:_tarot_checked"},
}


def _outermost(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Every node of a module with the name of the outermost function or class it is in
    (``<module>`` at the top)."""
    for top in tree.body:
        where = (top.name if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef,
                                              ast.ClassDef)) else "<module>")
        for node in ast.walk(top):
            yield where, node


def _readers(planted: dict[str, str] | None = None) -> dict[str, set[str]]:
    """Where each name of :data:`READS` is called: a function imported by name or reached
    as an attribute of its module, or the C scanner ``scan_text`` named at all."""
    mods = _modules()
    sources = {m: path.read_text(encoding="utf-8") for m, path in mods.items()}
    sources.update(planted or {})
    found: dict[str, set[str]] = {name: set() for name in READS}
    for module, path in mods.items():
        tree = _parsed(sources[module])
        local: dict[str, str] = {}  # a name bound by an import -> what it names
        for node in _nodes(sources[module]):
            if isinstance(node, ast.ImportFrom):
                target = _target(module, path, node)
                local.update((a.asname or a.name, f"{target}.{a.name}") for a in node.names)
            elif isinstance(node, ast.Import):
                local.update((a.asname, a.name) if a.asname else
                             (a.name.split(".")[0], a.name.split(".")[0]) for a in node.names)
        for where, node in _outermost(tree):
            name = None
            if isinstance(node, ast.Attribute) and node.attr == "scan_text":
                name = "scan_text"
            elif isinstance(node, ast.Call):
                dotted = _dotted(node.func)
                if dotted is not None:
                    head, _, rest = dotted.partition(".")
                    if head in local:
                        name = ".".join(filter(None, (local[head], rest)))
            if name in found:
                found[name].add(f"{module}:{where}")
    return found


def test_a_deal_is_read_and_judged_by_one_route_per_reader() -> None:
    assert _readers() == READS


def test_the_route_check_can_fail() -> None:
    # A second judge of a deal, a second scan of a record and a grammar reading outside
    # the reader are all seen; so is the C scanner named elsewhere.
    html = (ROOT / "tarotnotation" / "html" / "fast.py").read_text(encoding="utf-8")
    planted = {
        "tarotnotation.html.fast": html + "\nfrom ..judge import judge as j\n"
                                          "def again():\n    return j()\n",
        "tarotnotation.notation.skim": "from . import scanner, parsing\n"
                                       "def twice(t):\n    scanner.scan(t)\n"
                                       "    return parsing.parser().parse(t)\n",
        "tarotnotation.cutting": "class Cut:\n    def f(self, twin):\n"
                                 "        return twin.scan_text\n",
    }
    found = _readers(planted)
    assert found["tarotnotation.judge.judge"] == {"tarotnotation.quick:_judge",
                                                  "tarotnotation.html.fast:again"}
    assert found["tarotnotation.notation.scanner.scan"] == {
        "tarotnotation.notation.reader:_scanned", "tarotnotation.notation.skim:twice"}
    assert "tarotnotation.notation.skim:twice" in found["tarotnotation.notation.parsing.parser"]
    assert found["scan_text"] == {"tarotnotation.checking:_tarot_checked",
                                  "tarotnotation.cutting:Cut"}
