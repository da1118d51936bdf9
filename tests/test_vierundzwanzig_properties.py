"""Property tests of the 24 engine through the common protocol, under every combination of its options:
random seeded deals, random legal play, whole matches.

Checked at every step: the 45 cards are conserved (hands, the second packets not yet dealt, the stock, the
cards given back or set aside, the trick, the tricks won), a legal action exists exactly until the match
ends, legal actions are distinct, no view of a seat shows a card that seat has not seen (another hand, the
stock, a card given back). For every finished trick: it went to the highest trump, else the highest card of
the led colour, under the trump and the rank order in force when it was led (written down again here, with
the order worked out from the "reverse" answers). For every round: the scores move as the rules' arithmetic
says (written down again here: −1/−2/−4 a trick, the round's total for no trick, twice that for the trump
caller). At the end: a score at 0 or below or at 48 or above (or a lost blind call), the lowest wins, the
record replays to the same match, undo restores the exact snapshot.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardkit
from cardkit import IllegalActionError
from cardkit.bots import game_bots
from protocol_checks import apply_checking_undo, check_legal, check_replay_and_undo

GAME = cardkit.game_class("vierundzwanzig")
SPECS = GAME.option_specs
VALUES = {o.name: list(o.choices) for o in SPECS}


def valid(combo) -> bool:
    return not (combo["sitting_out"] and combo["players"] == 2)


ALL = [dict(zip(VALUES, vals)) for vals in itertools.product(*VALUES.values())]
COMBOS = [c for c in ALL if valid(c)]
COLOUR = {"yellow": "Y", "red": "R", "blue": "B", "green": "G"}


def test_the_combinations_and_the_invalid_ones():
    assert len(ALL) == 4 * 3 * 2 * 2 * 2 and len(COMBOS) == len(ALL) - len(ALL) // 8
    for c in ALL:
        if valid(c):
            cardkit.load_game("vierundzwanzig", **c)
        else:
            with pytest.raises(cardkit.OptionError):
                cardkit.load_game("vierundzwanzig", **c)


def cards_in_play(s) -> Counter:
    return (Counter(c for h in s.hands for c in h) + Counter(c for h in s.second for c in h) + Counter(s.stock)
            + Counter(c for h in s.discards for c in h) + Counter(c for h in s.aside for c in h)
            + Counter(c for _, c in s.trick) + Counter(c for w in s.won for t in w for _, c in t))


def ref_winner(trick, trump: str, reversed_: bool) -> int:
    """The player who takes `trick` [(player, card)]: V24-4.3, V24-4.4, V24-6.2, V24-6.4."""
    def colour(c):
        return trump if c.text == "24" else c.text[0]

    def rank(c):
        if c.text == "24":
            return -99 if reversed_ else 99
        return -c.value if reversed_ else c.value
    trumps = [(p, c) for p, c in trick if colour(c) == trump]
    pool = trumps or [(p, c) for p, c in trick if colour(c) == colour(trick[0][1])]
    return max(pool, key=lambda pc: rank(pc[1]))[0]


def ref_scores(before, tricks, active, start, value, double):
    """V24-5.1 … V24-5.3, V24-9.2."""
    out = []
    for p, b in enumerate(before):
        if not active[p]:
            out.append(b)
        elif tricks[p]:
            out.append(b - value * tricks[p])
        elif p == start and double:
            out.append(b + 12 * value)
        else:
            out.append(b + 6 * value)
    return out


class Tracker:
    """Follows a match from the outside (the actions and the public facts) to check tricks and rounds."""

    def __init__(self, s, opts):
        self.opts = opts
        self.n = s.game.num_players
        self.points = [24] * self.n
        self.double = opts["own_trump_penalty"] == "always" or \
            opts["own_trump_penalty"] == "advised" and not opts["trump_twos"]
        self.new_round(s)

    def new_round(self, s):
        self.trump = self.next_trump = None
        self.blind = False
        self.rev = self.next_rev = False
        self.tricks = [0] * self.n
        self.active = [True] * self.n
        self.cur: list = []
        self.trick_start = None
        self.start = None

    def before(self, s, action):
        """Called with the state before `action`."""
        t = action.text
        p = s.current_player
        if t == "blind yellow":
            self.trump = self.next_trump = "Y"
            self.blind = True
            self.start = p
        elif t.startswith("trump: "):
            self.trump = self.next_trump = COLOUR[t[7:]]
            self.start = p
        elif t == "sit out":
            self.active[p] = False
        elif t == "reverse: yes":
            self.next_rev = not self.next_rev
        elif t.startswith("new trump: ") and t != "new trump: no":
            assert not self.blind, "V24-9.1.1: no new trump after blind yellow"
            self.next_trump = COLOUR[t[11:]]
        elif action.data == "play":
            if not self.cur:
                self.trick_start = (self.trump, self.rev)
            self.cur.append((p, action.card))

    def after(self, s, rounds_before):
        if len(self.cur) == sum(self.active) and not s.trick:          # the trick is complete
            w = ref_winner(self.cur, *self.trick_start)
            if len(s.rounds) == rounds_before:
                assert s.last_trick[1] == w and list(s.last_trick[0]) == self.cur, (self.cur, self.trick_start)
            self.tricks[w] += 1
            self.cur = []
            self.trump, self.rev = self.next_trump, self.next_rev
        if len(s.rounds) > rounds_before:
            r = s.rounds[-1]
            assert sum(self.tricks) == 6 and r["tricks"] == self.tricks, "six tricks a round, as counted here"
            value = 4 if self.blind else 2 if self.next_trump == "Y" else 1
            want = ref_scores(self.points, self.tricks, self.active, self.start, value, self.double)
            assert r["after"] == s.scores() == want, (self.points, self.tricks, value, want, s.scores())
            self.points = want
            self.new_round(s)


def check_views(s, n):
    """No seat's view shows a card it has not seen: its own hand (once picked up) and the cards played."""
    played = {c for _, c in s.trick} | {c for w in s.won for t in w for _, c in t}
    for p in range(n):
        v = s.view(p)
        own = set(s.hands[p]) if (p != s.start or s.picked) else set()
        shown = set(v.cards_visible())
        assert shown <= own | played, (p, shown - own - played)
        for q, seat in enumerate(v.seats):
            if q != p:
                assert all(c is None for c in seat.hand)


def play_and_check(opts, seed, choose, undo_at: float, back: float, views_every: int = 1, max_steps=20000):
    game = cardkit.load_game("vierundzwanzig", **opts)
    n = game.num_players
    full = Counter(game.full_deck())
    s = game.new_state(seed=seed)
    tr = Tracker(s, opts)
    snaps = []
    undo_step = int(undo_at * 60)
    step = 0
    while True:
        assert cards_in_play(s) == full, f"cards not conserved at step {step}"
        if step % views_every == 0:
            check_views(s, n)
        legal = check_legal(s, n, step)
        if not legal:
            break
        action = choose(s, legal)
        rounds_before = len(s.rounds)
        tr.before(s, action)
        apply_checking_undo(s, action, step == undo_step, snaps)
        tr.after(s, rounds_before)
        step += 1
        assert step < max_steps, "the match does not end"

    scores = s.scores()
    last = s.rounds[-1]
    lost = last["blind"] and last["tricks"][last["start"]] == 0 and tr.double
    assert min(scores) <= 0 or max(scores) >= 48 or lost                      # V24-8
    assert not [r for r in s.rounds[:-1] if min(r["after"]) <= 0 or max(r["after"]) >= 48]
    others = [p for p in range(n) if not (lost and p == last["start"])]
    best = min(scores[p] for p in others)
    assert s.winners() == [p for p in others if scores[p] == best]
    with pytest.raises(IllegalActionError) as e:
        s.apply(legal[0].text if legal else "R5")
    assert e.value.rule == "end"

    check_replay_and_undo(s, snaps, back, most=30)


def test_every_option_combination_once():
    """Every valid combination (84), one seeded random match each."""
    for i, combo in enumerate(COMBOS):
        rnd = random.Random(i)
        play_and_check(combo, seed=rnd.getrandbits(64), choose=lambda s, legal: rnd.choice(legal),
                       undo_at=rnd.random(), back=rnd.random())


def test_matches_of_the_rule_based_bots_under_the_variants():
    """Bots play long matches (random players end them quickly with blind calls): the same checks."""
    for i, combo in enumerate([c for c in COMBOS if c["players"] in (3, 4)][::5]):
        make = game_bots(cardkit.load_game("vierundzwanzig", **combo))["rule-based"]
        bots: dict = {}

        def choose(s, legal, bots=bots, make=make, i=i):
            p = s.current_player
            if p not in bots:
                bots[p] = make(i * 10 + p)
            return bots[p].choose(s)
        play_and_check(combo, seed=i, choose=choose, undo_at=0.5, back=0.5, views_every=3)


option_dicts = st.sampled_from(COMBOS)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(combo=option_dicts, seed=st.integers(0, 2 ** 64 - 1), data=st.data(),
       undo_at=st.floats(0, 1, exclude_max=True), back=st.floats(0, 1, exclude_max=True))
def test_random_matches(combo, seed, data, undo_at, back):
    """Hypothesis picks the options, the deal and the first actions (then a seeded random player goes on)."""
    rnd = random.Random(seed)
    budget = [80]

    def choose(s, legal):
        if budget[0] > 0:
            budget[0] -= 1
            return data.draw(st.sampled_from(legal))
        return rnd.choice(legal)
    play_and_check(combo, seed, choose, undo_at, back, views_every=2)
