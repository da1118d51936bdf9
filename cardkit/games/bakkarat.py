"""Bakkarat for three players — a banker against two hands — played as a sitting of coups, with stakes, a
ledger that always balances, and exact odds for the third card.

Source: ``004_…`` (the 7th Sea quick rules, "Bakkarat"). Its settlement section is empty: the kit fills it
from the classic game with three players, *baccarat à deux tableaux*, and says so. Rule IDs refer to
``cardkit/rules/bakkarat.toml``.

A sitting: the bank shuffles the whole pack (a ``Deal``, the chance node) and plays coup after coup from it
without shuffling (BA-4). A coup: two cards each, face down, nobody looks yet (BA-1.4); the two players stake
(``stake 2``, ``stake 2 with partner``; BA-3.2, BA-3.3); the bank closes the stakes (``close`` or ``close
with partner``); the players look, and a hand of two cards that makes 10 calls "Bak!": the round's cards are
laid aside face up and dealt again (BA-1.2); then each player, the bank last, may ``draw`` one third card
(face up) or ``stand`` (BA-2); the showdown settles each hand against the bank (BA-3). When fewer than nine
cards are left the coup is not played and the bank passes to the left (BA-4, BA-4.1): a new ``Deal``.

Exact odds (``advice``): the value of the third card, counted over the cards the player has not seen, by
enumeration (``punter_odds``, ``bank_odds``): fractions, never a simulation.
"""
from __future__ import annotations

from fractions import Fraction
from operator import mul


from ..cards import FRENCH52, Card
from ..errors import CardError, IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..ledger import TABLE, Ledger
from ..options import Option
from ..rules import Table
from ..view import Odds, Pile, Seat, View, plural
from ._posting import post

NAMES = ["South", "West", "East"]
PARTNERS = [f"{n}'s partner" for n in NAMES]
FIRST_BANK = 2                      # BA-4.2: East holds the bank first; South sits at its left
FULL = 9                            # BA-4.1: a full coup — two cards and a third for each of three hands
AMOUNTS = (1, 2, 5, 10, 20)         # BA-3.2: the stakes offered, up to the limit

# BA-1: Ace 1, faces 0, the rest by pips (the 10 counts 10)
VALUE = {c: (1 if c.rank == "A" else 0 if c.rank in ("J", "Q", "K") else int(c.rank)) for c in FRENCH52.cards}
# BA-1.1: over 10 loses 10 (as often as needed): a sum 0 … 30 as a count 0 … 10
RED = [s if s <= 10 else (s - 1) % 10 + 1 for s in range(31)]
FIN3 = {"zero": tuple(0 if RED[s] == 10 else RED[s] for s in range(31)), "ten": tuple(RED)}   # BA-1.3
# BA-1.2.1: two cards that make 10 are a "Bak!" (redealt: the count 10 never stands) or baccara, counting 0
FIN2 = {"redeal": tuple(RED), "baccara": FIN3["zero"]}
FULL_COUNTS = (12, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4)       # cards of each value 0 … 10 in the pack


def _shuffle_groups(n: int, cap: int = 1 << 64) -> tuple:
    """Fisher–Yates positions n − 1 … 1 in groups whose ranges (m + 1 each) multiply to at most `cap`."""
    groups, m = [], n - 1
    while m > 0:
        k, pos = 1, []
        while m > 0 and k * (m + 1) <= cap:
            k *= m + 1
            pos.append(m)
            m -= 1
        groups.append((k, tuple(pos)))
    return tuple(groups)


_SHUFFLE_GROUPS = _shuffle_groups(52)


def shuffle(cards: list, below, groups) -> list:
    """Fisher–Yates in place over `groups` (``_shuffle_groups(len(cards))``), `below(k)` uniform in [0, k)."""
    for k, positions in groups:
        r = below(k)
        for m in positions:
            r, j = divmod(r, m + 1)
            cards[m], cards[j] = cards[j], cards[m]
    return cards

# the phases of a coup
STAKE, CLOSE, DRAW = 0, 1, 2

DRAW_A = Action("draw", "draw a third card", data=("draw",))
STAND_A = Action("stand", "stand", data=("stand",))
DRAW_ACTIONS = [DRAW_A, STAND_A]
CLOSE_A = Action("close", "close the stakes", data=("close", False))
CLOSE_P = Action("close with partner", "close the stakes, a partner shares the bank", data=("close", True))
STAKE_A = {n: Action(f"stake {n}", f"stake {plural(n, 'unit')}", data=("stake", n, False)) for n in AMOUNTS}
STAKE_P = {n: Action(f"stake {n} with partner", f"stake {n}, partner adds {n}", data=("stake", n, True))
           for n in AMOUNTS}

OPTIONS = (
    Option("players", 3, choices=(3,), rule="BA-0", help="Bakkarat is played by three: the bank and two players"),
    Option("three_card_ten", "zero", choices=("zero", "ten"), rule="BA-1.3",
           help="what three cards that make exactly 10 count",
           labels={"zero": "nothing (classic)", "ten": "ten (to the letter)"}),
    Option("bak", "redeal", choices=("redeal", "baccara"), rule="BA-1.2.1",
           help="two cards that make 10: “Bak!” and the cards dealt again, or baccara, a count of 0 that is played",
           labels={"redeal": "“Bak!”: the cards are dealt again (the source)",
                   "baccara": "baccara: it counts 0 and is played (classic)"}),
    Option("bank_draw", "free", choices=("free", "five"), rule="BA-2.2",
           help="the bank's own third card: its choice, or always on 5 or less",
           labels={"free": "the bank chooses (the source)", "five": "the bank draws on 5 or less"}),
    Option("ties", "stand", choices=("stand", "bank"), rule="BA-3.1", help="an equal count",
           labels={"stand": "nobody wins: the stake goes back (classic)", "bank": "the bank wins ties"}),
    Option("limit", 10, choices=(5, 10, 20), rule="BA-3.2", help="the largest stake on a hand, in units"),
    Option("partners", True, choices=(True, False), rule="BA-3.3",
           help="partners may join a player's stake and share the bank",
           labels={True: "partners may join", False: "no partners"}),
    Option("sitting", "round", choices=("round", "pack"), rule="BA-4.3",
           help="how long a sitting lasts: until every player has held the bank, or one pack",
           labels={"round": "until the bank has gone round (three packs)", "pack": "one pack"}),
)


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def count_of(cards, fin3=FIN3["zero"], fin2=FIN2["redeal"]) -> int:
    """The count of a hand (BA-1, BA-1.1, BA-1.3, BA-1.2.1): two cards 0 … 10 (10 is a "Bak!", or 0 as
    baccara), three cards 0 … 9 or 10."""
    s = 0
    for c in cards:
        s += VALUE[c]
    return fin3[s] if len(cards) == 3 else fin2[s]


class Bakkarat(Game):
    name = "bakkarat"
    title = "Bakkarat"
    deck = FRENCH52
    hands_on_table = True         # the cards are dealt face down on the table
    moment_level = 1              # the play table pauses after every coup (`progress`'s second label)
    option_specs = OPTIONS
    summary = ("A banking game for three: two players stake against the bank, two cards each and one more if "
               "you like; the count nearest 9 wins, and two cards that make 10 call \"Bak!\" and a redeal.")

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        self._deck = tuple(FRENCH52.cards)
        self.fin3 = FIN3[o["three_card_ten"]]
        self.fin2 = FIN2[o["bak"]]
        self.redeal = o["bak"] == "redeal"              # BA-1.2.1
        self.bank_free = o["bank_draw"] == "free"
        self.tie_bank = o["ties"] == "bank"
        self.limit = o["limit"]
        self.partners = o["partners"]
        self.packs = 3 if o["sitting"] == "round" else 1
        amounts = [n for n in AMOUNTS if n <= self.limit]
        self.stake_actions = [STAKE_A[n] for n in amounts]
        if self.partners:
            self.stake_actions += [STAKE_P[n] for n in amounts if 2 * n <= self.limit]
            self.close_actions = [CLOSE_A, CLOSE_P]
        else:
            self.close_actions = [CLOSE_A]

    def random_deal(self, rng) -> Deal:
        """A uniform shuffle of the pack (Fisher–Yates), drawing the swaps' positions a few at a time: one
        uniform number below the product of several ranges (rejection sampling, no bias) is split into
        its mixed-radix digits, each uniform and independent — five draws instead of 51 (a sitting shuffles
        three times)."""
        cards = list(self._deck)
        shuffle(cards, rng.below, _SHUFFLE_GROUPS)
        return Deal(cards)

    def player_names(self) -> list[str]:
        return list(NAMES)

    def full_deck(self) -> list[Card]:
        return list(self._deck)

    def stack(self, *coups, rest=()) -> str:
        """The text of a new shuffle (the first pack: East holds the bank, BA-4.2) that gives these coups.
        Each coup is ``(hands, draws)``: the three two-card hands in seat order (South, West, East) and the
        cards drawn after the deal, in the order they will be drawn (third cards, or a redeal after a
        "Bak!": two for each hand from the bank's left, the bank last). `rest` goes next; the unlisted cards
        follow in the pack's order."""
        order = []
        bank = FIRST_BANK
        seats = [(bank + 1) % 3, (bank + 2) % 3, bank]
        for coup in coups:
            if not (isinstance(coup, (list, tuple)) and len(coup) == 2):
                raise IllegalActionError("BA-1.4", "give each coup as (hands, draws): three two-card hands in "
                                         "seat order and the cards drawn after the deal")
            hands, draws = coup
            hs = [FRENCH52.parse_many(h) for h in hands]
            if len(hs) != 3 or any(len(h) != 2 for h in hs):
                raise IllegalActionError("BA-1.4", "give three hands of two cards (South's, West's, East's)")
            for p in seats:
                order += hs[p]
            order += FRENCH52.parse_many(draws)
        order += FRENCH52.parse_many(rest)
        left = list(self._deck)
        for c in order:
            if c not in left:
                raise IllegalActionError("BA-0", f"{c.label} is listed twice (the pack holds each card once)")
            left.remove(c)
        return "deal: " + FRENCH52.format(order + left)

    def rule_tables(self) -> dict:
        return {"values": values_table(self.options["bak"]), "settlement": settlement_table(self.options),
                "strategy": strategy_table(self.options)}



SEAT = {n: p for p, n in enumerate(NAMES)}


class BakkaratNarration(Narration):
    """How a game of Bakkarat is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def round_result(self) -> str:
        last = self.last
        if last is None:
            return ""
        coup, b, hands, counts = last[:4]
        shown = "; ".join(f"{NAMES[q]} " + " ".join(c.label for c in hands[q]) + f" = {counts[q]}" for q in range(3))
        note = self.showdown_note()
        bal = self._scores()
        return (f"Coup {coup}, the showdown: {shown}. {note[0].upper()}{note[1:]}. Balances: "
                + ", ".join(f"{NAMES[p]} {signed_units(bal[p])}" for p in range(3)) + ".")

    def describe(self, action, after: BakkaratState | None = None) -> str:
        if action.__class__ is Deal:
            b = NAMES[self.banker]
            return (f"Pack {self.pack_no + 1}: {b} holds the bank, shuffles the whole pack, has it cut and deals "
                    f"two cards each, face down, from the left [BA-1.4].")
        p = self.current_player
        if p < 0:
            return super().describe(action, after)  # type: ignore[misc]  # a mixin: super() is the state's State
        who = NAMES[p]
        d = action.data
        kind = d[0]
        if kind == "stake":
            n = d[1]
            line = f"{who} stakes {plural(n, 'unit')} [BA-3.2]"
            if d[2]:
                line += f"; his partner puts {n} beside it [BA-3.3]"
            return line + "."
        if kind == "close":
            line = (f"{who} closes the stakes" + (", and a partner shares the bank [BA-3.3]" if d[1] else "")
                    + "; the players look at their cards [BA-3.2].")
            if after is not None:
                line += self._bak_text(after)
            return line
        if kind == "draw":
            line = f"{who} asks for a third card, dealt face up [BA-2]."
            if after is not None:
                last = after.last
                settled = last is not None and last[0] == self.coup
                c = last[2][p][2] if settled else after.hands[p][2]
                line = f"{who} asks for a third card: the {c.label}, face up [BA-2]."
        else:
            line = f"{who} stands on two cards [BA-2]."
        if after is not None:
            line += self._after_text(after, p)
        return line


class BakkaratState(BakkaratNarration, State):
    """A sitting. The play keeps only what decides it: the pack, the hands, the stakes. The money (``ledger``,
    ``results``, ``scores``) is worked out from the coups played (``_coups``) when it is looked at: the entries
    of a coup follow from its hands and stakes by the rules (BA-3, BA-3.3, BA-4.1), in the order they were
    made."""
    game: Bakkarat
    current_player = CHANCE                 # an attribute the play sets, not the base class's property

    # set up --------------------------------------------------------------------------------------
    def _start(self) -> None:
        self.banker = FIRST_BANK
        self.left = (FIRST_BANK + 1) % 3
        self.right = (FIRST_BANK + 2) % 3
        self.pack: list[Card] = []          # the top of the pack is the END of the list
        self.shuffle: tuple = ()            # the cards of the latest Deal
        self.hands: list[list[Card]] = [[], [], []]
        self.phase = STAKE
        self.stakes = [0, 0, 0]             # each player's own stake this coup
        self.pstakes = [0, 0, 0]            # his partner's stake beside it (BA-3.3)
        self.bank_partner = False           # the bank shares the bank with its partner this coup
        self.coup = 0                       # coups dealt in the sitting
        self.pack_no = 0
        self.packs_done = 0
        self.baks: list = []                # this coup's "Bak!"s: (seat, two cards) in order
        self.lapsed = False                 # this coup was given up (BA-4.1) after a "Bak!"
        self.auto_draw: Card | bool | None = None   # BA-2.2 "five": what the bank did by its rule (card or False)
        self.laid: list = []                # (seat, hand) laid aside face up since the shuffle, in order
        # per coup: (coup, bank, hands at the showdown or None if not played (BA-4.1), stakes, partners'
        # stakes, bank shared, "Bak!"s)
        self._coups: list = []
        self._ledger = Ledger(NAMES + PARTNERS)   # `ledger`, posted up to `_posted`: (coups, entries of the next)
        self._posted = (0, 0)
        self.current_player = CHANCE

    @property
    def hands_dealt(self) -> int:
        """Coups dealt so far in the sitting (``cardkit bench`` counts them)."""
        return self.coup

    @property
    def looked(self) -> bool:
        """The players have looked at their cards (BA-1.4): the stakes are closed."""
        return self.phase == DRAW

    @property
    def drew(self) -> list[bool]:
        """Who has had a third card this coup."""
        return [len(h) == 3 for h in self.hands]

    @property
    def got(self) -> dict:
        """card -> the seat it went to since the shuffle (resample): every card given is in a hand or has
        been laid aside."""
        got = {c: p for p, h in self.laid for c in h}
        got.update((c, p) for p, h in enumerate(self.hands) for c in h)
        return got

    # the money and the coups played, worked out when looked at ----------------------------------------
    def _showdown(self, coup: tuple) -> tuple:
        """The counts of a coup played (BA-1, BA-1.1, BA-1.3) and each player's outcome against the bank:
        1 wins, -1 loses, 0 an equal count (BA-3.1)."""
        _, b, hands, _, _, _, _ = coup
        fin3, fin2 = self.game.fin3, self.game.fin2
        counts = [fin3[VALUE[h[0]] + VALUE[h[1]] + VALUE[h[2]]] if len(h) == 3 else fin2[VALUE[h[0]] + VALUE[h[1]]]
                  for h in hands]
        cb = counts[b]
        tie_bank = self.game.tie_bank
        outcomes = [0, 0, 0]
        for p in ((b + 1) % 3, (b + 2) % 3):
            outcomes[p] = 1 if counts[p] > cb else -1 if counts[p] < cb or tie_bank else 0
        return counts, outcomes

    def _entries(self, coup: tuple, settled: bool) -> list:
        """The ledger entries of a coup, in the order they were made: the stakes (BA-3.2, BA-3.3), then, once
        the coup is `settled`, every stake back if it was not played (BA-4.1), else the showdown (BA-3)."""
        c, b, hands, stakes, pstakes, share, _ = coup
        players = ((b + 1) % 3, (b + 2) % 3)
        out = []
        for p in players:
            if stakes[p]:
                out.append((NAMES[p], TABLE, stakes[p], "stake", "BA-3.2", c))
            if pstakes[p]:
                out.append((PARTNERS[p], TABLE, pstakes[p], "partner's stake", "BA-3.3", c))
        if not settled:
            return out
        if hands is None:
            for p in players:
                if stakes[p]:
                    out.append((TABLE, NAMES[p], stakes[p], "stake back: coup not played", "BA-4.1", c))
                if pstakes[p]:
                    out.append((TABLE, PARTNERS[p], pstakes[p], "stake back: coup not played", "BA-4.1", c))
            return out
        outcomes = self._showdown(coup)[1]
        bank, bpart = NAMES[b], PARTNERS[b]
        for p in players:
            o = outcomes[p]
            for who, n in ((NAMES[p], stakes[p]), (PARTNERS[p], pstakes[p])):   # the partner's stake beside
                if not n:                                                       # it (BA-3.3)
                    break
                if o > 0:                          # the stake back, and the bank pays as much
                    out.append((TABLE, who, n, "stake back", "BA-3", c))
                    if share and n > 1:
                        h = n // 2
                        out.append((bank, who, n - h, "the bank pays", "BA-3", c))
                        out.append((bpart, who, h, "the bank's partner pays half", "BA-3.3", c))
                    else:
                        out.append((bank, who, n, "the bank pays", "BA-3", c))
                elif o < 0:                        # the bank takes the stake
                    if share and n > 1:
                        h = n // 2
                        out.append((TABLE, bank, n - h, "the bank takes the stake", "BA-3", c))
                        out.append((TABLE, bpart, h, "the bank's partner takes half", "BA-3.3", c))
                    else:
                        out.append((TABLE, bank, n, "the bank takes the stake", "BA-3", c))
                else:                              # BA-3.1: an equal count, the stake goes back
                    out.append((TABLE, who, n, "equal count: stake back", "BA-3.1", c))
        return out

    @property
    def ledger(self) -> Ledger:
        """The sitting's money in units (BA-3): every coup's entries, posted when the ledger is read
        (`_posting.post`), those of the coup in play as far as it has gone."""
        current = None
        if self.current_player >= 0:
            current = (self.coup, self.banker, None, self.stakes, self.pstakes, None, 0)
        self._posted = post(self._ledger, self._posted, self._coups, self._entries, current)
        return self._ledger

    @property
    def results(self) -> list:
        """Per coup: (coup, bank, counts, hand sizes, each player's units won or lost, "Bak!"s, "played" or
        "lapsed"). The units are counted from the ledger's entries, each tagged with its coup."""
        won: dict = {}
        for coup, payer, payee, amount, _, _ in self.ledger.entries:
            if payer in SEAT or payee in SEAT:
                d = won.setdefault(coup, [0, 0, 0])
                if payer in SEAT:
                    d[SEAT[payer]] -= amount
                if payee in SEAT:
                    d[SEAT[payee]] += amount
        out: list[tuple] = []
        for coup in self._coups:
            c, b, hands, _, _, _, baks = coup
            if hands is None:
                out.append((c, b, None, None, (0, 0, 0), baks, "lapsed"))
            else:
                out.append((c, b, tuple(self._showdown(coup)[0]), tuple(len(h) for h in hands),
                            tuple(won.get(c, (0, 0, 0))), baks, "played"))
        return out

    @property
    def last(self):
        """The last showdown: (coup, bank, hands, counts, outcomes, (stakes, partners' stakes, bank shared))."""
        for coup in reversed(self._coups):
            c, b, hands, stakes, pstakes, share, _ = coup
            if hands is not None:
                return (c, b, hands, *self._showdown(coup), (stakes, pstakes, share))
        return None

    # dealing -------------------------------------------------------------------------------------
    # The hooks return the next position's legal actions when it is a player's (as `_legal` gives them).
    def _deal(self, deal: Deal) -> list | None:
        """A new shuffle (BA-1.4, BA-4): the whole pack; the coups are dealt from it."""
        cards = deal.cards
        self.shuffle = cards
        self.pack = list(cards[::-1])
        self.pack_no += 1
        self.laid = []
        return self._begin_coup()

    def _give(self) -> None:
        """BA-1.4: two cards at once to each, from the bank's left, the bank last; face down."""
        t = self.pack
        hands = self.hands
        for p in (self.left, self.right, self.banker):
            hands[p] = [t.pop(), t.pop()]

    def _begin_coup(self) -> list | None:
        if len(self.pack) < FULL:                     # BA-4.1: the pack is used up
            self._pass_bank()
            return None
        self.coup += 1
        self.baks = []
        self.lapsed = False
        self.auto_draw = None
        self.stakes = [0, 0, 0]
        self.pstakes = [0, 0, 0]
        self.bank_partner = False
        self._give()
        self.phase = STAKE
        self.current_player = self.left
        return [*self.game.stake_actions]

    def _pass_bank(self) -> None:
        """BA-4: the bank passes to the left neighbour, who shuffles; BA-4.3: the sitting may be over."""
        self.hands = [[], [], []]
        self.stakes = [0, 0, 0]
        self.pstakes = [0, 0, 0]
        self.packs_done += 1
        if self.packs_done >= self.game.packs:
            self.current_player = TERMINAL
            return
        b = (self.banker + 1) % 3
        self.banker = b
        self.left = (b + 1) % 3
        self.right = (b + 2) % 3
        self.current_player = CHANCE

    # the protocol --------------------------------------------------------------------------------
    def _legal(self) -> list:
        phase = self.phase
        if phase == DRAW:
            return [DRAW_A, STAND_A]
        if phase == STAKE:
            return [*self.game.stake_actions]
        return [*self.game.close_actions]

    def _apply(self, action) -> list | None:
        d = action.data
        kind = d[0]
        p = self.current_player
        if kind == "draw" or kind == "stand":
            if kind == "draw":
                self.hands[p].append(self.pack.pop())
            if p == self.left:
                self.current_player = self.right
                return [DRAW_A, STAND_A]
            if p == self.right:
                return self._after_players()
            return self._settle()
        if kind == "stake":
            n = d[1]
            self.stakes[p] = n
            if d[2]:
                self.pstakes[p] = n
            if p == self.left:
                self.current_player = self.right
                return [*self.game.stake_actions]
            self.phase = CLOSE
            self.current_player = self.banker
            return [*self.game.close_actions]
        # close (BA-3.2): the players look at their cards; "Bak!" (BA-1.2)
        self.bank_partner = d[1]
        return self._look()

    def _look(self) -> list | None:
        hands = self.hands
        order = (self.left, self.right, self.banker)
        while self.game.redeal:                   # BA-1.2.1 "baccara": a two-card 10 counts 0, no redeal
            bak = None
            for p in order:
                h = hands[p]
                if RED[VALUE[h[0]] + VALUE[h[1]]] == 10:
                    if bak is None:
                        bak = []
                    bak.append((p, tuple(h)))
            if bak is None:
                break
            self.baks.append(tuple(bak))
            laid = self.laid
            for p in order:                       # the round's cards are laid aside, face up
                laid.append((p, hands[p]))
            if len(self.pack) < FULL:             # BA-4.1: no full coup left for the redeal
                self._lapse()
                return None
            self._give()
        self.phase = DRAW
        self.current_player = self.left
        return [DRAW_A, STAND_A]

    def _lapse(self) -> None:
        """BA-4.1 after a "Bak!": the coup is not played; every stake goes back (`_entries`)."""
        self.lapsed = True
        self._coups.append((self.coup, self.banker, None, self.stakes, self.pstakes, None, len(self.baks)))
        self.hands = [[], [], []]
        self._pass_bank()

    def _after_players(self) -> list | None:
        """Both players have decided: the bank draws or stands (BA-2.2)."""
        b = self.banker
        if self.game.bank_free:
            self.current_player = b
            return [DRAW_A, STAND_A]
        h = self.hands[b]
        if self.game.fin2[VALUE[h[0]] + VALUE[h[1]]] <= 5:   # BA-2.2 "five": the bank draws on 5 or less
            c = self.pack.pop()
            h.append(c)
            self.auto_draw = c
        else:
            self.auto_draw = False
        return self._settle()

    def _settle(self) -> list | None:
        """BA-3: every hand is turned up and each player's count is set against the bank's (BA-3.1 ties): the
        entries are worked out from the coup when the ledger is read (`_entries`). Then the next coup."""
        hands = self.hands
        laid = self.laid
        laid.append((0, hands[0]))
        laid.append((1, hands[1]))
        laid.append((2, hands[2]))
        self._coups.append((self.coup, self.banker, hands, self.stakes, self.pstakes, self.bank_partner,
                            len(self.baks)))
        self.hands = [[], [], []]
        return self._begin_coup()

    # results -------------------------------------------------------------------------------------
    def _scores(self) -> list:
        """The three players' balances in units (BA-3.4); final once the sitting is over."""
        b = self.ledger.balances
        return [b["South"], b["West"], b["East"]]

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(c.text for c in cs)  # noqa: E731
        return (t(self.pack), tuple(t(h) for h in self.hands), self.banker, self.looked, self.phase,
                tuple(self.stakes), tuple(self.pstakes), self.bank_partner, tuple(self.drew), self.coup,
                self.pack_no, self.packs_done, tuple((p, t(h)) for bk in self.baks for p, h in bk), self.lapsed,
                None if self.auto_draw is None else (self.auto_draw.text if isinstance(self.auto_draw, Card) else False),
                tuple((p, c.text) for p, c in self.out), self.ledger.snapshot(), tuple(self.results),
                self.current_player)

    # why an action is not legal, in the words of the buttons ---------------------------------------
    def _illegal(self, text: str) -> IllegalActionError:
        t = " ".join(text.strip().lower().split())
        cp = self.current_player
        # "South: draw" — an action named with its player: out of turn, or a third card asked twice
        if ":" in t:
            who, _, rest = t.partition(":")
            seat = next((p for p, n in enumerate(NAMES) if n.lower() == who.strip()), None)
            if seat is not None:
                return self._out_of_turn(seat, rest.strip(), text)
        word = t.split()[0] if t else ""
        if cp < 0:
            return super()._illegal(text)
        who = NAMES[cp]
        phase = self.phase
        if word == "stake":
            if phase != STAKE:
                if cp == self.banker and phase == CLOSE:
                    return IllegalActionError("BA-3.2", f"{who} holds the bank: the bank does not stake, it closes "
                                              "the stakes", text)
                return IllegalActionError("BA-3.2", "the stakes are closed: draw a third card or stand", text)
            return self._bad_stake(t, text)
        if word == "close":
            if phase == STAKE:
                return IllegalActionError("BA-3.2", "only the bank closes the stakes, once both players have "
                                          f"staked: {who} stakes now", text)
            if "partner" in t and not self.game.partners:
                return IllegalActionError("BA-3.3", "no partners at this table: close the stakes alone", text)
            return IllegalActionError("BA-3.2", "the stakes are closed already: draw a third card or stand", text)
        if word in ("draw", "stand"):
            if phase != DRAW:
                return IllegalActionError("BA-2", "the third card comes after the stakes are closed and the "
                                          "players have looked at their cards", text)
            return super()._illegal(text)
        try:
            card = FRENCH52.parse(t)
        except CardError:
            return IllegalActionError("BA-2", f"{text!r} is not a move of Bakkarat: stake, close the stakes, "
                                      "draw a third card or stand", text)
        return IllegalActionError("BA-2", f"in Bakkarat no card is played: the {card.label} stays in the hand; "
                                  "stake, draw a third card or stand with the buttons", text)

    def _bad_stake(self, t: str, text: str) -> IllegalActionError:
        g = self.game
        parts = t.split()
        amount = parts[1] if len(parts) > 1 else ""
        if not amount.isdigit():
            return IllegalActionError("BA-3.2", "a stake is a whole number of units: "
                                      + ", ".join(a.text for a in g.stake_actions[:3]) + " …", text)
        n = int(amount)
        partner = "partner" in t
        if partner and not g.partners:
            return IllegalActionError("BA-3.3", "no partners at this table: stake alone", text)
        if n < 1 or n > g.limit:
            return IllegalActionError("BA-3.2", f"a stake is 1 to {plural(g.limit, 'unit')} (the table's limit): "
                                      + ", ".join(str(x) for x in AMOUNTS if x <= g.limit), text)
        if partner and 2 * n > g.limit:
            return IllegalActionError("BA-3.3", f"with your partner's {n} the hand would carry {2 * n}, over the "
                                      f"table's limit of {g.limit}", text)
        return IllegalActionError("BA-3.2", "the table takes stakes of "
                                  + ", ".join(str(x) for x in AMOUNTS if x <= g.limit) + " units", text)

    def _out_of_turn(self, seat: int, rest: str, text: str) -> IllegalActionError:
        cp = self.current_player
        name = NAMES[seat]
        word = rest.split()[0] if rest else ""
        if cp < 0:
            return super()._illegal(text)
        if word == "draw" and self.drew[seat]:
            return IllegalActionError("BA-2", f"{name} has had a third card: one third card, no more", text)
        if seat != cp:
            rule = "BA-2" if self.phase == DRAW else "BA-3.2"
            order = ("the players decide in turn from the bank's left, the bank last" if self.phase == DRAW
                     else "the players stake from the bank's left, then the bank closes the stakes")
            return IllegalActionError(rule, f"it is {NAMES[cp]}'s turn, not {name}'s: {order}", text)
        return IllegalActionError("protocol", f"it is {name}'s turn: write the move without the name "
                                  f"({', '.join(a.text for a in self.legal_actions())})", text)

    # what resample needs -----------------------------------------------------------------------------
    def _deal_owners(self) -> list:
        got = self.got
        return [got.get(c) for c in self.shuffle]

    @property
    def out(self) -> list:
        """(seat, card) for every card laid aside face up since the shuffle, in order."""
        return [(p, c) for p, h in self.laid for c in h]

    @property
    def shown(self) -> list:
        """(seat, card) for every card shown to all since the shuffle: laid aside, or a third card on the
        table."""
        out = self.out
        for p, h in enumerate(self.hands):
            if len(h) == 3:
                out.append((p, h[2]))
        return out

    def _revealed(self) -> list:
        return self.shown

    def _fork(self) -> "BakkaratState":
        """A light copy of this position for `resample`'s tries: every container the play changes is copied
        (the hands laid aside and the showdown's lists are never changed once made)."""
        c = self._fork_base()
        c.pack = list(self.pack)
        c.hands = [list(h) for h in self.hands]
        c.stakes = list(self.stakes)
        c.pstakes = list(self.pstakes)
        c.baks = list(self.baks)
        c.laid = list(self.laid)
        c._coups = list(self._coups)
        c._ledger = self._ledger.copy()
        return c

    # exact odds ------------------------------------------------------------------------------------
    def _unseen_counts(self, me: int) -> list:
        """Cards of each value 0 … 10 that `me` has not seen since the shuffle."""
        c = list(FULL_COUNTS)
        seen = {card for _, card in self.shown}
        if self.looked:
            seen.update(self.hands[me])
        for card in seen:
            c[VALUE[card]] -= 1
        return c

    def advice(self, player: int) -> list:
        self._check_seat(player)
        if self.current_player == player and self.phase == STAKE and player != self.banker:
            return self._stake_advice(player)
        if self.current_player != player or self.phase != DRAW:
            return []
        g = self.game
        c = self._unseen_counts(player)
        n = sum(c)
        note = f"from the {plural(n, 'card')} you have not seen"
        if player == self.banker:
            punters = []
            for p in (self.left, self.right):
                h = self.hands[p]
                punters.append((h[2] if len(h) == 3 else None, self.stakes[p] + self.pstakes[p]))
            sb = VALUE[self.hands[player][0]] + VALUE[self.hands[player][1]]
            ev_s, ev_d = bank_odds(tuple(c), sb, tuple((None if t is None else VALUE[t], s) for t, s in punters),
                                   g.options["three_card_ten"], g.tie_bank, g.options["bak"])
            return [Odds("The bank's result if it stands", ev_s, "stake", note + "; the players' hands alike"),
                    Odds("The bank's result if it draws", ev_d, "stake", note + "; the players' hands alike")]
        h = self.hands[player]
        sm = VALUE[h[0]] + VALUE[h[1]]
        ws, ls, wd, ld = punter_odds(tuple(c), sm, g.options["three_card_ten"], g.options["bak"])
        stake = self.stakes[player]
        tie = g.tie_bank
        ev_s = stake * (ws - ls - (1 - ws - ls if tie else 0))
        ev_d = stake * (wd - ld - (1 - wd - ld if tie else 0))
        bank = "the bank draws on 5 or less" + ("" if not g.bank_free else " (assumed)")
        return [Odds("You win if you stand", ws, note=note), Odds("You lose if you stand", ls, note=bank),
                Odds("You win if you draw", wd, note=note), Odds("You lose if you draw", ld, note=bank),
                Odds("Your stake is worth, standing", ev_s, "stake", f"{plural(stake, 'unit')} staked"),
                Odds("Your stake is worth, drawing", ev_d, "stake", f"{plural(stake, 'unit')} staked")]

    def _stake_advice(self, player: int) -> list:
        """Before the stakes, the player's own cards are still unseen: what a unit staked is worth and the
        chance to win, over every two cards he may hold (a "Bak!" is dealt again), each played by the odds."""
        g = self.game
        c = self._unseen_counts(player)
        ten, tie, bak = g.options["three_card_ten"], g.tie_bank, g.options["bak"]
        ev = win = Fraction(0)
        total = 0
        for a, b in PAIRS:
            w = _ways(c, a, b)
            if w <= 0 or (RED[a + b] == 10 and bak == "redeal"):     # a "Bak!" is dealt again; baccara is played
                continue
            ws, ls, wd, ld = punter_odds(tuple(_less(c, a, b)), a + b, ten, bak)
            evs = ws - ls - (1 - ws - ls if tie else 0)
            evd = wd - ld - (1 - wd - ld if tie else 0)
            ev += w * max(evs, evd)
            win += w * (ws if evs >= evd else wd)
            total += w
        if not total:
            return []
        note = (f"over the {plural(sum(c), 'card')} you have not seen, your own two among them; you then stand or "
                f"draw by the odds, and the bank draws on 5 or less" + ("" if not g.bank_free else " (assumed)"))
        return [Odds("Expected result per unit staked, before you see your cards", ev / total, "stake", note),
                Odds("You win the coup", win / total, note=note)]

    # presentation --------------------------------------------------------------------------------
    def _view(self, player: int | None = None) -> View:
        g = self.game
        teacher = player is None
        cp = self.current_player
        seats = []
        mine_down = player is not None and not self.looked and cp >= 0 and bool(self.hands[player])
        bal = self.ledger.balances
        drew = self.drew
        for p in (0, 1, 2):
            h = self.hands[p]
            own = teacher or (player == p and self.looked)
            if p == player and mine_down:
                hand = []        # BA-1.4: not looked at yet: they lie on the table (a pile below), not in hand
            else:
                hand = [c if (own or i == 2) else None for i, c in enumerate(h)]
            if p == self.banker:
                info = "the bank" + (", with a partner" if self.bank_partner and self.phase == DRAW else "")
            elif self.stakes[p]:
                info = f"stakes {self.stakes[p]}" + (f" + partner {self.pstakes[p]}" if self.pstakes[p] else "")
            else:
                info = "to stake" if cp >= 0 else ""
            if drew[p] and cp >= 0:
                info += " · drew a third card"
            seats.append(Seat(p, NAMES[p], hand, score=signed_units(bal[NAMES[p]]), info=info, current=p == cp))
        piles = [Pile("Pack", [], count=len(self.pack), kind="stock")]
        if mine_down and player is not None:
            piles.append(Pile("Your two cards", [(NAMES[player], None), (NAMES[player], None)],
                              note="face down: you look at them when the bank closes the stakes [BA-1.4]"))
        last = self.last
        if last is not None:
            piles.append(Pile(f"Coup {last[0]}: the showdown", [(NAMES[q], c) for q in range(3) for c in last[2][q]],
                              kind="last-trick", note=self.showdown_note()))
        if self.out:
            piles.append(Pile("Laid aside since the shuffle", [(NAMES[q], c) for q, c in self.out], kind="aside",
                              note="face up"))
        legal = list(self.legal_actions()) if cp >= 0 and player in (None, cp) else []
        term = cp == TERMINAL
        return View(g.name, g.title, player, seats, piles, self.status(), cp if cp >= 0 else None, term,
                    self.result_text() if term else "", legal, facts=self.facts(),
                    hand_action="see why nothing happens (no card is played: stake, draw or stand with the buttons)")

    @property
    def coups_played(self) -> list:
        """The coups played so far, as the settlement keeps them: read it, do not change it."""
        return self._coups

    def showdown_note(self) -> str:
        coup, b, hands, counts, outcomes, (stakes, pstakes, share) = self.last
        parts = []
        for p in ((b + 1) % 3, (b + 2) % 3):
            n = stakes[p] + pstakes[p]
            o = outcomes[p]
            what = (f"wins {plural(n, 'unit')} from the bank" if o > 0 else
                    f"loses {plural(n, 'unit')} to the bank" if o < 0 else "equal: the stake goes back")
            rule = "BA-3.1" if counts[p] == counts[b] else "BA-3"
            parts.append(f"{NAMES[p]} {counts[p]}: {what} [{rule}]")
        return f"the bank ({NAMES[b]}) has {counts[b]}; " + "; ".join(parts)

    def facts(self) -> list:
        """The public facts of the sitting, in plain words (View.facts)."""
        g = self.game
        cp = self.current_player
        b = self.banker
        out = []
        nxt = NAMES[(b + 1) % 3]
        if cp == TERMINAL:
            out.append(("Bank", f"the sitting is over after {plural(self.packs_done, 'pack')}"))
        elif cp == CHANCE:
            out.append(("Bank", f"{NAMES[b]} takes the bank and shuffles"))
        else:
            out.append(("Bank", f"{NAMES[b]} — {NAMES[self.left]} stakes first; the bank passes to {nxt} when "
                                "the pack is used up"))
        bal = self.ledger.balances
        out.append(("Balances", ", ".join(f"{n} {signed(bal[n])}" for n in NAMES)))
        if g.partners:
            out.append(("Partners", ", ".join(f"{PARTNERS[i]} {signed(bal[PARTNERS[i]])}" for i in range(3))))
        if cp >= 0:
            st = [f"{NAMES[p]} {self.stakes[p]}" + (f" + partner {self.pstakes[p]}" if self.pstakes[p] else "")
                  for p in (self.left, self.right) if self.stakes[p]]
            out.append(("Stakes", ", ".join(st) if st else "none yet"))
        if self.baks and (cp >= 0 or self.lapsed):
            calls = "; then ".join(" and ".join(f"{NAMES[q]}'s {h[0].label} {h[1].label}" for q, h in bk)
                                   for bk in self.baks)
            out.append(("“Bak!”", f"{calls} made 10: the round's cards were laid aside, "
                        + ("too few were left to deal again: the coup was not played, the stakes went back"
                           if self.lapsed else "and dealt again")))
        out.append(("Limit", f"1 to {plural(g.limit, 'unit')} a hand"))
        out.append(("Pack", f"{plural(len(self.pack), 'card')} — a coup needs {FULL}"))
        if g.packs > 1:
            out.append(("Sitting", f"pack {max(self.pack_no, 1)} of {g.packs}: every player holds the bank once"))
        else:
            out.append(("Sitting", "one pack"))
        return out

    def progress(self) -> tuple[str, str]:
        if self.current_player == CHANCE:
            return f"Pack {self.pack_no + 1}", ""
        if self.current_player == TERMINAL:
            return f"Pack {self.pack_no}", "End of the sitting"
        return f"Pack {self.pack_no}", f"Coup {self.coup}"

    def score_table(self):
        rows = []
        run = [0, 0, 0]
        for coup, b, counts, sizes, deltas, baks, how in self.results:
            for i in range(3):
                run[i] += deltas[i]
            if how == "lapsed":
                what = "not played: too few cards after a “Bak!” (stakes back)"
            else:
                what = " · ".join(f"{NAMES[p]} {counts[p]}" + (" (3 cards)" if sizes[p] == 3 else "")
                                  for p in range(3))
                if baks:
                    what += f" · “Bak!” {plural(baks, 'time')}"
            rows.append([f"Coup {coup}", NAMES[b], what, *(signed(d) for d in deltas), " / ".join(map(signed, run))])
        bal = self.ledger.balances
        rows.append(["Balance", "", "", *(signed(bal[n]) for n in NAMES), ""])
        if self.game.partners:
            rows.append(["Partners", "", "", *(signed(bal[n]) for n in PARTNERS), ""])
        return Table(["", "bank", "counts", *NAMES, "running (S / W / E)"], rows,
                     "Units won and lost per coup (BA-3) and the running balances (BA-3.4)")

    def status(self) -> str:
        cp = self.current_player
        if cp == CHANCE:
            return f"{NAMES[self.banker]} takes the bank and shuffles the whole pack."
        if cp == TERMINAL:
            return self.result_text()
        who = NAMES[cp]
        if self.phase == STAKE:
            return (f"Coup {self.coup}: {who} stakes, 1 to {plural(self.game.limit, 'unit')}; the cards lie face "
                    "down until the bank closes the stakes.")
        if self.phase == CLOSE:
            return f"Coup {self.coup}: {who}, the bank, closes the stakes."
        if cp == self.banker:
            return f"Coup {self.coup}: {who}, the bank, draws a third card or stands."
        return f"Coup {self.coup}: {who} draws a third card or stands."

    def result_text(self) -> str:
        s = self._scores()
        best = max(s)
        win = [NAMES[p] for p in range(3) if s[p] == best]
        lead = (f"{win[0]} ends best" if len(win) == 1 else " and ".join(win) + " end level best")
        return (f"The sitting is over after {plural(self.coup, 'coup')}: {lead} — "
                + ", ".join(f"{NAMES[p]} {signed_units(s[p])}" for p in range(3)) + ".")

    # narration -----------------------------------------------------------------------------------
    def _bak_text(self, after) -> str:
        out = ""
        for bak in after.baks:
            names = " and ".join(f"{NAMES[q]}'s {h[0].label} {h[1].label}" for q, h in bak)
            out += f" “Bak!” — {names} make 10: the round's cards are laid aside [BA-1.2]."
        if after.lapsed:
            out += (f" Too few cards are left for a redeal: the coup is not played and every stake goes back "
                    f"[BA-4.1]; {NAMES[after.banker]} takes the bank [BA-4].")
        elif after.baks:
            out += " The cards are dealt again."
        return out

    def _after_text(self, after, p: int) -> str:
        last = after.last
        if last is None or last[0] != self.coup:
            return ""
        out = ""
        b = self.banker
        coup, _, hands, counts, outcomes, _ = last
        if p != b and not self.game.bank_free:       # BA-2.2 "five": the bank drew or stood by its rule
            h = hands[b]
            out += (f" {NAMES[b]}, the bank, has 5 or less and draws: the {h[2].label} [BA-2.2]." if len(h) == 3
                    else f" {NAMES[b]}, the bank, has 6 or more and stands [BA-2.2].")
        shown = "; ".join(f"{NAMES[q]} " + " ".join(c.label for c in hands[q]) + f" = {counts[q]}" for q in range(3))
        note = after.showdown_note()
        out += f" Showdown: {shown}. {note[0].upper()}{note[1:]}."
        if after.current_player == TERMINAL:
            out += " The pack is used up [BA-4.1]: the sitting is over [BA-4.3]."
        elif after.current_player == CHANCE or after.pack_no != self.pack_no:
            out += f" The pack is used up [BA-4.1]: {NAMES[after.banker]} takes the bank [BA-4]."
        return out


def signed_units(n: int) -> str:
    return f"{signed(n)} {'unit' if abs(n) == 1 else 'units'}"


Bakkarat.State = BakkaratState
GAME = Bakkarat


# --- exact odds: enumeration over the values of the unseen cards --------------------------------------
# Cards are counted by value (0 … 10: faces, Ace … 9, the tens): `c[v]` unseen cards of value v, `n` in all.
# Every arrangement of the unseen cards is equally likely, given what was seen — and given that nobody
# called "Bak!" (no hidden two-card hand makes 10). A hidden hand's pairs of values are enumerated with
# their number of ways; the condition on the *other* hidden hand is handled by inclusion–exclusion: all its
# pairs (which, by exchangeability, change nothing) minus its pairs that make 10.
PAIRS = [(a, b) for a in range(11) for b in range(a, 11)]
TEN_PAIRS = [(a, b) for a, b in PAIRS if RED[a + b] == 10]
_CACHE: dict = {}


def clear_memos() -> None:
    """Forget the odds worked out so far (the bench's cold rows: the cost a visitor's first Odds panel pays)."""
    _CACHE.clear()


def _ways(c, a, b) -> int:
    return c[a] * c[b] if a != b else c[a] * (c[a] - 1) // 2


def _less(c, a, b):
    c = list(c)
    c[a] -= 1
    c[b] -= 1
    return c


def _punter_sums(c, sm, fin3, fin2=FIN2["redeal"], no_bak=True):
    """For a player with two cards summing to `sm` against a bank that draws on 5 or less, over the bank's
    two hidden cards (not a "Bak!" where one is redealt, `no_bak`) and the third cards from `c`: integer sums
    of ways for (win stand, lose stand, win draw, lose draw), the number of bank pairs, and the denominator
    of the sums. `fin2`: the two-card counts (BA-1.2.1)."""
    n = sum(c)
    m2 = fin2[sm]
    n1 = n - 2
    mine = [fin3[sm + x] for x in range(11)]          # my count if I draw a card of value x
    by_count = [0] * 11                                # the unseen cards by the count they would give me
    for cx, mx in zip(c, mine):
        by_count[mx] += cx
    under = [0] * 12                                   # under[v]: the unseen cards that give me less than v
    for v in range(11):
        under[v + 1] = under[v] + by_count[v]
    # above[v]: more than v; at_least[v]: v or more
    above = [n - under[v + 1] for v in range(11)]
    at_least = [n - under[v] for v in range(11)]
    drawn: dict = {}                                   # the bank's two-card count r -> what its third card gives
    k = n1 * (n1 - 1)
    ws = ls = wd = ld = pairs = 0
    for a, b in PAIRS:
        w = _ways(c, a, b)
        if w <= 0 or no_bak and RED[a + b] == 10:
            continue
        pairs += w
        tb = fin2[a + b]
        ma, mb = mine[a], mine[b]
        if tb > 5:                                     # the bank stands on its two cards
            if m2 > tb:
                ws += w * k
            elif m2 < tb:
                ls += w * k
            # I draw one of the cards left (all but a and b)
            wd += w * (n1 - 1) * (above[tb] - (ma > tb) - (mb > tb))
            ld += w * (n1 - 1) * (under[tb] - (ma < tb) - (mb < tb))
            continue
        r = RED[a + b]                                 # fin3[a + b + y] depends on a + b through RED alone
        got = drawn.get(r)
        if got is None:
            t = [fin3[r + y] for y in range(11)]       # the bank's final count by its third card y
            below = [0] * 12                           # below[m]: unseen cards giving the bank less than m
            dist = [0] * 11
            for cy, ty in zip(c, t):
                dist[ty] += cy
            for v in range(11):
                below[v + 1] = below[v] + dist[v]
            # if I draw x: the bank's cards giving it less than my count, without x itself; more than my count
            u = [below[mx] - (tx < mx) for tx, mx in zip(t, mine)]
            o = [below[mx + 1] + (tx > mx) for tx, mx in zip(t, mine)]
            got = drawn[r] = (t, below, u, sum(map(mul, c, u)), o, sum(map(mul, c, o)))
        t, below, u, uu, o, oo = got
        ta, tbb = t[a], t[b]
        # below over the cards left (all but a and b)
        lo = below[m2] - (ta < m2) - (tbb < m2)
        hi = below[m2 + 1] - (ta <= m2) - (tbb <= m2)
        ws += w * (n1 - 1) * lo
        ls += w * (n1 - 1) * (n1 - hi)
        # I draw x from the cards left, the bank then draws from the rest
        win = (uu - u[a] - u[b]) - (above[ta] - (ma > ta) - (mb > ta)) - (above[tbb] - (ma > tbb) - (mb > tbb))
        lose = n1 * n1 - (oo - o[a] - o[b]) + (at_least[ta] - (ma >= ta) - (mb >= ta)) \
            + (at_least[tbb] - (ma >= tbb) - (mb >= tbb))
        wd += w * win
        ld += w * lose
    return ws, ls, wd, ld, pairs, (n * (n - 1) // 2) * n1 * (n1 - 1)


def punter_odds(c: tuple, sm: int, ten: str = "zero", bak: str = "redeal") -> tuple:
    """Exact chances (Fractions) for a player whose two cards sum to `sm`, the unseen cards by value `c`:
    (win if he stands, lose if he stands, win if he draws, lose if he draws), against a bank that draws on
    5 or less, given that neither the bank's hand nor the other player's hidden hand makes 10 — where a
    two-card 10 is a "Bak!" (BA-1.2.1; as baccara it counts 0 and no hand is ruled out)."""
    key = ("p", c, sm, ten, bak)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    fin3, fin2, no_bak = FIN3[ten], FIN2[bak], bak == "redeal"
    n = sum(c)
    pair_all = n * (n - 1) // 2

    def part(cc):
        ws, ls, wd, ld, pairs, den = _punter_sums(cc, sm, fin3, fin2, no_bak)
        m = sum(cc)
        return [Fraction(ws, den), Fraction(ls, den), Fraction(wd, den), Fraction(ld, den),
                Fraction(pairs, m * (m - 1) // 2)]

    total = part(c)
    if n >= 6 and no_bak:
        for a, b in TEN_PAIRS:                     # the other hidden hand is no "Bak!" either
            w = _ways(c, a, b)
            if w > 0:
                sub = part(_less(c, a, b))
                p = Fraction(w, pair_all)
                total = [t - p * s for t, s in zip(total, sub)]
    den = total[4]
    out = tuple(t / den for t in total[:4])
    if len(_CACHE) > 20000:
        _CACHE.clear()
    _CACHE[key] = out
    return out


def _bank_sums(c, sb, t, fin3, tie_bank, fin2=FIN2["redeal"], no_bak=True):
    """The bank (two cards summing to `sb`) against one player whose two cards are hidden (not a "Bak!"
    where one is redealt, `no_bak`) and whose third card has value `t` (or None): the sum of ways × the
    bank's result (+1, 0, −1) if the bank stands and if it draws, the number of the player's pairs, and the
    denominators. `fin2`: the two-card counts (BA-1.2.1)."""
    n = sum(c)
    tb = fin2[sb]
    tie = 1 if tie_bank else 0
    drawn = [fin3[sb + y] for y in range(11)]          # the bank's count after drawing a card of value y
    by_tp: dict = {}                                   # the player's count -> (the bank's result by y, summed over c)
    st = dr = pairs = 0
    for a, b in PAIRS:
        w = _ways(c, a, b)
        if w <= 0 or no_bak and RED[a + b] == 10:
            continue
        pairs += w
        tp = fin2[a + b] if t is None else fin3[a + b + t]
        st += w * (1 if tb > tp else -1 if tb < tp else tie)
        got = by_tp.get(tp)
        if got is None:
            res = [1 if ty > tp else -1 if ty < tp else tie for ty in drawn]
            got = by_tp[tp] = (res, sum(map(mul, c, res)))
        res, whole = got
        dr += w * (whole - res[a] - res[b])            # the bank draws from the cards left: all but a and b
    return st, dr, pairs, n * (n - 1) // 2, n - 2


def bank_odds(c: tuple, sb: int, punters: tuple, ten: str = "zero", tie_bank: bool = False,
              bak: str = "redeal") -> tuple:
    """The bank's expected result in units (Fractions) if it stands and if it draws: its two cards sum to
    `sb`; `punters` is ((third card value or None, units staked on the hand), …) for the two players, whose
    two first cards are hidden and no "Bak!" (where one is redealt: BA-1.2.1); the unseen cards by value
    `c`."""
    key = ("b", c, sb, punters, ten, tie_bank, bak)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    fin3, fin2, no_bak = FIN3[ten], FIN2[bak], bak == "redeal"
    n = sum(c)
    pair_all = n * (n - 1) // 2

    def part(cc, t):
        st, dr, pairs, pden, n1 = _bank_sums(cc, sb, t, fin3, tie_bank, fin2, no_bak)
        return [Fraction(st, pden), Fraction(dr, pden * n1), Fraction(pairs, pden)]

    ev_s = ev_d = Fraction(0)
    for i, (t, stake) in enumerate(punters):
        if not stake:
            continue
        total = part(c, t)
        if n >= 6 and no_bak:
            for a, b in TEN_PAIRS:                 # the other player's hidden hand is no "Bak!"
                w = _ways(c, a, b)
                if w > 0:
                    sub = part(_less(c, a, b), t)
                    p = Fraction(w, pair_all)
                    total = [x - p * s for x, s in zip(total, sub)]
        ev_s += stake * total[0] / total[2]
        ev_d += stake * total[1] / total[2]
    out = (ev_s, ev_d)
    if len(_CACHE) > 20000:
        _CACHE.clear()
    _CACHE[key] = out
    return out


# --- tables generated from the engine ----------------------------------------------------------------
def values_table(bak: str = "redeal") -> Table:
    rows = [["Ace", "1"], ["2 … 9", "as printed"], ["10", "10"], ["Jack, Queen, King", "0"]]
    rows += [["7 + 6", f"{count_of(FRENCH52.parse_many('7H 6S'))} (13 less 10)"],
             ["9 + 8 + 5", f"{count_of(FRENCH52.parse_many('9H 8S 5C'))} (22 less 10, less 10)"],
             ["4 + 6", "10: “Bak!” — the cards are dealt again" if bak == "redeal" else
              "0: baccara, the worst count — played (BA-1.2.1)"]]
    return Table(["cards", "count"], rows, "The values of the cards and the count over 10")


def settlement_table(opts: dict) -> Table:
    tie = ("the bank takes the stake" if opts["ties"] == "bank" else "nobody wins: the stake goes back")
    rows = [["the player's count is higher", "the bank pays as much as the stake (the stake goes back too)",
             "+2", "−2"],
            ["the bank's count is higher", "the bank takes the stake", "−2", "+2"],
            ["equal counts", tie, "−2" if opts["ties"] == "bank" else "0", "+2" if opts["ties"] == "bank" else "0"]]
    if opts["partners"]:
        rows.append(["… a partner staked 2 beside it", "the partner wins or loses his own 2 the same way",
                     "±2 (his partner)", "±2 more"])
        rows.append(["… the bank shares the bank", "its partner pays or takes half of every amount (the odd unit "
                     "falls to the banker)", "", "half each"])
    return Table(["at the showdown", "what happens", "a stake of 2: the player", "the bank"], rows,
                 "The settlement of one hand against the bank")


_STRATEGY: dict = {}


def strategy_table(opts: dict) -> Table:
    """A player's two-card counts from a fresh pack (a King and a card of each count): the exact value of a
    stake of one unit standing and drawing, against a bank that draws on 5 or less."""
    key = (opts["three_card_ten"], opts["ties"], opts.get("bak", "redeal"))
    if key in _STRATEGY:
        return _STRATEGY[key]
    rows = []
    tie = opts["ties"] == "bank"
    for m in range(10):
        c = list(FULL_COUNTS)
        c[0] -= 1                                  # the King
        c[m] -= 1                                  # the card that makes the count m (m = 0: a second face card)
        ws, ls, wd, ld = punter_odds(tuple(c), m, opts["three_card_ten"], key[2])
        ev_s = ws - ls - ((1 - ws - ls) if tie else 0)
        ev_d = wd - ld - ((1 - wd - ld) if tie else 0)
        best = "draw" if ev_d > ev_s else "stand"
        rows.append([f"{m} (King + {'a face card' if m == 0 else 'Ace' if m == 1 else m})",
                     f"{float(ws) * 100:.1f} %", f"{float(wd) * 100:.1f} %",
                     f"{float(ev_s):+.3f}", f"{float(ev_d):+.3f}", best])
    t = Table(["your two cards count", "win, standing", "win, drawing", "a unit standing is worth",
               "a unit drawing is worth", "the better play"], rows,
              "When to take the third card: exact odds for the first coup of a new pack, the bank "
              "drawing on 5 or less")
    _STRATEGY[key] = t
    return t
