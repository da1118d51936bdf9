"""A reader's own worked example (issue 37): a hand laid out by the reader (`deal_from_hands`), and any record
packed into a link short enough for a chat message (`to_link`, `from_link`).

The link holds a record — game, options, every action, the deals included — as one number: each step is a
digit whose base is the number of choices the game offered there (a deal's cards one by one among those
left), so a move with one legal choice costs nothing and a whole hand of Whist fits in about 130 characters.
Decoding replays the game, so a link can only ever describe legal play; what it says is checked as untrusted
input: a size limit, a schema, and one plain line for anything wrong (`ShareError`), never another error."""
from __future__ import annotations

import ast
import base64
import os
import re
from collections import Counter
from urllib.parse import quote, unquote

from . import GAMES, game_class, load_game
from .errors import CardkitError
from .exercises import rule_of
from .game import Deal
from .record import Record
from .rng import Rng

PREFIX = "example="
VERSION = "v1"
MAX_LINK = 6000                 # characters of a link's text: far above any game's whole hand (see tests)
MAX_STEPS = 20000               # history entries a link may hold
_OPTION = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,40}=[A-Za-z0-9_.+%-]{1,80}")


class ShareError(CardkitError, ValueError):
    """A link, file or laid-out hand that cannot be an example, in one plain line."""


# --- the record as one number ------------------------------------------------------------------------------
def _digits(record: Record) -> list[tuple[int, int]]:
    """(digit, base) for every choice of the record, replayed."""
    state = record.load_game().blank_state()
    out = []
    for i, text in enumerate(record.actions):
        try:
            if state.is_chance():
                deal = state.parse_action(text)
                pool = state.game.full_deck()
                for card in deal.cards:
                    k = pool.index(card)
                    out.append((k, len(pool)))
                    pool.pop(k)
                state.apply(deal)
            else:
                legal = state.legal_actions()
                action = state.parse_action(text)
                out.append((next(k for k, a in enumerate(legal) if a.text == action.text), len(legal)))
                state.apply(action)
        except CardkitError as e:
            raise ShareError(f"step {i + 1} of the example does not replay: {e}") from None
    return out


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(data: bytes) -> tuple[int, int]:
    n = shift = 0
    for i, byte in enumerate(data[:4]):
        n |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return n, i + 1
    raise ShareError("the link is damaged: its length field is unreadable")


def _options_text(game) -> str:
    defaults = {o.name: o.default for o in type(game).option_specs}
    return ",".join(f"{k}={quote(str(v), safe='')}" for k, v in game.options.items() if defaults.get(k) != v)


def to_link(record: Record, step: int | None = None, puzzle: bool = False) -> str:
    """The text of a URL fragment (after '#') that opens `record` at `step` (None: its first step); with
    `puzzle`, as a question to the player whose turn it is at `step` (`puzzle_question`)."""
    game = record.load_game()
    digits = _digits(record)
    number = 0
    for d, b in reversed(digits):
        number = number * b + d
    payload = _varint(len(record.actions)) + number.to_bytes((number.bit_length() + 7) // 8, "big")
    code = base64.urlsafe_b64encode(payload).decode().rstrip("=")
    at = "" if step is None else str(step)
    if puzzle and step is None:
        raise ShareError("a puzzle opens at a step: say which")
    return f"{PREFIX}{VERSION}~{record.game}~{_options_text(game)}~{at}~{code}" + ("~puzzle" if puzzle else "")


def from_link(text: str) -> tuple[Record, int | None]:
    """The record and step a link's text (the URL fragment, with or without '#' and 'example=') describes.
    Untrusted: anything wrong raises ShareError with one plain line."""
    record, step, _ = read_link(text)
    return record, step


def read_link(text: str) -> tuple[Record, int | None, bool]:
    """As `from_link`, and whether the link asks it as a puzzle."""
    if not isinstance(text, str):
        raise ShareError("a link is text")
    text = text.strip()
    if "#" in text:
        text = text.split("#", 1)[1]
    if text.startswith(PREFIX):
        text = text[len(PREFIX):]
    if len(text) > MAX_LINK:
        raise ShareError(f"the link is too long to be an example ({len(text)} characters; at most {MAX_LINK})")
    parts = text.split("~")
    puzzle = len(parts) == 6 and parts[5] == "puzzle"
    if len(parts) != 5 and not puzzle:
        raise ShareError("this is not a link to an example: its parts are missing")
    version, name, options, at, code = parts[:5]
    if version != VERSION:
        raise ShareError(f"the link was made by another version of the kit ({version[:10]!r}, this one reads {VERSION})")
    if name not in GAMES:
        raise ShareError(f"the link names no game of the kit ({name[:20]!r}; games: {', '.join(GAMES)})")
    opts: dict = {}
    for item in filter(None, options.split(",")):
        if not _OPTION.fullmatch(item):
            raise ShareError(f"the link's options are damaged ({item[:40]!r})")
        k, v = item.split("=", 1)
        v = unquote(v)
        try:                                     # a number or True/False as written (literal_eval runs no code)
            opts[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            opts[k] = v
    try:
        game = load_game(name, **opts)
    except CardkitError as e:
        raise ShareError(f"the link's options do not fit {game_class(name).title}: {e}") from None
    if at and not (at.isdigit() and len(at) <= 6):
        raise ShareError(f"the link's step is not a number ({at[:10]!r})")
    if not re.fullmatch(r"[A-Za-z0-9_-]*", code):
        raise ShareError("the link's moves are damaged (characters a link does not use)")
    try:
        payload = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except ValueError:
        raise ShareError("the link's moves are damaged (cut short?)") from None
    steps, used = _read_varint(payload)
    if steps > MAX_STEPS:
        raise ShareError(f"the link holds too many moves ({steps})")
    number = int.from_bytes(payload[used:], "big")
    state = game.blank_state()
    actions = []
    for i in range(steps):
        if state.is_terminal():
            raise ShareError(f"the link's moves go on after the game's end (step {i + 1})")
        if state.is_chance():
            pool = game.full_deck()
            cards = []
            while pool:
                number, d = divmod(number, len(pool))
                cards.append(pool.pop(d))
            action = Deal(cards)
        else:
            legal = state.legal_actions()
            number, d = divmod(number, len(legal))
            action = legal[d]
        actions.append(action.text)
        try:
            state.apply(action)
        except CardkitError as e:                # (a deal the game refuses, e.g. a misdeal rule)
            raise ShareError(f"the link's step {i + 1} does not replay: {e}") from None
    if number:
        raise ShareError("the link's moves are damaged: more is written than the moves use")
    step = int(at) if at else None
    if step is not None and step > steps:
        raise ShareError(f"the link opens at step {step}, but the example has {steps} steps")
    if puzzle and (step is None or not 0 <= state_after(game, actions, step).current_player):
        raise ShareError("the link asks a puzzle at a step where nobody chooses")
    return Record(name, dict(game.options), actions, {"title": "A shared example"}), step, puzzle


def state_after(game, actions, step: int):
    """The position after the first `step` actions (replayed)."""
    state = game.blank_state()
    for text in actions[:step]:
        state.apply(text)
    return state


# --- a hand laid out by the reader --------------------------------------------------------------------------
def deal_from_hands(game_name: str, hands: dict, options: dict | None = None, seed: int | None = None) -> Record:
    """A record whose deal gives each seat p the cards `hands[p]` (a text "AS KH 10D" or a list of card texts,
    in the order dealt; fewer than a full hand: the rest at random), and the undealt cards (key "stock") in the
    order the deal lays them; every card not placed is dealt at random (from `seed`). The deal laid out is the
    one the players hold their first hands from (deals before it — Whist's drawing for the deal — are random).
    An impossible layout raises ShareError naming the rule it breaks; nothing else is played."""
    try:
        game = load_game(game_name, **(options or {}))
    except CardkitError as e:
        raise ShareError(str(e)) from None
    names = game.player_names()
    rng = Rng(seed if seed is not None else int.from_bytes(os.urandom(6), "big"))
    state = game.blank_state()
    actions = []
    while True:                                  # the deals up to the players' first decision
        deal = game.random_deal(rng)
        state.apply(deal)
        if not state.is_chance():
            break
        actions.append(deal.text)
    before = game.blank_state()
    for text in actions:
        before.apply(text)
    rule = rule_of(before.describe(deal), "deal")
    if rule == "deal":                           # the deal's narration cites none: the rulebook's rule of the deal
        titled = [r for r in game.rulebook.rules if "deal" in r.title.lower()]
        rule = next((r.id for r in titled if "the deal" in r.title.lower()), titled[0].id if titled else "deal")
    owners = state.deal_owners()
    wanted: dict = {}
    for key, cards in hands.items():
        if key == "stock":
            holder, who = None, "the stock"
        elif isinstance(key, int) and not isinstance(key, bool) and 0 <= key < game.num_players:
            holder, who = key, names[key]
        else:
            raise ShareError(f"no seat {key!r} in {game.title}: the seats are "
                             + ", ".join(f"{p} ({n})" for p, n in enumerate(names)) + " and the stock")
        try:
            wanted[holder] = game.deck.parse_many(cards if cards is not None else "")
        except CardkitError as e:              # (in the game's words, not the pack's code name)
            raise ShareError(f"{who}: " + str(e).replace(f"the {game.deck.name} deck", f"the pack of {game.title}")) from None
        room = sum(1 for o in owners if o == holder)
        if len(wanted[holder]) > room:
            raise ShareError(f"{who}: {len(wanted[holder])} cards, but the deal gives {'it' if holder is None else 'this seat'} "
                             f"{room} (rule {rule})")
    full = Counter(game.full_deck())
    placed = Counter(c for cards in wanted.values() for c in cards)
    for card, k in placed.items():
        if card not in full:
            raise ShareError(f"{card.label} is not a card of the pack of {game.title} (rule {rule})")
        if k > full[card]:
            copies = "once" if full[card] == 1 else f"{full[card]} times"
            raise ShareError(f"{card.label} is placed {k} times, but the pack holds it {copies} (rule {rule})")
    rest = list((full - placed).elements())
    rng.shuffle(rest)
    queues = {h: list(cs) for h, cs in wanted.items()}
    laid = []
    for owner in owners:
        q = queues.get(owner)
        laid.append(q.pop(0) if q else rest.pop())
    deal = Deal(laid)
    record = Record(game.name, dict(game.options), actions + [deal.text], {"title": "Your own example"})
    try:
        dealt = record.final_state()
    except CardkitError as e:
        raise ShareError(f"that deal cannot be played: {e}") from None
    if dealt.deal_owners() != owners:            # (a game whose deal would go otherwise with these cards)
        raise ShareError(f"with these cards {game.title} deals otherwise: place fewer cards (rule {rule})")
    return record


# --- a puzzle: the position as one player saw it, and the expert's choice ------------------------------------
def puzzle_question(record: Record, step: int, playouts: int | None = None, seed: int = 0, to_player: bool = True):
    """The example at `step` as a question to the player whose turn it is ("You are Berta. What do you
    play?"), marked like the Test-yourself questions (`cardkit.exercises.mark`): the scene holds only what that
    player has seen (her view: her hand, the table, the facts); the right answers are the expert's choice and
    those it finds about as good, asked from her seat only (the cards she has not seen dealt anew for every
    playout, from `seed`), at `playouts` (default: the game's `fixed_playouts`, a count, so the same question
    on every machine, within a second in the browser); the explanation names what was played in the example.
    `to_player=False`: the explanation names the player instead of "you" (the Hint of an example, read by an
    onlooker). (`puzzle_steps` does the same in steps.)"""
    from .bots import Steps
    return Steps(puzzle_steps(record, step, playouts, seed, to_player)).finish()


def puzzle_steps(record: Record, step: int, playouts: int | None = None, seed: int = 0, to_player: bool = True):
    """A generator that works out `puzzle_question` in steps, stopping after each of the expert's samples, and
    returns the question (the static site works an example's Hint out so while the reader looks at the step)."""
    from .bots import ExpertBot, fixed_playouts
    from .exercises import Choice, Question, Row, Scene
    from .table import no_difference
    game = record.load_game()
    if not (isinstance(step, int) and 0 <= step <= len(record.actions)):
        raise ShareError(f"no step {step!r} in this example (0 to {len(record.actions)})")
    state = state_after(game, record.actions, step)
    seat = state.current_player
    if seat < 0:
        raise ShareError("nobody chooses at this step: pick a step where a player is to move")
    names = game.player_names()
    view = state.view(seat)
    legal = state.legal_actions()
    rows = [Row(p.name, [(o, c) for o, c in p.cards if c is not None], p.note) for p in view.piles
            if any(c is not None for _, c in p.cards)]
    scene = Scene(facts=list(view.facts), rows=rows, lines=[view.status],
                  hand=[c for c in view.seats[seat].hand if c is not None], hand_title=f"Your hand ({names[seat]})")
    choices = [Choice(f"a{i}", a.label, a.card) for i, a in enumerate(legal)]
    if len(legal) > 1:
        sample = state.resample(seat, Rng(seed))
        est = yield from ExpertBot(seed=seed, playouts=playouts or fixed_playouts(game.name)).analysing(sample)
    else:
        est = []
    index = {a.text: i for i, a in enumerate(legal)}
    if est:
        best = est[0]
        right = frozenset(f"a{index[e.text]}" for e in est if no_difference(best.mean - e.mean, best))
        unit = "wins in 100 games" if best.unit == "win" else "points"
        scale = 100 if best.unit == "win" else 1

        def gap(e) -> str:
            return f"{(best.mean - e.mean) * scale:.1f} {unit}"
        why_not = {f"a{index[e.text]}": f"The expert expects {gap(e)} less with {e.action.label}."
                   for e in est if f"a{index[e.text]}" not in right}
        top = legal[index[best.text]]
    else:
        right, why_not, top = frozenset({"a0"}), {}, legal[0]
    played = state.parse_action(record.actions[step]) if step < len(record.actions) else None
    rule = rule_of(state.describe(top))
    verb = "play" if any(a.card is not None for a in legal) else "choose"
    samples = est[0].samples if est else 0
    seat_words = "your seat" if to_player else f"{names[seat]}'s seat"
    unseen = "the cards you had not seen" if to_player else f"the cards {names[seat]} had not seen"
    why = (f"The expert, in {seat_words}, would {verb} {top.label}: {state.describe(top)}"
           + (f" It dealt {unseen} anew {samples} times and played each choice out." if samples else "")
           + (f" In the example, {names[seat]} chose {played.label}." if played is not None else ""))
    return Question(game.name, "puzzle", 0, f"You are {names[seat]}. What do you {verb}?", scene, choices, right,
                    False, rule, why, f"The expert would {verb} {top.label}.", why_not=why_not, viewer=seat,
                    others=[], options=dict(game.options), history=tuple(record.actions[:step]), action=played)
