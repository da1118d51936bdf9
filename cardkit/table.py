"""The game at the table, in pure Python: seats (who is a person at the screen, who the computer), the
computer's turns, what each person has been told (the log as he followed the game, what happened since his
last move, the ends of rounds he has not looked at yet), Undo and its fairness, the expert behind the Hint and
the review, the hot seat's cover, the record to keep. The play table of the pages (`widgets.play.PlayTable`)
is its view, and `cardkit play` drives it in a terminal.

Hidden information: what the session hands out for a person is narrated for that person's seat
(`State.narrate`) and read from that seat's view; the expert is asked from a state resampled for the person
(the cards he has not seen dealt anew), never the table's own state.

Several people at one screen (`people`): between two people's turns the table is covered (`covered`) until
the next one says he is in front of the screen (`ready`). Undo then takes back only the human's own choices
while it is still his turn and nothing has followed them (no move of the computer or of another person, no
deal, no card shown, no trick or round finished), exactly, dealing nothing anew: a re-deal of the cards one
person has not seen would change another's hand, or, keeping the other people's hands, let the taker learn
them by what never comes up; and a move the turn has passed on from may have shown something hidden by whom
it passed to. Alone, Undo deals the cards the human has not seen anew (`State.resample`)."""
from __future__ import annotations

import math
import os
import re
import time
from collections import Counter
from typing import Any

from . import game_class, load_game
from .bots import (THINK_MS_BROWSER, THINK_MS_SERVER, ExpertBot, bots_for, default_playouts, evidence_playouts,
                   Steps, fixed_playouts)
from .documents import STATIC_SITE
from .errors import CardkitError
from .events import Event, step
from .game import Deal, State
from .rng import Rng
from .view import plural

THINKERS = {"expert"}           # bots that think for a while: the table says so while they do
NO_DIFFERENCE = 0.05            # an expected gain below this (in points or units) is no real difference
NO_DIFFERENCE_WIN = 0.005       # ... or in the chance of winning, where the expert plays to win (half a win in 100)
# the expert at the table (a seat, the Hint) thinks at most this long a move, but never less than the playouts
# behind the evidence in docs/bots.md (`evidence_playouts`); in the static site Python runs in the visitor's browser,
# 2-3 times slower, and has longer (`cardkit.bots.THINK_MS_BROWSER`; `cardkit bench` measures both)
THINK_MS = THINK_MS_BROWSER if STATIC_SITE else THINK_MS_SERVER
# the Hint computes for about this long, by the clock: the exact odds first, then the expert in the time left, never
# with fewer playouts than the evidence; the page adds its round trip and drawing (0.1-0.25 s in the browser on the
# machine it was measured on, twice that on a phone twice as slow), so that no Hint keeps a visitor waiting a
# second, on `cardkit serve` or in the browser, where the odds and the evidence's playouts fit within it (`cardkit
# bench` measures the Hint in Pyodide: `bench_pyodide.hint_rows`, over `tournament.hint_times`; until 29 Nov 0.7 s)
HINT_MS = 500
REVIEW_SECONDS = 20             # "Review my game": about this long in all (the expert's time shared out)
REVIEW_MIN_MS, REVIEW_MAX_MS = 40, 300   # ... but no less and no more than this per decision
TAKE_BACK_PROBES = 6            # with several people: worlds dealt anew that must agree before a take-back


class Refused(CardkitError):
    """A request the table turns down, in plain words for the person at the screen ("Wait for your turn.")."""


def within_noise(a, b) -> bool:
    """Whether two estimates' difference is within the expert's margin of error (95 %)."""
    if not (math.isfinite(a.low) and math.isfinite(b.low)):
        return True
    ha, hb = (a.high - a.low) / 2, (b.high - b.low) / 2
    return abs(a.mean - b.mean) <= math.sqrt(ha * ha + hb * hb)


def no_difference(gap: float, estimate) -> bool:
    """Whether an expected gain is too small to call a difference, in the estimate's unit."""
    return gap < (NO_DIFFERENCE_WIN if estimate.unit == "win" else NO_DIFFERENCE)


def check_people(game, people) -> None:
    """The seats people may play at one screen: one or more of the game's seats that choose (`Game.deciders`)."""
    seats = game.deciders()
    if not people or any(isinstance(p, bool) or not isinstance(p, int) or p not in seats for p in people):
        names = game.player_names()
        raise CardkitError("people: the seats played at this screen, one or more of "
                           + ", ".join(f"{p} ({names[p]})" for p in seats) + f", not {people!r}")


def and_words(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def last_trick(state, seat: int):
    """The last trick completed, as `seat` sees it (None in a game without tricks, or before the first)."""
    return next((p for p in state.view(seat).piles if p.kind == "last-trick"), None)


class Notes:
    """What one person at the table has been told, each item with the history index of the move it came
    from (a take-back cuts there): the log as he followed the game (`narrate` for his seat), and since his
    last move the lines of what happened, the tricks completed and the ends of rounds not yet looked at."""

    __slots__ = ("log", "since", "recent", "moments")

    def __init__(self):
        self.log: list[tuple] = []         # (index, round, trick, line)
        self.since: list[tuple] = []       # (index, line)
        self.recent: list[tuple] = []      # (index, title, Pile)
        self.moments: list[dict] = []      # {"index", "ended", "coming", "result", "state", "since", "recent"}

    def fresh(self) -> None:
        """His move: what happened before it has been seen."""
        self.since, self.recent, self.moments = [], [], []

    def cut(self, k: int) -> None:
        """Forget what came from the history's entries from `k` on (taken back); what an end of a round taken
        back had gathered goes back to "since"."""
        gone = [m for m in self.moments if m["index"] >= k]
        if gone:
            self.since = [x for m in gone for x in m["since"]] + self.since
            self.recent = [x for m in gone for x in m["recent"]] + self.recent
            self.moments = [m for m in self.moments if m["index"] < k]
        self.since = [x for x in self.since if x[0] < k]
        self.recent = [x for x in self.recent if x[0] < k]
        self.log = [e for e in self.log if e[0] < k]

    def shown_log(self) -> list[tuple]:
        """The log as far as he has looked: while the end of a round waits to be looked at, nothing after the
        move that ended it (what the moment withholds — the next round's deal, the computer's moves in it —
        the log withholds too)."""
        if self.moments:
            k = self.moments[0]["index"]
            return [e for e in self.log if e[0] <= k]
        return self.log


class Table:
    """A game in progress at a table: one person against the computer, or several at one screen (`people`,
    the seats they play; the others are the computer's, playing as `bot`). `seed`: the first game's deal (and
    the expert's and Undo's random numbers), for a table that behaves the same every time.

    `play` makes the move of the person in front of the screen (`human`) and lets the computer play until a
    person's turn; it returns the events of every move made (`cardkit.events.Event`). What each person has
    been told is kept in `notes` (a `Notes` per person). `on_wait`, where a method takes it, is called
    before the computer's first move (with the name of a bot that thinks for a while, else None): a view
    shows the table as it stands then."""

    def __init__(self, game: str, people=(0,), bot: str = "rule-based", seed: int | None = None,
                 human: int | None = None, deal: bool = True, **options):
        self.game_name = game
        cls = game_class(game)
        self.options = dict(options)
        self.game = cls(**options)
        self.bot_names = list(bots_for(self.game))
        if bot not in self.bot_names:
            raise CardkitError(f"no bot {bot!r} for {cls.title}; bots: {', '.join(self.bot_names)}")
        self.bot_name = bot
        people = list(people)
        if people:
            check_people(self.game, people)
        elif not (isinstance(human, int) and 0 <= human < self.game.num_players):
            raise CardkitError(f"human: the seat that watches a game the computer plays, not {human!r}")
        self.seat_choice = set(people)          # who plays each seat from the next game on
        self.people = tuple(sorted(people))     # () : the computer plays every seat, `human` watches
        self.human: int = human if isinstance(human, int) and (human in self.people or not self.people) \
            else self.people[0]
        self.covered = False
        self.notes: dict = {}
        self.turns: list[tuple] = []            # (history index, seat): each decision of a person
        self.bots: dict = {}
        self._seed = seed
        # Undo re-deals the cards the human has not seen from this RNG (seeded with the table's seed, so a
        # seeded table behaves the same every time; unseeded, from OS randomness)
        self.undo_rng = Rng(seed) if seed is not None else None
        # the expert behind the Hint and the review: its samples are dealt from this seed
        self.expert_seed = seed if seed is not None else int.from_bytes(os.urandom(6), "big")
        self.state: State = self.game.blank_state()
        if deal:
            self.new_game()

    # who is where --------------------------------------------------------------------------------------
    @property
    def several(self) -> bool:
        """Several people at this screen: the table is covered between their turns."""
        return len(self.people) > 1

    @property
    def viewers(self) -> tuple:
        """The seats the game is narrated for: the people, or the seat that watches a game the computer plays."""
        return self.people or (self.human,)

    def name(self, seat: int) -> str:
        return self.game.player_names()[seat]

    def ready(self) -> None:
        """"I am …, show my cards": the person whose turn it is takes the screen; the table is his."""
        if self.covered and self.state.current_player in self.people:
            self.human = self.state.current_player
        self.covered = False

    # what the person in front of the screen has been told --------------------------------------------------
    @property
    def my_notes(self) -> Notes:
        return self.notes[self.human]

    def since(self) -> list[str]:
        """What happened since the person in front of the screen last moved, a line each."""
        return [line for _, line in self.my_notes.since]

    def recent(self) -> list:
        """The tricks completed since then: (title, Pile)."""
        return [(title, pile) for _, title, pile in self.my_notes.recent]

    def moments(self) -> list[dict]:
        """The ends of rounds since then, not yet looked at (the list itself: `next_round` takes from it)."""
        return self.my_notes.moments

    def log(self) -> list[tuple]:
        """The log as the person in front of the screen followed it and has looked at it: (history index,
        round, trick, line). Once the game is over no moment is shown (the table shows the end), so the log
        withholds nothing: the last rounds the computer played without him are in it."""
        return self.my_notes.log if self.state.is_terminal() else self.my_notes.shown_log()

    def next_round(self) -> None:
        """Go on from the moment at the end of a round: to the next moment, or to the game as it stands."""
        if not self.covered and self.my_notes.moments:
            self.my_notes.moments.pop(0)

    # the game's flow ----------------------------------------------------------------------------------------
    def new_game(self, options: dict | None = None, seed: int | None = None, bot: str | None = None,
                 on_wait=None) -> list[Event]:
        """Deal a new game (with `options`, else the table's; `seed`, else the table's first seed once) and let
        the computer play up to a person's turn. Returns the events of the computer's moves."""
        if options is not None:
            game = load_game(self.game_name, **options)
            self.options = dict(options)
        else:
            game = self.game.__class__(**self.options)
        if bot is not None:
            if bot not in bots_for(game):
                raise CardkitError(f"no bot {bot!r} for {game.title}; bots: {', '.join(bots_for(game))}")
            self.bot_name = bot
        self.game = game
        seed = seed if seed is not None else self._seed
        self._seed = None                       # the given seed is for the first game only
        self.state = game.new_state(seed=seed)
        deciders = game.deciders()
        if self.seat_choice:
            self.people = tuple(sorted(p for p in self.seat_choice if p in deciders)) or (deciders[0],)
            self.seat_choice = set(self.people)
            self.human = self.human if self.human in self.people else self.people[0]
        self._make_bots()
        self.turns = []
        self.notes = {p: Notes() for p in self.viewers}
        self.covered = False
        blank = game.blank_state()
        for i, a in enumerate(self.state.history):   # the deal, narrated from the state before it
            r, t = blank.progress()
            self._tell(i, r, t, blank.describe(a))
            blank.advance(a)
        events = self.run_bots(on_wait)
        # several people: whoever plays first says so before the table shows his cards
        self.covered = self.several and not self.state.is_terminal()
        return events

    def _make_bots(self) -> None:
        factories = bots_for(self.game)
        # the expert within the table's time: its own budget of playouts, or THINK_MS, whichever ends first, but
        # never fewer playouts than its strength was measured at
        budget = ({"playouts": default_playouts(self.game.name), "ms": THINK_MS,
                   "min_playouts": evidence_playouts(self.game)} if self.bot_name == "expert" else {})
        self.bots = {p: factories[self.bot_name](seed=1000 + p, **budget)
                     for p in range(self.game.num_players) if p not in self.people}

    def load(self, state: State) -> None:
        """Continue from `state` (a state of this table's game, e.g. a record's final state): its history is
        narrated anew as if played here (the log, what happened since each person's last move), and Undo
        can go back to the human's decisions in it. With several people the table is covered: whoever is to
        play says so first. Nothing is dealt anew."""
        if not isinstance(state, State) or state.game.name != self.game_name:
            raise CardkitError(f"a {self.game_name} state is needed here")
        if max(self.viewers) >= state.game.num_players:
            raise CardkitError(f"a game of {self.game_name} for the seats {list(self.viewers)} is needed here")
        self.game = state.game
        self.options = dict(state.game.options)
        self._make_bots()
        # replayed as it was played: the deals come by themselves after the move that set them off (stacked
        # from the history), so a round's end is the move's, as at the table
        history = state.history
        self.state = replay = state.game.new_state(deal=[a for a in history if a.__class__ is Deal])
        self.notes = {p: Notes() for p in self.viewers}
        self.turns = []
        blank = state.game.blank_state()
        for i, a in enumerate(replay.history):        # the first deal, narrated from the state before it
            r, t = blank.progress()
            self._tell(i, r, t, blank.describe(a))
            blank.advance(a)
        for k, a in enumerate(history):
            if k < len(replay.history):                # a deal the replay made by itself
                continue
            if replay.current_player in self.people:
                self.turns.append((k, replay.current_player))
                self.notes[replay.current_player].fresh()
            self._step(replay.parse_action(a.text) if a.__class__ is not Deal else a)
        self.state = state
        if state.current_player in self.people:
            self.turns.append((len(state.history), state.current_player))
        self.covered = self.several and not state.is_terminal()

    def _tell(self, index: int, rnd: str, trick: str, lines) -> None:
        """Log a move's narration for each person: `lines` is one text for all or {seat: text}."""
        for p, notes in self.notes.items():
            text = lines if isinstance(lines, str) else lines[p]
            for part in text.split("\n"):      # a move that sets off more (the bank's play, a settlement)
                notes.log.append((index, rnd, trick, part))   # is narrated a line each
                notes.since.append((index, part))

    def _step(self, action) -> list[Event]:
        """Apply one action (legal), narrate it and anything that followed by itself (a new deal) for each
        person as he follows the game, and keep a trick it completed and a round it ended."""
        s = self.state
        last_before = {p: last_trick(s, p) for p in self.viewers}
        events = step(s, action, self.viewers)
        move = events[0]
        self._tell(move.index, move.round, move.trick, move.lines)
        after = move.after
        for p, notes in self.notes.items():
            last = last_trick(after, p)
            if last is not None and last != last_before[p]:
                rnd, trick = move.round, move.trick
                notes.recent.append((move.index, f"{trick} — {rnd}" if rnd and trick else trick or last.name, last))
        if move.ended:                           # a round (hand, coup) is over: its own moment
            self._moment(move, after)
        for e in events[1:]:
            self._tell(e.index, e.round, e.trick, e.lines)
        move.after = None                        # (the state moves on: an event keeps no position)
        return events

    def _moment(self, move: Event, state) -> None:
        """Keep the end of a round as a moment of its own, for each person: the table as the round left it
        (`state`, a copy kept for the view), its result in words (`round_result`), what happened in it since
        his last move; what follows (the next deal, the computer's moves) is told after it."""
        kept = state if state is not self.state else state.clone()
        for p, notes in self.notes.items():
            recent = [(title, pile) for _, title, pile in notes.recent]
            notes.moments.append({"index": move.index, "ended": move.ended, "coming": move.coming,
                                  "result": move.result, "state": kept, "seat": p, "recent_piles": recent,
                                  "since": notes.since, "recent": notes.recent})
            notes.since, notes.recent = [], []

    def run_bots(self, on_wait=None) -> list[Event]:
        """The computer moves until it is a person's turn. `on_wait(name)` is called once before its first
        move (alone at the table; with several people only before a bot that thinks): `name` is the player who
        thinks for a while (the expert), else None."""
        s = self.state
        events: list[Event] = []
        shown = False
        while not s.is_terminal() and s.current_player not in self.people:
            bot = self.bots[s.current_player]
            thinks = bot.name in THINKERS and len(s.legal_actions()) > 1
            if on_wait is not None and ((not shown and not self.several) or thinks):
                on_wait(self.name(s.current_player) if thinks else None)
                shown = True
            events += self._step(bot.choose(s))
        if s.current_player in self.people:
            self.turns.append((len(s.history), s.current_player))
        return events

    def play(self, action, on_wait=None) -> list[Event]:
        """The move (object or text) of the person in front of the screen, then the computer's up to a person's
        turn. Returns the events of every move made. A move that is not his to make raises `Refused` (in
        plain words), an illegal one the game's `IllegalActionError` (naming the rule); neither changes
        anything. With several people, the table is covered after it unless that seat plays on."""
        s = self.state
        if self.covered:
            raise Refused(f"The cards are hidden: {self.name(s.current_player)} first presses "
                          f"“I am {self.name(s.current_player)}, show my cards”."
                          if s.current_player in self.people else "The cards are hidden.")
        if s.current_player != self.human:
            raise Refused("It is not your turn." if not s.is_terminal() else
                          "The game is over: press New game to play again.")
        a = s.parse_action(action)
        self.my_notes.fresh()
        events = self._step(a)
        events += self.run_bots(on_wait)
        self.covered = self.several and not s.is_terminal() and s.current_player != self.human
        return events

    # Undo ------------------------------------------------------------------------------------------------
    def own_moves(self) -> bool:
        """Whether the seat in front of the screen has made a move in this game (Undo has something to try)."""
        n = len(self.state.history)
        return any(k < n and p == self.human for k, p in self.turns)

    def in_progress(self) -> bool:
        """A game is under way that a new deal would throw away: a person has made a move, and it is not
        over."""
        s = self.state
        return not s.is_terminal() and bool(self.turns) and len(s.history) > self.turns[0][0]

    def state_at(self, k: int) -> State:
        """The state after the first k history entries (replayed)."""
        s = self.game.blank_state()
        for a in self.state.history[:k]:
            s.advance(a)
        return s

    def _rng(self) -> Rng:
        if self.undo_rng is None:
            self.undo_rng = Rng(int.from_bytes(os.urandom(8), "big"))
        return self.undo_rng

    def why_no_take_back(self, k: int) -> str:
        """With several people: why the moves since the human's decision at history index `k` may not be taken
        back, in plain words ("" if they may). A take-back deals nothing anew (that would change another
        person's cards, or, keeping them, let the taker learn them by what never comes up), so it is fair only
        where the moves taken back showed nothing of a hidden card: the human's own choices while it is still
        his turn — no move of the computer or of another person since, no deal, no card shown to him, no trick
        or round finished (whether a trick ends, or whom the turn passes to, may depend on a hidden hand), and
        in a few worlds dealt anew for him the same moves show him the same table."""
        s = self.state
        me = self.human
        rule = ("with several people at the table, Undo takes back only your own choices while it is still your "
                "turn and nothing has followed them.")
        if s.is_terminal():
            return "The game is over: with several people at the table, its moves are not taken back."
        if self.covered or s.current_player != me:
            return f"The turn has passed, so your move stands: {rule}"
        decided = dict(self.turns)
        for j in range(k, len(s.history)):
            who = decided.get(j)
            if who == me:
                continue
            if who is not None:
                return f"{self.name(who)} has played since your move, so it stands: {rule}"
            if s.history[j].__class__ is Deal:
                return f"Cards were dealt since your move, so it stands: {rule}"
            return (f"{self.name(self.state_at(j).current_player)} has answered your move, so it stands: {rule} "
                    "(To take back an answer, the cards you have not seen would be dealt anew, and with them your "
                    "friends' cards.)")
        then = self.state_at(k)
        if then.progress() != s.progress():
            return f"Your move finished {then.progress()[1] or then.progress()[0] or 'a round'}, so it stands: {rule}"

        def shown(state):
            return Counter(c.text for c in state.view(me).cards_visible())
        if shown(s) - shown(then):
            return f"Your move showed you a card, so it stands: {rule}"
        # the same moves in worlds dealt anew for him must show him the same table (nothing hidden decided what
        # he saw): a few such worlds, from the table's own random numbers
        moves = [a.text for a in s.history[k:]]
        seen = []
        probe = then.clone()
        for text in moves:
            probe.apply(text)
            seen.append(probe.view(me))

        def agrees(world) -> bool:
            try:
                for text, view in zip(moves, seen):
                    world.apply(text)
                    if world.view(me) != view:
                        return False
            except CardkitError:
                return False
            return True
        if not all(agrees(then.resample(me, self._rng())) for _ in range(TAKE_BACK_PROBES)):
            return f"What your move showed you depends on cards you have not seen, so it stands: {rule}"
        return ""

    def undo(self) -> str:
        """Back to the previous decision of the seat in front of the screen; returns what was done, in plain
        words. Alone at the table: with the cards the human has not seen dealt anew, so the same move need not
        meet the same answer. With several people: only the human's own choices while it is still his turn
        and nothing has followed them (`why_no_take_back`), exactly as they were, nothing dealt anew. Raises
        `Refused` (why, in plain words) where nothing may be taken back."""
        s = self.state
        mine = [k for k, p in self.turns if p == self.human and k < len(s.history)]
        if not mine:
            raise Refused("Nothing to undo.")
        k = mine[-1]
        if self.several:
            why = self.why_no_take_back(k)
            if why:
                raise Refused(why)
        while len(s.history) > k:
            s.undo()
        self.turns = [(j, p) for j, p in self.turns if j <= k]
        for notes in self.notes.values():
            notes.cut(k)
        self.covered = False
        self.my_notes.fresh()
        self.my_notes.since.append((-1, "Your move was taken back."))
        if self.several:
            return "Taken back. Nothing had followed your move, so nothing was dealt anew."
        # a take-back keeps the position the human knew and nothing more: the same move again need not meet the
        # same answer or draw the same card
        human = self.human
        assert human is not None                # (a person's move was taken back)
        self.state = s.resample(human, self._rng())
        return "Taken back. The cards you have not seen were shuffled again, so the next play may go differently."

    # the end -------------------------------------------------------------------------------------------------
    def outcome(self) -> str:
        """'won', 'lost' or 'draw' for the human once the game is over ('' before)."""
        s = self.state
        if not s.is_terminal():
            return ""
        winners = s.winners()
        if len(winners) == s.game.num_players:
            return "draw"
        return "won" if self.human in winners else "lost"

    def last_results(self) -> list[str]:
        """Once the game is over: the results of the rounds whose ends were not looked at, and the last one."""
        results = [m["result"] for m in self.my_notes.moments if m["result"]] + [self.state.round_result()]
        return [r for r in dict.fromkeys(results) if r]

    def kept(self) -> dict:
        """What a site keeps of this table for its visitor (`widgets.play.kept_game`): the whole record."""
        return {"saved": time.time(), "human": self.human, "people": list(self.people), "bot": self.bot_name,
                "record": self.state.to_record().dumps()}

    # the expert: Hint and review ------------------------------------------------------------------------------
    def expert_estimates(self, state, playouts: int | None = None, ms: float | None = None,
                         seat: int | None = None, explain: bool = False, min_playouts: int | None = None) -> list:
        """The expert's estimates for the decision in `state` of the human (or `seat`), asked from that seat
        only: from a state resampled for it (never the state itself, which holds the real hidden cards),
        seeded by the table and the position. Best first, as `ExpertBot.analyse` gives them; with `explain`,
        each with what its playouts did (`Estimate.facts`: the Hint's "why"). The budget as `ExpertBot` takes
        it; none: the table's own (THINK_MS, never fewer playouts than the evidence)."""
        seed = (self.expert_seed * 1_000_003 + len(state.history)) & 0xFFFFFFFFFFFF
        sample = state.resample(self.human if seat is None else seat, Rng(seed))
        if playouts is None and ms is None:
            playouts, ms, min_playouts = default_playouts(state.game.name), THINK_MS, evidence_playouts(state.game)
        expert = ExpertBot(seed=seed, playouts=playouts, ms=ms, min_playouts=min_playouts, explain=explain)
        return expert.analyse(sample)

    def hint(self, state, playouts: int | None = None) -> tuple[list, list]:
        """What the Hint shows for the human's decision in `state`: the expert's estimates, best first, each with
        what its playouts did (the "why"; none where there is one choice only), and the game's exact odds for
        the human (`State.advice`). Within HINT_MS from the call: the odds first, then the expert in the time
        left, never fewer playouts than the evidence; `playouts`: that many instead (the same on every machine)."""
        start = time.monotonic()
        odds = state.advice(self.human)
        if len(state.legal_actions()) < 2:
            return [], odds
        if playouts is not None:
            return self.expert_estimates(state, playouts, explain=True), odds
        left = max(1.0, HINT_MS - (time.monotonic() - start) * 1000)
        return self.expert_estimates(state, default_playouts(state.game.name), left, explain=True,
                                     min_playouts=evidence_playouts(state.game)), odds

    def hint_work(self, state) -> Steps:
        """The expert's part of the Hint for the human's decision in `state` (a decision with a choice), to be
        worked out in steps while the visitor thinks (the static site, where Python runs in the visitor's
        browser): the expert's samples one at a time, at the game's fixed playouts (`fixed_playouts`, as a
        worked example's Hint: the same answer on every machine, never fewer than the evidence's). Its result
        is the estimates `hint(state, fixed_playouts(...))` gives; the odds are left to the click (exact, and
        kept once counted: `State.advice`)."""
        seed = (self.expert_seed * 1_000_003 + len(state.history)) & 0xFFFFFFFFFFFF
        sample = state.resample(self.human, Rng(seed))
        expert = ExpertBot(seed=seed, playouts=fixed_playouts(state.game.name), explain=True)
        return Steps(expert.analysing(sample))

    def decisions(self, state) -> list[int]:
        """The history indices where the human had a choice (more than one legal action)."""
        replay, out = state.game.blank_state(), []
        for k, a in enumerate(state.history):
            if replay.current_player == self.human and len(replay.legal_actions()) > 1:
                out.append(k)
            replay.advance(a)
        return out

    def review(self, playouts: int | None = None, seconds: float = REVIEW_SECONDS, seat: int | None = None,
               progress=None) -> tuple[list[dict], int, int]:
        """Review the finished game: at each of the human's decisions the expert is asked, from the human's
        seat only (as in the Hint: the cards the human had not seen then are dealt anew), what it would have
        played. Returns (the moves where it differs, with what it expected to gain; how many it agreed with;
        the number of decisions). `progress(done, n)` is called before each decision. The budget: `playouts`
        per decision, or (by default) about `seconds` in all shared among the decisions. With several people,
        `seat`: whose game (the game is over: the table turns to that seat)."""
        s = self.state
        if not s.is_terminal():
            raise Refused("The review comes when the game is over.")
        if seat is not None and seat in self.people:
            self.human = seat
        history = s.history
        decisions = self.decisions(s)
        n = len(decisions)
        end = time.monotonic() + seconds
        # the replay deals as the game was dealt, and deals nothing after it: a resample from it deals the
        # rounds to come anew, as in the live game
        replay = self.game.new_state(deal=[a for a in history if a.__class__ is Deal])
        found, agreed, done = [], 0, 0
        for k, a in enumerate(history):
            if len(replay.history) > k:           # a deal the replay made by itself
                continue
            if done < n and decisions[done] == k:
                if progress is not None:
                    progress(done, n)
                budget: dict[str, Any]
                if playouts is None:            # the time left, shared among the decisions left
                    ms = (end - time.monotonic()) * 1000 / (n - done)
                    budget = {"playouts": default_playouts(replay.game.name),
                              "ms": max(REVIEW_MIN_MS, min(REVIEW_MAX_MS, ms))}
                else:
                    budget = {"playouts": playouts}
                est = self.expert_estimates(replay, **budget)
                done += 1
                mine = next((e for e in est if e.text == a.text), None)
                if mine is None or no_difference(est[0].mean - mine.mean, est[0]):   # its choice, or as good
                    agreed += 1
                else:
                    rnd, trick = replay.progress()
                    theirs = next((x for x in replay.legal_actions() if x.text == est[0].text), est[0].action)
                    found.append({"step": k, "where": " · ".join(x for x in (rnd, trick) if x),
                                  "played": a, "expert": theirs, "gain": est[0].mean - mine.mean,
                                  "unit": est[0].unit, "close": within_noise(est[0], mine)})
            replay.apply(a)
        return found, agreed, n

    # the expert's figures in words (plain text) ------------------------------------------------------------------
    def _unit(self) -> str:
        score = self.state.view(self.human).seats[self.human].score
        return "unit" if "unit" in score else "point"

    def gain_words(self, x: float, unit: str = "points", less: bool = False) -> str:
        """An expected gain (or with `less`, loss) in words, in the unit the expert weighs a move by: the
        lead of the human's side over the other side(s) — its points (money) minus theirs, so a trick that
        goes to you instead of your opponent counts twice — "about 8.6 points more in your lead over your
        opponent"; or where it plays to win (`unit` "win") "about 5 more wins in 100 games"."""
        x = abs(x)
        if unit == "win":
            n = max(1, round(100 * x))
            return f"about {n} {'fewer' if less else 'more'} {'win' if n == 1 else 'wins'} in 100 games"
        u = self._unit()
        amount = f"{x:.1f} {u}" if f"{x:.1f}" == "1.0" else f"{x:.1f} {u}s"
        return f"{amount} less in {self.lead_words()}" if less else f"about {amount} more in {self.lead_words()}"

    def lead_words(self) -> str:
        """Whose lead over whom the expert weighs: "your lead over your opponent", "your side's lead over the
        other side", "your lead over the others (on average)"."""
        sides = self.game.sides()
        mine = next(s for s in sides if self.human in s)
        others = [s for s in sides if s is not mine]
        whose = "your side's lead" if len(mine) > 1 else "your lead"
        if len(others) == 1:
            return f"{whose} over {'the other side' if len(others[0]) > 1 else 'your opponent'}"
        return f"{whose} over the others (on average)"

    def outcome_words(self, s, estimate) -> str:
        """What an action did in the expert's playouts, in the game's terms, as a clause (plain text): who
        took the trick it is played to and how often, how the human's lead over the others moved by the end
        of the round (hand, coup, deal) or game the expert plays out to, and where the game counts exact
        odds for that choice ("… if you draw"), those. Only figures over the expert's own deals of the cards
        the human has not seen, and the odds the Odds panel shows: it names no card."""
        f = estimate.facts
        mine = next(x for x in self.game.sides() if self.human in x)
        whom, es = ("you", "") if len(mine) == 1 else ("your side", "s")
        n = f["samples"]
        parts = []
        word = f["round"].split()[0].lower() if f["round"].split() else ""
        until = "the game" if f["horizon"] == "game" or not word else f"this {word}"
        if estimate.unit == "win":              # it plays to win: its shares of the win first
            won = round(estimate.mean * n)
            parts.append(f"{whom} win{es} {until} in {won} of the expert's {plural(n, 'deal')}"
                         if 0 < won < n else f"{whom} win{es} {until} in {'none' if won == 0 else 'every one'} "
                                             f"of the expert's {plural(n, 'deal')}")
        if f["trick"]:
            took, known = f["trick"]
            if took == known:
                parts.append(f"{whom} take{es} this trick in every one of the expert's {plural(known, 'deal')}")
            elif took == 0:
                parts.append(f"{whom} lose{es} this trick in every one of the expert's {plural(known, 'deal')}")
            else:
                parts.append(f"{whom} take{es} this trick in {took} of the expert's {known} deals")
        u = self._unit()
        x = f["lead"]
        lead = self.lead_words()
        if abs(x) < 0.05:
            moves = f"{lead} stays about as it is by the end of {until}"
        else:
            amount = f"{abs(x):.1f} {u}" + ("" if f"{abs(x):.1f}" == "1.0" else "s")
            moves = f"{lead} {'grows' if x > 0 else 'shrinks'} by about {amount} by the end of {until}"
        if not f["trick"]:
            moves += (f" (it grows in {f['ahead']} and shrinks in {f['behind']} of the expert's "
                      f"{plural(n, 'deal')})")
        parts.append(moves)
        text = ", and ".join(parts)
        a = estimate.action
        odds = [o for o in s.advice(self.human) if o.kind == "chance" and
                re.search(rf"\bif you {re.escape(a.text)}\b", o.label, re.IGNORECASE)]
        if odds:
            text += "; the exact odds: " + ", ".join(f"{o.label[0].lower()}{o.label[1:]}, {o.text()}" for o in odds)
        return text
