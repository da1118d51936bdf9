"""Faro (Pharo): a bank deals two packs, two cards a turn, one to the left and one to the right; the punters
stake on ranks of their books. Played as a sitting of several deals, every stake and payment in a ledger,
with exact odds for every decision.

Source: ``004_…`` (the 7th Sea quick rules, "Faro"). Where it is silent the kit uses the historical game and
says so. Rule IDs refer to ``cardkit/rules/faro.toml``.

Seats: 0 Anna, 1 the Bank, 2 Bert, 3 Clara (``players`` counts the bank). A deal (the chance move) is the
shuffled 104 cards, top first; the last is the bottom card. Then each punter in turn stakes: a card of the
book (its text, e.g. ``7S``), then the amount (``stake 2``), … and ``done``. The bank ``show``\\s the bottom
card and ``turn``\\s two cards at a time; after each turn every punter whose rank showed decides about the
stake on it (``paroli``, ``lappe``, ``six-et-le-va``, ``sept-et-le-va``, ``withdraw``). When the pack is
out the stakes go back; after the last deal the game is over and each seat's score is its balance.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from fractions import Fraction
from functools import lru_cache
from math import comb


from ..cards import FRENCH52, Card
from ..errors import CardError, IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..ledger import TABLE, Ledger
from ..options import Option
from ..rng import Rng
from ..rules import Table
from ..view import Odds, Pile, Seat, View, plural

BANK = 1
NAMES = ("Anna", "Bank", "Bert", "Clara")
BOOK_SUIT = {0: "S", 2: "S", 3: "S"}              # FA-0.1: every book is the spades
SUIT_WORD = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")     # the case-keeper's order
RANK_WORD = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
RANK_OF = {c: RANKS.index(c.rank) for c in FRENCH52.cards}
# a punter's hand is his book's cards not staked, one a rank, kept in rank order: a card is found in it by its
# rank (bisect)
_RANK_KEY = RANK_OF.__getitem__
COPIES = 8                      # of each rank in the two packs
PACK = 104
TURNS = PACK // 2
AMOUNTS = (1, 2, 5, 10, 20, 50, 100)

# phases
STAKE, AMOUNT, SHOW, TURN, DECIDE = 0, 1, 2, 3, 4
# outcomes of a showing
WIN, LOSS, DOUBLET = 1, 2, 3
OUTCOME_WORD = {WIN: "won", LOSS: "lost", DOUBLET: "made a doublet"}

# action codes (Action.data; a stake's amount is its positive data)
D_PICK, D_DONE, D_SHOW, D_TURN, D_PAROLI, D_LAPPE, D_SIX, D_SEPT, D_WITHDRAW = -1, -2, -3, -4, -5, -6, -7, -8, -9
D_LEAVE = -10

PICK = {c: Action(c.text, c.label, c, data=D_PICK) for c in FRENCH52.cards}
STAKE_A = {k: Action(f"stake {k}", f"stake {plural(k, 'unit')}", data=k) for k in AMOUNTS}
DONE = Action("done", "no more stakes", data=D_DONE)
SHOW_A = Action("show", "show the bottom card", data=D_SHOW)
TURN_A = Action("turn", "turn two cards", data=D_TURN)
PAROLI = Action("paroli", "Paroli: let the win ride (×2)", data=D_PAROLI)
LAPPE = Action("lappe", "Lappé: back to the first stake", data=D_LAPPE)
SIX = Action("six-et-le-va", "Six-et-le-va: the stake ×6", data=D_SIX)
SEPT = Action("sept-et-le-va", "Sept-et-le-va: the stake ×7", data=D_SEPT)
WITHDRAW = Action("withdraw", "withdraw the card and its stake", data=D_WITHDRAW)
LEAVE = Action("leave", "leave the stake as it lies", data=D_LEAVE)      # FA-3.7, reading "optional"
CHOICES = (PAROLI, LAPPE, SIX, SEPT, WITHDRAW)
CHOICE_RULE = {D_PAROLI: "FA-3.2", D_LAPPE: "FA-3.3", D_SIX: "FA-3.4", D_SEPT: "FA-3.5", D_WITHDRAW: "FA-3.6",
               D_LEAVE: "FA-3.7"}
CHOICE_NAME = {D_PAROLI: "Paroli", D_LAPPE: "Lappé", D_SIX: "Six-et-le-va", D_SEPT: "Sept-et-le-va",
               D_WITHDRAW: "withdraw", D_LEAVE: "leave it"}
WORDS = {"paroli": D_PAROLI, "lappe": D_LAPPE, "lappé": D_LAPPE, "six-et-le-va": D_SIX, "six": D_SIX,
         "sept-et-le-va": D_SEPT, "sept": D_SEPT, "withdraw": D_WITHDRAW, "leave": D_LEAVE}

OPTIONS = (
    Option("players", 2, choices=(2, 3, 4), rule="FA-0",
           help="places at the table, the bank included (one to three punters)"),
    Option("winning_pile", "source", choices=("source", "historical"), rule="FA-2",
           help="which pile wins for the punters: the right one (the source) or the left one (historical)",
           labels={"source": "the right pile wins for the punters (the source)",
                   "historical": "the bank's card, on the right, wins for the bank (historical)"}),
    Option("doublets", "half", choices=("half", "all", "none"), rule="FA-4.1",
           help="what a doublet (both cards of a turn the same rank) costs the stakes on it",
           labels={"half": "the bank takes half (historical)", "all": "the bank takes the whole stake",
                   "none": "nothing is paid"}),
    Option("limit", 20, choices=(10, 20, 50, 100), rule="FA-4.2", help="the largest stake a card, in units",
           labels={10: "10 units a card", 20: "20 units a card", 50: "50 units a card", 100: "100 units a card"}),
    Option("deals", 2, choices=(1, 2, 3, 5, 10), rule="FA-0.2", help="deals in a sitting",
           labels={1: "1 deal", 2: "2 deals", 3: "3 deals", 5: "5 deals", 10: "10 deals"}),
    Option("stake_choice", "call", choices=("call", "optional"), rule="FA-3.7",
           help="after a card shows: a choice must be called, or the stake may stay as it lies",
           labels={"call": "a choice after every showing (Lappé lays a lost stake again)",
                   "optional": "the stake may stay as it lies; a lost stake stays off unless Six or Sept"}),
    Option("late_stakes", False, choices=(False, True), rule="FA-3.8",
           help="stakes on new cards only before the bottom card is shown, or also between the turns",
           labels={False: "only before the bottom card is shown", True: "also between any two turns (historical)"}),
)


def signed(n) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _card(a: Action) -> Card:
    """The card of a card's action (a stake's pick: they all carry one)."""
    c = a.card
    assert c is not None
    return c


def rank_word(r: int) -> str:
    """'7', 'Ace' … for a rank index (plain words for the log and the odds)."""
    t = RANKS[r]
    return RANK_WORD.get(t, t)


def doublet_cost(stake: int, rule: str) -> int:
    """What a doublet takes of `stake` (FA-4.1): the larger half, all, or nothing."""
    if rule == "half":
        return (stake + 1) // 2
    return stake if rule == "all" else 0


def new_stake(choice: int, before: int, orig: int, lying: int | None = None) -> int:
    """The stake a choice leaves on the card (FA-3): `before` is the stake when the card showed, `orig` the
    stake first laid, `lying` what lies on the card now (after a loss 0; FA-3.7's "leave it" keeps it)."""
    if choice == D_LEAVE:
        return before if lying is None else lying
    if choice == D_PAROLI:
        return 2 * before
    if choice == D_LAPPE:
        return orig
    if choice == D_SIX:
        return 6 * before
    if choice == D_SEPT:
        return 7 * before
    return 0


# --- exact odds (FA-5) --------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def showing_counts(live: int, u: int) -> tuple:
    """How the next showing of a rank goes, with `u` of its cards among `live` live cards in random order,
    dealt in pairs (left, right) and, if `live` is odd, the last one alone on the left: (left, right,
    doublet, never, total) as whole counts of the C(live, u) equally likely placements of the rank's cards."""
    if u <= 0 or live <= 0:
        return 0, 0, 0, 1, 1
    total = comb(live, u)
    left = right = dbl = 0
    for i in range(1, live + 1):            # the rank's first card at position i (1-based)
        if i % 2:
            if i < live:                    # the left card of a pair: a doublet if the next is one too
                dbl += comb(live - i - 1, u - 2) if u >= 2 else 0
                left += comb(live - i - 1, u - 1)
            elif u == 1:                    # the last live card, alone
                left += 1
        else:
            right += comb(live - i, u - 1)
    return left, right, dbl, 0, total


@lru_cache(maxsize=None)
def turn_counts(live: int, u: int) -> tuple:
    """The next turn alone: (left only, right only, doublet, neither, total) over the ordered pairs of the
    top two live cards (the last live card is alone: then over the one card)."""
    if live <= 0:
        return 0, 0, 0, 1, 1
    if live == 1:
        return u, 0, 0, 1 - u, 1
    t = live * (live - 1)
    one = u * (live - u)
    return one, one, u * (u - 1), (live - u) * (live - u - 1), t


def _mix(counts_fn, n: int, u: int, bottom_known: bool) -> tuple:
    """(left, right, doublet, never) as Fractions, over the `n` cards left in the pack of which `u` are of the
    rank (not counting a bottom card already shown). While the bottom card is unseen it is one of the `n`,
    dead (FA-1.5): the rank's cards may include it."""
    if bottom_known:
        c = counts_fn(n - 1, u)
        return tuple(Fraction(x, c[4]) for x in c[:4])
    if n <= 0:
        return Fraction(0), Fraction(0), Fraction(0), Fraction(1)
    out = [Fraction(0)] * 4
    for weight, uu in ((Fraction(u, n), u - 1), (Fraction(n - u, n), u)):
        if weight:
            c = counts_fn(n - 1, uu)
            for k in range(4):
                out[k] += weight * Fraction(c[k], c[4])
    return tuple(out)


def showing_odds(n: int, u: int, bottom_known: bool = True) -> tuple:
    """(left, right, doublet, never): how the rank's next showing goes before the pack is out."""
    return _mix(showing_counts, n, u, bottom_known)


def turn_odds(n: int, u: int, bottom_known: bool = True) -> tuple:
    """(left, right, doublet, neither): the next turn."""
    return _mix(turn_counts, n, u, bottom_known)


def hocly_odds(n: int, u: int, bottom_known: bool = True, turn: bool = False) -> Fraction:
    """The part of `left` (in `showing_odds` or, with `turn`, `turn_odds`) where the rank shows as the lone
    last live card, the hocly, which is the bank's under either reading (FA-2, FA-1.5)."""
    def alone(live: int, uu: int) -> Fraction:
        if turn:
            return Fraction(uu) if live == 1 else Fraction(0)
        return Fraction(1, live) if uu == 1 and live % 2 == 1 else Fraction(0)
    if bottom_known:
        return alone(n - 1, u)
    if n <= 0:
        return Fraction(0)
    return sum((w * alone(n - 1, uu) for w, uu in ((Fraction(u, n), u - 1), (Fraction(n - u, n), u)) if w),
               Fraction(0))


def win_lose(odds: tuple, reading: str, hocly: Fraction = Fraction(0)) -> tuple:
    """(win, lose, doublet, nothing) from (left, right, doublet, never) under a reading of FA-2; `hocly` (a part
    of `left`, see `hocly_odds`) loses under both readings."""
    left, right, dbl, never = odds
    return (right, left, dbl, never) if reading == "source" else (left - hocly, right + hocly, dbl, never)


def expected(stake: int, wl: tuple, doublets: str) -> Fraction:
    """The expected result of `stake` units at the showing `wl` describes (win, lose, doublet, nothing)."""
    return stake * (wl[0] - wl[1]) - wl[2] * doublet_cost(stake, doublets)


def fraction_text(v: Fraction) -> str:
    v = Fraction(v)
    exact = f"{v.numerator}" if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return f"{'+' if v > 0 else ''}{exact} ({float(v):+.3f})"


class Faro(Game):
    name = "faro"
    title = "Faro"
    deck = FRENCH52
    option_specs = OPTIONS
    summary = ("The eighteenth century's banking game: the bank turns two packs out, a card to the left and a "
               "card to the right; the punters stake on ranks, with Paroli and Sept-et-le-va, a ledger that "
               "always balances and the exact odds.")

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        self._deck = tuple(FRENCH52.cards) * 2
        self.punters = tuple(p for p in range(o["players"]) if p != BANK)
        self.names = list(NAMES[:o["players"]])
        self.books = {p: tuple(sorted((c for c in FRENCH52.cards if c.suit == BOOK_SUIT[p]), key=RANK_OF.__getitem__))
                      for p in self.punters}
        self.limit = o["limit"]
        self.amounts = tuple(k for k in AMOUNTS if k <= self.limit)
        self.right_wins = o["winning_pile"] == "source"
        self.doublets = o["doublets"]
        self.deals = o["deals"]
        self.optional = o["stake_choice"] == "optional"      # FA-3.7
        self.late = o["late_stakes"]                          # FA-3.8
        self._choice_lists: dict = {}
        self._amount_actions = [STAKE_A[k] for k in self.amounts]
        # the shuffle's steps from the bottom up, eight to a draw of the RNG: (the product of their ranges,
        # ((position, range), …)) (random_deal)
        self._shuffle_steps = []
        i = len(self._deck) - 1
        while i > 0:
            steps = tuple((j, j + 1) for j in range(i, max(i - 8, 0), -1))
            span = 1
            for _, m in steps:
                span *= m
            self._shuffle_steps.append((span, steps))
            i -= len(steps)

    def player_names(self) -> list[str]:
        return list(self.names)

    def deciders(self) -> list[int]:
        return list(self.punters)          # the bank only shows and turns the cards

    def full_deck(self) -> list[Card]:
        return list(self._deck)

    def random_deal(self, rng: Rng) -> Deal:
        """The two packs shuffled (Fisher-Yates, uniform): each draw of the seeded RNG serves up to eight swaps
        at once (one uniform number below the product of their ranges, split by its factors), so a shuffle of
        104 cards costs 13 draws instead of 103. The same seed gives the same deal everywhere."""
        items = list(self._deck)
        below = rng.below
        for span, steps in self._shuffle_steps:
            r = below(span)
            for i, m in steps:
                j = r % m
                r //= m
                items[i], items[j] = items[j], items[i]
        return Deal(items)

    def stack(self, turns=(), bottom=None, rest=None) -> str:
        """The deal text (the 104 cards, top first) that turns `turns` first — a list of (left, right) pairs
        or a flat list of cards, the left card of each turn first — with `bottom` as the bottom card; the other
        cards in between, in the packs' order (or `rest`)."""
        if not isinstance(turns, (list, tuple)):
            raise IllegalActionError("FA-1.3", f"give the turns as a list of cards or (left, right) pairs, not "
                                     f"{type(turns).__name__}")
        flat = []
        for t in turns:
            if isinstance(t, (list, tuple)):
                flat += list(t)
            else:
                flat.append(t)
        top = FRENCH52.parse_many(flat) if flat else []
        pool = list(self._deck)
        bot = FRENCH52.parse(bottom) if bottom is not None else None
        for c in top + ([bot] if bot else []):
            if c not in pool:
                raise IllegalActionError("FA-1", f"{c.label} is listed more than twice (the two packs hold each "
                                         "card twice)")
            pool.remove(c)
        if rest is not None:
            mid = FRENCH52.parse_many(rest)
            for c in mid:
                if c not in pool:
                    raise IllegalActionError("FA-1", f"{c.label} is listed more than twice")
                pool.remove(c)
            mid += pool
        else:
            mid = pool
        if bot is None:
            bot = mid.pop()
        return "deal: " + FRENCH52.format(top + mid + [bot])

    def rule_tables(self) -> dict:
        return {"strategy": strategy_table(self.options), "choices": choices_table(self.options)}


class Stake:
    """One card of a book on the table: who, which card, the stake on it, the stake first laid, how often its
    rank has shown since."""
    __slots__ = ("seat", "card", "rank", "amount", "orig", "showings")

    def __init__(self, seat, card, amount):
        self.seat, self.card, self.rank, self.amount, self.orig, self.showings = seat, card, RANK_OF[card], amount, \
            amount, 0

    def key(self) -> tuple:
        return self.seat, self.card.text, self.amount, self.orig, self.showings


class FaroNarration(Narration):
    """How a game of Faro is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def _outcome_words(self, seat, card, outcome, before) -> str:
        name = self._names[seat]
        if not before:
            return f"{name}'s {card.label} shows, with no stake on it [FA-3.7]"
        if outcome == WIN:
            return f"{name}'s {card.label} wins {plural(before, 'unit')} [FA-2]"
        if outcome == LOSS:
            return f"{name}'s {card.label} loses {plural(before, 'unit')} [FA-2]"
        h = doublet_cost(before, self._dbl)
        return f"{name}'s {card.label}: the bank takes {plural(h, 'unit')} [FA-4.1]" if h else \
            f"{name}'s {card.label}: nothing is paid [FA-4.1]"

    def describe(self, action, after: FaroState | None = None) -> str:
        if action.__class__ is Deal:
            return (f"Deal {self.deal_no + 1}: the bank shuffles its two packs together ({PACK} cards) and has "
                    "them cut [FA-1.1].")
        p = self.current_player
        who = self._names[p]
        d = action.data
        if d == D_PICK:
            return f"{who} lays the {action.card.label} from the book on the table, to stake on its rank [FA-3.1]."
        if d > 0:
            return f"{who} stakes {plural(d, 'unit')} on the {self.picked.label} [FA-3.1]."
        if d == D_DONE:
            mine = [st for lst in self.stakes for st in lst if st.seat == p]
            return f"{who} stakes no more" + (f": {plural(len(mine), 'card')} staked [FA-3.1]." if mine else
                                              ": nothing staked this deal [FA-3.1].")
        if d == D_SHOW:
            return (f"The bank shows the bottom card, {self.bottom.label}: it will be the last card, and it counts "
                    "for nobody [FA-1.2, FA-1.5].")
        if d == D_TURN:
            pack = self.hands[BANK]
            a, b = pack[0], pack[1]
            c = self._copy()
            c._turn()
            line = (f"Turn {self.turn_no + 1}: {a.label} to the left, {b.label} to the right: "
                    f"{c.turn_note(c.last_turn)}.")
            if not c.hands[BANK] and not c.pending:
                line += " " + c._deal_end_words()
            return line
        st, outcome, before = self.pending[0]
        t = new_stake(d, before, st.orig, st.amount)
        card = st.card.label
        if d == D_LEAVE:
            line = (f"{who} leaves the stake on the {card} as it lies: {plural(t, 'unit')} [FA-3.7]." if t else
                    f"{who} leaves the {card} on the table without a stake [FA-3.7].")
        elif d == D_WITHDRAW:
            line = (f"{who} withdraws the {card}" + (f" and its stake of {plural(st.amount, 'unit')}" if st.amount
                                                    else "") + " [FA-3.6].")
        elif d == D_PAROLI:
            line = f"{who}: Paroli on the {card} — the win joins the stake, now {plural(t, 'unit')} [FA-3.2]."
        elif d == D_LAPPE:
            line = f"{who}: Lappé on the {card} — the stake is {plural(t, 'unit')}, as first laid [FA-3.3]."
        else:
            line = (f"{who}: {CHOICE_NAME[d]} on the {card} — the stake becomes {plural(t, 'unit')} "
                    f"[{CHOICE_RULE[d]}].")
        c = st.amount
        if t > c:
            line += f" {who} adds {plural(t - c, 'unit')}."
        elif t < c:
            line += f" {who} takes {plural(c - t, 'unit')} back."
        if len(self.pending) == 1 and not self.hands[BANK]:
            cc = self._copy()
            cc._decide(d)
            line += " " + cc._deal_end_words()
        return line

    def round_result(self) -> str:
        if not self.rows:
            return ""
        r = self.rows[-1]
        change = ", ".join(f"{n} {signed(x)}" for n, x in zip(self._names, r["change"]))
        bal = ", ".join(f"{n} {signed(x)}" for n, x in zip(self._names, r["balances"]))
        return (f"Deal {r['deal']} is out: in this deal {change} (units); the balances now {bal}. "
                f"{'The sitting goes on with the next deal.' if self.current_player != TERMINAL else ''}").strip()

    def _deal_end_words(self) -> str:
        """After the last turn (on a copy that has ended the deal)."""
        r = self.rows[-1]
        check = ("the card shown at the start lies on the right pile, as it must [FA-1.4]" if r["check"] else
                 "the check failed")
        line = f"The pack is out: {check}; the stakes go back [FA-2.2]."
        if self.current_player == TERMINAL:
            line += " " + self.result_text()
        return line


class FaroState(FaroNarration, State):
    game: Faro
    # a plain attribute, not the base class's property: it is read several times per decision
    current_player = CHANCE

    # read from the game or worked out, not kept: a state keeps fewer than 30 instance attributes (beyond
    # that CPython drops its fast attribute access)
    @property
    def _limit(self) -> int:
        return self.game.limit

    @property
    def _dbl(self) -> str:
        return self.game.doublets

    @property
    def bottom(self) -> Card | None:
        """The bottom card of the deal (the last of the packs), None before the first deal."""
        return self.dealt[-1] if self.dealt else None

    def _bottom_card(self) -> Card:
        """The bottom card, read only once dealt."""
        card: Card = self.dealt[-1]
        return card

    def picked_card(self) -> Card:
        """The card a punter has laid out to stake on, read only while he chooses the amount."""
        card = self.picked
        assert card is not None
        return card

    @property
    def turn_no(self) -> int:
        """Turns made in this deal: each put a card on the left pile."""
        return len(self.left)

    # set up --------------------------------------------------------------------------------------
    def _start(self) -> None:
        g = self.game
        self._names = g.names
        self._right = g.right_wins
        self.hands: list[list[Card]] = [[] if p == BANK else list(g.books[p]) for p in range(len(g.names))]
        # each punter's hand as the actions that stake its cards, in the same order (the legal picks)
        self._picks: list[list[Action]] = [[PICK[c] for c in h] for h in self.hands]
        self.ledger = Ledger(g.names)
        self.stakes: list[list[Stake]] = [[] for _ in RANKS]   # by rank, in seat order
        self.left: list[Card] = []
        self.right: list[Card] = []
        self.shown = [0] * len(RANKS)          # the case-keeper: cards of each rank turned in this deal
        self.bottom_shown = False
        self.phase = STAKE
        self.staker = 0                        # index into the punters while staking
        self.picked: Card | None = None
        self.pending: list = []                # (Stake, outcome, stake before) decisions after a turn
        self.deal_no = 0
        self.last_turn: tuple | None = None    # (left, right, dead bottom?, [(seat, card, outcome, amount)])
        self.dealt: tuple = ()
        self.rows: list[dict] = []             # each finished deal
        self.start_balances = [0] * len(g.names)
        self.check_ok: bool | None = None
        self.current_player = CHANCE

    # dealing -------------------------------------------------------------------------------------
    def _deal(self, deal: Deal) -> list | None:
        """A new deal (FA-1.1): the shuffled packs, the bottom card last; the punters stake first (FA-3.1)."""
        cards = deal.cards
        self.dealt = cards
        self.hands[BANK] = list(cards)
        self.bottom_shown = False
        self.left = []
        self.right = []
        self.shown = [0] * len(RANKS)
        self.deal_no += 1
        self.last_turn = None
        self.check_ok = None
        self.start_balances = [self.ledger.balances[n] for n in self._names]
        self.phase = STAKE
        self.staker = 0
        p = self.current_player = self.game.punters[0]
        return [*self._picks[p], DONE]

    # the protocol --------------------------------------------------------------------------------
    def _legal(self) -> list:
        ph = self.phase
        if ph == TURN:
            return [TURN_A]
        if ph == DECIDE:
            return self._choices()
        if ph == STAKE:
            return self._stake_actions(self.current_player)
        if ph == AMOUNT:
            return self.game._amount_actions[:]
        return [SHOW_A]

    def _stake_actions(self, p: int) -> list:
        """The punter's stakes to make, and "no more stakes" (FA-3.1). Between the turns (FA-3.8) only on a
        rank that still has a card to turn: a stake on a rank whose cards are all out (the shown bottom card,
        dead, counts as out) could neither win nor lose."""
        picks = self._picks[p]
        if self.bottom_shown:
            live = self.live_count
            return [*(a for a in picks if live(RANK_OF[_card(a)])), DONE]
        return [*picks, DONE]

    def _choices(self) -> list:
        """The choices about the stake first in `pending` (a fresh list)."""
        st, outcome, before = self.pending[0]
        g = self.game
        if g.optional:
            return _optional_choices(g, st, outcome, before)
        key = (outcome == WIN, before, st.showings >= 2)
        choice_lists = g._choice_lists            # the choices after a showing, by (won, stake, may withdraw)
        got = choice_lists.get(key)
        if got is None:
            lim = g.limit
            out = [PAROLI] if outcome == WIN and 2 * before <= lim else []
            out.append(LAPPE)
            if 6 * before <= lim:
                out.append(SIX)
                if 7 * before <= lim:
                    out.append(SEPT)
            if st.showings >= 2:
                out.append(WITHDRAW)
            got = choice_lists[key] = tuple(out)
        return list(got)

    def _apply(self, action) -> list | None:
        """Make the move; returns the next position's legal actions (None at a deal or the end)."""
        d = action.data
        if d == D_TURN:
            return self._turn()
        if d <= D_PAROLI:
            return self._decide(d)
        if d == D_PICK:
            self.picked = action.card
            self.phase = AMOUNT
            return self.game._amount_actions[:]
        if d > 0:
            p = self.current_player
            card = self.picked_card()
            st = Stake(p, card, d)
            h = self.hands[p]
            i = bisect_left(h, RANK_OF[card], key=_RANK_KEY)
            del h[i]
            del self._picks[p][i]
            lst = self.stakes[st.rank]
            lst.append(st)
            if len(lst) > 1:
                lst.sort(key=_seat_of)
            self.ledger.post(self._names[p], TABLE, d, "stake", "FA-3.1", self.deal_no)
            self.picked = None
            self.phase = STAKE
            return self._stake_actions(p)
        if d == D_DONE:
            self.staker += 1
            punters = self.game.punters
            if self.staker < len(punters):
                p = self.current_player = punters[self.staker]
                return self._stake_actions(p)
            self.current_player = BANK
            if self.bottom_shown:                   # FA-3.8: stakes between the turns; the next turn
                self.phase = TURN
                return [TURN_A]
            self.phase = SHOW
            return [SHOW_A]
        self.bottom_shown = True                    # D_SHOW
        self.phase = TURN
        return [TURN_A]

    def _turn(self) -> list | None:
        """FA-1.3: the top card to the left, the next to the right; the ranks' stakes are settled (FA-2).
        Returns the next legal actions (None when the deal is over)."""
        pack = self.hands[BANK]
        last = len(pack) == 2
        a = pack[0]
        b = pack[1]
        del pack[:2]
        self.left.append(a)
        self.right.append(b)
        shown = self.shown
        ra = RANK_OF[a]
        shown[ra] += 1
        if last:
            rb = -1                                 # FA-1.5: the bottom card is dead
            self.check_ok = b is self.dealt[-1]     # FA-1.4: the bottom card
        else:
            rb = RANK_OF[b]
            shown[rb] += 1
        stakes = self.stakes
        settled: list | None = None
        if stakes[ra] or (rb >= 0 and stakes[rb]):
            settled = []
            if ra == rb:
                self._settle(ra, DOUBLET, settled)
            else:
                right = self._right
                if stakes[ra]:                      # FA-2: the last live card (the hocly) is the bank's
                    self._settle(ra, LOSS if right or last else WIN, settled)
                if rb >= 0 and stakes[rb]:
                    self._settle(rb, WIN if right else LOSS, settled)
                    if stakes[ra]:                  # two ranks' stakes: the decisions go in seat order
                        self.pending.sort(key=_pending_key)
        self.last_turn = (a, b, last, settled)
        if not pack:                                # the last turn: no card follows, nothing to decide
            self._end_deal()
            return None
        if self.pending:
            self.phase = DECIDE
            self.current_player = self.pending[0][0].seat
            return self._choices()
        return self._before_turn()

    def _before_turn(self) -> list:
        """Before the next turn: the bank turns (FA-1.3), or, where stakes may be laid between the turns
        (FA-3.8), the punters first stake in turn."""
        if self.game.late:
            self.phase = STAKE
            self.staker = 0
            p = self.current_player = self.game.punters[0]
            return self._stake_actions(p)
        self.phase = TURN
        self.current_player = BANK
        return [TURN_A]

    def _settle(self, r: int, outcome: int, settled: list) -> None:
        led = self.ledger
        names = self._names
        n = self.deal_no
        pending = self.pending
        for st in self.stakes[r]:
            before = st.amount
            st.showings += 1
            settled.append((st.seat, st.card, outcome, before))
            if not before:                          # FA-3.7: a card left without a stake wins and loses nothing
                if st.showings >= 2:                # and from its second showing it may be withdrawn
                    pending.append((st, outcome, before))
                continue
            if outcome == WIN:
                led.post("Bank", names[st.seat], before, "wins", "FA-2", n)
            elif outcome == LOSS:
                led.post(TABLE, "Bank", before, "loses", "FA-2", n)
                st.amount = 0
            else:
                h = doublet_cost(before, self.game.doublets)
                if h:
                    led.transfer(TABLE, "Bank", h, "doublet", "FA-4.1", n)
                    st.amount = before - h
            pending.append((st, outcome, before))

    def _decide(self, d: int) -> list | None:
        """FA-3: the punter's choice about the stake on a card that has just shown. Returns the next legal
        actions (None when the deal is over)."""
        st, outcome, before = self.pending.pop(0)
        t = new_stake(d, before, st.orig, st.amount)
        c = st.amount
        name = self._names[st.seat]
        if t > c:
            self.ledger.post(name, TABLE, t - c, CHOICE_NAME[d], CHOICE_RULE[d], self.deal_no)
        elif t < c:
            self.ledger.post(TABLE, name, c - t, CHOICE_NAME[d], CHOICE_RULE[d], self.deal_no)
        st.amount = t
        if d == D_WITHDRAW:
            self.stakes[st.rank].remove(st)
            self._to_book(st.seat, st.card)
        if self.pending:
            self.current_player = self.pending[0][0].seat
            return self._choices()
        return self._before_turn()                  # (after the last turn nobody decides: `_turn`)

    def _to_book(self, seat: int, card: Card) -> None:
        h = self.hands[seat]
        i = bisect_right(h, RANK_OF[card], key=_RANK_KEY)
        h.insert(i, card)
        self._picks[seat].insert(i, PICK[card])

    def _end_deal(self) -> None:
        """FA-2.2: the stakes still lying go back; the deal's row; the next deal or the end of the sitting."""
        led = self.ledger
        names = self._names
        for lst in self.stakes:
            for st in lst:
                if st.amount:
                    led.transfer(TABLE, names[st.seat], st.amount, "stake back", "FA-2.2", self.deal_no)
                self._to_book(st.seat, st.card)
            lst.clear()
        bal = [led.balances[x] for x in names]
        self.rows.append({"deal": self.deal_no, "change": [b - s for b, s in zip(bal, self.start_balances)],
                          "balances": bal, "check": self.check_ok, "bottom": self.bottom})
        self.pending = []
        if self.deal_no >= self.game.deals:
            self.current_player = TERMINAL
        else:
            self.current_player = CHANCE

    # results -------------------------------------------------------------------------------------
    def balances(self) -> list[int]:
        """Each seat's ledger balance (the stakes lying on the table count as paid until they come back)."""
        b = self.ledger.balances
        return [b[x] for x in self._names]

    def position(self, p: int) -> int:
        """Seat `p`'s balance with its stakes on the table counted back: what it would have if they came back."""
        on = sum(st.amount for lst in self.stakes for st in lst if st.seat == p)
        return self.ledger.balances[self._names[p]] + on

    def _scores(self) -> list:
        return self.positions()

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(c.text for c in cs)  # noqa: E731
        return (tuple(t(h) for h in self.hands), self.ledger.snapshot(),
                tuple(tuple(st.key() for st in lst) for lst in self.stakes), t(self.left), t(self.right),
                tuple(self.shown), self.bottom.text if self.bottom else None, self.bottom_shown, self.phase,
                self.staker, self.picked.text if self.picked else None,
                tuple((st.key(), o, b) for st, o, b in self.pending), self.deal_no, self.turn_no, self.current_player,
                tuple((r["deal"], tuple(r["change"]), r["check"]) for r in self.rows), self.check_ok)

    # what resample needs -----------------------------------------------------------------------------
    def _deal_owners(self) -> list:
        return [BANK] * len(self.dealt)

    def _revealed(self) -> list:
        out = [(BANK, c) for c in self.left] + [(BANK, c) for c in self.right]
        if self.bottom_shown and self.hands[BANK]:
            out.append((BANK, self._bottom_card()))
        return out

    def _unseen_slots(self, player: int) -> list[int]:
        """The cards of the deal nobody has seen: the pack below the cards turned, but the bottom card once
        shown. The bank's seat only turns the cards (it has no choice to make), so its own resample keeps
        the pack as it is."""
        if player == BANK:
            return []
        n = len(self.dealt)
        start = n - len(self.hands[BANK])
        end = n - 1 if self.bottom_shown else n
        return list(range(start, end)) if self.hands[BANK] else []

    def _resample_last_deal(self, player: int, k: int, rng: Rng, tries: int) -> State:
        """The unseen cards of the pack in a new order. No action of Faro depends on the order of the cards
        not yet turned (the bank turns, the punters decide about cards already shown), so every order is a
        candidate: one shuffle and one replay, and the player's view is checked once at the end (instead
        of the base class's view after every step, which a long deal makes slow)."""
        slots = self._unseen_slots(player)
        if len(slots) < 2:
            return self.clone()
        history = self.history
        cards = list(history[k].cards)
        hidden = [cards[i] for i in slots]
        rng.shuffle(hidden)
        for i, c in zip(slots, hidden):
            cards[i] = c
        cand = self.game.blank_state()
        new = Deal(cards)
        for i, a in enumerate(history):
            if i == k:
                a = new
            cand._deal(a) if a.__class__ is Deal else cand._apply(a)
            cand.history.append(a)
        cand._legal_cache = None
        if cand._observation(player) != self._observation(player):
            return self.clone()
        return cand

    # why an action is not legal -------------------------------------------------------------------
    def _illegal(self, text: str) -> IllegalActionError:
        t = text.strip().lower()
        p = self.current_player
        ph = self.phase
        who = self._names[p]
        words = t.split()
        if words and words[0] == "stake":
            if len(words) != 2 or not words[1].lstrip("-").isdigit():
                return IllegalActionError("FA-3.1", "write the amount after “stake”, e.g. stake 2", text)
            k = int(words[1])
            if k < 1:
                return IllegalActionError("FA-4.2", f"a stake is at least 1 unit (the table's minimum); "
                                          f"{k} is below it", text)
            if k > self._limit:
                return IllegalActionError("FA-4.2", f"a stake of {plural(k, 'unit')} is above the bank's limit "
                                          f"of {plural(self._limit, 'unit')} a card", text)
            if ph != AMOUNT:
                return self._wrong_time("stake", text)
            return IllegalActionError("FA-3.1", "the table offers stakes of "
                                      + ", ".join(str(a) for a in self.game.amounts) + " units", text)
        if t in WORDS:
            return self._illegal_choice(WORDS[t], text)
        if t in ("turn", "show", "done"):
            return self._wrong_time(t, text)
        try:
            card = FRENCH52.parse(text)
        except CardError:
            return self._unreadable(text)
        if p == BANK:
            return IllegalActionError("FA-1.3", "the bank stakes on no card: it turns the cards", text)
        if ph == DECIDE:
            st = self.pending[0][0]
            return IllegalActionError("FA-3", f"first decide about the stake on your {st.card.label}: "
                                      "Paroli, Lappé, Six- or Sept-et-le-va, or withdraw", text)
        book = self.game.books[p]
        if card not in book:
            return IllegalActionError("FA-0.1", f"the {card.label} is not in your book: {who}'s book is the "
                                      f"{SUIT_WORD[BOOK_SUIT[p]]}, and a stake goes on a card of your own book", text)
        if ph == AMOUNT:
            return IllegalActionError("FA-3.1", f"first choose how much to stake on the {self.picked_card().label}",
                                      text)
        if card not in self.hands[p]:
            return IllegalActionError("FA-3.1", f"you have already staked on the {card.label}", text)
        if ph == STAKE and self.bottom_shown and not self.live_count(RANK_OF[card]):
            return IllegalActionError("FA-3.8", f"no card of the {rank_word(RANK_OF[card])}s is left to turn"
                                      + (" (the last one is the bottom card, which counts for nobody)"
                                         if RANK_OF[self._bottom_card()] == RANK_OF[card] else "")
                                      + ": a stake on the rank could neither win nor lose", text)
        return super()._illegal(text)

    def _unreadable(self, text: str) -> IllegalActionError:
        """A text that is no move of Faro at all: the rule of the decision in front of the player."""
        ph = self.phase
        no = f"{text!r} is not a move of Faro: "
        if ph == DECIDE:
            names = [CHOICE_NAME[a.data] for a in self.legal_actions()]
            return IllegalActionError("FA-3", no + "choose what happens to the stake on your card: "
                                      + ", ".join(names[:-1]) + " or " + names[-1], text)
        if ph == STAKE:
            return IllegalActionError("FA-3.1", no + "stake on a card of your book (its name, e.g. 7S) or "
                                      "“done” for no more stakes", text)
        if ph == AMOUNT:
            return IllegalActionError("FA-3.1", no + "choose the amount, e.g. stake 2", text)
        if ph == SHOW:
            return IllegalActionError("FA-1.2", no + "the bank shows the bottom card now", text)
        return IllegalActionError("FA-1.3", no + "the bank turns two cards now", text)

    def _wrong_time(self, what: str, text: str) -> IllegalActionError:
        ph = self.phase
        if what == "show":
            if self.bottom_shown:
                return IllegalActionError("FA-1.2", "the bottom card is already shown: it is shown once", text)
            return IllegalActionError("FA-1.2", "the bank shows the bottom card once the punters have staked",
                                      text)
        if what == "turn":
            if self.current_player >= 0 and self.current_player != BANK:
                return IllegalActionError("FA-1.3", "only the bank turns the cards, and only when every punter "
                                          "has decided about the cards that showed", text)
            return IllegalActionError("FA-1.2", "the bank shows the bottom card before the first turn", text)
        if what == "done":
            if self.game.late:
                return IllegalActionError("FA-3.8", "the stakes are placed before the bottom card is shown and "
                                          "between the turns: there is nothing to finish now", text)
            return IllegalActionError("FA-3.1", "the stakes are placed before the bottom card is shown: "
                                      "there is nothing to finish now", text)
        if ph == STAKE:
            return IllegalActionError("FA-3.1", "click a card of your book first, then choose the amount", text)
        if self.game.late:
            return IllegalActionError("FA-3.8", "stakes are placed before the bottom card is shown and between "
                                      "the turns, each punter in turn", text)
        return IllegalActionError("FA-3.1", "stakes are placed before the bottom card is shown; during the "
                                  "deal a stake only changes when its card shows", text)

    def _illegal_choice(self, d: int, text: str) -> IllegalActionError:
        rule = CHOICE_RULE[d]
        name = CHOICE_NAME[d]
        if self.phase != DECIDE:
            return IllegalActionError(rule, f"{name} is a choice for when a card you staked on shows; none "
                                      "has just shown", text)
        st, outcome, before = self.pending[0]
        if d == D_LEAVE:
            return IllegalActionError(rule, "every showing calls for a choice (the kit's reading of FA-3.7): "
                                      "Lappé leaves the first stake as it lies; after a loss it lays it again",
                                      text)
        if d == D_PAROLI and outcome != WIN:
            return IllegalActionError(rule, f"Paroli lets a win ride: your {st.card.label} "
                                      f"{OUTCOME_WORD[outcome]}, there is no win", text)
        if d == D_WITHDRAW:
            return IllegalActionError(rule, f"the {st.card.label} has shown once: the stake stays until its "
                                      "second showing", text)
        if self.game.optional and (d == D_LAPPE and outcome == LOSS or not before):
            return IllegalActionError("FA-3.7", f"your {st.card.label} has no stake left on it: leave it without "
                                      "a stake" + (", or Six- or Sept-et-le-va on the stake it lost" if before
                                                   else ""), text)
        if self.game.optional and d == D_LAPPE:
            return IllegalActionError("FA-3.3", f"the first stake already lies on your {st.card.label}: leave it "
                                      "as it lies", text)
        t = new_stake(d, before, st.orig)
        return IllegalActionError("FA-4.2", f"{name} would put {plural(t, 'unit')} on the card: above the "
                                  f"bank's limit of {plural(self._limit, 'unit')}", text)

    # exact odds (FA-5) -----------------------------------------------------------------------------
    def live_count(self, r: int) -> int:
        """The rank's cards still unseen in the pack (the shown bottom card not counted): public knowledge."""
        if not self.hands[BANK]:
            return 0
        u = COPIES - self.shown[r]
        if self.bottom_shown and RANK_OF[self._bottom_card()] == r:
            u -= 1
        return u

    def rank_odds(self, r: int) -> tuple:
        """((win, lose, doublet, none) in the next turn, (win, lose, doublet, never) at the next showing)."""
        n = len(self.hands[BANK])
        u = self.live_count(r)
        known = self.bottom_shown
        reading = "source" if self._right else "historical"
        return (win_lose(turn_odds(n, u, known), reading, hocly_odds(n, u, known, turn=True)),
                win_lose(showing_odds(n, u, known), reading, hocly_odds(n, u, known)))

    def advice(self, player: int) -> list:
        self._check_seat(player)
        if player != self.current_player or player == BANK or self.phase not in (STAKE, AMOUNT, DECIDE):
            return []
        n = len(self.hands[BANK])
        if self.phase == DECIDE:
            st, outcome, before = self.pending[0]
            r = st.rank
            what = f"your {rank_word(r)}"
            choices = [(a, new_stake(a.data, before, st.orig, st.amount)) for a in self.legal_actions()]
        else:
            offered = [_card(a) for a in self.legal_actions() if a.data == D_PICK]
            r = RANK_OF[self.picked_card()] if self.phase == AMOUNT else RANK_OF[offered[0]] if offered else 0
            what = "a rank you stake" if self.phase == STAKE else f"your {rank_word(r)}"
            choices = [(STAKE_A[k], k) for k in self.game.amounts]
        turn, show = self.rank_odds(r)
        u = self.live_count(r)
        note = (f"{plural(u, 'card')} of the rank among the {plural(n - (1 if self.bottom_shown else 0), 'live card')}"
                + ("" if self.bottom_shown else " (the bottom card, dead, is one of them)"))
        out = [Odds(f"Next turn: {what} wins", turn[0], note=note),
               Odds(f"Next turn: {what} loses", turn[1]),
               Odds(f"Next turn: a doublet of {what}", turn[2]),
               Odds(f"Next showing: {what} wins", show[0], note="before the pack is out"),
               Odds(f"Next showing: {what} loses", show[1]),
               Odds(f"Next showing: a doublet", show[2]),
               Odds(f"{what[0].upper() + what[1:]} does not show again (the stake comes back)", show[3])]
        for a, t in choices:
            if self.phase != DECIDE:
                label = f"a stake of {plural(t, 'unit')}"
            elif a.data == D_WITHDRAW:
                label = "withdrawing"
            elif a.data == D_LEAVE:
                label = f"leaving it (a stake of {plural(t, 'unit')})"
            else:
                label = f"{CHOICE_NAME[a.data]} (a stake of {plural(t, 'unit')})"
            out.append(Odds(f"Expected result of {label} at the next showing", expected(t, show, self._dbl),
                            kind="stake", note="" if t else "nothing at risk"))
        return out

    # presentation --------------------------------------------------------------------------------
    def positions(self) -> list[int]:
        """Each seat's position: its balance with its stakes lying on the table counted back (they add up to
        0; at the end of a deal they are the balances)."""
        return [self.position(p) for p in range(len(self._names))]

    def _view(self, player: int | None = None) -> View:
        g = self.game
        teacher = player is None
        cp = self.current_player
        bal = self.positions()
        seats = []
        pack = self.hands[BANK]
        for p, name in enumerate(self._names):
            if p == BANK:
                nxt = pack[:2]
                hand: list[Card | None]
                if teacher:
                    hand = list(nxt)
                else:
                    hand = [c if (self.bottom_shown and len(pack) - i == 1) else None for i, c in enumerate(nxt)]
                info = (f"the next turn, face down; the pack holds {plural(len(pack), 'card')}" if pack
                        else "the pack is out")
            else:
                hand = list(self.hands[p])
                mine = [st for lst in self.stakes for st in lst if st.seat == p]
                info = f"book: {SUIT_WORD[BOOK_SUIT[p]]}; " + (
                    "stakes on " + ", ".join(f"{st.card.label} ({st.amount})" for st in sorted(mine, key=_rank_of))
                    if mine else "no stake on the table")
            seats.append(Seat(p, name, hand, score=f"{signed(bal[p])} {'unit' if abs(bal[p]) == 1 else 'units'}",
                              info=info, current=p == cp))
        piles = []
        if pack:
            piles.append(Pile("Pack", [], count=max(0, len(pack) - 2), kind="stock",
                              note="the rest of the pack, face down, below the next turn", place="middle"))
        if self.bottom_shown:
            piles.append(Pile("Bottom card", [("", self.bottom)], note="shown at the start: the last card, it "
                              "counts for nobody [FA-1.2, FA-1.5]"))
        lw, rw = ("loses", "wins") if self._right else ("wins", "loses")
        if self.left or cp >= 0:
            piles.append(Pile("Left pile", [("", self.left[-1])] if self.left else [],
                              note=f"{plural(len(self.left), 'card')}; a rank here {lw} [FA-2]", place="left"))
            piles.append(Pile("Right pile", [("", self.right[-1])] if self.right else [],
                              note=f"{plural(len(self.right), 'card')}; a rank here {rw} [FA-2]", place="right"))
        for p in g.punters:
            mine = sorted((st for lst in self.stakes for st in lst if st.seat == p), key=_rank_of)
            if mine:
                piles.append(Pile(f"{self._names[p]}'s stakes",
                                  [(plural(st.amount, "unit"), st.card) for st in mine]))
        if self.last_turn is not None:
            a, b, last, _ = self.last_turn
            piles.append(Pile("Last turn", [("left", a), ("right", b)], kind="last-trick",
                              note=self.turn_note(self.last_turn)))
        legal = list(self.legal_actions()) if cp >= 0 and player in (None, cp) else []
        term = cp == TERMINAL
        hand_action = "stake on it" if self.phase == STAKE and cp >= 0 and cp != BANK else ""
        return View(g.name, g.title, player, seats, piles, self.status(), cp if cp >= 0 else None, term,
                    self.result_text() if term else "", legal, facts=self.facts(), hand_action=hand_action)

    def case_keeper(self) -> str:
        return " · ".join(f"{t} {n}" for t, n in zip(RANKS, self.shown))

    def facts(self) -> list:
        g = self.game
        out = []
        if self.deal_no:
            where = f"deal {self.deal_no} of {g.deals}"
            if self.current_player not in (CHANCE, TERMINAL):
                where += f", turn {self.turn_no} of {TURNS}" if self.turn_no else ", before the first turn"
            out.append(("Deal", where))
        on = self.ledger.balances[TABLE]
        out.append(("Balances", ", ".join(f"{n} {signed(b)}" for n, b in zip(self._names, self.positions()))
                    + " (units" + (f"; {plural(on, 'unit')} of stakes on the table, counted to their punters)"
                                   if on else ")")))
        if self.deal_no and self.current_player != CHANCE:
            out.append(("Case-keeper", self.case_keeper() + f" — cards turned, of {COPIES} each"))
        if self.bottom_shown and self.hands[BANK]:
            out.append(("Bottom card", f"{self._bottom_card().label}, the last card: it counts for nobody"))
        side = "right" if self._right else "left"
        out.append(("Piles", f"a rank on the {side} pile wins for the punters, on the other it loses"))
        out.append(("Doublets", {"half": "the bank takes half the stake", "all": "the bank takes the stake",
                                 "none": "nothing is paid"}[self._dbl]))
        out.append(("Limits", f"1 to {self._limit} units a card"))
        return out

    def turn_note(self, lt) -> str:
        a, b, last, settled = lt
        parts = []
        if last:
            parts.append(f"{b.label} is the bottom card: dead [FA-1.5]")
        elif RANK_OF[a] == RANK_OF[b]:
            parts.append(f"a doublet of {rank_word(RANK_OF[a])}s [FA-4.1]")
        for seat, card, outcome, before in settled or ():
            parts.append(self._outcome_words(seat, card, outcome, before))
        return "; ".join(parts) if parts else "no stake on these ranks"

    def progress(self) -> tuple[str, str]:
        cp = self.current_player
        if cp == CHANCE:
            return f"Deal {self.deal_no + 1}", ""
        if cp == TERMINAL:
            return f"Deal {self.deal_no}", "End of the sitting"
        if self.phase in (STAKE, AMOUNT):
            if self.bottom_shown:                   # FA-3.8: stakes between the turns, before the next one
                return f"Deal {self.deal_no}", f"Turn {self.turn_no + 1}"
            return f"Deal {self.deal_no}", "Stakes"
        if self.phase == SHOW:
            return f"Deal {self.deal_no}", "The bottom card"
        return f"Deal {self.deal_no}", f"Turn {self.turn_no + (1 if self.phase == TURN else 0)}"

    def score_table(self):
        names = self._names
        rows = []
        for r in self.rows:
            check = "the bottom card lies on the right pile [FA-1.4]" if r["check"] else "no check"
            rows.append([f"Deal {r['deal']}", *(signed(x) for x in r["change"]),
                         f"bottom card {r['bottom'].label}; {check}"])
        on = self.ledger.balances[TABLE]
        rows.append(["Balance", *(signed(x) for x in self.positions()),
                     "units; they add up to 0 [FA-0.2]" + (f" (with the {plural(on, 'unit')} on the table counted "
                                                          "to their punters)" if on else "")])
        return Table(["", *names, "notes"], rows, "Each deal's result and the balances, in units")

    def status(self) -> str:
        cp = self.current_player
        if cp == CHANCE:
            return f"Deal {self.deal_no + 1}: the bank shuffles its two packs together."
        if cp == TERMINAL:
            return self.result_text()
        who = self._names[cp]
        ph = self.phase
        if ph == STAKE:
            when = " before the next turn" if self.bottom_shown else ""
            return f"{who}: click a card of your book to stake on its rank{when}, or no more stakes."
        if ph == AMOUNT:
            return f"{who}: how much on the {self.picked_card().label}? 1 to {self._limit} units."
        if ph == SHOW:
            return "The bank shows the bottom card."
        if ph == TURN:
            return "The bank turns two cards: one to the left, one to the right."
        st, outcome, before = self.pending[0]
        names = [CHOICE_NAME[a.data] for a in self.legal_actions()]
        choice = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
        return (f"{who}: your {st.card.label} {OUTCOME_WORD[outcome]} — {choice}?"
                + ("" if st.showings >= 2 else " (no withdrawal before its second showing)"))

    def result_text(self) -> str:
        if self.current_player != TERMINAL:
            return ""
        bal = self.balances()
        best = max(bal)
        win = [self._names[p] for p in range(len(bal)) if bal[p] == best]
        res = ", ".join(f"{n} {signed(b)}" for n, b in zip(self._names, bal))
        who = win[0] + " wins" if len(win) == 1 else " and ".join(win) + " share the best balance"
        return f"The sitting is over after {plural(self.deal_no, 'deal')}: {res} (units). {who}."

    def _fork(self) -> "FaroState":
        """An independent copy of the position (clone, undo, resample, the expert's playouts): `_copy` with its
        own history, dealer's RNG and RNG log."""
        return self._own(self._copy())

    def _copy(self) -> "FaroState":
        """A copy for looking ahead (describe): shares the game and the history."""
        c = object.__new__(type(self))
        c.__dict__.update(self.__dict__)
        c.hands = [list(h) for h in self.hands]
        c._picks = [list(h) for h in self._picks]
        c.ledger = self.ledger.copy()
        stakes = []
        mapping = {}
        for lst in self.stakes:
            new = []
            for st in lst:
                s2 = Stake(st.seat, st.card, st.amount)
                s2.orig, s2.showings = st.orig, st.showings
                mapping[id(st)] = s2
                new.append(s2)
            stakes.append(new)
        c.stakes = stakes
        c.pending = [(mapping[id(st)], o, b) for st, o, b in self.pending]
        c.left, c.right, c.shown = list(self.left), list(self.right), list(self.shown)
        c.rows = list(self.rows)
        c._legal_cache = None
        return c


def _optional_choices(g, st, outcome: int, before: int) -> list:
    """FA-3.7, reading "optional": the choices about a stake when its card has shown — leave it as it lies
    (after a loss: the card stays without a stake), Paroli after a win, Lappé where it changes the stake
    (not after a loss), Six- or Sept-et-le-va on a stake that lay on the card, withdraw from the second
    showing on."""
    lim = g.limit
    out = [LEAVE]
    if before:
        if outcome == WIN and 2 * before <= lim:
            out.append(PAROLI)
        if outcome != LOSS and st.orig != st.amount:
            out.append(LAPPE)
        if 6 * before <= lim:
            out.append(SIX)
            if 7 * before <= lim:
                out.append(SEPT)
    if st.showings >= 2:
        out.append(WITHDRAW)
    return out


def _seat_of(st) -> int:
    return st.seat


def _rank_of(st) -> int:
    return st.rank


def _pending_key(x) -> tuple:
    return x[0].seat


Faro.State = FaroState
GAME = Faro


# --- tables generated from the engine ----------------------------------------------------------------
STRATEGY_LIVE = (103, 77, 51, 25, 9, 3, 1)
STRATEGY_COPIES = (1, 2, 3, 4)


def strategy_table(opts: dict) -> Table:
    """FA-5.2: the expected result per unit staked (an even stake) at the rank's next showing."""
    reading = opts["winning_pile"]
    dbl = opts["doublets"]
    rows = []
    for live in STRATEGY_LIVE:
        row = [f"{live} live {'card' if live == 1 else 'cards'}"]
        for u in STRATEGY_COPIES:
            if u > live:
                row.append("—")
                continue
            wl = win_lose(showing_odds(live + 1, u, True), reading, hocly_odds(live + 1, u, True))
            row.append(fraction_text(expected(2, wl, dbl) / 2))
        best = max((expected(2, win_lose(showing_odds(live + 1, u, True), reading, hocly_odds(live + 1, u, True)),
                             dbl), u)
                   for u in STRATEGY_COPIES if u <= live)
        row.append("a case card (1 left)" if best[1] == 1 else f"{best[1]} left")
        rows.append(row)
    side = "right" if reading == "source" else "left"
    return Table(["left in the pack", *(f"{plural(u, 'card')} of the rank" for u in STRATEGY_COPIES), "best"],
                 rows, f"Expected result per unit staked at the rank's next showing (the {side} pile wins; "
                       "doublets: " + {"half": "half to the bank", "all": "all to the bank",
                                       "none": "nothing paid"}[dbl] + ")")


def choices_table(opts: dict) -> Table:
    """FA-3: what each choice does to a stake of 2 (first laid 2), after a win, a loss and a doublet (with
    FA-3.7's reading "optional", "leave it" too, and the choices that reading does not offer)."""
    lim = opts["limit"]
    dbl = opts["doublets"]
    optional = opts.get("stake_choice") == "optional"
    rows = []
    for a in (LEAVE, *CHOICES) if optional else CHOICES:
        row = [a.label]
        for outcome in (WIN, LOSS, DOUBLET):
            before = 2
            on_card = before if outcome == WIN else 0 if outcome == LOSS else before - doublet_cost(before, dbl)
            t = new_stake(a.data, before, before, on_card)
            if a.data == D_PAROLI and outcome != WIN:
                row.append("not offered: no win")
            elif a.data == D_WITHDRAW:
                row.append("from the second showing: " + (f"takes back {on_card}" if on_card else "nothing to take"))
            elif optional and a.data == D_LAPPE and outcome == LOSS:
                row.append("not offered: nothing is left to keep")
            elif optional and a.data == D_LAPPE and on_card == before:
                row.append("not offered: the first stake lies there (leave it)")
            elif a.data == D_LEAVE and not t:
                row.append("the card stays, without a stake")
            elif t > lim:
                row.append(f"not offered: {t} is above the limit")
            else:
                move = (f"adds {t - on_card}" if t > on_card else f"takes back {on_card - t}" if t < on_card
                        else "nothing moves")
                row.append(f"stake {t} ({move})")
        rows.append(row)
    return Table(["choice", "after a win (the win, 2, is paid)", "after a loss (the bank took 2)",
                  "after a doublet"], rows, "A stake of 2 units when its card shows")
