"""Bots: anything with ``choose(state) -> action``. Game-specific bots live in the game's module.

`ExpertBot` is the one search bot, written once for every game through the protocol alone: at its turn it
deals the cards it has not seen anew (``state.resample``), tries every legal action in each such deal and
plays the rest out, and plays the action that did best on average (perfect-information Monte Carlo).
`bots_for(game)` is a game's own bots plus the expert.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from operator import attrgetter

from .errors import CardkitError
from .game import Deal
from .rng import Rng

Z95 = 1.959963984540054


class Bot:
    """A seeded bot (`self.rng`): `choose` plays the only legal action at once and otherwise asks
    `decide(state, legal)`, which a game's bot implements."""
    name = ""

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.decide(state, legal)

    def decide(self, state, legal):
        raise NotImplementedError


class RandomBot:
    """Picks a legal action uniformly at random (seeded, so games are reproducible)."""
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed)

    def choose(self, state):
        return self.rng.choice(state.legal_actions())


def play_out(state, bots: dict, stop_at: int | None = None):
    """Let `bots` (player -> bot) move until the game ends or it is `stop_at`'s turn. Returns the state."""
    while not state.is_terminal():
        p = state.current_player
        if p == stop_at or p not in bots:
            break
        state.apply(bots[p].choose(state))
    return state


# --- the expert ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """What the expert expects of one legal action: `mean` is the value for the mover's side (points, or
    money in the banking games: the side's score change minus the other sides' average change, from the
    decision to the playouts' horizon) over `samples` playouts, and (`low`, `high`) its 95 % confidence
    interval (mean ± 1.96 standard errors; infinite with fewer than two playouts)."""
    action: object
    mean: float
    samples: int
    low: float
    high: float

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
LONG_GAME = 200         # a game whose random games take more decisions than this is played out hand by hand
MAX_HANDS = 4           # a playout stops after this many hands even if the scores have not moved


def _game_key(game) -> tuple:
    return game.name, tuple(sorted((k, repr(v)) for k, v in game.options.items()))


def game_facts(game) -> dict:
    """What the protocol does not say, learned once from 12 seeded random games: ``sign`` +1 when the
    winners hold the highest scores, -1 when they hold the lowest (Vierundzwanzig: the lowest score wins),
    and ``decisions``, the mean number of decisions of a random game (long games are played out hand by
    hand, short ones to the end)."""
    key = _game_key(game)
    facts = _GAME_FACTS.get(key)
    if facts is not None:
        return facts
    rng = Rng(0x5EED)
    votes = 0
    decisions = 0
    games = 12
    for seed in range(games):
        s = game.new_state(seed=seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
            decisions += 1
        sc, w = s.scores(), s.winners()
        if not w or len(w) == len(sc):
            continue
        won = [sc[p] for p in w]
        lost = [sc[p] for p in range(len(sc)) if p not in w]
        if min(won) > max(lost):
            votes += 1
        elif max(won) < min(lost):
            votes -= 1
    facts = _GAME_FACTS[key] = {"sign": -1 if votes < 0 else 1, "decisions": decisions / games}
    return facts


def _mean_ci(values: list, z: float = Z95) -> tuple:
    """(mean, count, low, high) of `values`: the mean and mean ± z standard errors (infinite for one)."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, n, -math.inf, math.inf
    var = max(sum((x - m) ** 2 for x in values) / (n - 1), 0.0)
    half = z * math.sqrt(var / n)
    return m, n, m - half, m + half


def _observation(state, player: int) -> tuple:
    """Everything `player` sees of a state (its view), as a comparable value."""
    v = state.view(player)
    return (v.seats, v.piles, v.status, v.current_player, v.terminal, v.result,
            tuple(a.text for a in v.legal), tuple(v.facts))


class _Node:
    __slots__ = ("n", "total", "sq", "avail", "children", "side")

    def __init__(self, side):
        self.n = 0
        self.total = self.sq = 0.0
        self.avail = 0
        self.children = {}
        self.side = side


class ExpertBot(Bot):
    """A determinized search bot for every game (perfect-information Monte Carlo).

    At its turn it deals the cards it has not seen anew, consistently with everything it has seen
    (``state.resample(me, rng)``), plays every legal action in that deal and the rest out with random
    moves, and repeats; it plays the action with the best mean value for its side. The value of a playout
    is the change of the mover's side's score minus the other sides' average change (the sign turned where
    the lowest score wins), from the decision to the horizon: the end of the game for a short game (fewer
    than `LONG_GAME` decisions in a random game: Die Magische 7, Écarté, 24, Vingt-et-un, Bakkarat, Faro with
    2 or 3), else the end of the current hand — or, if that hand has not moved the scores (Whist scores
    games, not tricks), the end of the first later hand that does, at most `MAX_HANDS` hands.

    The budget sets the strength: `playouts` per decision (one playout = one action played out in one
    sample), or `ms` milliseconds of thinking per decision, or both (whichever ends first). The default
    is `PLAYOUTS` playouts. Every action is tried at least once in at least one sample. With `playouts`
    alone the bot is deterministic for its seed; it never looks at a card its seat has not seen (the
    samples depend only on what it has seen and on its seed)."""
    name = "expert"
    PLAYOUTS = 400

    def __init__(self, seed: int = 0, playouts: int | None = None, ms: float | None = None, *,
                 policy: str = "random", value: str = "points", search: str = "pimc", c: float = 0.7, reuse: int = 0,
                 crn: bool = False, depth: int = -1, carry: bool = True, horizon: str = "auto",
                 anchor: float | None = None):
        super().__init__(seed)
        self.crn, self.depth, self.carry, self.horizon, self.anchor = crn, depth, carry, horizon, anchor
        self._carry = None
        self.policy, self.value, self.search, self.c, self.reuse = policy, value, search, c, reuse
        if playouts is not None and (isinstance(playouts, bool) or not isinstance(playouts, int) or playouts < 1):
            raise CardkitError(f"playouts must be a positive integer (or None), not {playouts!r}")
        if ms is not None and (isinstance(ms, bool) or not isinstance(ms, (int, float)) or not ms > 0):
            raise CardkitError(f"ms must be a positive number of milliseconds (or None), not {ms!r}")
        if playouts is None and ms is None:
            playouts = self.PLAYOUTS
        self.playouts, self.ms = playouts, ms
        self.stats: dict = {}            # the last analysis: playouts, samples, seconds

    def __repr__(self) -> str:
        budget = ", ".join(f"{k}={v}" for k, v in (("playouts", self.playouts), ("ms", self.ms)) if v is not None)
        return f"ExpertBot({budget})"

    def choose(self, state):
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.analyse(state)[0].action

    def decide(self, state, legal):
        return self.analyse(state)[0].action

    # the search ----------------------------------------------------------------------------------------
    def analyse(self, state) -> list[Estimate]:
        """One `Estimate` per legal action of the player to move, best first (ties: the legal order)."""
        me = state.current_player
        if me < 0:
            raise CardkitError("no player is to move: the game is over or a deal is due")
        legal = list(state.legal_actions())
        game = state.game
        facts = game_facts(game)
        sides = game.sides()
        mine = next(s for s in sides if me in s)
        others = [s[0] for s in sides if me not in s]
        sign = facts["sign"]
        whole_game = self.horizon == "game" or self.horizon == "auto" and facts["decisions"] <= LONG_GAME
        root = self._level(state.scores(), mine[0], others)
        base = sign * root
        k = len(legal)
        texts = [a.text for a in legal]
        vals = [[] for _ in range(k)]        # per action: its value in each sample (paired by sample)
        rng = self.rng
        start = time.perf_counter()
        deadline = start + self.ms / 1000 if self.ms is not None else None
        cap = self.playouts
        done = samples = 0
        policy = self._pb = None
        if self.policy != "random":
            pb = self._pb = game.bots()[self.policy](rng.next64() & 0xFFFFFFFF)
            policy = pb.choose
        self._policy = policy
        if self.value == "win":
            whole_game, sign, root, base = True, 1, 0.0, 0.0
        if self.search == "ismcts":
            return self._ismcts(state, me, legal, sides, sign, whole_game, start, deadline, cap)
        pool = self._carried(state, me) if self.carry else []
        used = []
        while True:
            sample = pool[samples] if samples < len(pool) else self._sample(state, me)
            used.append(sample)
            samples += 1
            seed_r = rng.next64()
            for i in range(k):
                f = sample._fork()
                f.apply(texts[i])
                prng = rng
                if self.crn:
                    prng = Rng(seed_r)
                    if self._pb is not None:
                        self._pb.rng = Rng(seed_r ^ 0x5A5A)
                vals[i].append(sign * self._playout(f, mine[0], others, whole_game, root, prng) - base)
                done += 1
            if cap is not None and done + k > cap:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.stats = {"playouts": done, "samples": samples, "carried": min(len(pool), samples),
                      "seconds": time.perf_counter() - start}
        if self.carry:
            self._carry = (_game_key(game), me, [None if a.__class__ is Deal else a.text for a in state.history],
                           used)
        out = [Estimate(legal[i], *_mean_ci(vals[i])) for i in range(k)]
        order = sorted(range(k), key=lambda i: -out[i].mean)
        if self.anchor is not None:
            # the default: the game's rule-based move; another is played only when it is better beyond
            # doubt (its paired difference over the samples more than `anchor` standard errors above 0)
            d = self._default(state, legal)
            if d is not None:
                best, best_m = d, -math.inf
                for i in range(k):
                    if i == d:
                        continue
                    m, _, lo, _ = _mean_ci([x - y for x, y in zip(vals[i], vals[d])], self.anchor)
                    if lo > 0 and m > best_m:
                        best, best_m = i, m
                order.remove(best)
                order.insert(0, best)
        return [out[i] for i in order]

    def _default(self, state, legal):
        """The index of the move the game's rule-based bot would play here (None: the game has none)."""
        factory = state.game.bots().get("rule-based")
        if factory is None:
            return None
        a = factory(self.rng.next64() & 0xFFFFFFFF).choose(state)
        t = a.text
        return next((i for i, x in enumerate(legal) if x.text == t), None)

    def _ismcts(self, state, me, legal, sides, sign, whole_game, start, deadline, cap):
        rng = self.rng
        below = rng.below
        side_of = {p: j for j, sd in enumerate(sides) for p in sd}
        heads = [sd[0] for sd in sides]
        ns = len(sides)

        def levels(sc):
            tot = sum(sc[h] for h in heads)
            if ns == 1:
                return [float(sc[heads[0]])]
            return [sc[h] - (tot - sc[h]) / (ns - 1) for h in heads]

        root_lv = levels(state.scores())
        root = _Node(None)
        k = len(legal)
        reuse = self.reuse or max(k, 4)
        policy = self._policy
        c = self.c
        log, sqrt = math.log, math.sqrt
        done = samples = 0
        pool = []
        win = self.value == "win"
        vsum = vsq = 0.0
        scale = 1.0
        mine = side_of[me]
        while True:
            if done % reuse == 0:
                pool.append(self._sample(state, me))
                samples += 1
            s = pool[done % len(pool)]._fork()
            node = root
            path = []
            hands = 0
            in_tree = True
            while not s.is_terminal():
                legal_s = s.legal_actions()
                if not legal_s:
                    break
                if in_tree:
                    children = node.children
                    untried = None
                    for a in legal_s:
                        ch = children.get(a.text)
                        if ch is None:
                            if untried is None:
                                untried = [a]
                            else:
                                untried.append(a)
                        else:
                            ch.avail += 1
                    if untried is not None:
                        a = untried[below(len(untried))]
                        ch = children[a.text] = _Node(side_of[s.current_player])
                        ch.avail = 1
                        in_tree = False
                    else:
                        best = -math.inf
                        cs = c * scale
                        for x in legal_s:
                            y = children[x.text]
                            u = y.total / y.n + cs * sqrt(log(y.avail) / y.n)
                            if u > best:
                                best, a, ch = u, x, y
                        node = ch
                    path.append(ch)
                else:
                    a = legal_s[below(len(legal_s))] if policy is None or len(legal_s) == 1 else policy(s)
                s.apply(a)
                if not whole_game and s.history[-1].__class__ is Deal:
                    hands += 1
                    if hands >= MAX_HANDS or levels(s.scores())[mine] != root_lv[mine]:
                        break
            if win:
                w = s.winners()
                wj = {side_of[p] for p in w}
                vals = [(1.0 / len(wj) if j in wj else 0.0) for j in range(ns)]
            else:
                end = levels(s.scores())
                vals = [sign * (end[j] - root_lv[j]) for j in range(ns)]
            for ch in path:
                v = vals[ch.side]
                ch.n += 1
                ch.total += v
                ch.sq += v * v
            done += 1
            v = vals[mine]
            vsum += v
            vsq += v * v
            if done > 1:
                scale = max(sqrt(max(vsq / done - (vsum / done) ** 2, 0.0)), 1e-6)
            if cap is not None and done >= max(cap, k):
                break
            if deadline is not None and done >= k and time.perf_counter() >= deadline:
                break
        self.stats = {"playouts": done, "samples": samples, "seconds": time.perf_counter() - start}
        out = []
        for a in legal:
            ch = root.children.get(a.text)
            if ch is None or ch.n == 0:
                out.append((0, 0.0, Estimate(a, 0.0, 0, -math.inf, math.inf)))
                continue
            m = ch.total / ch.n
            if ch.n > 1:
                half = Z95 * math.sqrt(max(ch.sq - ch.n * m * m, 0.0) / (ch.n - 1) / ch.n)
                lo, hi = m - half, m + half
            else:
                lo, hi = -math.inf, math.inf
            out.append((ch.n, m, Estimate(a, m, ch.n, lo, hi)))
        out.sort(key=lambda t: (-t[0], -t[1]))
        return [t[2] for t in out]

    def _carried(self, state, me: int) -> list:
        """The samples of this bot's last analysis (same game and seat, same hand) carried forward: each
        replays the actions taken since, and is kept if they are all legal in it and the seat's view at the
        end is the view it has now. Kept samples are as good as fresh ones (uniform over the deals the seat
        cannot tell apart), and much cheaper than a resample in a long hand."""
        carry, self._carry = self._carry, None
        if carry is None:
            return []
        key, seat, hist, samples = carry
        h = state.history
        n = len(hist)
        if seat != me or key != _game_key(state.game) or len(h) < n:
            return []
        for a, t in zip(h, hist):
            if a.__class__ is Deal:
                if t is not None:
                    return []
            elif t is None or a.text != t:
                return []
        suffix = [a.text for a in h[n:]]
        if any(a.__class__ is Deal for a in h[n:]):
            return []                              # a new hand: its cards were never sampled
        want = _observation(state, me)
        out = []
        for smp in samples:
            c = smp._fork()
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
        """The mover's side's score minus the other sides' average."""
        if not others:
            return float(scores[me])
        return scores[me] - sum(scores[q] for q in others) / len(others)

    def _playout(self, s, me: int, others: list[int], whole_game: bool, root: float, rng) -> float:
        """Play `s` out with random moves to the horizon; the level of the mover's side there (`root`: the
        level at the decision)."""
        below = rng.below
        level = self._level
        policy = self._policy
        hands = 0
        depth = self.depth
        while not s.is_terminal():
            legal = s.legal_actions()
            if not legal:                       # a deal is due and nobody deals it (a stacked game)
                break
            if policy is None or len(legal) == 1 or depth == 0:
                s.apply(legal[below(len(legal))])
            else:
                s.apply(policy(s))
                depth -= 1
            if not whole_game and s.history[-1].__class__ is Deal:
                hands += 1
                if hands >= MAX_HANDS or level(s.scores(), me, others) != root:
                    break
        if self.value == "win":
            w = s.winners()
            if not w:
                return 0.0
            return (1.0 if me in w else 0.0) / len({tuple(x) for x in s.game.sides() if x[0] in w or any(p in w for p in x)})
        return level(s.scores(), me, others)


def bots_for(game) -> dict:
    """The bots a table or a match may seat for `game`: the game's own (``game.bots()``: random, careful,
    rule-based) and the expert, which every game gets without listing it."""
    out = dict(game.bots())
    out.setdefault("expert", ExpertBot)
    return out
