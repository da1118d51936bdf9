"""Die Magische 7 (Leo Colovini, Piatnik 1990) for 2 and 4 players.

Sources: ``000_…`` (a review restating the rules, §1-4) and ``002_…`` (the publisher's sheet).
Rule IDs refer to ``cardkit/rules/magische7.toml``.
"""
from __future__ import annotations


from ..cards import MAGISCHE7, Card
from ..errors import IllegalActionError
from ..game import CHANCE, TERMINAL, Action, Deal, Game, Narration, State
from ..options import Option
from ..rng import Rng
from ..rules import Table
from ..view import Pile, Seat, View, plural

JOKER, SPIEGEL, KREUZ = (MAGISCHE7.parse(t) for t in ("Joker", "Spiegel", "Kreuz"))
POINT_CARDS = tuple(c for c in MAGISCHE7.cards if c.kind == "point")
CARDS_NO_JOKER = tuple(c for c in MAGISCHE7.cards if c is not JOKER)
PLAY = {c: Action(c.text, c.label, c) for c in MAGISCHE7.cards}   # one action object per card
NAMES = {2: ["Player 1", "Player 2"], 4: ["North", "East", "South", "West"]}
VS = [Action(f"vs {n}", f"play against {n}", data=q) for q, n in enumerate(NAMES[4])]  # choosing the opponent
SIDES = [((p + 1) % 4, (p + 3) % 4) for p in range(4)]              # 4 players: the two opponents of each seat
OPTIONS = (
    Option("players", 2, choices=(2, 4), rule="M7-8",
           help="2 players with one pack, or 4 in two teams with two packs (the game is for 2 or 4, not 3)"),
    Option("joker_vs_spiegel", "spiegel", choices=("spiegel", "joker"), rule="M7-2",
           help="Joker led, Spiegel follows: who wins", labels={"spiegel": "Spiegel wins (rule sheet)",
                                                                  "joker": "Joker wins (review)"}),
    Option("kreuz_vs_spiegel", "spiegel", choices=("spiegel", "kreuz"), rule="M7-3",
           help="Kreuz led, Spiegel follows: who wins", labels={"spiegel": "Spiegel (follower) wins",
                                                                  "kreuz": "Kreuz (leader) wins"}),
    Option("spiegel_scoring", "copy", choices=("copy", "zero"), rule="M7-4",
           help="the Spiegel counts as the other card of its trick, or 0",
           labels={"copy": "copies the other card", "zero": "counts 0"}),
    Option("joker_completes_seven", False, choices=(False, True), rule="M7-5",
           help="house rule: a Joker played second counts so that the trick totals 7"),
    Option("joker_tops_up", "any", choices=("any", "point"), rule="M7-5.1",
           help="house rule M7-5: a Joker played second tops the trick up to 7 against any led card, or only "
                "against a led point card (against a led Joker, Spiegel or Kreuz it then counts 0)",
           labels={"any": "against any led card", "point": "only against a led point card"}),
    Option("draw_order", "winner", choices=("winner", "leader"), rule="M7-6.1",
           help="who draws first after a trick", labels={"winner": "the trick's winner first",
                                                         "leader": "the trick's leader first"}),
    Option("review_tricks", False, choices=(False, True), rule="M7-7",
           help="won tricks may be looked at again (the sheet forbids it; a teaching aid)"),
    Option("draw_4p", "trick", choices=("trick", "all"), rule="M7-8.6",
           help="4 players: the two players of the trick draw, or all four draw",
           labels={"trick": "the two players of the trick", "all": "all four players"}),
    Option("no_repeat", "off", choices=("off", "consecutive", "own_leads", "same_pair"), rule="M7-8.5",
           help="4 players, variant: never twice in a row against the same opponent",
           labels={"off": "off (the basic rule)", "consecutive": "not the same opponent in the next trick",
                   "own_leads": "not the opponent of one's own last lead",
                   "same_pair": "the same two never meet in two tricks in a row"}),
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
            return True, "M7-2", "a Spiegel played second beats a Joker (the Piatnik rule sheet)"
        return False, "M7-2", "the led card wins: the review lists no exception for a Spiegel"
    if a == "kreuz" and b == "spiegel":
        if opts["kreuz_vs_spiegel"] == "spiegel":
            return True, "M7-3", "a led Kreuz loses the trick (so the review of the game in WIN and the Piatnik rule sheet)"
        return False, "M7-3", "a Spiegel played second loses (the Piatnik rule sheet)"
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
    if opts["joker_completes_seven"] and follow.kind == "joker" and \
            (led.kind == "point" or opts["joker_tops_up"] == "any"):
        fv = 7 - lv                       # M7-5: the Joker tops the trick up to 7 (M7-5.1: a led special
                                          # counts 0, so the Joker 7; or, under "point", the Joker counts 0)
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
        # what a deal shuffles, made once: every card but the Jokers, one pack per two players
        self._pack = tuple(c for c in MAGISCHE7.cards if c is not JOKER) * (self.num_players // 2)
        self._eg_tables = None
        self._copies = [self._pack.count(c) for c in MAGISCHE7.cards]   # by card index

    @property
    def copies(self) -> list:
        """How many copies of each card (by its index) the packs hold."""
        return self._copies

    def endgame_tables(self) -> tuple:
        """(follower wins?, points of the trick) by the led and the following card's index (`_endgame_tables`)."""
        return self._endgame_tables()

    def _endgame_tables(self) -> tuple:
        """(follower wins?, points of the trick) by the led and the following card's index, every pair worked
        out once (on first use): what the rule-based bot's answers and exact endgame read."""
        t = self._eg_tables
        if t is None:
            cards = MAGISCHE7.cards
            t = self._eg_tables = (self._follower_wins,
                                   [[sum(card_points(a, b, self.options)) for b in cards] for a in cards])
        return t

    def sides(self) -> list[list[int]]:
        """With 4 players the partners opposite win or lose together."""
        return [[0, 2], [1, 3]] if self.num_players == 4 else super().sides()

    def player_names(self) -> list[str]:
        return list(NAMES[self.num_players])

    def full_deck(self) -> list[Card]:
        """What a deal shuffles: every card but the Jokers (each player gets one Joker first)."""
        return list(self._pack)

    def random_deal(self, rng: Rng) -> Deal:
        return Deal(rng.shuffle(list(self._pack)))

    def stack(self, hands: list, stock="") -> str:
        """The deal text that gives these hands (6 cards each, Jokers not listed) and this stock (top first).
        Cards are dealt one at a time in seat order, so the deal interleaves the hands."""
        if not isinstance(hands, (list, tuple)):
            raise IllegalActionError("M7-0.2", f"give the hands as a list of {self.num_players} hands, not "
                                     f"{type(hands).__name__}")
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



class M7Narration(Narration):
    """How a game of Magische 7 is told (`cardkit.game.Narration`)."""
    __slots__ = ()

    def _lead_words(self, card: Card) -> str:
        return _lead_words_of(self, card)

    def describe(self, action, after: M7State | None = None) -> str:
        names = self.game.player_names()
        if action.__class__ is Deal:
            return f"The cards are dealt: each player gets a Joker and 6 cards; {len(action.cards) - 6 * self.n} form the stock."
        p = names[self.current_player]
        if self.choosing:
            return f"{p} chooses to play against {names[action.data]} [M7-8.2]."
        card = action.card
        if not self.trick:
            return f"{p} leads {card.label}: {self._lead_words(card)}"
        led = self.trick[0]
        wins, rule, why = trick_outcome(led, card, self.game.options)
        w = p if wins else names[self.leader]
        lv, fv = card_points(led, card, self.game.options)
        return f"{p} plays {card.label}: {why} — {w} takes the trick ({plural(lv + fv, 'point')}) [{rule}]."


class M7State(M7Narration, State):
    game: Magische7
    current_player = CHANCE                  # a plain attribute the game sets, not the base class's property

    def _start(self) -> None:
        g = self.game
        o = g.options
        n = g.num_players
        self.n = n
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self._acts: list[list[Action]] = [[] for _ in range(n)]   # per player: PLAY[c] of his hand, same order
        self._twice = [0] * n                # per player: how many cards his hand holds twice (two packs)
        self.stock: list[Card] = []          # top of the stock is the END of the list
        self.won: list[list[tuple]] = [[] for _ in range(n)]   # per player: (led, follow, leader, follower)
        self.trick: list[Card] = []          # cards of the trick in progress
        self.leader = 0                      # M7-0.5: the starting player leads the first trick
        self.opponent = 1                    # who answers the current trick
        self.last_trick: tuple | None = None  # (led, follow, leader, opponent, winner)
        self.last_opp: list = [None] * n     # per player: opponent of his last lead, and that trick's number
        self.tricks_played = 0
        self.choosing = False
        self._vs: list = []                  # while choosing: the VS actions of the allowed opponents
        self.drawn_by: list[int] = []        # who drew each card from the stock, in order (for resample)
        # the options the play looks at, read once (a state keeps fewer than 30 attributes: past that, Python
        # 3.11 gives the instance a plain dict and every attribute and method lookup on it gets slower)
        self._fw = g._follower_wins
        self._winner_first = o["draw_order"] == "winner"
        self._draw_all = n == 4 and o["draw_4p"] == "all"
        self._free_choice = o["no_repeat"] == "off"
        self.current_player = CHANCE

    # dealing ---------------------------------------------------------------------------------------
    def _deal(self, deal: Deal) -> None:
        cards = deal.cards
        n = self.n
        k = 6 * n
        # a Joker each, then 6 cards dealt one at a time in seat order (every n-th card is p's)
        self.hands = hands = [[JOKER, *cards[p:k:n]] for p in range(n)]
        self._acts = [[*map(PLAY.__getitem__, h)] for h in hands]
        if n == 4:                                   # two packs: a hand may hold a card twice
            self._twice = [len(h) - len(set(h)) for h in hands]
        self.stock = list(cards[:k - 1:-1])          # the rest, its first card on top (the list's end)
        self._begin_trick()

    # turn structure --------------------------------------------------------------------------------
    def _opponents(self, p: int) -> list[int]:
        return [q for q in SIDES[p] if self.hands[q]]

    def _allowed_opponents(self, p: int) -> list[int]:
        opps = self._opponents(p)
        rule = self.game.options["no_repeat"]
        if rule == "same_pair":
            # the two players of the last trick may not meet again in this one, whoever leads
            if len(opps) == 2 and self.last_trick is not None and p in self.last_trick[2:4]:
                opps = [q for q in opps if q not in self.last_trick[2:4]]
        elif rule != "off" and len(opps) == 2 and self.last_opp[p] is not None:
            prev, when = self.last_opp[p]
            if rule == "own_leads" or when == self.tricks_played - 1:
                opps = [q for q in opps if q != prev]
        return opps

    def _repeat_why(self, p: int, q: int) -> str:
        """Why the variant M7-8.5 forbids leader p to play against q now, in the words of its reading."""
        names = self.game.player_names()
        rule = self.game.options["no_repeat"]
        if rule == "same_pair":
            return (f"{names[p]} and {names[q]} played the last trick against each other, and the variant "
                    "forbids the same two players to meet in two tricks in a row")
        if rule == "own_leads":
            return (f"{names[p]}'s last lead was against {names[q]}, and the variant forbids leading against "
                    "the same opponent twice in a row")
        return (f"{names[p]} led the last trick against {names[q]}, and the variant forbids leading against the "
                "same opponent in two tricks in a row")

    def _begin_trick(self) -> None:
        hands = self.hands
        p = self.leader
        if self.n == 2:
            if not (hands[0] or hands[1]):
                self.current_player = TERMINAL
                return
            self.opponent = 1 - p
            self.current_player = p
            return
        if not any(hands):
            self.current_player = TERMINAL
            return
        a, b = SIDES[p]
        if self._free_choice and hands[a] and hands[b]:    # the basic rule: a free choice between the two
            self.choosing = True
            self._vs = [VS[a], VS[b]]
            self.current_player = p
            return
        opps = self._allowed_opponents(p)
        if len(opps) == 1:
            self.opponent, self.choosing = opps[0], False
        else:
            self.choosing = True
            self._vs = [VS[q] for q in opps]
        self.current_player = p

    def _legal(self) -> list:
        if self.choosing:
            return list(self._vs)
        p = self.current_player
        if self._twice[p]:
            return [*dict.fromkeys(self._acts[p])]   # two packs: a card held twice is one action
        return self._acts[p][:]

    def _apply(self, action) -> list | None:
        # returns the next player's legal actions where they are at hand (the protocol then skips _legal)
        if self.choosing:
            self.opponent = action.data
            self.choosing = False
            return None
        card = action.card
        p = self.current_player
        acts = self._acts[p]
        # the hand and its actions are kept in step; the card is found among the actions, which compare
        # by identity at C speed (cards define an order, so comparing two cards runs Python code)
        act = PLAY[card]
        i = acts.index(act)
        del acts[i]
        del self.hands[p][i]
        if self._twice[p] and act in acts:
            self._twice[p] -= 1
        trick = self.trick
        if not trick:
            trick.append(card)
            self.current_player = q = self.opponent
            acts = self._acts[q]
            return [*dict.fromkeys(acts)] if self._twice[q] else acts[:]
        led = trick[0]
        leader, opp = self.leader, self.opponent
        winner = opp if self._fw[led.index][card.index] else leader
        self.won[winner].append((led, card, leader, opp))
        self.last_trick = (led, card, leader, opp, winner)
        n = self.n
        if n == 4:
            self.last_opp[leader] = (opp, self.tricks_played)
        self.tricks_played += 1
        self.trick = []
        # M7-0.4 / M7-6.1 / M7-8.6: drawing while the stock lasts
        stock = self.stock
        if stock:
            first = winner if self._winner_first else leader
            order: tuple[int, ...]
            if self._draw_all:
                order = (first, (first + 1) % 4, (first + 2) % 4, (first + 3) % 4)
            else:
                order = (first, opp if first == leader else leader)   # then the trick's other player
            hands, all_acts, drawn = self.hands, self._acts, self.drawn_by
            for q in order:
                if stock:
                    c = stock.pop()
                    act = PLAY[c]
                    if n == 4 and act in all_acts[q]:
                        self._twice[q] += 1
                    hands[q].append(c)
                    all_acts[q].append(act)
                    drawn.append(q)
        # M7-0.5 the winner leads; M7-8.4 a winner without cards hands the lead to his partner
        self.leader = winner
        if n == 2 and self.hands[winner]:         # two players hold as many cards: the play goes on
            self.opponent = 1 - winner
            self.current_player = winner
            return self._acts[winner][:]
        if n == 4 and not self.hands[winner]:
            self.leader = (winner + 2) % 4
        self._begin_trick()
        return None

    def _illegal(self, text: str) -> IllegalActionError:
        names = self.game.player_names()
        p = self.current_player
        if self.choosing:
            opts = " or ".join(VS[q].label for q in self._allowed_opponents(p))   # the buttons' words
            low = text.lower()
            for q in range(4):
                if low in (f"vs {names[q]}".lower(), names[q].lower()):
                    if q % 2 == p % 2:
                        return IllegalActionError("M7-8.2", f"{names[q]} is your partner; you play against "
                                                  "a player of the other team", text)
                    if not self.hands[q]:
                        return IllegalActionError("M7-8.3", f"{names[q]} has no cards left; you must play "
                                                  "against his partner", text)
                    return IllegalActionError("M7-8.5", self._repeat_why(p, q), text)
            return IllegalActionError("M7-8.2", f"{names[p]} leads and first chooses the opponent: {opts}", text)
        if self.n == 4 and text.lower().startswith("vs "):
            # no choice is open: the trick is under way, or only one opponent could be chosen (M7-8.3, M7-8.5)
            named = next((q for q in range(4) if text[3:].strip().lower() == names[q].lower()), None)
            fixed = f"this trick is played against {names[self.opponent]}; play a card"
            allowed = self._allowed_opponents(self.leader)
            if not self.trick and named is not None and named % 2 != self.leader % 2 and named not in allowed:
                if not self.hands[named]:
                    return IllegalActionError("M7-8.3", f"{names[named]} has no cards left: {fixed}", text)
                return IllegalActionError("M7-8.5", f"{self._repeat_why(self.leader, named)}: {fixed}", text)
            return IllegalActionError("M7-8.2", f"no opponent is to be chosen now: {fixed}", text)
        try:
            card = MAGISCHE7.parse(text)
        except Exception:
            return IllegalActionError("M7-0.1", f"{text!r} is not a card of Die Magische 7 (-6 … 13, Joker, "
                                      "Spiegel, Kreuz)", text)
        return IllegalActionError("M7-0.3", f"{names[p]} does not hold {card.label}; a player plays a card "
                                  "from his own hand", text)

    def _fork(self) -> "M7State":
        """A light copy of this position (for resample's tries and the expert's playouts) instead of a replay
        of the history: every container the play changes is copied; cards, actions and the tuples of the
        won tricks never change."""
        c = self._fork_base()
        c.hands = [list(h) for h in self.hands]
        c._acts = [list(a) for a in self._acts]
        c._twice = list(self._twice)
        c.stock = list(self.stock)
        c.won = [list(w) for w in self.won]
        c.trick = list(self.trick)
        c.last_opp = list(self.last_opp)
        c.drawn_by = list(self.drawn_by)
        return c

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
            total: float = 0
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
                self.leader, self.opponent, self.choosing, self.current_player, self.tricks_played,
                tuple(self.last_opp),
                None if self.last_trick is None else (self.last_trick[0].text, self.last_trick[1].text,
                                                       *self.last_trick[2:]))

    # presentation ----------------------------------------------------------------------------------
    def _view(self, player: int | None = None) -> View:
        names = self.game.player_names()
        review = self.game.options["review_tricks"] or player is None or self.is_terminal()
        pts = self.points()
        seats = []
        for p in range(self.n):
            visible = player is None or player == p
            team = "" if self.n == 2 else ("North–South" if p % 2 == 0 else "East–West")
            seats.append(Seat(p, names[p], list(self.hands[p]) if visible else [None] * len(self.hands[p]),
                              team=team, score=plural(pts[p], "point") if review else "",
                              info=plural(len(self.won[p]), "trick"), current=p == self.current_player))
        piles = []
        if self.trick or self.current_player >= 0:
            piles.append(Pile("Trick", [(names[self.leader], c) for c in self.trick], kind="trick",
                              note=f"{names[self.leader]} against {names[self.opponent]}"
                              if self.n == 4 and not self.choosing and self.current_player >= 0 else ""))
        if self.last_trick:
            led, fol, ld, op, w = self.last_trick
            _, rule, why = trick_outcome(led, fol, self.game.options)
            lv, fv = card_points(led, fol, self.game.options)
            piles.append(Pile("Last trick", [(names[ld], led), (names[op], fol)], kind="last-trick",
                              note=f"won by {names[w]}, {plural(lv + fv, 'point')}: {why} [{rule}]", taker=w))
        piles.append(Pile("Stock", [], count=len(self.stock), kind="stock"))
        if review:
            for p in range(self.n):
                piles.append(Pile(f"Won by {names[p]}", [x for a, b, l, o in self.won[p] for x in ((names[l], a), (names[o], b))],
                                  kind="won"))
        cp = self.current_player
        legal = list(self.legal_actions()) if cp >= 0 and player in (None, cp) else []
        return View(self.game.name, self.game.title, player, seats, piles, self.status(), cp if cp >= 0 else None,
                    self.is_terminal(), self.result_text() if self.is_terminal() else "", legal)

    def progress(self) -> tuple[str, str]:
        if self.current_player == CHANCE:
            return "", ""
        return "", f"Trick {self.tricks_played + 1}" if self.current_player >= 0 else "The end"

    def score_table(self):
        names = self.game.player_names()
        pts = self.points()
        rows = [[names[p], str(len(self.won[p])), f"{pts[p]:g}"] for p in range(self.n)]
        if self.n == 4:
            t = self.team_points()
            rows += [["North–South", str(len(self.won[0]) + len(self.won[2])), f"{t[0]:g}"],
                     ["East–West", str(len(self.won[1]) + len(self.won[3])), f"{t[1]:g}"]]
        return Table(["", "tricks won", "points"], rows, "Points from the tricks won (M7-9)")

    def status(self) -> str:
        names = self.game.player_names()
        if self.current_player == CHANCE:
            return "The cards are about to be dealt."
        if self.current_player == TERMINAL:
            return self.result_text()
        p = names[self.current_player]
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

def _lead_words_of(state, card) -> str:
    """What a led card risks, from public facts only: which answers would take it (the outcome table, under
    the options in force) among the cards not played yet, and what the leader takes otherwise. A special
    card is named only as "a Joker" (every player holds one) or "a special card": the Spiegel or the Kreuz
    may lie unseen in another hand, and the table names no card its player has not seen."""
    opts = state.game.options
    played = [c for won in state.won for led, fol, *_ in won for c in (led, fol)] + list(state.trick)
    out = list(state.game.full_deck()) + [JOKER] * state.n
    for c in played + [card]:
        out.remove(c)
    takers = []
    if card.kind == "point":
        partner = next(c for c in POINT_CARDS if c.value + card.value == 7)
        if trick_outcome(card, partner, opts)[0] and partner in out:
            takers.append(f"its partner {partner.label}")
    elif trick_outcome(card, POINT_CARDS[0], opts)[0]:
        takers.append("any point card")
    jokers = out.count(JOKER) if trick_outcome(card, JOKER, opts)[0] else 0
    if jokers:
        takers.append("a Joker")
    specials = sum(1 for sp in (SPIEGEL, KREUZ) if sp in out and trick_outcome(card, sp, opts)[0])
    if specials:
        takers.append("a special card" if specials == 1 else "either of the other two special cards")
    worth = (f"worth {card.value:g}" if card.kind == "point" else
             "worth what the answer is worth (it copies a point card) [M7-6.2]"
             if card.kind == "spiegel" and opts["spiegel_scoring"] == "copy" else "worth nothing itself")
    if not takers:
        return f"{worth}; no card left to play can take it: the leader takes the trick [M7-1]."
    who = takers[0] if len(takers) == 1 else ", ".join(takers[:-1]) + " or " + takers[-1]
    return (f"{worth}; of the cards not played yet only {who} would take it (the table of who wins); any other "
            f"answer gives the trick to the leader [M7-1].")


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
