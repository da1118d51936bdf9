"""The expert: one search bot for every game, written once through the protocol alone.

At its turn `ExpertBot` deals the cards it has not seen anew (``state.resample``), tries every legal action in
each such deal and plays the rest out, and plays the action that did best on average (perfect-information
Monte Carlo), anchored to the game's rule-based bot. `bots_for(game)` is a game's own bots plus the expert.
"""
from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from ..errors import CardkitError
from ..game import Action, Deal, State
from ..rng import Rng
from ..stats import mean_ci, paired_gain, t95_one_sided
from .base import Bot, game_bots


# --- the expert ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """What the expert expects of one legal action: `mean` is the value for the mover's side (points, or
    money in the banking games: the change of the side's standing — its score with what the play has earned
    toward it, ``State.standing`` — minus the other sides' average change, from the decision to the
    playouts' horizon) over `samples` playouts, and (`low`, `high`) its 95 % confidence
    interval (mean ± 1.96 standard errors; infinite with fewer than two playouts). Where the expert plays to
    win (`OBJECTIVE`), `unit` is "win" and `mean` the side's share of the win at the horizon (0 to 1), its
    points only telling equal shares apart.

    `facts` (only from a bot made with ``explain=True``, else None): what the playouts of the action did, in
    the game's terms, for a reader — ``lead``, the mean change of the side's lead over the other sides (its
    standing minus theirs, in the scores' units — points, or money —, the sign turned where the lowest score
    wins: more is better) to the horizon, ``ahead`` and ``behind``, in how many of the ``samples`` that lead
    grew or shrank; ``trick``, where the decision is in a trick, (taken, known): in how many samples the
    mover's side took that trick, of those in which the table said who took it (the finished trick's taker);
    else None; ``horizon``, "hand" or "game", and ``round``, the round the decision is in (``progress``)."""
    action: Action
    mean: float
    samples: int
    low: float
    high: float
    unit: str = "points"
    facts: dict | None = field(default=None, compare=False, repr=False)

    @property
    def text(self) -> str:
        return self.action.text


_pack_order = attrgetter("index")


class _SortingRng(Rng):
    """An Rng for ``resample`` whose shuffle first puts the cards in the pack's order: the unseen cards are
    then dealt anew as a function of what the mover has seen and of the seed only, not of where the real
    cards lie (``resample`` lists the hidden cards in the order the true deal holds them). Two positions
    that differ only in cards the mover has not seen give the expert the same samples."""
    __slots__ = ()

    def shuffle(self, items: list) -> list:
        try:
            items.sort(key=_pack_order)
        except AttributeError:                 # not cards: keep the order given
            pass
        return Rng.shuffle(self, items)


# what the expert learns once per game (and options) from a few random games through the protocol
_GAME_FACTS: dict = {}

# The rollout policy and horizon per game, as measured (the report in docs/bots.md): the game's own rule-based
# bot where its moves are cheap enough to play out (it plays far better than random moves, so the values of
# the actions are much better told apart); random moves in Faro and Bakkarat (rule-based rollouts cost six
# times as much in Faro and gained nothing measurable over 60 deals). Écarté's rule-based bot computes exact
# odds at every move (about 0.9 ms a decision, so about 160 playouts a second), yet its playouts did best:
# 500 matches at 40 playouts, the paired win share +2.8 points (−0.4 … +6.0) to the end of the hand, against
# the careful bot's (3 µs) +1.4 (−1.7 … +4.5) to the end of the hand and −0.8 (−3.9 … +2.3) to the end of the
# match, and the rule-based bot's to the end of the match −0.3 over 300 (25 Nov); over 1,000 matches +2.7
# (+0.5 … +4.9), beyond doubt (26 Nov). To the end of the game for
# a game of one hand (Die Magische 7) and for Faro (see `OBJECTIVE`), else to the end of the current hand. A game not listed: random moves, to the
# end of the hand (of the game if it is a single hand).
#
# What the playouts value, per game: "points" where not listed (the side's score change against the others',
# see `Estimate`), "win" — the side's share of the win at the horizon, points only between equal shares —
# in Faro. A sitting of Faro is won by the best balance, and its rule-based punter plays for the lead (a small
# stake that would carry it past the leader, its winnings withdrawn); valued in money, the expert left that
# play where the money looked better and lost sittings for it. Whole sittings against rule-based bots, 20
# playouts, the paired win share: 3 places −7.2 points of share (−10.4 … −4.0, 500 sittings) valued in money
# to the end of the pack; playing to win, −5.4 to the end of the pack and −2.3 (−6.6 … +2.0) to the end of
# the sitting (300 each). Those were measured while a points edge with every share tied could still overrule
# the rule-based move (more than half the departures; see `_pick`); without it, 500 sittings to the end: 2
# places +0.5 (−0.3 … +1.3), 3 places −1.5 (−4.0 … +1.0), 4 places +3.0 (+0.5 … +5.5); with 3 places and
# the rule-based bot's moves as playouts −4.2 (−8.8 … +0.4, 250 sittings, at 6× the cost). Measured and left
# at points: Écarté (playing to win −1.0 points of share over 300 matches, −0.8 in money over 500),
# Vingt-et-un (to win the sitting, 3 players, 500 sittings: −2.2 of share, −4.6 … +0.2, and −0.80 units a
# sitting, −1.20 … −0.39, against −0.8 and −0.18 at points) and 24 (3 players, 300 hands: +1.1 of share,
# +1.8 at points).
OBJECTIVE: dict = {"faro": "win"}

# The default budget where it is not `ExpertBot.PLAYOUTS`. Faro: more playouts made the expert worse, not
# better — its random playouts do not chase the leader as the real punters do, and more samples only make
# that biased model's departures from the rule-based move look sure (3 places, 500 sittings, the paired win
# share: −1.5 points, −4.0 … +1.0, at 20 playouts; −7.8, −11.1 … −4.5, at 100).
GAME_PLAYOUTS: dict = {"faro": 20}


def default_playouts(game_name: str) -> int:
    """The expert's default playouts a decision in `game_name` (`GAME_PLAYOUTS`, else `ExpertBot.PLAYOUTS`)."""
    return GAME_PLAYOUTS.get(game_name, ExpertBot.PLAYOUTS)


# The playouts a decision at which the evidence in docs/bots.md measured the expert against the rule-based bot
# (game, or (game, players); None: the game's default). `python -m cardkit.tournament expert` plays at these
# (tournament.EXPERT_EVIDENCE), and the play table never lets the expert think less than this, however long a
# move takes: the opponent a visitor meets is at least as strong as the one measured, on Voilà and in the
# static site, where Python runs 2-3 times slower in the browser.
EVIDENCE_PLAYOUTS: dict = {"magische7": 100, ("magische7", 4): 30, "sieben": 30, "whist": 20, "ecarte": 40,
                           "vierundzwanzig": 50, "vingt_et_un": 30, "faro": 20, "bakkarat": None}


# How long the play table lets the expert think a move, in ms, never below the evidence's playouts: on `cardkit
# serve`, and in the static site, where Python runs 2-3 times slower in the visitor's browser. A move stops at the
# first playout past the budget, so the browser's leaves room for the last one: Écarté's, the slowest (exact odds
# at every step), overran a 1.5 s budget by up to 0.15 s; at 1.3 s its slowest move stays within 1.5 s and still
# gets more playouts than its evidence's 40 (`cardkit bench` measures both).
THINK_MS_SERVER = 900
THINK_MS_BROWSER = 1300


# The playouts of an answer that must be the same on every machine, so a count and not a time: a puzzle shared by
# link (its right answers) and an example's Hint (`cardkit.share.puzzle_question`). The game's default playouts
# (`default_playouts`), except where that would keep a visitor of the static site waiting more than a second:
# Écarté, whose rule-based playouts compute exact odds at every move (about 14 ms each in Pyodide at the slowest,
# docs/benchmarks.md), and 24, one of whose positions with 4 players took 12 ms a playout there: those at their
# evidence's count.
FIXED_PLAYOUTS: dict = {"ecarte": 40, "vierundzwanzig": 50}


def fixed_playouts(game_name: str) -> int:
    """The playouts of an answer that must not depend on the machine (`FIXED_PLAYOUTS`, else the default)."""
    return FIXED_PLAYOUTS.get(game_name, default_playouts(game_name))


def evidence_playouts(game) -> int:
    """The playouts behind the evidence in docs/bots.md for `game` (a Game: its name and player count)."""
    n = EVIDENCE_PLAYOUTS.get((game.name, game.num_players), EVIDENCE_PLAYOUTS.get(game.name))
    return n if n is not None else default_playouts(game.name)

ROLLOUTS = {
    "magische7": ("rule-based", "game"),
    "sieben": ("rule-based", "hand"),
    "whist": ("rule-based", "hand"),
    "ecarte": ("rule-based", "hand"),
    "vierundzwanzig": ("rule-based", "hand"),
    "vingt_et_un": ("rule-based", "hand"),
    "faro": ("random", "game"),
    "bakkarat": ("random", "hand"),
}


def _game_key(game) -> tuple:
    return game.name, tuple(sorted((k, repr(v)) for k, v in game.options.items()))


def game_facts(game) -> dict:
    """What the protocol does not say, learned once per game and options from 12 seeded random games:
    ``sign``, +1 when the winners hold the highest scores and -1 when they hold the lowest (24: the lowest
    score wins), and ``deals``, the mean number of deals (hands) a game takes."""
    key = _game_key(game)
    facts = _GAME_FACTS.get(key)
    if facts is not None:
        return facts
    rng = Rng(0x5EED)
    votes = deals = 0
    games = 12
    for seed in range(games):
        s = game.new_state(seed=seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        deals += sum(1 for a in s.history if a.__class__ is Deal)
        sc, w = s.scores(), s.winners()
        if not w or len(w) == len(sc):
            continue
        won = [sc[p] for p in w]
        lost = [sc[p] for p in range(len(sc)) if p not in w]
        if min(won) > max(lost):
            votes += 1
        elif max(won) < min(lost):
            votes -= 1
    facts = _GAME_FACTS[key] = {"sign": -1 if votes < 0 else 1, "deals": deals / games}
    return facts


SIGN_SAMPLES = 5        # a deviation with no spread: this many samples, all in favour (see `_pick`)


def _interval(values: list) -> tuple[float, int, float, float]:
    """(mean, count, low, high) of a sample of playout values: an `Estimate`'s figures (``stats.mean_ci``)."""
    m, lo, hi = mean_ci(values)
    return m, len(values), lo, hi


def _observation(state, player: int) -> tuple:
    """Everything `player` sees of a state (its view), as a comparable value."""
    v = state.view(player)
    return (v.seats, v.piles, v.status, v.current_player, v.terminal, v.result,
            tuple(a.text for a in v.legal), tuple(v.facts))


class Steps:
    """Work done a step at a time: a generator (`ExpertBot.analysing`, `share.puzzle_steps`) that stops after each
    piece and returns its result. `step()` does the next piece and says whether all is done (the result then in
    `result`); `finish()` does the rest and gives the result."""

    def __init__(self, steps):
        self._steps = steps
        self.result: Any = None
        self.done = False

    def step(self) -> bool:
        if not self.done:
            try:
                next(self._steps)
            except StopIteration as end:
                self.result, self.done = end.value, True
        return self.done

    def finish(self):
        while not self.step():
            pass
        return self.result


class ExpertBot(Bot):
    """A determinized search bot for every game (perfect-information Monte Carlo), through the protocol alone.

    At its turn it deals the cards it has not seen anew, consistently with everything it has seen
    (``state.resample(me, rng)``: a sample), plays every legal action in the sample and the rest out to the
    horizon, and repeats. All actions of a sample see the same deal, the same future deals and the same
    random numbers, so their values are compared pair by pair. The value of a playout is the change, from
    the decision to the horizon, of the mover's side's standing minus the other sides' average (points; money
    in the banking games; the sign turned where the lowest score wins) — the standing is the score with what
    the play has earned toward it (``State.standing``: Whist's hand points, which its game points show only
    at seven) — or with the `objective` "win" the side's share of the win there. Rollout policy and
    horizon: `ROLLOUTS`; the objective: `OBJECTIVE`.

    Which action: the game's rule-based bot's move, unless another action beats it beyond doubt — its mean
    difference to that move over the samples above zero by a one-sided test at 95 % (more than Student's t
    quantile for the samples' degrees of freedom times the standard error; `ANCHOR` may fix the factor
    instead; where the difference is the same in every sample, so that there is no spread to test, all of at
    least `SIGN_SAMPLES` samples — a sign test), and playing to win by its share of the win alone (points
    only order the estimates); then the best such action. (Without that anchor a small budget's noise picks
    among near-equal actions at random and loses to the rule-based bot in some games. The t quantile rather than the normal
    one matters with few samples: in 24 at 15 playouts a decision, a fixed 1.64 let the expert name yellow
    blind — a gamble whose outcome swings by dozens of points — on 7 samples, and it lost whole games to the
    rule-based bot that way: 27 % of 60 three-player games, even 33 %; with t (1.94 for 7 samples) 37 %.)

    The budget sets the strength: `playouts` per decision (one playout = one action played out in one
    sample), or `ms` milliseconds of thinking per decision, or both (whichever ends first; but with
    `min_playouts` the time does not stop it before that many playouts); the default is
    the game's `default_playouts` (`PLAYOUTS`, fewer in Faro: `GAME_PLAYOUTS`). Every action is tried in every sample, and in at least one. With `playouts` alone
    the bot is deterministic for its seed. It never looks at a card its seat has not seen: its samples depend
    only on what the seat has seen and on the seed; the samples of its last decision in the same hand are
    carried forward (replaying the actions since, kept when the seat's view agrees), which spares most
    resamples in a long hand."""
    name = "expert"
    PLAYOUTS = 100
    ANCHOR = None             # standard errors a deviation must clear; None: one-sided 95 % of Student's t

    def __init__(self, seed: int = 0, playouts: int | None = None, ms: float | None = None, *,
                 policy: str | None = None, horizon: str | None = None, objective: str | None = None,
                 min_playouts: int | None = None, explain: bool = False):
        super().__init__(seed)
        if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
            raise CardkitError(f"playouts must be a positive integer (or None), not {playouts!r}")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, (int, float)) or not ms > 0):
            raise CardkitError(f"ms must be a positive number of milliseconds (or None), not {ms!r}")
        if min_playouts is not None and (isinstance(min_playouts, bool) or not isinstance(min_playouts, int)
                                         or min_playouts < 1):
            raise CardkitError(f"min_playouts must be a positive integer (or None), not {min_playouts!r}")
        if policy not in (None, "random", "rule-based", "careful"):
            raise CardkitError(f"policy must be random, careful or rule-based (or None: the game's), not {policy!r}")
        if horizon not in (None, "hand", "game"):
            raise CardkitError(f"horizon must be hand or game (or None: the game's), not {horizon!r}")
        if objective not in (None, "points", "win"):
            raise CardkitError(f"objective must be points or win (or None: the game's), not {objective!r}")
        # neither: the game's default playouts (`default_playouts`), known once it sees the game
        self.playouts, self.ms, self.min_playouts = playouts, ms, min_playouts
        self.objective = objective
        self.policy, self.horizon = policy, horizon
        self.explain = bool(explain)     # gather each action's `Estimate.facts` (the Hint's "why")
        self.stats: dict = {}            # the last analysis: playouts, samples, carried, seconds
        self._carry: tuple | None = None  # the last analysis's samples, for the next decision of the hand

    def __repr__(self) -> str:
        budget = ", ".join(f"{k}={v}" for k, v in (("playouts", self.playouts), ("ms", self.ms)) if v is not None)
        budget = budget or "playouts=the game's default"
        return f"ExpertBot({budget})"

    def choose(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.analyse(state)[0].action

    def decide(self, state, legal):
        return self.analyse(state)[0].action

    def rollouts(self, game) -> tuple[str, str]:
        """(policy, horizon) of this bot's playouts in `game`."""
        policy, horizon = ROLLOUTS.get(game.name, (None, None))
        if policy is None or policy not in game_bots(game):
            policy = "random"
        if horizon is None:
            horizon = "game" if game_facts(game)["deals"] <= 1 else "hand"
        return self.policy or policy, self.horizon or horizon

    # the search ----------------------------------------------------------------------------------------
    def analyse(self, state) -> list[Estimate]:
        """One `Estimate` per legal action of the player to move: the action the bot plays first, then the
        others by their mean, best first."""
        return Steps(self.analysing(state)).finish()

    def analysing(self, state) -> Generator[None, None, list[Estimate]]:
        """`analyse` in steps: a generator that stops after each sample (every action played out in it) and
        returns the estimates, so that a caller can think between other work (the static site's Hint, while
        the visitor thinks). The same estimates as `analyse`: the same work in the same order."""
        me = state.current_player
        if me < 0:
            raise CardkitError("no player is to move: the game is over or a deal is due")
        legal = list(state.legal_actions())
        game = state.game
        sign = game_facts(game)["sign"]
        sides = game.sides()
        mine = next(s for s in sides if me in s)[0]
        others = [s[0] for s in sides if me not in s]
        policy_name, horizon = self.rollouts(game)
        whole_game = horizon == "game"
        root = self._level(state.standing(), mine, others)
        win = (self.objective or OBJECTIVE.get(game.name, "points")) == "win"
        start_scores = self._hand_start(state, whole_game) if win else []   # (read only playing to win)
        k = len(legal)
        texts = [a.text for a in legal]
        vals: list[list[float]] = [[] for _ in range(k)]   # per action: its value in each sample (paired by sample)
        shares = [[] for _ in range(k)] if win else vals   # playing to win: the share alone, for `_pick`
        rng = self.rng
        start = time.perf_counter()
        deadline = start + self.ms / 1000 if self.ms is not None else None
        cap = self.playouts if self.playouts is not None or self.ms is not None else default_playouts(game.name)
        bot = None
        if policy_name != "random":
            bot = game_bots(game)[policy_name](rng.next64() & 0xFFFFFFFF)
        pool = self._carried(state, me)
        used: list[State] = []
        done = 0
        explain = self.explain
        if explain:
            at = state.progress()
            side = next(s for s in sides if me in s)
            in_trick = bool(at[1]) and any(p.kind == "trick" for p in state.view(me).piles)
            leads: list[list[float]] = [[] for _ in range(k)]
            tricks = [[0, 0] for _ in range(k)]
        while True:
            sample = pool[len(used)] if len(used) < len(pool) else self._sample(state, me)
            used.append(sample)
            seed = rng.next64()
            for i in range(k):
                s = sample.fork()
                s.apply(texts[i])
                r = Rng(seed)                    # the same random numbers for every action of the sample
                if bot is not None:
                    bot.rng = Rng(seed ^ 0x5A5A)
                watch = self._trick_watch(at, side, tricks[i]) if explain and in_trick else None
                s = self._playout(s, whole_game, r, bot, watch)
                v = sign * (self._level(s.standing(), mine, others) - root)
                if explain:
                    leads[i].append(v)
                if win:
                    share = self._share(s, sides, mine, sign, start_scores, whole_game)
                    shares[i].append(share)
                    v = share + 1e-6 * v
                vals[i].append(v)
                done += 1
            yield
            if cap is not None and done + k > cap:
                break
            if deadline is not None and time.perf_counter() >= deadline and done >= (self.min_playouts or 0):
                break
        self.stats = {"playouts": done, "samples": len(used), "carried": min(len(pool), len(used)),
                      "seconds": time.perf_counter() - start}
        self._carry = (_game_key(game), me, [None if a.__class__ is Deal else a.text for a in state.history], used)
        unit = "win" if win else "points"
        facts: list[dict | None] = [None] * k
        if explain:
            facts = [{"lead": sum(x) / len(x), "ahead": sum(1 for v in x if v > 1e-9),
                      "behind": sum(1 for v in x if v < -1e-9), "samples": len(x),
                      "trick": tuple(tk) if in_trick and tk[1] else None, "horizon": horizon, "round": at[0]}
                     for x, tk in zip(leads, tricks)]
        out = [Estimate(legal[i], *_interval(vals[i]), unit, facts[i]) for i in range(k)]
        order = sorted(range(k), key=lambda i: -out[i].mean)
        # playing to win, only the share may overrule the rule-based move: points break ties in the order
        # shown, but a points edge where every sample gave the same share is no evidence that the move wins
        # more (in Faro most of the expert's departures were such: money-greedy, and they cost sittings)
        play = self._pick(state, legal, shares, order[0])
        order.remove(play)
        return [out[play]] + [out[i] for i in order]

    def _pick(self, state, legal, vals, best: int) -> int:
        """The action to play: the rule-based bot's, unless another beats it beyond doubt (see the class)."""
        factory = game_bots(state.game).get("rule-based")
        if factory is None:
            return best
        t = factory(self.rng.next64() & 0xFFFFFFFF).choose(state).text
        d = next((i for i, a in enumerate(legal) if a.text == t), None)
        if d is None:
            return best
        play, gain = d, 0.0
        z = t95_one_sided(len(vals[d]) - 1) if self.ANCHOR is None else self.ANCHOR
        for i in range(len(legal)):
            if i != d:
                # a one-sided t test over the paired samples; the same difference in every sample has no
                # spread to weigh, and then all of at least SIGN_SAMPLES must be in favour (few samples an
                # action: small budgets, many actions)
                m = paired_gain([x - y for x, y in zip(vals[i], vals[d])], z, SIGN_SAMPLES)
                if m is not None and m > gain:
                    play, gain = i, m
        return play

    def _carried(self, state, me: int) -> list:
        """The samples of this bot's last analysis (same game and seat, same hand) carried forward: each
        replays the actions taken since, and is kept if they are all legal in it and the seat's view at the
        end is the view it has now. Kept samples are as good as fresh ones (uniform over the deals the seat
        cannot tell apart: a fresh resample is such a deal kept when it agrees with the same views), and far
        cheaper than a resample late in a long hand."""
        carry, self._carry = self._carry, None
        if carry is None:
            return []
        key, seat, hist, samples = carry
        h = state.history
        n = len(hist)
        if seat != me or key != _game_key(state.game) or len(h) < n:
            return []
        for a, t in zip(h, hist):
            if (a.__class__ is Deal) != (t is None) or t is not None and a.text != t:
                return []
        if any(a.__class__ is Deal for a in h[n:]):
            return []                              # a new hand: its cards were never sampled
        suffix = [a.text for a in h[n:]]
        want = _observation(state, me)
        out = []
        for smp in samples:
            c = smp.fork()
            try:
                for t in suffix:
                    c.apply(t)
            except CardkitError:
                continue
            if _observation(c, me) == want:
                out.append(c)
        return out

    def _sample(self, state, me: int):
        """A deal of the cards `me` has not seen, consistent with all `me` has seen (``resample``)."""
        return state.resample(me, _SortingRng(self.rng.next64()))

    @staticmethod
    def _level(scores, me: int, others: list[int]) -> float:
        """The score of `me`'s side minus the other sides' average."""
        if not others:
            return float(scores[me])
        return scores[me] - sum(scores[q] for q in others) / len(others)

    @staticmethod
    def _hand_start(state, whole_game: bool) -> list:
        """The scores when the current hand was dealt (the game's first scores with a horizon of the game):
        a hand is won by the side that gained most over it, whatever came before the decision."""
        h = state.history
        k = 0 if whole_game else max((i for i, a in enumerate(h) if a.__class__ is Deal), default=0)
        return state.position_at(k).scores()

    @staticmethod
    def _share(s, sides, mine: int, sign: int, start: list, whole_game: bool) -> float:
        """The mover's side's share of the win at the horizon, as the evidence counts it: of a finished game,
        by its winners; of a hand, among the sides that gained most since the hand was dealt (1/k when k
        sides tie)."""
        if whole_game and s.is_terminal():
            w = s.winners()
            won = [t for t in sides if any(p in w for p in t)]
        else:
            sc = s.scores()
            gain = [sign * (sc[t[0]] - start[t[0]]) for t in sides]
            best = max(gain)
            won = [t for t, g in zip(sides, gain) if g == best]
        return 1 / len(won) if any(t[0] == mine for t in won) else 0.0

    @staticmethod
    def _trick_watch(at: tuple, side: list, counts: list):
        """A `watch` for `_playout`: at the first position past the trick of `at` (``progress``), who took
        that trick — the public view's finished trick (`Pile.taker`) — counted into `counts` ([taken by
        `side`, known])."""
        def watch(s) -> bool:
            if not s.is_terminal() and s.progress() == at:
                return False
            taker = next((p.taker for p in s.view(None).piles if p.kind == "last-trick"), None)
            if taker is not None:
                counts[1] += 1
                counts[0] += taker in side
            return True
        return watch

    def _playout(self, s, whole_game: bool, rng, bot, watch=None):
        """Play `s` out to the horizon — `bot`'s moves, or random ones — and return it: at the end of the
        game, or (not `whole_game`) at the end of the current hand. `watch(state)`, if given, is shown each
        position from the first on until it returns True (it changes nothing: the playout is the same)."""
        below = rng.below
        while not s.is_terminal():
            if watch is not None and watch(s):
                watch = None
            legal = s.legal_actions()
            if not legal:                       # a deal is due and nobody deals it (a stacked game)
                break
            if bot is None or len(legal) == 1:
                s.apply(legal[below(len(legal))])
            else:
                s.apply(bot.choose(s))
            if not whole_game and s.history[-1].__class__ is Deal:
                break
        if watch is not None:
            watch(s)
        return s


def bots_for(game) -> dict:
    """The bots a table or a match may seat for `game`: the game's own (``game_bots``: random, careful,
    rule-based) and the expert, which every game gets without listing it."""
    out = game_bots(game)
    out.setdefault("expert", ExpertBot)
    return out
