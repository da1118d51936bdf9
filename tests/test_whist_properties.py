"""Property tests of the Whist engine through the common protocol, under every combination of its options:
whole games (deal after deal to the end), random deals, random legal play.

Checked at every step: the 52 cards are conserved (hands + the trick + the tricks taken + the turned card on
the table), a legal action exists exactly until the end, legal actions are distinct, under the strict rules
every card follows suit when its player can; no view of another seat shows a card that is not public (the
face-up cards are tracked here from the actions alone: a card exposed in the deal, the turned card once the
dealer has taken it up, a card taken back when a revoke was corrected), and no pile shows one. For every
trick: it went to the highest trump, else the highest card of the suit led (written down again here). For
every hand: 13 tricks, the score as the rules' arithmetic says (written down again here, for the quick rules
and for the classic ones). At the end: the record replays to the same game, undo restores the exact
snapshot, and partners share their score. As at the table, deals sometimes expose a card (a misdeal).
"""
from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import Deal, IllegalActionError
from cardkit.cards import FRENCH52
from cardkit.rng import Rng
from cardkit.bots import game_bots
from protocol_checks import apply_checking_undo, check_legal, check_replay_and_undo

GAME = cardkit.game_class("whist")
SPECS = GAME.option_specs
# every combination of the options but the readings of calling (WH-4.8.1) and of the first six tricks
# (WH-5.1.1), whose four combinations are taken in turn (each meets six of the 24 others, among them both
# modes and the quick rules' scoring)
TURNS = ("calling", "first_six")
OTHER = [o for o in SPECS if o.name not in TURNS]
_TURNS = list(itertools.product(*(o.choices for o in SPECS if o.name in TURNS)))
ALL_COMBOS = [dict(zip((o.name for o in OTHER), vals), **dict(zip(TURNS, _TURNS[(i + i // 4) % len(_TURNS)])))
              for i, vals in enumerate(itertools.product(*(o.choices for o in OTHER)))]
RANK = {r: v for v, r in enumerate("2 3 4 5 6 7 8 9 10 J Q K A".split(), start=2)}
HONOURS = {"A", "K", "Q", "J"}
TARGET = {"long": 10, "short": 5}


def test_the_combinations_cover_every_option_value():
    assert len(ALL_COMBOS) == 24
    for mode, rules in (("table", "source"), ("strict", "source"), ("table", "short")):
        seen = {(c["calling"], c["first_six"]) for c in ALL_COMBOS if c["mode"] == mode and c["ruleset"] == rules}
        assert {x for x, _ in seen} == {"partner", "opponents"} and {y for _, y in seen} == {"book", "played"}
    for o in SPECS:
        assert {c[o.name] for c in ALL_COMBOS} == set(o.choices)
    for combo in ALL_COMBOS:
        cardkit.load_game("whist", **combo)


def ref_winner(cards, trump):
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        if (c.suit == b.suit and RANK[c.rank] > RANK[b.rank]) or (c.suit == trump and b.suit != trump):
            best = i
    return best


def score_source(e, hp, gp, bar, late=False):
    """WH-5.1 - WH-5.5, WH-5.1.1, WH-5.4.1: the quick rules' arithmetic for one played hand, the hand points
    counted in the order they are won: the revoke penalties, then the tricks (each side's beyond six, or
    with `late` tricks 7 to 13 each for its taker); the first side to 7 scores against the other's points
    then, and nothing after it counts."""
    revoked = {s % 2 for s in e["claimed"]}
    steps = []
    if e["claimed"]:
        pen = [0, 0]
        for s in e["claimed"]:
            pen[s % 2] -= 2
            pen[1 - s % 2] += 2
        steps.append([(x, pen[x]) for x in (0, 1) if pen[x]])
    if late:
        steps += [[(x, 1)] for x in e["late"]]
    else:
        for x in (0, 1):
            steps += [[(x, 1)]] * max(0, e["tricks"][x] - 6)
    for step in steps:
        for x, k in step:
            hp[x] += k
            if bar == "hand" and x in revoked:
                hp[x] = min(hp[x], 6)
        up = [x for x, k in step if k > 0 and hp[x] >= 7]
        if up:
            x = up[0]
            g = gp[x] + 7 - hp[1 - x]
            if bar == "game" and x in revoked:
                g = min(g, 6)
            gp[x] = g
            hp[0] = hp[1] = 0
            return


def score_classic(e, pts, games, honours, target):
    """WH-5.6.2 - WH-5.6.4: the classic arithmetic for one played hand (penalty, tricks, honours)."""
    start = list(pts)
    revoked = {s % 2 for s in e["claimed"]}

    def add(side, k):
        v = pts[side] + k
        if side in revoked and v >= target:
            v = target - 1
        pts[side] = v
        return v >= target
    won = None
    for s in e["claimed"]:
        if add(1 - s % 2, 3) and won is None:
            won = 1 - s % 2
    if won is None:
        for side in (0, 1):
            k = max(0, e["tricks"][side] - 6)
            if k and add(side, k):
                won = side
    if won is None:
        for side in (0, 1):
            k = {4: 4, 3: 2}.get(honours[side], 0)
            if k and start[side] < target - 1 and add(side, k):
                won = side
    if won is not None:
        games[won] += 1
        pts[0] = pts[1] = 0


def make_deal(rnd, expose: bool):
    cards = list(FRENCH52.cards)
    rnd.shuffle(cards)
    extra = []
    if expose:
        extra = rnd.sample(cards[:51], rnd.choice((1, 1, 2)))
    return Deal(cards + extra)


def play_and_check(options: dict, seed: int, choose, undo_at: float, back: float, misdeals: float = 0.15):
    g = cardkit.load_game("whist", **options)
    table = options["mode"] == "table"
    classic = options["ruleset"] != "source"
    rnd = random.Random(seed)
    s = g.blank_state()
    s.apply(make_deal(rnd, False))                       # the draw for the first dealer
    snaps, step, undo_step = [], 0, int(undo_at * 300)
    hp, gp = [0, 0], [0, 0]
    up = [set(), set(), set(), set()]                    # the cards each hand shows face up (tracked here)
    honours = [0, 0]
    logged = 0
    hands = 0
    while True:
        if s.is_chance():
            d = s.dealer
            deal = make_deal(rnd, table and rnd.random() < misdeals)
            s.apply(deal)
            hands += 1
            up = [set(), set(), set(), set()]
            cards = deal.cards
            for c in cards[52:]:
                up[(d + 1 + cards.index(c)) % 4].add(c)
            t = cards[51]
            honours = [0, 0]
            for i, c in enumerate(cards[:52]):
                if c.suit == t.suit and c.rank in HONOURS:
                    honours[(d + 1 + i) % 2] += 1
            continue
        teacher = s.view(None)
        # the cards are conserved
        inplay = [c for seat in teacher.seats for c in seat.hand] + list(s.trick) + \
            [c for _, cs, _ in s.done for c in cs] + ([s.turned] if s.turned_on_table else [])
        assert len(inplay) == 52 and set(inplay) == set(FRENCH52.cards), f"cards not conserved at step {step}"
        # no view of another seat shows a card that is not public
        public = {c for _, cs, _ in s.done for c in cs} | set(s.trick) | set().union(*up) | \
            ({s.turned} if s.turned_on_table else set()) | {c for rnd_ in s.draw for _, c in rnd_}
        for v in (step % 4, (step + 1) % 4):             # two seats' views a step, every seat in turn
            view = s.view(v)
            for q in range(4):
                hand = view.seats[q].hand
                assert len(hand) == len(teacher.seats[q].hand)
                if q != v:
                    assert {c for c in hand if c is not None} == up[q], (step, v, q)
            for pile in view.piles:
                assert all(c in public for _, c in pile.cards), (step, pile.name)
        legal = check_legal(s, 4, step)
        if not legal:
            break
        p = s.current_player
        action = choose(legal)
        phase = s._phase
        # under the strict rules every card follows suit when its player can
        if action.card is not None and phase == 0 and s.trick and not table:
            held = [c for c in teacher.seats[p].hand if c.suit == s.led]
            assert not held or action.card.suit == s.led
        prev = s.trick[-1] if phase == 2 and s.trick else None
        n_done = len(s.done)
        apply_checking_undo(s, action, step == undo_step, snaps)
        step += 1
        if action.card is not None:
            up[p].discard(action.card)
            if phase == 2:                               # a correction: the card taken back lies face up
                up[p].add(prev)
        if s.turned is not None and not s.turned_on_table and s.hands_dealt and s.turned in s.hands[s.dealer]:
            up[s.dealer].add(s.turned)
        # every trick to the highest trump, else the highest card of the suit led
        if len(s.done) > n_done:
            ld, cs, w = s.done[-1]
            assert w == (ld + ref_winner(cs, s.trump)) % 4
        # every hand scored as the rules say
        while logged < len(s.log):
            e = s.log[logged]
            logged += 1
            if e["kind"] == "played":
                assert sum(e["tricks"]) == 13 and len(s.done) == 13
                assert e["late"] == [w % 2 for _, _, w in s.done[6:]]        # tricks 7 to 13, in order
                if classic:
                    score_classic(e, hp, gp, honours, TARGET[options["ruleset"]])
                else:
                    score_source(e, hp, gp, options["revoke_bar"], options["first_six"] == "played")
            else:
                assert table
                if e["kind"] == "revoked":
                    assert {x % 2 for x in e["claimed"]} == {0, 1}
            assert (e["points"], e["games"]) == (hp, gp), (e, hp, gp)
    # the end
    assert s.is_terminal()
    goal = 2 if classic else 7
    assert max(gp) >= goal and min(gp) < goal
    sc = s.scores()
    assert sc[0] == sc[2] == gp[0] and sc[1] == sc[3] == gp[1]
    w = 0 if gp[0] >= goal else 1
    assert s.winners() == [w, w + 2]
    with IllegalActionErrorExpected():
        s.apply("2C")
    check_replay_and_undo(s, snaps, back)
    return hands


class IllegalActionErrorExpected:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        assert kind is IllegalActionError and value.rule == "end"
        return True


def test_every_option_combination():
    """Every combination, a seeded game each (random play, misdeals now and then at the table)."""
    for i, combo in enumerate(ALL_COMBOS):
        for k in range(1):
            rnd = random.Random(i * 10 + k)
            play_and_check(combo, rnd.getrandbits(32), rnd.choice, rnd.random(), rnd.random())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(combo=st.sampled_from(ALL_COMBOS), seed=st.integers(0, 2 ** 32), actions=st.randoms(use_true_random=False),
       undo_at=st.floats(0, 1, exclude_max=True), back=st.floats(0, 1, exclude_max=True))
def test_random_games(combo, seed, actions, undo_at, back):
    play_and_check(combo, seed, actions.choice, undo_at, back)


def test_resample_keeps_what_each_seat_knows_under_every_combination():
    """At positions in games as at the table too (revokes, questions, face-up cards): a resample for a seat
    keeps its view and lets the game go on legally."""
    for i, combo in enumerate(ALL_COMBOS):
        g = cardkit.load_game("whist", **combo)
        s = g.new_state(seed=i)
        rnd = random.Random(i)
        for step in range(120):
            if s.is_terminal():
                break
            s.apply(rnd.choice(s.legal_actions()))
            if step % 37 == 11 and not s.is_terminal():
                for p in range(4):
                    r = s.resample(p, Rng(step * 4 + p))
                    assert r.view(p) == s.view(p)
                    r.apply(r.legal_actions()[0])


def test_bots_keep_to_the_rules_under_every_combination():
    for i, combo in enumerate(ALL_COMBOS):
        g = cardkit.load_game("whist", **combo)
        s = g.new_state(seed=100 + i)
        bots = {p: game_bots(g)["rule-based" if p % 2 else "careful"](p) for p in range(4)}
        while not s.is_terminal() and s.hands_dealt < 3:
            a = bots[s.current_player].choose(s)
            assert a in s.legal_actions()
            if a.card is not None and s.trick and s._phase == 0:
                assert a.card.suit == s.led or not s._suits[s.current_player][s.led]   # no bot revokes
            s.apply(a)
        assert s.is_terminal() or s.hands_dealt == 3
