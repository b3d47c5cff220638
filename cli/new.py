"""``tarot new``: random complete legal deals (practice, tests, benchmarks), and the deal
of the day."""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterator
from typing import Annotated

from tarotnotation.formats.registry import Format
from tarotnotation.i18n import Msg, message_of, nmsg
from tarotnotation.records import DealRecord
from tarotnotation.rules import Ruleset
from tarotnotation.simulate import random_deal

from . import declare
from .common import echo_err, fail, ruleset_spec
from .options import OutOpt, RulesOpt, SetOpt, ToOpt
from .output import opened, output_format, target, write_records

EPILOG = """\
Examples:

  tarot new

  tarot new --players 5 --seed 7 --count 100 -o practice.tarot

  tarot new --count 100000 --to jsonl > archive.jsonl

  tarot new --bots heuristic --players 5 --count 10 -o bots.tarot

  tarot new --daily

  tarot new --daily 2026-11-14 --players 5 -o today.tarot

--bots has bots play each deal from the auction on (docs/bots.md); a deal
where every player passes is written annulled and the next one is dealt.

--daily gives the deal of the day (hands and chien, to be played): the
same on every machine, for every version, from a generator specified in
docs/daily.md. DATE is YYYY-MM-DD, today's local date when left out.
"""


def new(
    date: Annotated[str | None, declare.Argument(
        metavar="[DATE]", help="With --daily: the day, YYYY-MM-DD (default: today).",
        show_default=False)] = None,
    daily: Annotated[bool, declare.Option(
        "--daily", help="The deal of the day: hands and chien, the same for everyone on"
        " that date (docs/daily.md).")] = False,
    players: Annotated[int, declare.Option("--players", "-p", min=3, max=5,
                                         help="3, 4 or 5 players.")] = 4,
    seed: Annotated[int | None, declare.Option("--seed", "-s",
                                             help="Seed of the random generator: the same"
                                             " seed gives the same deals.")] = None,
    count: Annotated[int, declare.Option("--count", "-n", min=1,
                                       help="How many deals.")] = 1,
    bots: Annotated[str | None, declare.Option(
        "--bots", metavar="NAME", help="Bots play each deal, auction included: random,"
        " heuristic, pimc or oracle (docs/bots.md).")] = None,
    output: OutOpt = None,
    to: ToOpt = None,
    rules: RulesOpt = None,
    sets: SetOpt = None,
) -> None:
    """Random complete legal deals: hands, auction, écart, play, score.

    With --bots, the deals are played by bots from the auction on.

    With --daily, the deal of the day instead: the hands and the chien of
    DATE (today when left out), the same for everyone.
    """
    out = target(output)
    fmt = output_format(to, out)
    if daily or date is not None:
        _daily(date, daily, players, fmt, out, seed, count, rules, sets, bots)
        return
    if fmt.one_deal and count > 1:
        fail(Msg("{fmt} holds one deal: use --count 1", fmt=fmt.title))
    spec = ruleset_spec(rules, sets)
    ruleset = Ruleset.from_spec(spec) if spec is not None else None
    rng = random.Random(seed)
    played = _bot_deals(bots, rng, players, count, ruleset) if bots is not None else (
        random_deal(rng, players, ruleset=ruleset) for _ in range(count))

    def records() -> Iterator[DealRecord]:
        for i, record in enumerate(played, 1):
            yield record.model_copy(update={"tags": (*record.tags, ("Deal", str(i)))})

    with opened(out) as fh:
        written = write_records(records(), fmt, fh)
    if out is not None:
        echo_err(nmsg("{n} deal written to {output} ({fmt})",
                      "{n} deals written to {output} ({fmt})", written, n=f"{written:,}",
                      output=out, fmt=fmt.name))


def _bot_deals(name: str, rng: random.Random, players: int, count: int,
               ruleset: Ruleset | None) -> Iterator[DealRecord]:
    """``tarot new --bots NAME``: the deals played by the bot ``name`` at every seat (its
    seed drawn from ``rng``)."""
    from tarotnotation.players import make
    from tarotnotation.players.deals import bot_deals

    try:
        bot = make(name, seed=rng.getrandbits(32))
    except ValueError as err:
        fail(message_of(err))
    return bot_deals(rng, players, bot, count=count, ruleset=ruleset)


def _daily(date: str | None, daily: bool, players: int, fmt: Format, out: str | None,
           seed: int | None, count: int, rules: str | None, sets: list[str] | None,
           bots: str | None) -> None:
    """``tarot new --daily [DATE]``."""
    from tarotnotation.archives.daily import daily_deal, parse_date

    if not daily:
        fail(Msg("{date}: a date is given with --daily (tarot new --daily {date})", date=date))
    for given, name in ((seed, "--seed"), (rules, "--rules"), (sets, "--set"),
                        (bots, "--bots")):
        if given:
            fail(Msg("{name} cannot be used with --daily: the deal of the day is the same for"
                     " everyone", name=name))
    if count != 1:
        fail(Msg("--count cannot be used with --daily: there is one deal a day"))
    try:
        day = parse_date(date) if date is not None else datetime.date.today()
    except ValueError as err:
        fail(message_of(err))
    with opened(out) as fh:
        write_records([daily_deal(day, players)], fmt, fh)
    if out is not None:
        echo_err(Msg("the deal of {day} written to {output} ({fmt})", day=day.isoformat(),
                     output=out, fmt=fmt.name))
