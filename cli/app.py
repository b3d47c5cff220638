"""The ``tarot`` command: check, replay, score, convert and query Tarot records.

A thin layer over the library: it parses arguments, calls ``tarotnotation`` and prints.
No rule and no format logic lives here.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer

from tarotnotation import __version__
from tarotnotation.archive import check_paths, read_path
from tarotnotation.cards import Card
from tarotnotation.diagnostics import Code, Diagnostic, Severity
from tarotnotation.records import DealRecord
from tarotnotation.replay import Replay, Status, legal_moves, replay
from tarotnotation.rules import Ruleset, RulesetError

from . import validate as validate_mod
from .common import command

app = typer.Typer(
    name="tarot",
    help="Check, replay, score and convert French Tarot game records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

PathsArg = Annotated[
    list[Path], typer.Argument(help="Record files or folders (searched recursively).")
]
RulesetOpt = Annotated[
    str | None,
    typer.Option("--ruleset", "-r", help="Replay under this ruleset instead of each record's"
                 " own, e.g. 'pagat' or 'fft misere=on'."),
]


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"tarot: {message}", err=True)
    return typer.Exit(code)


def _check_ruleset(spec: str | None) -> str | None:
    if spec is None:
        return None
    try:
        return Ruleset.from_spec(spec).spec()
    except RulesetError as err:
        raise _fail(str(err)) from None


def _check_exists(paths: list[Path]) -> None:
    for p in paths:
        if not p.exists():
            raise _fail(f"{p}: no such file or folder")


def _print_diag(d: Diagnostic, color: bool) -> None:
    text = str(d)
    if color:
        style = typer.colors.RED if d.severity is Severity.ERROR else typer.colors.YELLOW
        text = typer.style(text, fg=style)
    typer.echo(text)
    if d.context:
        for line in d.context.rstrip("\n").split("\n"):
            typer.echo(f"    {line}")


app.command("validate", epilog=validate_mod.EPILOG, no_args_is_help=True)(
    command(validate_mod.validate))
app.command("check", hidden=True, epilog=validate_mod.EPILOG, no_args_is_help=True)(
    command(validate_mod.validate))


def _load_deals(path: Path) -> list[tuple[int, DealRecord | None, list[Diagnostic]]]:
    _check_exists([path])
    out = []
    for item in read_path(path):
        out.append((item.index, item.record, list(item.diagnostics)))
    return out


def _pick(path: Path, deal: int | None) -> tuple[list[tuple[int, DealRecord]], bool]:
    """The deals asked for, and whether reading them found an error (printed)."""
    deals = _load_deals(path)
    chosen = [d for d in deals if deal is None or d[0] == deal]
    if not chosen:
        raise _fail(f"{path}: no deal number {deal} (the file holds {len(deals)})")
    out = []
    failed = False
    for index, record, diags in chosen:
        for d in diags:
            _print_diag(d, False)
            failed |= d.severity is Severity.ERROR
        if record is not None:
            out.append((index, record))
    return out, failed


def _fmt_pts(half: int) -> str:
    return str(half // 2) if half % 2 == 0 else f"{half / 2:.1f}"


@app.command("replay")
def replay_cmd(
    path: Annotated[Path, typer.Argument(help="A record file.")],
    deal: Annotated[
        int | None, typer.Option("--deal", "-d", help="Only this deal (1-based).")
    ] = None,
    ruleset: RulesetOpt = None,
) -> None:
    """Show each deal trick by trick, with comments, the count and the score worked out."""
    spec = _check_ruleset(ruleset)
    picked, faulty = _pick(path, deal)
    for index, record in picked:
        if spec is not None:
            record = record.model_copy(update={"ruleset": spec})
        r = replay(record, deal=index)
        _show_replay(index, record, r)
        faulty |= not r.ok
    raise typer.Exit(1 if faulty else 0)


def _show_replay(index: int, record: DealRecord, r: Replay) -> None:
    ids = record.seat_ids
    names = {s.id: f"{s.id} ({s.name})" if s.name else s.id for s in record.seats}
    title = record.tag("Event") or ""
    typer.echo(f"Deal {index}{' — ' + title if title else ''}: {record.players} players,"
               f" ruleset {record.ruleset}")
    for c in record.comments:
        typer.echo(f"  {{{c}}}")
    if r.contract is not None and r.taker is not None:
        line = f"  {r.contract.french} by {names[r.taker]}"
        if r.called is not None:
            partner = "alone" if r.partner is None else f"partner {r.partner}"
            line += f", calls {r.called.code} ({partner})"
        typer.echo(line)
    by_trick: dict[int, list[Diagnostic]] = {}
    for d in r.diagnostics:
        by_trick.setdefault(d.location.trick or 0, []).append(d)
    for d in by_trick.get(0, []):
        _print_diag(d, False)
    for tr, written in zip(r.tricks, record.play, strict=False):
        cells = []
        for card, seat, played in zip(tr.cards, tr.seats, written.cards, strict=False):
            glyph = played.glyph or ""
            cells.append(f"{ids[seat]}:{card.code}{glyph}")
        winner = "—" if tr.winner is None else ids[tr.winner]
        camp = ""
        if tr.winner is not None and r.camps:
            camp = " (taker)" if r.camps[ids[tr.winner]].value == "taker" else ""
        typer.echo(f"  {tr.number:>2}. {' '.join(cells):<44} won by {winner}{camp},"
                   f" {_fmt_pts(tr.points)} pts")
        for c in written.comments:
            typer.echo(f"      {{{c}}}")
        for played in written.cards:
            for c in played.comments:
                typer.echo(f"      {played.card.code}: {{{c}}}")
        for d in by_trick.get(tr.number, []):
            typer.echo(f"      ! {d.code.value} {d.code.slug}: {d.message}")
    if r.status is Status.SCORED and r.score is not None and r.taker_half is not None:
        s = r.score
        typer.echo(f"  Taker's camp: {_fmt_pts(r.taker_half)} points with {r.bouts} bout(s),"
                   f" needs {s.threshold}: {'made' if s.made else 'lost'} by {s.margin}")
        parts = [f"contract {s.contract_amount:+d}"]
        if s.petit_au_bout_amount:
            parts.append(f"petit au bout {s.petit_au_bout_amount:+d}")
        if s.poignee_amount:
            parts.append(f"poignée {s.poignee_amount:+d}")
        if s.chelem_amount:
            parts.append(f"chelem {s.chelem_amount:+d}")
        typer.echo(f"  X = {' '.join(parts)} = {s.x:+d} per defender")
        assert r.scores is not None
        typer.echo("  Scores: " + "  ".join(f"{sid} {v:+d}" for sid, v in r.scores.items()))
    else:
        typer.echo(f"  Not scored: {r.status.value}")
    typer.echo(f"  {len(r.errors)} error(s), {len(r.warnings)} warning(s)")
    typer.echo("")


@app.command()
def score(
    paths: PathsArg,
    ruleset: RulesetOpt = None,
) -> None:
    """One line per deal: contract, taker, points, bouts, result and each seat's score."""
    _check_exists(paths)
    spec = _check_ruleset(ruleset)
    totals: Counter[str] = Counter()
    for checked in check_paths(paths, ruleset=spec):
        r = checked.replay
        head = f"{checked.file} #{checked.index}"
        if r is None:
            typer.echo(f"{head}: unreadable ({checked.errors} error(s))")
            continue
        if r.status is not Status.SCORED or r.scores is None or r.score is None:
            typer.echo(f"{head}: {r.status.value}")
            continue
        assert r.contract is not None
        assert r.taker_half is not None
        for sid, v in r.scores.items():
            totals[sid] += v
        flag = "" if r.ok else f"  [{len(r.errors)} error(s)]"
        typer.echo(f"{head}: {r.contract.keyword} {r.taker} {_fmt_pts(r.taker_half)} pts"
                   f" {r.bouts} bouts {'made' if r.score.made else 'lost'} by {r.score.margin}"
                   f"  " + " ".join(f"{k}{v:+d}" for k, v in r.scores.items()) + flag)
    if totals:
        typer.echo("Totals: " + " ".join(f"{k}{v:+d}" for k, v in totals.items()))


@app.command()
def convert(
    source: Annotated[Path, typer.Argument(help="Input file (any supported format).")],
    target: Annotated[Path | None, typer.Argument(help="Output file; standard output if"
                                                  " omitted.")] = None,
    to: Annotated[str | None, typer.Option("--to", "-t", help="tarot, json or jsonl"
                                           " (default: from the output's extension).")] = None,
) -> None:
    """Convert records between formats: the text notation, JSON and JSON Lines."""
    fmt = to or (_fmt_from_suffix(target) if target else "tarot")
    if fmt not in ("tarot", "json", "jsonl"):
        raise _fail("--to must be tarot, json or jsonl")
    records: list[DealRecord] = []
    failed = False
    for _, record, diags in _load_deals(source):
        for d in diags:
            _print_diag(d, False)
            failed |= d.severity is Severity.ERROR
        if record is not None:
            records.append(record)
    data = _write(records, fmt)
    if target is None:
        sys.stdout.buffer.write(data)
    else:
        target.write_bytes(data)
        typer.echo(f"{len(records)} deal(s) written to {target}", err=True)
    raise typer.Exit(1 if failed else 0)


def _fmt_from_suffix(path: Path) -> str:
    return {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl"}.get(path.suffix.lower(),
                                                                          "tarot")


def _write(records: list[DealRecord], fmt: str) -> bytes:
    import io

    from tarotnotation.formats import json as json_format

    if fmt == "tarot":
        from tarotnotation import notation

        return notation.dumps(records).encode("utf-8")
    buf = io.BytesIO()
    if fmt == "json" and len(records) == 1:
        json_format.dump(records[0], buf, indent=True)
    else:
        json_format.write(records, buf, lines=fmt == "jsonl")
    return buf.getvalue()


@app.command()
def legal(
    path: Annotated[Path, typer.Argument(help="A record file.")],
    trick: Annotated[int, typer.Option("--trick", "-t", help="Trick number (1-based).")],
    card: Annotated[int, typer.Option("--card", "-c", help="Card index in the trick"
                                      " (0 = the lead).")] = 0,
    deal: Annotated[int, typer.Option("--deal", "-d", help="Deal number (1-based).")] = 1,
) -> None:
    """The legal cards for the player to move at a point of a recorded deal, and why the
    others are not."""
    picked, _ = _pick(path, deal)
    if not picked:
        raise _fail("the deal could not be read")
    record = picked[0][1]
    try:
        pos = legal_moves(record, trick, card)
    except ValueError as err:
        raise _fail(str(err)) from None
    typer.echo(f"Trick {pos.trick}, {pos.seat} to play after"
               f" {' '.join(c.code for c in pos.played) or '(leads)'}")
    typer.echo(f"  holds:  {pos.hand}{'' if pos.exact else '  (known part of the hand)'}")
    typer.echo(f"  legal:  {pos.legal}")
    illegal = pos.hand - pos.legal
    if illegal:
        first = next(iter(illegal))
        why = pos.constraint.explain(first)
        assert why is not None
        typer.echo(f"  not:    {illegal}")
        typer.echo(f"  why:    {why.code.value} {why.code.slug}: {why.message}")


@app.command()
def rules() -> None:
    """The rulesets and switches a record may name."""
    typer.echo("Presets: fft (default), pagat")
    fft, pagat = Ruleset.fft(), Ruleset.pagat()
    for name in Ruleset.switch_names():
        typer.echo(f"  {name:<24} fft={fft.switch(name):<22} pagat={pagat.switch(name):<22}"
                   f" values: {', '.join(Ruleset.switch_values(name))}")


@app.command()
def codes() -> None:
    """Every diagnostic code, its severity and what it means."""
    for c in Code:
        typer.echo(f"{c.value}  {c.default_severity.value:<7}  {c.slug:<26} {c.summary}")


@app.command()
def card(code: Annotated[str, typer.Argument(help="A card code such as KH or T21.")]) -> None:
    """Name a card from its code."""
    try:
        c = Card.from_code(code.upper())
    except ValueError as err:
        raise _fail(str(err)) from None
    typer.echo(f"{c.code}: {c.english} / {c.french}, {c.points / 2:g} points"
               f"{', a bout' if c.is_bout else ''}")


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(f"tarotnotation {__version__}")


def main() -> None:
    """Entry point of the ``tarot`` script."""
    try:
        app()
    except BrokenPipeError:  # `tarot ... | head`: the reader went away
        sys.stderr.close()
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None


__all__ = ["app", "main"]
