"""Playthroughs: a seeded game of every game and its main options, written out in full as text, checked in under
``tests/playthroughs/`` and compared by ``tests/test_playthroughs.py`` (the idea of OpenSpiel's playthrough
tests): any change in what a game does — a legal move, a view, a line of narration, a score — shows as a diff.

Each file is a game dealt from a seed and played by a seeded chooser (a uniform choice among the legal actions,
sorted by their text, with cardkit's own `Rng`) through the public protocol only: at each decision the player to
move, the legal actions with their labels, the exact odds the mover is shown (`advice`, where the game has
them), the move chosen, the view of the teacher (everything) and of each seat, the move's narration as everyone hears it and what a seat is told besides, the end of each round with its
result, once per file an undo (the view is back as it was), and at the end the scores.

Regenerate every file after a deliberate change of behaviour (never to make a failing test pass unread)::

    python -m cardkit.playthrough --update          # all files
    python -m cardkit.playthrough magische7         # one game's playthroughs, printed (--update: written)
"""
from __future__ import annotations

import argparse
import copy
import difflib
import os
import re
import sys
import textwrap
from fractions import Fraction
from dataclasses import dataclass, field

from . import load_game
from .rng import Rng

DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "playthroughs")
REGENERATE = "python -m cardkit.playthrough --update"


@dataclass(frozen=True)
class Spec:
    """One playthrough: the game, the options that differ from the defaults, the seed of the deal and of the
    chooser, and where the game is cut (`rounds`: stop once that many rounds — hands, coups, deals — are over;
    `decisions`: stop after that many decisions; `last`: write out only the last round, the rounds before played
    the same way but only their results written; none: the whole game), with the reason for the cut."""
    game: str
    options: dict = field(default_factory=dict)
    seed: int = 1
    rounds: int | None = None
    decisions: int | None = None
    last: bool = False
    why: str = ""

    @property
    def name(self) -> str:
        parts = [self.game] + [f"--{k}={v}" for k, v in self.options.items()] + (["--last-round"] if self.last else [])
        return re.sub(r"[^A-Za-z0-9_.=+-]", "_", "".join(parts))

    @property
    def path(self) -> str:
        return os.path.join(DIR, self.name + ".txt")


_WHIST_CUT = "a game to 7 points is 5 to 16 hands (500 to 800 decisions): the first hand shows every rule of play"
_SIEBEN_CUT = "a game to 12 is some 15 rounds (500 decisions): the first two rounds show the play and the scoring"

_24_CUT = "a game is 3 to 6 rounds: the first two show the exchange, the play and the scoring"
_ECARTE_CUT = "a game to 5 points is 4 or 5 deals: the first two show the exchange and the scoring"
_FARO_CUT = "a deal of 25 turns is over a hundred decisions; the default playthrough plays one whole"
_BAKKARAT_CUT = "a sitting is a round of banks: four coups show the reading"

SPECS: list[Spec] = [
    # Where options given switch a rule's reading, the seed is the first for which each of them changes the game (the
    # header of each file says from which decision); the options of size and length (SIZE) are not compared.
    # Die Magische 7: one deal, the whole game
    Spec("magische7"),
    Spec("magische7", {"players": 4}),
    Spec("magische7", {"joker_vs_spiegel": "joker"}),
    Spec("magische7", {"kreuz_vs_spiegel": "kreuz"}, seed=9),
    Spec("magische7", {"spiegel_scoring": "zero"}),
    Spec("magische7", {"joker_completes_seven": True, "joker_tops_up": "point"}, seed=53),
    Spec("magische7", {"players": 4, "draw_4p": "all", "no_repeat": "consecutive"}, decisions=40,
         why="the first 40 decisions show the four drawing and the pairs changing"),
    # 24
    Spec("vierundzwanzig", rounds=2, why=_24_CUT),
    Spec("vierundzwanzig", {"players": 2}),
    Spec("vierundzwanzig", {"players": 5}, rounds=1, why="five players' rounds are long: the first shows them"),
    Spec("vierundzwanzig", {"trump_twos": True, "own_trump_penalty": "always"}, seed=7, rounds=2, why=_24_CUT),
    Spec("vierundzwanzig", {"own_trump_penalty": "never"}, seed=8, rounds=2, why=_24_CUT),
    Spec("vierundzwanzig", {"sitting_out": True}, rounds=2, why=_24_CUT),
    Spec("vierundzwanzig", {"score_limits": True}, rounds=2, why=_24_CUT),
    # Sieben
    Spec("sieben", rounds=2, why=_SIEBEN_CUT),
    Spec("sieben", {"target": 3, "round_points": "one"}, seed=3),
    Spec("sieben", {"match": "round", "four_of_a_kind": True}, seed=304),
    Spec("sieben", {"players": 3, "match": "round", "three_player_round": "fifty", "three_player_removed": "8+8"},
         seed=5),
    Spec("sieben", {"players": 4, "match": "round", "who_continues": "side"}),
    Spec("sieben", {"eights_wild": True, "continue_only_if_beaten": True, "match": "round"}),
    Spec("sieben", {"draw_order": "leader", "score_difference": True, "difference_target": 100}),
    # Vingt-et-un
    Spec("vingt_et_un", rounds=4, why="a sitting of 10 coups: the first four show the bank passing"),
    Spec("vingt_et_un", {"coups": 3, "bank_rule": "free"}),
    Spec("vingt_et_un", {"coups": 3, "next_bank": "natural", "natural": "double"}, seed=14),
    Spec("vingt_et_un", {"coups": 3, "ace": "one or eleven", "bank_second": "with"}),
    # Faro
    Spec("faro", last=True, why="a sitting of two deals is over 200 decisions: the second deal shows the play and "
         "the sitting's end, the first its result"),
    Spec("faro", {"players": 3, "winning_pile": "historical"}, decisions=50, why=_FARO_CUT),
    Spec("faro", {"doublets": "all", "stake_choice": "optional"}, decisions=50, why=_FARO_CUT),
    Spec("faro", {"late_stakes": True}, decisions=50, why=_FARO_CUT),
    # Bakkarat
    Spec("bakkarat"),
    Spec("bakkarat", {"bak": "baccara", "three_card_ten": "ten"}, seed=3, rounds=4, why=_BAKKARAT_CUT),
    Spec("bakkarat", {"bank_draw": "five", "ties": "bank", "partners": False}, seed=4, rounds=4, why=_BAKKARAT_CUT),
    # Écarté
    Spec("ecarte"),
    Spec("ecarte", {"exchange": "propose"}),
    Spec("ecarte", {"overtake": True, "king_in_hand": True}, seed=7, rounds=2, why=_ECARTE_CUT),
    Spec("ecarte", {"staking": "every deal", "short_talon": "fresh"}, rounds=2, why=_ECARTE_CUT),
    # Whist
    Spec("whist", rounds=1, why=_WHIST_CUT),
    Spec("whist", last=True, why="the hand that ends the game, its scoring and the winners; the hands before in "
         "their results only"),
    Spec("whist", {"ruleset": "long"}, rounds=1, why=_WHIST_CUT),
    Spec("whist", {"mode": "table", "calling": "opponents"}, rounds=1, why=_WHIST_CUT),
    Spec("whist", {"first_six": "played", "first_dealer": "lowest"}, rounds=1, why=_WHIST_CUT),
]


# rendering ---------------------------------------------------------------------------------------------
def _card(c) -> str:
    return "##" if c is None else c.label


def _cards(cards) -> str:
    if cards and all(c is None for c in cards):
        return f"## ×{len(cards)}"
    return " ".join(_card(c) for c in cards)


def _pile_line(p) -> str:
    cards = ", ".join(f"{o}: {_card(c)}" if o else _card(c) for o, c in p.cards)
    bits = [p.name + (f" ({', '.join(x for x in (p.kind, p.place) if x)})" if p.kind or p.place else "") + ":"]
    if cards:
        bits.append(cards)
    if p.count is not None:
        bits.append(f"[{p.count} cards]")
    if p.note:
        bits.append(f"— {p.note}")
    if p.taker is not None:
        bits.append(f"— taken by seat {p.taker}")
    return "  " + " ".join(bits)


def view_lines(view) -> list[str]:
    """A view as text, every field the table shows: the facts, each seat (its hand, a hidden card as ##), each
    pile, the status (or the result at the end)."""
    out = [f"{k}: {v}" for k, v in view.facts]
    out += [_seat_line(s) for s in view.seats]
    out += [_pile_line(p) for p in view.piles]
    out.append(("result: " + view.result) if view.terminal else ("status: " + view.status))
    if view.hand_action:
        out.append("a card of the hand: " + view.hand_action)
    return out


def _seat_line(s) -> str:
    extra = " · ".join(x for x in (s.team, s.score, s.info) if x)
    return f"{'>' if s.current else ' '} {s.name} [{_cards(s.hand)}]" + (f"  {extra}" if extra else "")


def _hidden(mine, full) -> bool:
    """`mine` is `full` with every card face down (the same number of cards)."""
    return len(mine) == len(full) and all(c is None for c in mine) and any(c is not None for c in full)


def _seen_by(view, teacher) -> list[str]:
    """What a seat's view shows otherwise than the teacher's, in few words: the hands and piles it sees face
    down, and each other line that differs (a line of its own view)."""
    if len(view.seats) != len(teacher.seats):
        own, all_lines = view_lines(view), view_lines(teacher)
        return [x for x in own if x not in all_lines] + [f"(not shown: {x.strip()})" for x in all_lines
                                                         if x not in own]
    down, lines = [], []
    for s, t in zip(view.seats, teacher.seats):
        if s.hand == t.hand and _seat_line(s) == _seat_line(t):
            continue
        if _hidden(s.hand, t.hand) and (s.team, s.score, s.info, s.current) == (t.team, t.score, t.info, t.current):
            down.append(f"{s.name}'s hand ({len(s.hand)})")
        else:
            lines.append(_seat_line(s))
    piles = {q.name: q for q in teacher.piles}
    for p in view.piles:
        q = piles.pop(p.name, None)
        line = _pile_line(p)
        if q is None:
            lines.append(line)
            continue
        if line == _pile_line(q):
            continue
        cards = [c for _, c in p.cards]
        if (p.note, p.taker) == (q.note, q.taker) and (
                _hidden(cards, [c for _, c in q.cards])
                or not p.cards and p.count == len(q.cards) and q.count in (None, len(q.cards))):
            down.append(f"{p.name} ({len(q.cards)})")
        else:
            lines.append(line)
    if piles:
        lines.append("not shown: " + ", ".join(f"{q.name} ({len(q.cards) if q.cards else q.count or 0})"
                                               for q in piles.values()))
    for a, b in zip(_tail(view), _tail(teacher)):
        if a != b:
            lines.append(a)
    if view.facts != teacher.facts:
        lines = [f"{k}: {v}" for k, v in view.facts] + lines
    return ([f"face down: {', '.join(down)}"] if down else []) + lines


def _tail(view) -> list[str]:
    return [("result: " + view.result) if view.terminal else ("status: " + view.status),
            "a card of the hand: " + (view.hand_action or "-")]


def _views(state, names) -> list[str]:
    """The teacher's view in full, then for each seat what it sees otherwise: the cards face down to it and
    each line of its own view that differs from the teacher's."""
    teacher = state.view(None)
    out = ["  view of the teacher (everything):"] + ["    " + x for x in view_lines(teacher)]
    for p, name in enumerate(names):
        other = _seen_by(state.view(p), teacher)
        if not other:
            out.append(f"  {name} sees: the same")
        elif len(other) == 1 and len(other[0]) < 120:
            out.append(f"  {name} sees: {other[0]}")
        else:
            out.append(f"  {name} sees:")
            out += ["    " + x for x in other]
    return out


def _legal(actions) -> list[str]:
    items = [a.text if a.label == a.text else f"{a.text} “{a.label}”" for a in actions]
    return textwrap.wrap(" · ".join(items), 110, initial_indent="  legal: ", subsequent_indent="         ",
                         break_on_hyphens=False, break_long_words=False)


def _exact(odds) -> str:
    """An exact figure as its fraction, or where that runs long (Bakkarat's have 50 digits) to 12 figures."""
    exact = odds.exact()
    return exact if len(exact) <= 30 else f"≈ {float(Fraction(odds.value)):.12g}"


def _indent(text: str, first: str, rest: str) -> list[str]:
    lines = text.split("\n") if text else [""]
    return [first + lines[0]] + [rest + x for x in lines[1:]]


# playing -----------------------------------------------------------------------------------------------
def _narration(before, action, after, names) -> list[str]:
    """The move as everyone hears it (`describe`), and what each seat is told besides (`narrate`)."""
    public = before.describe(action, after)
    out = _indent(public, "  narration: ", "             ")
    for p, name in enumerate(names):
        told = before.narrate(action, after, p)
        if told != public:
            out += _indent(told, f"  told to {name}: ", "    ")
    return out


def _deal_lines(pre, deals) -> list[str]:
    """Deals the protocol made by itself, narrated from the position before each (`pre` is advanced)."""
    out = []
    for d in deals:
        out.append("  chance: " + d.text)
        out += _indent(pre.describe(d), "  narration: ", "             ")
        pre.advance(d)
    return out


def _round(state) -> str:
    return state.progress()[state.game.moment_level]


def _options_text(game, given: dict) -> str:
    return ", ".join(f"{o.name}={game.options[o.name]!r}" + ("" if o.name in given else " (default)")
                     for o in game.option_specs)


def _told_deals(pre, deals) -> list[str]:
    out = []
    for d in deals:
        out.append(f"{d.text} | {pre.describe(d)}")
        pre.advance(d)
    return out


def story(spec: Spec) -> list[str]:
    """The game of `spec` in short, without the views: per decision the move and its narration, and each round's
    result (to find where a reading first changes the game)."""
    state = load_game(spec.game, **spec.options).new_state(seed=spec.seed)
    rng, out, rounds_over = Rng(spec.seed), [], 0
    deals = _told_deals(state.game.blank_state(), state.history)
    while not state.is_terminal():
        legal = sorted(state.legal_actions(), key=lambda a: a.text)
        action = legal[rng.below(len(legal))]
        before = copy.deepcopy(state)
        n0 = len(state.history)
        state.apply(action)
        after = copy.deepcopy(before).advance(action) if len(state.history) > n0 + 1 else state
        ended = state.is_terminal() or _round(state) != _round(before)
        out.append(f"{action.text} | {before.describe(action, after)}" + (f" | {after.round_result()}" if ended else ""))
        if len(state.history) > n0 + 1:
            out[-1] += "".join(" | " + x for x in _told_deals(copy.deepcopy(after), state.history[n0 + 1:]))
        rounds_over += ended and not state.is_terminal()
        if spec.rounds and rounds_over >= spec.rounds or spec.decisions and len(out) >= spec.decisions:
            break
    return deals + out + [repr(state.scores())]


# options that set the table's size or the game's length rather than a rule's reading: not compared
SIZE = {"players", "coups", "deals", "match", "target", "difference_target"}


def _last_round(spec: Spec) -> int:
    """How many rounds the game of `spec` plays before its last."""
    state = load_game(spec.game, **spec.options).new_state(seed=spec.seed)
    rng, rounds = Rng(spec.seed), 0
    while not state.is_terminal():
        legal = sorted(state.legal_actions(), key=lambda a: a.text)
        was = _round(state)
        state.apply(legal[rng.below(len(legal))])
        rounds += not state.is_terminal() and _round(state) != was
    return rounds


def _matters(spec: Spec, game) -> list[str]:
    """For each option given (but SIZE): the first decision where the game differs from the same seed under that
    option's default (the other options as given), or that it does not differ in this playthrough."""
    if not set(spec.options) - SIZE:
        return []
    mine, out = story(spec), []
    start = len(load_game(spec.game, **spec.options).new_state(seed=spec.seed).history)
    for name, value in spec.options.items():
        if name in SIZE:
            continue
        default = game.option(name).default
        other = story(Spec(spec.game, {**spec.options, name: default}, spec.seed, spec.rounds, spec.decisions))
        first = next((i for i, (a, b) in enumerate(zip(mine, other)) if a != b), None)
        if first is None and len(mine) != len(other):
            first = min(len(mine), len(other))
        at = "the first deal" if first is not None and first < start else f"decision {(first or 0) - start + 1}"
        out.append(f"#   {name}={value!r}: " + ("the game is the same as under " if first is None else
                                                f"from {at} the game differs from ")
                   + f"{name}={default!r}" + (" (not within this playthrough)" if first is None else ""))
    return out


def playthrough(spec: Spec) -> str:
    game = load_game(spec.game, **spec.options)
    names = game.player_names()
    out = [f"# Playthrough of {game.title} ({spec.game})" + (", " + ", ".join(f"{k}={v!r}" for k, v in
                                                                          spec.options.items())
                                                           if spec.options else ", the default options"),
           f"# options in force: {_options_text(game, spec.options)}",
           "# seats: " + ", ".join(f"{p} {n}" for p, n in enumerate(names)),
           f"# deal: new_state(seed={spec.seed}); chooser: Rng({spec.seed}), a uniform choice among the legal "
           "actions sorted by their text",
           "# cut: " + (f"after {spec.rounds} round(s) — {spec.why}" if spec.rounds else
                        f"after {spec.decisions} decisions — {spec.why}" if spec.decisions else
                        f"only the last round is written out, the rounds before are played but only their results "
                        f"written — {spec.why}" if spec.last else "none, the whole game"),
           "# undo: the first move that ends a trick (a turn, a stage) and the first that ends a round (or the game) are "
           "taken back once, then made again",
           f"# generated by cardkit/playthrough.py; after a deliberate change of behaviour: {REGENERATE}"]
    matters = _matters(spec, game)
    if matters:
        out += ["# where each reading given changes this game (the same seeds, that option at its default):"] + matters
    out.append("")
    state = game.new_state(seed=spec.seed)
    pre = game.blank_state()
    out += _deal_lines(pre, state.history)
    rng = Rng(spec.seed)
    rounds_over, undone, n = 0, set(), 0
    quiet_until = _last_round(spec) if spec.last else 0     # rounds played without writing them out
    if quiet_until:
        out += ["", f"== the first {quiet_until} rounds, played but not written out: their results"]
    while not state.is_terminal():
        if state.is_chance():
            raise RuntimeError(f"{spec.name}: a seeded game waits for a deal at decision {n + 1}")
        n += 1
        quiet = rounds_over < quiet_until
        cp = state.current_player
        rnd, trick = state.progress()
        where = " · ".join(x for x in (rnd, trick) if x)
        legal = sorted(state.legal_actions(), key=lambda a: a.text)
        action = legal[rng.below(len(legal))]
        if not quiet:
            out += ["", f"== decision {n}" + (f" · {where}" if where else "") + f" · {names[cp]} (seat {cp}) to move"]
            out += _views(state, names)
            mine = [a.text for a in state.view(cp).legal]
            if mine and sorted(mine) != [a.text for a in legal]:
                out.append("  the mover's view lists other legal actions: " + " · ".join(mine))
            out += _legal(legal)
            for o in state.advice(cp):          # the exact odds the table's Odds panel shows the mover
                out.append(f"  odds for {names[cp]}: {o.label}: {o.text()} ({_exact(o)})" + (f" — {o.note}" if o.note else ""))
            out.append(f"  chosen: {action.text}" + (f" “{action.label}”" if action.label != action.text else ""))
        before = copy.deepcopy(state)
        n0 = len(state.history)
        state.apply(action)
        ended = state.is_terminal() or _round(state) != _round(before)
        # the first move that ends a trick (turn, stage) and the first that ends a round: taken back once each
        kind = "round" if ended else "trick" if state.progress() != before.progress() else ""
        if kind and kind not in undone and not quiet:
            undone.add(kind)
            was = (before.snapshot(), _views(before, names), [a.text for a in before.legal_actions()])
            first = state.snapshot()
            state.undo()
            now = (state.snapshot(), _views(state, names), [a.text for a in state.legal_actions()])
            out.append("  undo: " + ("the state, every view and the legal actions are back as before the move"
                                     if now == was else "NOT back as before the move:"))
            if now != was:
                out += [x for x in difflib.unified_diff(was[1], now[1], "before", "after undo", lineterm="")]
                out += [] if now[0] == was[0] else ["  (the snapshots differ)"]
            state.apply(action)
            out.append(f"  made again: {action.text} — " + ("the same state as the first time" if state.snapshot() == first
                                                             else "NOT the same state as the first time"))
        dealt = state.history[n0 + 1:]
        after = state
        if dealt:
            after = copy.deepcopy(before).advance(action)
        out += [] if quiet else _narration(before, action, after, names)
        if ended and not state.is_terminal():
            rounds_over += 1
            out += _indent(after.round_result() or "(no result in words)", f"  — {_round(before)} is over: ", "    ")
            if quiet and rounds_over == quiet_until:
                out += [f"  ({n} decisions played so far; the last round is written out from here)"]
        if dealt and (not quiet or rounds_over == quiet_until):
            out += _deal_lines(copy.deepcopy(after), dealt)
        if spec.rounds and rounds_over >= spec.rounds or spec.decisions and n >= spec.decisions:
            out += ["", f"== cut here, after {n} decisions and {rounds_over} round(s) over"]
            break
    out += ["", "== end" if state.is_terminal() else "== where the game stands at the cut"]
    out += _views(state, names)
    out.append(f"  scores: {state.scores()}")
    if state.standing() != state.scores():
        out.append(f"  standing: {state.standing()}")
    if state.is_terminal():
        out.append("  winners: " + (", ".join(names[p] for p in state.winners()) or "none"))
    out += _indent(state.round_result(), "  last round: ", "    ") if state.round_result() else []
    table = state.score_table()
    out.append(f"  {table.caption or 'score table'}:")
    out += ["    " + " | ".join(str(c) for c in row) for row in [table.headers, *table.rows]]
    out.append(f"  decisions: {n}, history entries: {len(state.history)}")
    return "\n".join(out) + "\n"


# the command -------------------------------------------------------------------------------------------
def diff(expected: str, actual: str, name: str, lines: int = 60) -> str:
    """Where a checked-in playthrough and a regenerated one first part (the decision), and the first `lines` lines
    of their unified diff."""
    old, new = expected.splitlines(), actual.splitlines()
    first = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    where = next((x for x in reversed(old[:first + 1]) if x.startswith("== ")), "the header")
    d = list(difflib.unified_diff(old, new, f"{name} (checked in)", f"{name} (engine now)", lineterm="", n=2))
    more = f"\n… {len(d) - lines} more diff lines" if len(d) > lines else ""
    return f"first difference at line {first + 1}, in {where.strip('= ')}:\n" + "\n".join(d[:lines]) + more


def update(specs=None) -> list[str]:
    """Write every playthrough (or `specs`) and remove files of playthroughs no longer listed; the paths changed."""
    specs = SPECS if specs is None else specs
    os.makedirs(DIR, exist_ok=True)
    changed = []
    for spec in specs:
        text, old = playthrough(spec), None
        if os.path.exists(spec.path):
            with open(spec.path, encoding="utf-8") as f:
                old = f.read()
        if old != text:
            with open(spec.path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            changed.append(spec.path)
    if specs is SPECS:
        keep = {s.name + ".txt" for s in SPECS}
        for name in sorted(os.listdir(DIR)):
            if name.endswith(".txt") and name not in keep:
                os.unlink(os.path.join(DIR, name))
                changed.append(os.path.join(DIR, name) + " (removed)")
    return changed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cardkit.playthrough", description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", help="only this game's playthroughs (printed, or with --update written)")
    ap.add_argument("--update", action="store_true", help=f"write the files in {os.path.relpath(DIR)}")
    args = ap.parse_args(argv)
    specs = [s for s in SPECS if args.game in (None, s.game)]
    if not specs:
        print(f"no playthroughs of {args.game!r}; games: {', '.join(sorted({s.game for s in SPECS}))}",
              file=sys.stderr)
        return 2
    if args.update:
        changed = update(None if args.game is None else specs)
        for p in changed:
            print(f"wrote {os.path.relpath(p)}", file=sys.stderr)
        print(f"{len(changed)} of {len(specs)} playthroughs changed", file=sys.stderr)
        return 0
    try:
        for s in specs:
            sys.stdout.write(playthrough(s))
        sys.stdout.flush()
    except BrokenPipeError:                    # `… | head`: the reader has gone, not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main())
