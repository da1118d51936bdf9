"""The one game protocol every cardkit game implements.

    game  = cardkit.load_game("magische7", players=4)   # a Game: rules + validated options
    state = game.new_state(seed=7)                       # or deal="…" for an explicitly stacked deal
    state.current_player; state.legal_actions(); state.apply("13"); state.undo(); state.view(0)
    state.is_terminal(); state.scores(); state.winners(); state.to_record()

Chance is explicit: a deal is an action in the history (``Deal``), applied when ``current_player`` is
``CHANCE``. A state made from a seed deals by itself with its own `Rng`; a replayed record applies the
recorded deals. History is the truth: undo and clone give the position a replay of the history gives (from a
copy of a position kept on the way, ``State._position``, rather than from the first deal).

A game subclass implements the underscored hooks: ``_start`` (the state before the first deal),
``_deal``, ``_legal``, ``_apply``, ``_illegal`` (why a text is not legal), ``_snapshot``, ``_view``,
``_scores``, ``_winners``, ``describe``, and ``_fork`` (a light copy of the position: without it, copies replay).
"""
from __future__ import annotations

import math
import operator
import os
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Self, TypeAlias, TypeVar

from .cards import Card, Deck
from .errors import CardkitError, IllegalActionError, OptionError, RecordError
from .options import Option, resolve
from .rng import Rng

CHANCE = -1     # current_player while a deal is due
TERMINAL = -2   # current_player once the game is over

# a state of any game: inside Game the name State is its class attribute (the game's own State class)
AnyState: TypeAlias = "State"
AnyStateT = TypeVar("AnyStateT", bound="State")   # a state of a game, the same one in and out


def _deal_cards(cards):
    """Stacked cards as given: a list of cards/tokens, or a text, with or without the "deal:" prefix that
    records (and e.g. a game's ``stack``) write."""
    if isinstance(cards, str) and cards.strip().lower().startswith("deal:"):
        return cards.strip()[5:]
    return cards


def _check_seed(seed) -> None:
    """A seed is an int (any size, taken modulo 2**64; not a bool) or None."""
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise CardkitError(f"seed must be an integer (or None for a random one), not {seed!r}")


def _is_card_token(t) -> bool:
    return isinstance(t, Card) or isinstance(t, str) and len(t.split()) == 1 and not t.lower().startswith("deal:")


def _stacked_deals(deal) -> list:
    """`deal` as given to new_state, as a list of deals (each a Deal, a text, or a list of cards/tokens)."""
    shapes = ("a deal is a text ('deal: …' or card tokens), a Deal, or a list of cards; several rounds are "
              "a list of such deals")
    if isinstance(deal, (str, Deal)):
        return [deal]
    if not isinstance(deal, (list, tuple)):
        raise CardkitError(f"deal={deal!r} is not a deal: {shapes}")
    if not deal:
        raise CardkitError(f"deal={deal!r} holds no deal: {shapes}")
    if all(_is_card_token(t) for t in deal):
        return [deal]                          # a list of cards/card tokens is one deal
    for i, d in enumerate(deal):
        if not (isinstance(d, (str, Deal)) or isinstance(d, (list, tuple)) and all(_is_card_token(t) for t in d)):
            raise CardkitError(f"deal: item {i} ({d!r}) is not a deal: {shapes}")
    return list(deal)


class Action:
    """A player's action. ``text`` is its notation in records; ``label`` reads well in a UI."""
    __slots__ = ("text", "label", "card", "data")

    def __init__(self, text: str, label: str | None = None, card: Card | None = None, data=None):
        self.text, self.label, self.card, self.data = text, label or text, card, data

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __deepcopy__(self, memo) -> "Action":
        """An action never changes once made (games create theirs once and reuse them): a deep copy of a
        state shares them, so action lists kept beside the hands still hold the game's very objects."""
        return self


class Deal:
    """The chance action: the order of the shuffled cards, top first (``cards``).

    A game whose shuffle is a number (``code``: which of the orders of its pack) may make the deal with
    ``Deal.coded``: its cards are then worked out from the number only when first read, and the game may
    read the number instead. Vingt-et-un does, since a coup uses about nine of the 32 cards it shuffles."""
    __slots__ = ("cards", "code", "_decode")
    label = "deal"
    card = None
    cards: tuple[Card, ...]
    code: int | None
    _decode: Callable[[int], Iterable[Card]]

    def __init__(self, cards):
        self.cards = tuple(cards)
        self.code = None

    @classmethod
    def coded(cls, code: int, decode) -> "Deal":
        """The deal numbered `code`; `decode(code)` gives its cards, top first."""
        d = cls.__new__(cls)
        d.code, d._decode = code, decode
        return d

    def __getattr__(self, name):
        # reached only for a slot not yet set: a coded deal's cards, worked out on first reading
        if name == "cards" and self.code is not None:
            self.cards = cards = tuple(self._decode(self.code))
            return cards
        raise AttributeError(f"'Deal' object has no attribute {name!r}")

    @property
    def text(self) -> str:
        return "deal: " + Deck.format(self.cards)

    def __eq__(self, other) -> bool:
        return isinstance(other, Deal) and self.cards == other.cards

    def __hash__(self) -> int:
        return hash(self.cards)

    def __repr__(self) -> str:
        return f"Deal({Deck.format(self.cards)!r})"

    def __str__(self) -> str:
        return self.text


class Game:
    """A game with its options fixed. Subclasses set the class attributes and ``State``."""
    name: ClassVar[str]
    title: ClassVar[str]
    deck: ClassVar[Deck]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    # the hands lie on the table rather than being held: a card only its owner sees lies face down (the
    # play table marks it so); False: the hands are held, as in the trick games
    hands_on_table: ClassVar[bool] = False
    # where the play table pauses for a result: when `State.progress()`'s round (0) or trick (1) label changes,
    # the round (hand, coup, deal) that ended is shown as its own moment, with `State.round_result()`
    moment_level: ClassVar[int] = 0
    State: ClassVar[type[AnyState]]
    summary: ClassVar[str] = ""
    # what `State._check_deal` compares a deal with, made on first use
    _deal_want: tuple[int, frozenset[Card] | list[int]] | None = None

    def __init__(self, **options):
        self.options = resolve(self.option_specs, options, self.name)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self.option(k).default}
        return f"load_game({self.name!r}{''.join(f', {k}={v!r}' for k, v in changed.items())})"

    def __deepcopy__(self, memo) -> "Game":
        """A Game is immutable once made (its options and generated tables never change), so deep copies
        of states (Replay keeps one per step) share it instead of copying its tables."""
        return self

    def option(self, name: str) -> Option:
        for o in self.option_specs:
            if o.name == name:
                return o
        raise OptionError(f"{self.name} has no option {name!r}; valid options: "
                          + (", ".join(o.name for o in self.option_specs) or "none"))

    @property
    def num_players(self) -> int:
        return self.options.get("players", 2)

    def player_names(self) -> list[str]:
        return [f"P{i}" for i in range(self.num_players)]

    def sides(self) -> list[list[int]]:
        """The sides that win or lose together: the seats of each partnership, or each seat alone (the
        default). Matches between bots (``cardkit.tournament``) seat a bot's side by it."""
        return [[p] for p in range(self.num_players)]

    def deciders(self) -> list[int]:
        """The seats that ever choose a move: all of them, unless the rules play a seat by themselves (Faro's
        bank only turns the cards). The play table lets a person take these seats only."""
        return list(range(self.num_players))

    def full_deck(self) -> list[Card]:
        """The cards a deal shuffles, in canonical order."""
        return list(self.deck.cards)

    def new_state(self, seed: int | None = None, deal=None) -> AnyState:
        """A new game: dealt from `seed`, or from an explicit stacked `deal` (cards top first; a list of
        such lists for several rounds). With neither, a random seed is drawn; the record keeps the deals."""
        if deal is not None and seed is not None:
            raise CardkitError("give either seed or deal, not both")
        _check_seed(seed)
        stacked: list = []
        if deal is not None:
            stacked = [d if isinstance(d, Deal) else Deal(self.deck.parse_many(_deal_cards(d)))
                       for d in _stacked_deals(deal)]
        elif seed is None:
            seed = int.from_bytes(os.urandom(6), "big")
        state = self.State(self)
        state._rng = Rng(seed) if seed is not None else None
        state.seed = seed
        state._stacked = stacked
        for d in stacked:                      # every stacked deal now, not when its round comes
            state._check_deal(d)
        state._auto_deal()
        return state

    def blank_state(self) -> AnyState:
        """The state before the first deal (current_player == CHANCE), with no RNG: for replaying records."""
        s = self.State(self)
        s._rng, s.seed, s._stacked = None, None, []
        return s

    def random_deal(self, rng: Rng) -> Deal:
        return Deal(rng.shuffle(self.full_deck()))

    # rules as data ---------------------------------------------------------------------------------
    @property
    def rulebook(self):
        from .rules import load_rulebook
        return load_rulebook(self.name, game=self)

    def rule_tables(self) -> dict:
        """Tables generated from the engine, shown in the rulebook: name -> rules.Table."""
        return {}

    def examples(self) -> list:
        from .record import examples
        return examples(self.name)



class _Marks(tuple[tuple[int, "State"], ...]):
    """Positions a state keeps for undo and resample: (k, position) pairs in order of k, each `position` the state
    after the first k entries of the history (no dealer's RNG), never changed and never handed out (copies of it
    are, by ``_fork``). A copy of the state shares them: they hold for its history as long as it only grows, and
    ``_restore`` drops those beyond the entry it goes back to. A deep copy shares them too."""
    __slots__ = ()

    def __deepcopy__(self, memo) -> "_Marks":
        return self


_first = operator.itemgetter(0)
UNDO_MARKS = 4          # an undo keeps the positions 1, 2, 4 and 8 entries before the one it goes back to
_SLOTS_OF: dict = {}


def _slot_names(cls) -> tuple:
    """The names a class and its bases keep in ``__slots__`` (beside any ``__dict__``)."""
    names = _SLOTS_OF.get(cls)
    if names is None:
        names = []
        for k in cls.__mro__:
            sl = k.__dict__.get("__slots__", ())
            for n in ((sl,) if isinstance(sl, str) else sl):
                if n not in ("__dict__", "__weakref__") and n not in names:
                    names.append(n)
        names = _SLOTS_OF[cls] = tuple(names)
    return names


class Narration:
    """How a game is told, apart from its rules, as OpenSpiel keeps its observers apart from its games: each move
    in words as everyone sees it (`describe`), what the game says besides to the player who made it, as he
    follows it (`narrate`), and a round's result in words (`round_result`). A game keeps these in a class of its
    own beside its rules (`<Game>Narration`), mixed into its state: it reads the position it tells."""
    __slots__ = ()        # (mixed into a state that may keep its position in slots)
    if TYPE_CHECKING:     # for the checker: a method here reads the attributes of the state it is mixed into
        def __getattr__(self, name: str) -> Any: ...


class State:
    """Base class of every game state. See the module docstring for the protocol."""
    _cp: int                    # the seat to act, CHANCE or TERMINAL (see current_player)
    # the dealer: set by Game.new_state and blank_state, copied by undo and clone
    _rng: Rng | None
    seed: int | None
    _stacked: list[Deal]

    def __init__(self, game: Game):
        self.game = game
        self.history: list = []
        self._legal_cache: list | None = None
        self._rng_log: list = []   # (history index of an auto deal, rng state before it)
        self._start()

    # the public protocol --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act, CHANCE or TERMINAL: by default the attribute ``_cp`` the game keeps (a game may
        also make ``current_player`` a plain attribute)."""
        return self._cp

    def is_chance(self) -> bool:
        return self.current_player == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def legal_actions(self) -> list:
        """The current player's legal actions (empty at a chance node or at the end)."""
        legal = self._legal_cache
        if legal is None:
            cp = self.current_player
            legal = self._legal_cache = self._legal() if cp >= 0 else []
        return legal

    def parse_action(self, text: str):
        """The legal action written `text` (its notation or label, case-insensitive), or an
        IllegalActionError naming the rule it breaks."""
        if isinstance(text, (Action, Deal)):
            text = text.text
        if not isinstance(text, str):
            raise IllegalActionError("protocol", f"an action must be an action object or its text, not {type(text).__name__}")
        t = text.strip()
        if t.lower().startswith("deal:"):
            if not self.is_chance():
                raise IllegalActionError("protocol", "no deal is due now", text)
            try:
                return Deal(self.game.deck.parse_many(t[5:]))
            except CardkitError as e:
                raise IllegalActionError("deal", str(e), text) from None
        if self.is_terminal():
            raise IllegalActionError("end", "the game is over", text)
        if self.is_chance():
            raise IllegalActionError("protocol", "a deal is due: apply a Deal first", text)
        tl = t.lower()
        for a in self.legal_actions():
            if a.text.lower() == tl or a.label.lower() == tl:
                return a
        raise self._illegal(t)

    def apply(self, action) -> Self:
        """Apply an action (object or text). An illegal one raises IllegalActionError and changes nothing."""
        legal = self._legal_cache
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:                # (a text or a Deal is never among the legal actions)
            if action.__class__ is not Deal or not self.is_chance():
                action = self.parse_action(action)
            if action.__class__ is Deal:
                self._check_deal(action)
                legal = self._deal(action)
            else:
                legal = self._apply(action)
        else:
            legal = self._apply(action)
        self.history.append(action)
        self._legal_cache = legal          # the new position's legal actions if the hook gave them, else None
        if self.current_player == CHANCE and (self._rng is not None or self._stacked):
            self._auto_deal()
        return self

    def advance(self, action) -> Self:
        """Apply one entry of a history known to be legal (this state's own, or a record's already replayed),
        without the checks and without the deal that `apply` makes by itself where one falls due: the
        position between a move and the deal it set off, as a narration needs it."""
        legal = self._deal(action) if action.__class__ is Deal else self._apply(action)
        self.history.append(action)
        self._legal_cache = legal
        return self

    def deal(self, cards=None, seed: int | None = None) -> Self:
        """At a chance node: deal `cards` (stacked, top first) or shuffle with `seed`."""
        if not self.is_chance():
            raise IllegalActionError("protocol", "no deal is due now")
        _check_seed(seed)
        d = Deal(self.game.deck.parse_many(_deal_cards(cards))) if cards is not None else self.game.random_deal(Rng(seed if seed is not None else int.from_bytes(os.urandom(6), "big")))
        return self.apply(d)

    def undo(self) -> Self:
        """Take back the last player action (and any deal that followed it automatically)."""
        k = len(self.history) - 1
        while k >= 0 and self.history[k].__class__ is Deal:
            k -= 1
        if k < 0:
            raise CardkitError("nothing to undo: no player action has been made")
        self._restore(k)
        return self

    _marks = _Marks()       # positions kept on the way (`_position`); a state that never undid keeps none

    def _position(self, k: int, decisions: bool = False) -> "State":
        """A new state at the position after the first k entries of the history, with no dealer's RNG (as
        ``blank_state`` has none): what a replay of them gives. Where the game has a light copy (``_fork``) it
        starts from a copy of the latest position kept at or before k and replays only the entries after it,
        keeping on the way the position before each deal it passes (so resample's start of the hand, and an
        undo, replay no earlier hand again) and, with `decisions` (an undo), k itself and the positions 1, 2, 4
        and 8 entries before it in its hand (so each of the next undos is a copy and a few moves). Nothing is
        kept while a state only plays on: ``apply`` pays nothing for it. Without a light copy it replays."""
        history = self.history
        light = type(self)._fork is not State._fork
        marks: tuple[tuple[int, State], ...] = self._marks if light else ()
        j = 0
        c: State | None = None
        for i, pos in reversed(marks):
            if i <= k:
                j, c = i, pos._fork()
                break
        kept_j = c is not None                    # the position at j is kept already
        if c is None:
            c = self.game.blank_state()
        if not light:
            for a in history[j:k]:
                c._apply(a) if a.__class__ is not Deal else c._deal(a)
                c.history.append(a)
            return c
        hand = k                                  # the first entry of k's hand (its deal), for `decisions`
        if decisions:
            while hand > 0 and history[hand - 1].__class__ is not Deal:
                hand -= 1
            hand -= 1
        near = {k - (1 << e) for e in range(UNDO_MARKS)} if decisions else ()   # before k: 1, 2, 4, 8 actions
        new = []
        for i in range(j, k):
            a = history[i]
            if (i > j or not kept_j) and (a.__class__ is Deal or i in near and i >= hand):
                new.append((i, self._mark(c)))
            c._apply(a) if a.__class__ is not Deal else c._deal(a)
            c.history.append(a)
        if (k > j or not kept_j) and (decisions or k < len(history) and history[k].__class__ is Deal):
            new.append((k, self._mark(c)))
        if new:
            kept = sorted(marks + tuple(new), key=_first)
            if decisions:                         # of the hands before k's, only the positions before a deal
                kept = [m for m in kept if m[0] >= hand or m[0] < len(history) and history[m[0]].__class__ is Deal]
            self._marks = _Marks(kept)
        c._legal_cache = None
        return c

    @staticmethod
    def _mark(state: "State") -> "State":
        """A copy of `state` to keep as a mark: no dealer's RNG, no marks of its own."""
        m = state._fork()
        m._rng, m._rng_log, m.seed, m._stacked = None, [], None, []
        m.__dict__.pop("_marks", None)
        return m

    def _restore(self, k: int) -> None:
        """Make this state the position after its first k history entries (`_position`), the dealer's RNG as it
        was before the first deal it undoes."""
        undone_deals = [i for i, (hi, _) in enumerate(self._rng_log) if hi >= k]
        rng_log = self._rng_log
        fresh = self._position(k, decisions=True)
        marks = self._marks
        n = len(marks)
        while n and marks[n - 1][0] > k:
            n -= 1
        rng, seed, stacked = self._rng, self.seed, self._stacked
        if undone_deals:
            first = undone_deals[0]
            if rng is not None:
                rng.setstate(rng_log[first][1])
            rng_log = rng_log[:first]
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        for name in _slot_names(type(self)):       # a game may keep its state in __slots__ (Whist, 24)
            try:
                setattr(self, name, getattr(fresh, name))
            except AttributeError:                   # not set in the replay: not set here either
                if hasattr(self, name):
                    delattr(self, name)
        self._rng, self.seed, self._stacked, self._rng_log = rng, seed, stacked, rng_log
        self._legal_cache = None
        if n:
            self._marks = _Marks(marks[:n])

    def clone(self) -> "State":
        """An independent copy: the same position, history, dealer's RNG (the same future deals) and records of
        it. A copy of the position (``_fork``), which replays the history where the game has no light copy."""
        c = self._fork()
        if c.history is self.history:
            c.history = list(self.history)
        rng = self._rng
        if rng is not None:
            c._rng = Rng(0)
            c._rng.setstate(rng.getstate())
        else:
            c._rng = None
        c.seed, c._stacked, c._rng_log = self.seed, self._stacked, list(self._rng_log)
        c._legal_cache = None
        return c

    # hidden cards dealt anew --------------------------------------------------------------------------
    def resample(self, player: int, rng=None, tries: int = 2000) -> "State":
        """A state that agrees with everything `player` has seen, with the cards `player` has not seen
        dealt anew among the places they may be (OpenSpiel's ResampleFromInfostate).

        "Agrees" is checked, not assumed: the latest deal's unseen cards (the game's ``_unseen_slots``:
        other hands, the stock) are dealt anew among their places, the actions since that deal are replayed,
        and the candidate is kept only if every action stays legal and `player`'s view after every step
        is what it was. That also keeps what the play itself revealed (in Sieben, a leader who was not
        offered to continue holds no equal card). Future deals come from a fresh RNG drawn from `rng`.

        Candidates are first the unseen cards shuffled among all their places, up to `tries` of them; where
        the game names what the play has proved about the deal (``_excluded``: a void shown by not following
        suit), a shuffle that breaks it is passed over without a replay. If none fits, up to `tries` more
        are dealt under that proof, uniformly among the deals that respect it, so that a position late in a
        hand with many voids finds its deals at once instead of by luck. Either way every deal that fits is
        equally likely. Only if no candidate fits does a walk from the true deal look for another
        (``_walk``); the state itself comes back only when no deal but the true one fits (the deal is
        forced). `rng`: a cardkit ``Rng``, an int seed, or None (OS randomness)."""
        self._check_seat(player)
        if rng is None or isinstance(rng, int) and not isinstance(rng, bool):
            rng = Rng(int.from_bytes(os.urandom(8), "big") if rng is None else rng)
        elif not isinstance(rng, Rng):
            raise CardkitError(f"rng must be a cardkit Rng, an int seed or None, not {type(rng).__name__}")
        history = self.history
        k = len(history) - 1
        while k >= 0 and history[k].__class__ is not Deal:
            k -= 1
        future = Rng(rng.next64()) if (self._rng is not None or self._stacked) else None
        if k < 0:
            out = self.clone()
        else:
            out = self._resample_last_deal(player, k, rng, tries)
        out._rng, out.seed, out._stacked, out._rng_log = future, None, [], []
        out._legal_cache = None
        marks = self._marks                     # the positions kept before the latest deal hold for it too
        if marks and k >= 0:
            n = len(marks)
            while n and marks[n - 1][0] > k:
                n -= 1
            if n:
                out._marks = _Marks(marks[:n])
        return out

    def _check_seat(self, player, teacher: str = "") -> None:
        """A seat: an int from 0 to num_players - 1 (not a bool); else a CardkitError naming the seats
        (`teacher`: what None would mean, where it is allowed)."""
        n = self.game.num_players
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            names = self.game.player_names()
            seats = ", ".join(f"{p} ({names[p]})" for p in range(n))
            raise CardkitError(f"no seat {player!r}: the seats are {seats}" + (f"; {teacher}" if teacher else ""))

    def _observation(self, player: int):
        v = self.view(player)
        return (v.seats, v.piles, v.status, v.current_player, v.terminal, v.result,
                tuple(a.text for a in v.legal), tuple(v.facts))

    def _resample_last_deal(self, player: int, k: int, rng: Rng, tries: int) -> "State":
        deal = self.history[k]
        slots = self._unseen_slots(player)
        suffix = self.history[k + 1:]
        if len(slots) < 2:
            return self.clone()
        prefix = self._position(k)
        # what the player saw after the deal and after each later action
        want = []
        probe = prefix._fork()
        probe._deal(deal)
        want.append(probe._observation(player))
        for a in suffix:
            probe._apply(a)
            probe._legal_cache = None
            want.append(probe._observation(player))
        cards = list(deal.cards)
        hidden = [cards[i] for i in slots]
        dealer: _ExclusionDealer | None = None
        made = False                            # the dealer is made at the first shuffle that does not fit
        for t in range(tries):
            rng.shuffle(hidden)
            if dealer and not dealer.respects(hidden):
                continue                        # it breaks what the play proved: it cannot fit
            new = list(cards)
            for i, c in zip(slots, hidden):
                new[i] = c
            cand = self._fits(prefix, new, suffix, want, player)
            if cand is not None:
                return cand
            if not made:
                dealer, made = _ExclusionDealer.make(slots, hidden, self._excluded()), True
        if dealer:
            for t in range(tries):
                cand = self._fits(prefix, dealer.deal(rng, cards), suffix, want, player)
                if cand is not None:
                    return cand
        return self._walk(prefix, cards, slots, suffix, want, player, rng, 20 * len(slots))

    def _fits(self, prefix: "State", cards: list, suffix: list, want: list, player: int):
        """The position reached by dealing `cards` after `prefix` and replaying `suffix`, if every action stays
        legal and `player` sees what `want` holds after each step; else None."""
        cand = prefix._fork()
        d = Deal(cards)
        cand._deal(d)
        cand.history.append(d)
        cand._legal_cache = None
        if cand._observation(player) != want[0]:
            return None
        for step, a in enumerate(suffix, 1):
            legal = cand.legal_actions()
            if a not in legal:
                text = a.text.lower()
                a = next((x for x in legal if x.text.lower() == text), None)
                if a is None:
                    return None
            cand._apply(a)
            cand.history.append(a)
            cand._legal_cache = None
            if cand._observation(player) != want[step]:
                return None
        return cand

    def _walk(self, prefix: "State", cards: list, slots: list, suffix: list, want: list, player: int, rng: Rng,
              steps: int) -> "State":
        """Where no candidate dealt from scratch fitted: a random walk over the deals that fit, from the true
        one. Each step swaps the cards of two unseen places and keeps the swap if the deal still fits (a
        symmetric proposal: in the long run every deal the walk can reach is equally likely). If no step of
        `steps` moved, every swap is tried once (in a random order) before the deal is called forced and the
        state itself is returned; a swap that fits starts the walk again from there."""
        n = len(slots)
        cur, state = list(cards), None
        for attempt in range(2):
            for _ in range(steps):
                a, b = slots[rng.below(n)], slots[rng.below(n)]
                if cur[a] is cur[b]:
                    continue
                new = list(cur)
                new[a], new[b] = new[b], new[a]
                cand = self._fits(prefix, new, suffix, want, player)
                if cand is not None:
                    cur, state = new, cand
            if state is not None or attempt:
                break
            pairs = [(a, b) for x, a in enumerate(slots) for b in slots[x + 1:] if cur[a] is not cur[b]]
            rng.shuffle(pairs)
            for a, b in pairs:
                new = list(cur)
                new[a], new[b] = new[b], new[a]
                cand = self._fits(prefix, new, suffix, want, player)
                if cand is not None:
                    cur, state = new, cand
                    break
            if state is None:
                break
        return state if state is not None else self.clone()

    def fork(self) -> "State":
        """An independent copy of this position for a search that plays it out (the expert's playouts): the
        game's light copy (`_fork`), without the dealer's RNG of its own that `clone` adds."""
        return self._fork()

    def position_at(self, k: int) -> "State":
        """A new state at the position after the first k entries of the history (as a replay of them gives it,
        with no dealer's RNG), from a kept position where there is one."""
        return self._position(k)

    def _fork(self) -> "State":
        """An independent copy of this position: `clone`'s, resample's (one per try) and the expert's (one per
        playout). The base replays the history (`_position`); a game with a light copy of its position returns
        that instead (the copy must share nothing either's play changes, its history a list of its own; a
        test compares it with a replay in every game). ``clone`` gives it the dealer's RNG."""
        return self._position(len(self.history))

    def _fork_base(self) -> Self:
        """The start of a game's light `_fork`: a copy sharing every attribute, with its own history, its own
        dealer's RNG and RNG log, and no legal actions kept; the game then copies the containers its play
        changes."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        return self._own(c)

    def _own(self, c: AnyStateT) -> AnyStateT:
        """`c`, a copy of this position, given its own history, dealer's RNG and RNG log, and no legal actions kept
        (a game's light copy that shares them, made for looking ahead, becomes a `_fork` so)."""
        c.history = list(self.history)
        c._rng_log = list(self._rng_log)
        if self._rng is not None:
            c._rng = Rng(0)
            c._rng.setstate(self._rng.getstate())
        c._legal_cache = None
        return c

    def _unseen_slots(self, player: int) -> list[int]:
        """Indices into the cards of the latest deal that `player` has not seen: the game tells who
        got each slot (``_deal_owners``) and which cards have been shown (``_revealed``)."""
        from collections import Counter
        deal = next(a for a in reversed(self.history) if a.__class__ is Deal)
        owners = self._deal_owners()
        shown = Counter(self._revealed())
        out = []
        for i, (card, owner) in enumerate(zip(deal.cards, owners)):
            if owner == player:
                continue
            if shown[(owner, card)] > 0:
                shown[(owner, card)] -= 1
                continue
            out.append(i)
        return out

    def deal_owners(self) -> list:
        """For each card of the latest deal (in deal order): the seat it went to (dealt or drawn), or None while
        nobody has it (the stock). Public for those who lay out a deal of their own (`cardkit.share`)."""
        return self._deal_owners()

    def _deal_owners(self) -> list:
        """For each card of the latest deal (in deal order): the seat it went to (dealt or drawn), or
        None while nobody has it (the stock). A game implements this for ``resample``."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _deal_owners (needed by resample)")

    def _revealed(self) -> list:
        """(seat or None, card) for every card of the latest deal that has been shown to all (played,
        turned up): the slot it came from counts as seen. A game implements this for ``resample``."""
        raise NotImplementedError(f"{type(self).__name__} does not implement _revealed (needed by resample)")

    def _excluded(self) -> list:
        """What the play has proved about the latest deal, for ``resample``: (slots, cards) pairs, each
        saying that none of `cards` was dealt to any of `slots` (indices into the deal's cards, as in
        ``_deal_owners``) — a player who did not follow suit held no card of it. It must be sound (the true
        deal respects it); it need not be complete (every candidate is checked by replaying the play). By
        default nothing is proved: the unseen cards are only ever shuffled."""
        return []

    def snapshot(self) -> tuple:
        """Everything that makes this state what it is, as a comparable value."""
        return (tuple(a.text for a in self.history), self._rng.getstate() if self._rng else None,
                self._snapshot())

    def __eq__(self, other) -> bool:
        """Same game, options, history and position. The dealer's RNG (future deals) is not compared, so
        a replayed record equals the game it records; ``snapshot()`` does include it."""
        return isinstance(other, State) and self.game.name == other.game.name and \
            self.game.options == other.game.options and \
            self.snapshot()[::2] == other.snapshot()[::2]

    __hash__ = None  # type: ignore[assignment]  # a state changes as it is played: equal, yet not hashable

    def scores(self) -> list:
        """Points per player (a team game gives each player the team's total). Final once terminal."""
        return self._scores()

    def standing(self) -> list:
        """The scores with what the play has earned toward them but they do not show yet, in the scores'
        units — Whist's hand points, which turn into game points only when a side reaches seven. The expert
        values its playouts by it, so that a hand that moves no score still tells good play from bad. The
        same as ``scores()`` once the game is over; by default ``scores()`` at every point."""
        return self._scores()

    def winners(self) -> list[int]:
        """The winning players (several for a team or a tie); empty until the game is over."""
        return self._winners() if self.is_terminal() else []

    def view(self, player: int | None = None):
        """What `player` may see (None: the teacher's view of everything). A player that is not a seat of
        this game raises CardkitError naming the seats; the game's ``_view`` hook builds the view."""
        self._check_viewer(player)
        return self._view(player)

    def _check_viewer(self, player) -> None:
        """None (the teacher) or a seat."""
        if player is not None:
            self._check_seat(player, "None is the teacher's view of everything")

    def describe(self, action, after: Self | None = None) -> str:
        """One line narrating `action` taken in this state."""
        return f"{self.game.player_names()[self.current_player]}: {action.label}" \
            if self.current_player >= 0 else "Cards are shuffled and dealt."

    def narrate(self, action, after: Self | None = None, viewer: int | None = None) -> str:
        """The narration of `action` as `viewer` follows it: `describe(action, after)` (what everyone sees),
        and where the game says more to the player who made the move — the card he drew face down, his new
        total — that too; nothing any other player may not see. Lines are separated by newlines (a move
        that sets off the bank's play and a settlement narrates each on its own line)."""
        return self.describe(action, after)

    def round_result(self) -> str:
        """The result of the last round (hand, coup, deal) finished, in words: who won it, the points, and the
        running score ("" before the first, or for a game of one deal). The play table shows it as a moment of
        its own when a round ends (`Game.moment_level`), before the next one."""
        return ""

    def advice(self, player: int) -> list:
        """Exact odds for the decision in front of `player` (a list of `cardkit.view.Odds`), computed
        only from what `player` has seen — by enumerating the unseen cards, never by simulation. The play
        table's Odds panel shows them; a game without odds returns [] (the default)."""
        self._check_seat(player)
        return []

    def progress(self) -> tuple[str, str]:
        """Where the game stands, in words, for grouping a log: (round, trick), e.g. ("Round 2",
        "Trick 3"); an empty string where the game has no such unit."""
        return "", ""

    def score_table(self):
        """The scores so far as a table (a `rules.Table`): by default one row, each player's score; a game
        of several rounds gives a row per round."""
        from .rules import Table
        names = self.game.player_names()
        return Table(["", *names], [["points", *(f"{x:g}" if isinstance(x, float) else str(x)
                                                  for x in self.scores())]], "Scores")

    def to_record(self, **meta):
        from .record import Record
        return Record(self.game.name, dict(self.game.options), [a.text for a in self.history], meta)

    def _repr_svg_(self) -> str:
        from .svg import view_svg
        return view_svg(self.view(None))

    # hooks ----------------------------------------------------------------------------------------
    def _start(self) -> None:
        raise NotImplementedError

    def _view(self, player: int | None):
        """The View of `player` (already checked: a seat, or None for the teacher)."""
        raise NotImplementedError

    def _legal(self) -> list:
        raise NotImplementedError

    def _apply(self, action) -> list | None:
        """Make the move. It may return the new position's legal actions (a fresh list), when it knows them
        at little cost, to spare ``legal_actions`` working them out; None lets ``_legal`` do it."""
        raise NotImplementedError

    def _deal(self, deal: Deal) -> list | None:
        """Deal the cards (like ``_apply``, it may return the new position's legal actions)."""
        raise NotImplementedError

    def _illegal(self, text: str) -> IllegalActionError:
        return IllegalActionError("protocol", f"not a legal action now; legal: "
                                  + ", ".join(a.text for a in self.legal_actions()), text)

    def _check_deal(self, deal: Deal) -> None:
        """A deal must be a permutation of the game's cards. Cheap (it runs at every deal): the game's cards
        are kept once per Game as a set (or, with two packs, as the sorted identities of the cards, which
        are interned)."""
        g = self.game
        want = g._deal_want
        if want is None:
            full = g.full_deck()
            unique = len(set(full)) == len(full)
            want = g._deal_want = (len(full), frozenset(full) if unique else sorted(map(id, full)))
        n, key = want
        cards = deal.cards
        if len(cards) != n or (frozenset(cards) != key if key.__class__ is frozenset
                               else sorted(map(id, cards)) != key):
            each = "each once" if key.__class__ is frozenset else "each as often as in the packs"
            raise IllegalActionError("deal", f"a deal must hold exactly the {n} cards of {g.title}, {each}",
                                     deal.text[:60])

    def _snapshot(self) -> tuple:
        raise NotImplementedError

    def _scores(self) -> list:
        raise NotImplementedError

    def _winners(self) -> list[int]:
        """Default: every player with the best score (teams share theirs, so a team wins together)."""
        s = self._scores()
        best = max(s)
        return [p for p in range(len(s)) if s[p] == best]

    def _auto_deal(self) -> None:
        """Deal while a deal is due: the next stacked deal (checked when the state was made, and again here),
        else one the game shuffles from its seeded RNG. That one is a permutation of the game's cards by
        construction (tests/test_deals.py checks every game's ``random_deal``), so it is not checked again:
        at one deal per coup, the check would be a good part of a short coup's cost."""
        history = self.history
        while self.current_player == CHANCE:
            stacked = self._stacked
            n = sum(1 for a in history if a.__class__ is Deal) if stacked else 0
            if n < len(stacked):
                d = stacked[n]
                self._check_deal(d)
            else:
                rng = self._rng
                if rng is None:
                    return
                self._rng_log.append((len(history), rng.getstate()))
                d = self.game.random_deal(rng)
            legal = self._deal(d)
            history.append(d)
            self._legal_cache = legal


def _below(rng: Rng, n: int) -> int:
    """A uniform integer in [0, n) for any n (the counts of deals outgrow 64 bits): ``rng.below`` up to
    2**64, beyond that several 64-bit draws read as one number (rejection sampling, no bias)."""
    if n <= 1 << 64:
        return rng.below(n)
    words = (n.bit_length() + 63) // 64
    span = 1 << (64 * words)
    limit = span - span % n
    while True:
        x = 0
        for _ in range(words):
            x = (x << 64) | rng.next64()
        if x < limit:
            return x % n


class _ExclusionDealer:
    """Deals the unseen cards of a deal under what the play has proved (``State._excluded``), uniformly among
    every deal that respects it (with each copy of a card told apart, as a shuffle tells them apart).

    The unseen places fall into groups ("buckets") that the proof treats alike, and the cards into kinds by
    the buckets they may go to. A deal is then, first, how many cards of each kind each bucket gets —
    counted exactly (each choice weighs as many deals as it leaves: a multinomial coefficient per kind) and
    drawn with that weight, kind after kind — and second, which cards those are and in what order they lie
    in a bucket's places, both shuffled. Everything is built from the cards in pack order and the places in
    deal order, never from where the true deal put a card."""

    __slots__ = ("buckets", "kinds", "_ways", "_splits", "_checks")
    buckets: list[tuple[frozenset, list[int]]]
    kinds: list[tuple[tuple[int, ...], list[Card]]]
    _ways: dict
    _splits: dict
    _checks: list[tuple[int, set]]

    @classmethod
    def make(cls, slots: list, hidden: list, excluded) -> "_ExclusionDealer | None":
        """A dealer for these unseen `slots` and their cards, or None where the proof constrains nothing here."""
        unseen = set(slots)
        forbidden: dict = {}
        for where, cards in excluded:
            cards = set(cards)
            for i in where:
                if i in unseen:
                    forbidden.setdefault(i, set()).update(cards)
        if not forbidden:
            return None
        here = set(hidden)
        buckets: dict = {}
        for i in sorted(slots):
            buckets.setdefault(frozenset(forbidden.get(i, ())) & here, []).append(i)
        if len(buckets) == 1 and not next(iter(buckets)):
            return None
        d = cls()
        d.buckets = list(buckets.items())
        kinds: dict = {}
        for c in sorted(hidden, key=lambda c: c.index):
            allowed = tuple(b for b, (no, _) in enumerate(d.buckets) if c not in no)
            kinds.setdefault(allowed, []).append(c)
        d.kinds = list(kinds.items())
        d._ways, d._splits = {}, {}
        d._checks = [(j, forbidden[i]) for j, i in enumerate(slots) if i in forbidden]
        if any(not allowed for allowed, _ in d.kinds) or not d._count(0, tuple(len(s) for _, s in d.buckets)):
            return None      # an unsound proof: no deal respects it (the true one must), so it is not used
        return d

    def respects(self, hidden: list) -> bool:
        """Whether the unseen cards `hidden`, in the order of the unseen places given to `make`, put no card
        where the proof says it cannot be."""
        for j, no in self._checks:
            if hidden[j] in no:
                return False
        return True

    def _options(self, i: int, room: tuple) -> list:
        """(weight, new room, split) for each way of sharing kind `i`'s cards among its buckets within `room`."""
        key = (i, room)
        out = self._splits.get(key)
        if out is None:
            allowed, cards = self.kinds[i]
            out = []
            fact = math.factorial

            def share(j: int, left: int, split: tuple):
                b = allowed[j]
                if j == len(allowed) - 1:
                    if left <= room[b]:
                        yield split + (left,)
                    return
                for x in range(min(left, room[b]) + 1):
                    yield from share(j + 1, left - x, split + (x,))

            n = len(cards)
            for split in share(0, n, ()):
                rest = list(room)
                w = fact(n)
                for b, x in zip(allowed, split):
                    rest[b] -= x
                    w //= fact(x)
                out.append((w, tuple(rest), split))
            self._splits[key] = out
        return out

    def _count(self, i: int, room: tuple) -> int:
        """The number of ways to deal kinds i, i+1, … into `room` (the places left in each bucket)."""
        if i == len(self.kinds):
            return 1 if not any(room) else 0
        key = (i, room)
        got = self._ways.get(key)
        if got is None:
            got = self._ways[key] = sum(w * self._count(i + 1, rest) for w, rest, _ in self._options(i, room))
        return got

    def deal(self, rng: Rng, cards: list) -> list:
        """The deal's cards with the unseen places dealt anew (a fresh list)."""
        room = tuple(len(s) for _, s in self.buckets)
        into: list = [[] for _ in self.buckets]
        for i, (allowed, kind) in enumerate(self.kinds):
            x = _below(rng, self._count(i, room))
            for w, rest, split in self._options(i, room):
                w *= self._count(i + 1, rest)
                if x < w:
                    break
                x -= w
            pile = rng.shuffle(list(kind))
            at = 0
            for b, n in zip(allowed, split):
                into[b] += pile[at:at + n]
                at += n
            room = rest
        new = list(cards)
        for (_, places), got in zip(self.buckets, into):
            rng.shuffle(got)
            for i, c in zip(places, got):
                new[i] = c
        return new
