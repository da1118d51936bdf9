"""Die Magische 7 (Leo Colovini, Piatnik 1990) for 2 and 4 players.

Sources: ``000_…`` (a review restating the rules, §1-4) and ``002_…`` (the publisher's sheet).
Rule IDs refer to ``cardkit/rules/magische7.toml``.
"""
from __future__ import annotations

from ..bots import RandomBot
from ..cards import MAGISCHE7, Card
from ..errors import IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, State
from ..options import Option
from ..rules import Table
from ..view import Pile, Seat, View

JOKER, SPIEGEL, KREUZ = (MAGISCHE7.parse(t) for t in ("Joker", "Spiegel", "Kreuz"))
POINT_CARDS = tuple(c for c in MAGISCHE7.cards if c.kind == "point")
PLAY = {c: Action(c.text, c.label, c) for c in MAGISCHE7.cards}   # one action object per card
NAMES = {2: ["Player 1", "Player 2"], 4: ["North", "East", "South", "West"]}
VS = [Action(f"vs {n}", f"play against {n}", data=q) for q, n in enumerate(NAMES[4])]  # choosing the opponent

OPTIONS = (
    Option("players", 2, choices=(2, 4), rule="M7-8",
           help="2 players with one pack, or 4 in two teams with two packs (the game is for 2 or 4, not 3)"),
    Option("joker_vs_spiegel", "spiegel", choices=("spiegel", "joker"), rule="M7-2",
           help="Joker led, Spiegel follows: who wins", labels={"spiegel": "Spiegel wins (002)",
                                                                  "joker": "Joker wins (000)"}),
    Option("kreuz_vs_spiegel", "spiegel", choices=("spiegel", "kreuz"), rule="M7-3",
           help="Kreuz led, Spiegel follows: who wins", labels={"spiegel": "Spiegel (follower) wins",
                                                                  "kreuz": "Kreuz (leader) wins"}),
    Option("spiegel_scoring", "copy", choices=("copy", "zero"), rule="M7-4",
           help="the Spiegel counts as the other card of its trick, or 0",
           labels={"copy": "copies the other card", "zero": "counts 0"}),
    Option("joker_completes_seven", False, choices=(False, True), rule="M7-5",
           help="house rule: a Joker played second counts so that the trick totals 7"),
    Option("draw_order", "winner", choices=("winner", "leader"), rule="M7-6.1",
           help="who draws first after a trick"),
    Option("review_tricks", False, choices=(False, True), rule="M7-7",
           help="won tricks may be looked at again (the sheet forbids it; a teaching aid)"),
    Option("draw_4p", "trick", choices=("trick", "all"), rule="M7-8.6",
           help="4 players: the two players of the trick draw, or all four draw"),
    Option("no_repeat", "off", choices=("off", "consecutive", "own_leads"), rule="M7-8.5",
           help="4 players, variant: never twice in a row against the same opponent"),
)


def _kind(c: Card) -> str:
    return c.kind  # point, joker, spiegel, kreuz


def trick_outcome(led: Card, follow: Card, opts: dict) -> tuple[bool, str, str]:
    """(does the follower win?, rule ID, reason) for one two-card trick under the given options."""
    a, b = led.kind, follow.kind
    if a == "joker" and b == "joker":
        return True, "M7-1.4", "of two Jokers the second takes the trick"
    if a == "joker" and b == "spiegel":
        if opts["joker_vs_spiegel"] == "spiegel":
            return True, "M7-2", "a Spiegel played second beats a Joker (002)"
        return False, "M7-2", "the led card wins; 000 lists no exception for a Spiegel (000)"
    if a == "kreuz" and b == "spiegel":
        if opts["kreuz_vs_spiegel"] == "spiegel":
            return True, "M7-3", "a led Kreuz loses the trick (000 (b2), 002)"
        return False, "M7-3", "a Spiegel played second loses (002)"
    if a == "kreuz" and b == "kreuz":
        return True, "M7-1.8", "of two Kreuz the second player takes the trick"
    if a == "spiegel" and b == "spiegel":
        return False, "M7-1.9", "of two Spiegel the first takes the trick"
    if b == "joker":
        return True, "M7-1.3", "a Joker played second takes the trick"
    if a == "kreuz":
        return True, "M7-1.2", "a led Kreuz loses the trick"
    if a == "spiegel":
        return False, "M7-1.5", "a led Spiegel takes the trick"
    if a == "joker":
        return False, "M7-1.6", "a led Joker beats every card"
    if b == "spiegel":
        return False, "M7-1.5", "a Spiegel played second loses"
    if b == "kreuz":
        return False, "M7-1.7", "the Kreuz loses the trick"
    if led.value + follow.value == 7:
        return True, "M7-1.1", f"{led.label} and {follow.label} are a pair (sum 7)"
    return False, "M7-1", "the led card wins unless it is beaten"


def card_points(led: Card, follow: Card, opts: dict) -> tuple[float, float]:
    """Points of the two cards of a finished trick (M7-4, M7-5, M7-6.2, M7-9)."""
    def base(c):
        return c.value if c.kind == "point" else 0
    lv, fv = base(led), base(follow)
    if opts["joker_completes_seven"] and follow.kind == "joker":
        fv = 7 - lv                       # M7-5: the Joker tops the trick up to 7 (a led special counts 0)
    if opts["spiegel_scoring"] == "copy":
        # M7-6.2: a Spiegel copies a point card; against a Joker, Kreuz or Spiegel it counts 0 (also when
        # the M7-5 house rule tops a following Joker up to 7: the trick then totals 7, not 14)
        if led.kind == "spiegel":
            lv = fv if follow.kind == "point" else 0
        if follow.kind == "spiegel":
            fv = lv if led.kind == "point" else 0
    return lv, fv


class Magische7(Game):
    name = "magische7"
    title = "Die Magische 7"
    deck = MAGISCHE7
    option_specs = OPTIONS
    summary = "Two-card tricks where only a card's pair partner (sum 7) beats it; Joker, Spiegel and Kreuz bend the rule."

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        idx = {c: c.index for c in MAGISCHE7.cards}
        self._idx = idx
        n = len(MAGISCHE7.cards)
        self._follower_wins = [[trick_outcome(a, b, o)[0] for b in MAGISCHE7.cards] for a in MAGISCHE7.cards]
        assert len(self._follower_wins) == n

    def player_names(self) -> list[str]:
        return list(NAMES[self.num_players])

    def full_deck(self) -> list[Card]:
        """What a deal shuffles: every card but the Jokers (each player gets one Joker first)."""
        return [c for c in MAGISCHE7.cards if c is not JOKER] * (self.num_players // 2)

    def stack(self, hands: list, stock="") -> str:
        """The deal text that gives these hands (6 cards each, Jokers not listed) and this stock (top first).
        Cards are dealt one at a time in seat order, so the deal interleaves the hands."""
        hs = [MAGISCHE7.parse_many(h) for h in hands]
        if len(hs) != self.num_players or any(len(h) != 6 for h in hs):
            raise IllegalActionError("M7-0.2", f"give {self.num_players} hands of 6 cards (the Jokers are added)")
        order = [hs[p][i] for i in range(6) for p in range(self.num_players)] + MAGISCHE7.parse_many(stock)
        rest = list(self.full_deck())
        for c in order:
            if c not in rest:
                raise IllegalActionError("M7-0.1", f"{c.label} is listed more often than the packs hold it "
                                         "(the Jokers are dealt separately and are not listed)")
            rest.remove(c)
        return "deal: " + MAGISCHE7.format(order + rest)

    def rule_tables(self) -> dict:
        return {"outcomes": outcome_table(self.options)}

    def bots(self) -> dict:
        return {"random": RandomBot, "rule-based": RuleBot}


class M7State(State):
    def _start(self) -> None:
        n = self.game.num_players
        self.n = n
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.stock: list[Card] = []          # top of the stock is the END of the list
        self.won: list[list[tuple]] = [[] for _ in range(n)]   # per player: (led, follow, leader, follower)
        self.trick: list[Card] = []          # cards of the trick in progress
        self.leader = 0                      # M7-0.5: the starting player leads the first trick
        self.opponent = 1                    # who answers the current trick
        self.last_trick: tuple | None = None  # (led, follow, leader, opponent, winner)
        self.last_opp: list = [None] * n     # per player: opponent of his last lead, and that trick's number
        self.tricks_played = 0
        self.choosing = False
        self.drawn_by: list[int] = []        # who drew each card from the stock, in order (for resample)
        self._cp = CHANCE

    @property
    def current_player(self) -> int:
        return self._cp

    # dealing ---------------------------------------------------------------------------------------
    def _deal(self, deal: Deal) -> None:
        cards = list(deal.cards)
        n = self.n
        for p in range(n):
            self.hands[p].append(JOKER)
        for i in range(6 * n):
            self.hands[i % n].append(cards[i])
        self.stock = cards[6 * n:][::-1]
        self._begin_trick()

    # turn structure --------------------------------------------------------------------------------
    def _opponents(self, p: int) -> list[int]:
        return [q for q in ((p + 1) % 4, (p + 3) % 4) if self.hands[q]]

    def _allowed_opponents(self, p: int) -> list[int]:
        opps = self._opponents(p)
        rule = self.game.options["no_repeat"]
        if rule != "off" and len(opps) == 2 and self.last_opp[p] is not None:
            prev, when = self.last_opp[p]
            if rule == "own_leads" or when == self.tricks_played - 1:
                opps = [q for q in opps if q != prev]
        return opps

    def _begin_trick(self) -> None:
        if not any(self.hands):
            self._cp = TERMINAL
            return
        p = self.leader
        if self.n == 2:
            self.opponent = 1 - p
            self._cp = p
            return
        opps = self._allowed_opponents(p)
        if len(opps) == 1:
            self.opponent, self.choosing = opps[0], False
        else:
            self.choosing = True
        self._cp = p

    def _legal(self) -> list:
        if self.choosing:
            return [VS[q] for q in self._allowed_opponents(self._cp)]
        hand = self.hands[self._cp]
        if self.n == 2:
            return [PLAY[c] for c in hand]
        return [PLAY[c] for c in dict.fromkeys(hand)]

    def _apply(self, action) -> None:
        if self.choosing:
            self.opponent = action.data
            self.choosing = False
            return
        card = action.card
        p = self._cp
        self.hands[p].remove(card)
        trick = self.trick
        trick.append(card)
        if len(trick) == 1:
            self._cp = self.opponent
            return
        led = trick[0]
        leader, opp = self.leader, self.opponent
        winner = opp if self.game._follower_wins[led.index][card.index] else leader
        self.won[winner].append((led, card, leader, opp))
        self.last_trick = (led, card, leader, opp, winner)
        if self.n == 4:
            self.last_opp[leader] = (opp, self.tricks_played)
        self.tricks_played += 1
        self.trick = []
        # M7-0.4 / M7-6.1 / M7-8.6: drawing while the stock lasts
        stock = self.stock
        if stock:
            loser = opp if winner == leader else leader
            first = winner if self.game.options["draw_order"] == "winner" else leader
            if self.n == 2 or self.game.options["draw_4p"] == "trick":
                order = (first, loser if first == winner else winner)
            else:
                order = tuple((first + k) % 4 for k in range(4))
            for q in order:
                if stock:
                    self.hands[q].append(stock.pop())
                    self.drawn_by.append(q)
        # M7-0.5 the winner leads; M7-8.4 a winner without cards hands the lead to his partner
        if self.n == 4 and not self.hands[winner]:
            winner = (winner + 2) % 4
        self.leader = winner
        self._begin_trick()

    def _illegal(self, text: str) -> IllegalActionError:
        names = self.game.player_names()
        p = self._cp
        if self.choosing:
            opts = " or ".join(f"'vs {names[q]}'" for q in self._allowed_opponents(p))
            low = text.lower()
            for q in range(4):
                if low in (f"vs {names[q]}".lower(), names[q].lower()):
                    if q % 2 == p % 2:
                        return IllegalActionError("M7-8.2", f"{names[q]} is your partner; you play against "
                                                  "a player of the other team", text)
                    if not self.hands[q]:
                        return IllegalActionError("M7-8.3", f"{names[q]} has no cards left; you must play "
                                                  "against his partner", text)
                    return IllegalActionError("M7-8.5", f"the variant forbids playing against {names[q]} "
                                              "twice in a row", text)
            return IllegalActionError("M7-8.2", f"{names[p]} leads and first chooses the opponent: {opts}", text)
        if self.n == 4 and text.lower().startswith("vs "):
            # no choice is open: the trick is under way, or only one opponent could be chosen (M7-8.3, M7-8.5)
            q = next((q for q in range(4) if text[3:].strip().lower() == names[q].lower()), None)
            fixed = f"this trick is played against {names[self.opponent]}; play a card"
            allowed = self._allowed_opponents(self.leader)
            if not self.trick and q is not None and q % 2 != self.leader % 2 and q not in allowed:
                if not self.hands[q]:
                    return IllegalActionError("M7-8.3", f"{names[q]} has no cards left: {fixed}", text)
                return IllegalActionError("M7-8.5", f"the variant forbids playing against {names[q]} twice in a "
                                          f"row: {fixed}", text)
            return IllegalActionError("M7-8.2", f"no opponent is to be chosen now: {fixed}", text)
        try:
            card = MAGISCHE7.parse(text)
        except Exception:
            return IllegalActionError("M7-0.1", f"{text!r} is not a card of Die Magische 7 (-6 … 13, Joker, "
                                      "Spiegel, Kreuz)", text)
        return IllegalActionError("M7-0.3", f"{names[p]} does not hold {card.label}; a player plays a card "
                                  "from his own hand", text)

    # what resample needs: who got each card of the deal, and which cards were shown -----------------
    def _deal_owners(self) -> list:
        n, dealt = self.n, 6 * self.n
        deal = next(a for a in reversed(self.history) if a.__class__ is Deal)
        drawn = self.drawn_by
        return [i % n if i < dealt else (drawn[i - dealt] if i - dealt < len(drawn) else None)
                for i in range(len(deal.cards))]

    def _revealed(self) -> list:
        out = [x for led, fol, ld, op in (w for won in self.won for w in won) for x in ((ld, led), (op, fol))]
        if self.trick:
            out.append((self.leader, self.trick[0]))
        return out

    # results ---------------------------------------------------------------------------------------
    def points(self) -> list[float]:
        """Each player's points from his won tricks so far (M7-4, M7-5, M7-9)."""
        o = self.game.options
        out = []
        for p in range(self.n):
            total = 0
            for led, follow, _, _ in self.won[p]:
                lv, fv = card_points(led, follow, o)
                total += lv + fv
            out.append(total)
        return out

    def team_points(self) -> list[float]:
        pts = self.points()
        return pts if self.n == 2 else [pts[0] + pts[2], pts[1] + pts[3]]

    def _scores(self) -> list[float]:
        pts = self.points()
        if self.n == 2:
            return pts
        t = self.team_points()
        return [t[p % 2] for p in range(4)]

    def _snapshot(self) -> tuple:
        t = lambda cs: tuple(c.text for c in cs)  # noqa: E731
        return (tuple(t(h) for h in self.hands), t(self.stock),
                tuple(tuple((a.text, b.text, l, o) for a, b, l, o in w) for w in self.won), t(self.trick),
                self.leader, self.opponent, self.choosing, self._cp, self.tricks_played, tuple(self.last_opp),
                None if self.last_trick is None else (self.last_trick[0].text, self.last_trick[1].text,
                                                       *self.last_trick[2:]))

    # presentation ----------------------------------------------------------------------------------
    def view(self, player: int | None = None) -> View:
        names = self.game.player_names()
        review = self.game.options["review_tricks"] or player is None or self.is_terminal()
        pts = self.points()
        seats = []
        for p in range(self.n):
            visible = player is None or player == p
            team = "" if self.n == 2 else ("North–South" if p % 2 == 0 else "East–West")
            seats.append(Seat(p, names[p], list(self.hands[p]) if visible else [None] * len(self.hands[p]),
                              team=team, score=f"{pts[p]:g} points" if review else "",
                              info=f"{len(self.won[p])} tricks", current=p == self._cp))
        piles = []
        if self.trick or self._cp >= 0:
            piles.append(Pile("Trick", [(names[self.leader], c) for c in self.trick]))
        if self.last_trick:
            led, fol, ld, op, w = self.last_trick
            piles.append(Pile("Last trick", [(names[ld], led), (names[op], fol)], note=f"won by {names[w]}"))
        piles.append(Pile("Stock", [], count=len(self.stock)))
        if review:
            for p in range(self.n):
                piles.append(Pile(f"Won by {names[p]}", [x for a, b, l, o in self.won[p] for x in ((names[l], a), (names[o], b))]))
        legal = list(self.legal_actions()) if self._cp >= 0 and player in (None, self._cp) else []
        return View(self.game.name, self.game.title, player, seats, piles, self.status(), self._cp if self._cp >= 0 else None,
                    self.is_terminal(), self.result_text() if self.is_terminal() else "", legal)

    def status(self) -> str:
        names = self.game.player_names()
        if self._cp == CHANCE:
            return "The cards are about to be dealt."
        if self._cp == TERMINAL:
            return self.result_text()
        p = names[self._cp]
        if self.choosing:
            return f"{p} leads and chooses an opponent."
        if not self.trick:
            vs = f" against {names[self.opponent]}" if self.n == 4 else ""
            return f"{p} leads{vs}."
        return f"{p} answers {self.trick[0].label}."

    def result_text(self) -> str:
        names = self.game.player_names()
        if self.n == 2:
            pts = self.points()
            body = f"{names[0]} {pts[0]:g}, {names[1]} {pts[1]:g}"
            w = self._winners()
            return f"{body}: " + ("a draw." if len(w) == 2 else f"{names[w[0]]} wins.")
        t = self.team_points()
        body = f"North–South {t[0]:g}, East–West {t[1]:g}"
        return body + (": a draw." if t[0] == t[1] else f": {'North–South' if t[0] > t[1] else 'East–West'} wins.")

    def describe(self, action, after: State | None = None) -> str:
        names = self.game.player_names()
        if action.__class__ is Deal:
            return f"The cards are dealt: each player gets a Joker and 6 cards; {len(action.cards) - 6 * self.n} form the stock."
        p = names[self._cp]
        if self.choosing:
            return f"{p} chooses to play against {names[action.data]} [M7-8.2]."
        card = action.card
        if not self.trick:
            return f"{p} leads {card.label}."
        led = self.trick[0]
        wins, rule, why = trick_outcome(led, card, self.game.options)
        w = p if wins else names[self.leader]
        lv, fv = card_points(led, card, self.game.options)
        return f"{p} plays {card.label}: {why} — {w} takes the trick ({lv + fv:g} points) [{rule}]."


Magische7.State = M7State
GAME = Magische7


# --- the outcome table (M7-1), generated from the engine -----------------------------------------
KINDS = ("point card", "its partner", "other point card", "Joker", "Spiegel", "Kreuz")


def sample_pair(led_kind: str, follow_kind: str) -> tuple[Card, Card] | None:
    """A concrete (led, followed) pair for a row/column of the outcome table."""
    special = {"Joker": JOKER, "Spiegel": SPIEGEL, "Kreuz": KREUZ}
    five, two, nine = (MAGISCHE7.parse(t) for t in ("5", "2", "9"))
    if led_kind in ("its partner", "other point card"):
        return None                             # rows are "point card" and the three specials
    led = five if led_kind == "point card" else special[led_kind]
    if follow_kind == "its partner":
        return (led, two) if led_kind == "point card" else None
    if follow_kind == "other point card":
        return led, nine                        # for a led special: any point card
    fol = nine if follow_kind == "point card" else special[follow_kind]
    return led, fol


def outcome_table(opts: dict) -> Table:
    rows = []
    for led_kind in ("point card", "Joker", "Spiegel", "Kreuz"):
        row = [f"{led_kind} led"]
        for fk in ("its partner", "other point card", "Joker", "Spiegel", "Kreuz"):
            pair = sample_pair(led_kind, fk)
            if pair is None:
                row.append("—")
                continue
            wins, rule, _ = trick_outcome(pair[0], pair[1], opts)
            row.append(f"{'follower' if wins else 'leader'} ({rule})")
        rows.append(row)
    return Table(["led \\ followed", "its partner (sum 7)", "other point card", "Joker", "Spiegel", "Kreuz"], rows,
                 "Who takes a two-card trick, under the options in force (rule in brackets)")


# --- bots ------------------------------------------------------------------------------------------
class RuleBot:
    """A simple rule-based player: takes cheap tricks, avoids collecting minus points (the review's
    advice that staying on lead is not always good), keeps the Joker for a big trick."""
    name = "rule-based"

    def __init__(self, seed: int = 0):
        from ..rng import Rng
        self.rng = Rng(seed)

    def choose(self, state: M7State):
        legal = state.legal_actions()
        if state.choosing:
            # play against the opponent holding fewer cards (fewer chances to hold the partner);
            # between equals choose at random, so all four players take part
            return min(legal, key=lambda a: (len(state.hands[a.data]), self.rng.below(1 << 30)))
        o = state.game.options
        if not state.trick:
            # lead: prefer a low-value point card (its pair partner takes little), never the Joker early
            def lead_cost(a):
                c = a.card
                if c.kind == "joker":
                    return 50
                if c.kind == "spiegel":
                    return 40        # a led Spiegel wins: keep it for a valuable moment
                if c.kind == "kreuz":
                    return -5        # a led Kreuz loses: a cheap way to give away the lead
                return abs(c.value - 3.5)
            return min(legal, key=lambda a: (lead_cost(a), a.text))
        led = state.trick[0]
        best, best_key = None, None
        for a in legal:
            c = a.card
            wins = trick_outcome(led, c, o)[0]
            lv, fv = card_points(led, c, o)
            value = lv + fv
            gain = value if wins else -value   # points to us if we win, to them otherwise
            spend = {"joker": 8, "spiegel": 4, "kreuz": 0}.get(c.kind, 0)
            if c.kind == "point":
                spend = max(0, c.value) / 4    # giving away a high card costs a little
            key = (gain - spend, -c.index)
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best
