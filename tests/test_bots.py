"""Bots: the match runner (cardkit/tournament.py), that no bot looks at what its seat may not see, the
club-player rules of the rule-based bots, and the expert (the search bot every game gets).

The figures of the 1,000-game matches are in docs/bots.md (``cardkit match --all``); nothing here depends on
them, and nothing here is timed.
"""
from __future__ import annotations

import copy

import pytest

import cardkit
from cardkit.bots import Estimate, ExpertBot, RandomBot, bots_for, default_playouts, game_bots
from cardkit.cards import PIQUET32
from cardkit.rng import Rng
from cardkit.tournament import (MatchResult, match, mean_ci, player_counts, result_for, seats_of_a, sides_of,
                                wilson)
from protocol_checks import stacked_partial

CASES = [(name, n) for name in cardkit.GAMES for n in player_counts(name)]
BOT_CASES = [(name, n, bot) for name, n in CASES
             for bot in game_bots(cardkit.load_game(name, players=n))]


# --- the runner's arithmetic ---------------------------------------------------------------------------
def test_wilson_interval_by_hand():
    # p = 1/2 over 100 games: centre 0.5, half width 1.96/(1 + 1.96²/100) · sqrt(0.25/100 + 1.96²/40000)
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    # 9 of 10: the interval is not symmetric and stays inside [0, 1]
    lo, hi = wilson(0.9, 10)
    assert lo == pytest.approx(0.5958, abs=1e-4) and hi == pytest.approx(0.9821, abs=1e-4)
    assert wilson(1.0, 30)[1] == pytest.approx(1.0) and wilson(0.0, 30)[0] == pytest.approx(0.0)


def test_sides_seats_and_shares():
    assert sides_of(2) == [[0], [1]] and sides_of(3) == [[0], [1], [2]] and sides_of(4) == [[0, 2], [1, 3]]
    # a game's own sides: partners in Sieben with four, each alone with three
    assert sides_of(4, cardkit.load_game("sieben", players=4)) == [[0, 2], [1, 3]]
    assert sides_of(3, cardkit.load_game("sieben", players=3)) == [[0], [1], [2]]
    # A's seats rotate over the sides game by game
    assert [seats_of_a(2, i) for i in range(4)] == [[0], [1], [0], [1]]
    assert [seats_of_a(3, i) for i in range(4)] == [[0], [1], [2], [0]]
    assert [seats_of_a(4, i) for i in range(3)] == [[0, 2], [1, 3], [0, 2]]
    # a win, a loss, a draw counted half; a team wins together; 1/k of a k-way tie
    assert result_for([1], [1], 2) == 1 and result_for([0], [1], 2) == 0 and result_for([0, 1], [1], 2) == 0.5
    assert result_for([1, 3], [1, 3], 4) == 1 and result_for([0, 2], [1, 3], 4) == 0
    assert result_for([0, 1, 2, 3], [0, 2], 4) == 0.5
    assert result_for([2], [2], 3) == 1 and result_for([0], [2], 3) == 0 and result_for([0, 2], [2], 3) == 0.5


def test_match_result_arithmetic():
    r = MatchResult("g", {"players": 2}, "a", "b", fair=0.5)
    for x in (1, 1, 1, 0.5, 0):
        r.results.append(x)
        r.total += x
        r.games += 1
    r.decisions, r.seconds = 500, 2.0
    assert r.win_rate == pytest.approx(0.7) and r.decisions_per_s == 250
    assert r.ci == wilson(0.7, 5) and not r.significant      # five games prove nothing


@pytest.mark.parametrize("name,n", CASES)
def test_a_bot_against_itself_scores_exactly_the_fair_share(name, n):
    """Each seed is played once from every side with the same seeded bots in the same seats, so a bot against
    itself wins exactly one of each group of games (or shares them all): the fair share, 1/2 or 1/3."""
    opts = {"players": n} if any(o.name == "players" for o in cardkit.game_class(name).option_specs) else {}
    k = len(sides_of(n, cardkit.load_game(name, **opts)))
    r = match(name, opts, "careful", "careful", games=2 * k, seed=5)
    assert r.games == 2 * k and r.fair == pytest.approx(1 / k)
    assert r.win_rate == pytest.approx(1 / k)


# --- small matches: the runner works for every game and player count --------------------------------------
@pytest.mark.parametrize("name,n", CASES)
def test_small_match_for_every_game_and_player_count(name, n):
    g = cardkit.load_game(name, players=n)
    assert {"random", "careful", "rule-based"} <= set(game_bots(g))
    r = match(name, {"players": n}, "rule-based", "random", games=60, seed=1)
    assert r.games == 60 == r.wins + r.draws + r.losses == len(r.results)
    assert r.options["players"] == n and r.a == "rule-based" and r.b == "random"
    assert 0 <= r.win_rate <= 1 and r.ci[0] <= r.win_rate <= r.ci[1]
    assert r.decisions > 60 and r.seconds > 0 and r.decisions_per_s > 0
    again = match(name, {"players": n}, "rule-based", "random", games=60, seed=1)
    assert again.results == r.results                       # seeded: the same games again


def test_mean_and_its_interval_by_hand():
    m, lo, hi = mean_ci([1, 2, 3, 4])
    half = 1.959963984540054 * (5 / 3 / 4) ** 0.5            # sample variance 5/3, four values
    assert m == 2.5 and lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    assert mean_ci([7])[0] == 7 and mean_ci([7])[1:] == (float("-inf"), float("inf"))
    assert mean_ci([0, 0, 0]) == (0, 0, 0)


def test_a_baseline_pairs_every_game_with_the_same_deal_played_by_the_baseline():
    """The baseline in A's seats: against itself every difference is exactly 0 (the same seeds, the same
    deals, the same opponents); another bot in A's seats shows its differences, and its win share is the
    paired share's reference."""
    same = match("sieben", {"players": 3}, "rule-based", "careful", games=6, seed=1, hands=True,
                 baseline="rule-based")
    assert same.paired == [0] * 6 and same.money == [0] * 6 and same.money_stats == (0, 0, 0)
    worse = match("sieben", {"players": 3}, "random", "careful", games=9, seed=1, hands=True,
                  baseline="rule-based")
    assert len(worse.paired) == len(worse.money) == 9 and any(worse.money)
    base = match("sieben", {"players": 3}, "rule-based", "careful", games=9, seed=1, hands=True)
    assert sum(worse.paired) == pytest.approx(worse.total - base.total)   # A's results minus the baseline's
    assert not base.paired and not base.money                              # no baseline, no pairs
    # where the lowest score wins, points gained are points lost: the sign is turned (game 0: A in seat 0)
    from cardkit.tournament import play_hand
    g = cardkit.load_game("vierundzwanzig", players=2)
    low = match("vierundzwanzig", {"players": 2}, "random", "rule-based", games=2, seed=2, hands=True,
                baseline="rule-based")
    rb, rnd = game_bots(g)["rule-based"], game_bots(g)["random"]
    _, _, b1, a1 = play_hand(g, 2, {0: rnd(seed=32), 1: rb(seed=33)})
    _, _, b0, a0 = play_hand(g, 2, {0: rb(seed=32), 1: rb(seed=33)})
    assert (a1[0] - b1[0]) != (a0[0] - b0[0]) and low.money[0] == -((a1[0] - b1[0]) - (a0[0] - b0[0]))


def test_worker_processes_give_the_same_match():
    """`jobs`: the games shared among worker processes give the very results of one process, in order — every
    game depends only on its seed and index (here the expert, whose bots keep memos and samples, paired)."""
    from cardkit.tournament import expert_factory
    for name, opts, hands in (("sieben", {"players": 2}, True), ("faro", {"players": 3}, False)):
        one = match(name, opts, expert_factory(5), "rule-based", games=5, seed=3, hands=hands,
                    baseline="rule-based")
        two = match(name, opts, expert_factory(5), "rule-based", games=5, seed=3, hands=hands,
                    baseline="rule-based", jobs=2)
        assert (two.results, two.paired, two.money, two.decisions) == (one.results, one.paired, one.money,
                                                                       one.decisions)
        assert two.worker_cpu_seconds > 0 and one.worker_cpu_seconds == 0
    for bad in (0, -1, 1.5, True):
        with pytest.raises(cardkit.CardkitError, match="jobs"):
            match("sieben", {}, "rule-based", "careful", games=2, jobs=bad)


def test_match_rejects_an_unknown_bot():
    with pytest.raises(cardkit.CardkitError, match="careful"):
        match("sieben", {}, "rule-based", "clever", games=2)


def test_match_command(capsys):
    from cardkit.cli import main
    assert main(["match", "sieben", "-o", "players=3", "--games", "6", "--bots", "rule-based,careful"]) == 0
    out = capsys.readouterr().out
    assert "rule-based vs careful, 6 games" in out and "95 % CI" in out and "even result is 33.3%" in out
    assert main(["match"]) == 2 and main(["match", "sieben", "--bots", "rule-based"]) == 2
    with pytest.raises(SystemExit):
        main(["--help"])                                     # the help texts format (a bare % would not)
    assert "match" in capsys.readouterr().out


# --- no bot peeks --------------------------------------------------------------------------------------
def peeking_choices(game, make_bot, seeds=(1, 2, 3, 4), every=2, steps=200, first=False):
    """Positions where a copy of the bot chooses differently on the state and on the state with the cards
    its seat has not seen dealt anew (``state.resample(me, rng)``): each would be a look at hidden cards.
    Every second decision of the first `steps` of a game is checked, in games the bot plays in every seat;
    with `first`, the search stops at the first such position."""
    bad = []
    for seed in seeds:
        s = game.new_state(seed=seed)
        bots = {p: make_bot(seed * 10 + p) for p in range(game.num_players)}
        for step in range(steps):
            if s.is_terminal():
                break
            me = s.current_player
            if step % every == 0 and len(s.legal_actions()) > 1:
                other = s.resample(me, Rng(seed * 1000 + step))
                a = copy.deepcopy(bots[me]).choose(s)
                b = copy.deepcopy(bots[me]).choose(other)
                if a.text != b.text:
                    bad.append((seed, step, a.text, b.text))
                    if first:
                        return bad
            s.apply(bots[me].choose(s))
    return bad


class PeekingBot:
    """Deliberately cheats: picks the action by the first card of the next seat's hand."""
    def __init__(self, seed=0):
        pass

    def choose(self, state):
        legal = state.legal_actions()
        other = state.hands[(state.current_player + 1) % state.game.num_players]
        return legal[(other[0].index if other else 0) % len(legal)]


@pytest.mark.parametrize("name,n,bot", BOT_CASES)
def test_no_bot_peeks(name, n, bot):
    g = cardkit.load_game(name, players=n)
    assert peeking_choices(g, game_bots(g)[bot]) == []


@pytest.mark.parametrize("name,n", CASES)
def test_the_peeking_check_catches_a_bot_that_peeks(name, n):
    g = cardkit.load_game(name, players=n)
    assert peeking_choices(g, PeekingBot, first=True) != []


# --- the Sieben bot plays like a club player --------------------------------------------------------------
COUNTER_RANKS = ("10", "A")


def sieben_answers(players, seeds, opponent="random"):
    """(state before, action) for every answer of the rule-based bot (seat 0, and 2 with 4 players) in games
    against `opponent`."""
    g = cardkit.load_game("sieben", players=players, match="round")
    bots = game_bots(g)
    for seed in seeds:
        s = g.new_state(seed=seed)
        seats = {p: bots["rule-based" if s.side(p) == 0 else opponent](seed * 10 + p) for p in range(players)}
        while not s.is_terminal():
            p = s.current_player
            a = seats[p].choose(s)
            if s.side(p) == 0 and s.trick and not s.deciding:
                yield s.clone(), a
            s.apply(a)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sieben_bot_never_throws_a_counter_onto_a_trick_of_the_other_side(players):
    """The condition: the bot answers (a trick is in progress and it is not deciding whether to continue),
    a player of the other side holds the trick (played its last equal card), and the bot holds a card that
    is not an Ace or a Ten. Then it does not play an Ace or a Ten that fails to beat (a Ten on a led Ten
    beats and is allowed). Not checked: the 2-player endgame with the stock empty, which the bot plays
    exactly; there giving up a counter can be right (holding 10♣ 7♣ against the last card 10♥, with 9♥ led
    and 40 counters to 20, the 7 must be kept for the last trick: throwing 10♣ wins the round 60 to 30,
    beating with 7♣ loses it 40 to 50)."""
    checked = 0
    for s, a in sieben_answers(players, range(40)):
        me = s.current_player
        if s.side(s.holder) == s.side(me) or all(c.rank in COUNTER_RANKS for c in s.hands[me]) or \
                (players == 2 and not s.stock):
            continue
        checked += 1
        assert not (a.card.rank in COUNTER_RANKS and not s.eqrow[a.card.index]), \
            (s.to_record().actions[-8:], [c.text for c in s.hands[me]], a.text)
    assert checked > 100


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sieben_bot_keeps_its_sevens_for_tricks_with_counters(players):
    """The condition: the bot answers a trick without an Ace or a Ten that is not the round's last trick
    (which brings 10), and it holds a card that is neither a 7 nor a counter. Then it does not play a 7.
    Not checked: the 2-player endgame with the stock empty, which the bot plays exactly."""
    checked = 0
    for s, a in sieben_answers(players, range(60), opponent="careful"):
        me = s.current_player
        last = not s.stock and all(len(h) <= 1 for h in s.hands)
        if any(c.rank in COUNTER_RANKS for _, c in s.trick) or last or \
                all(c.rank in COUNTER_RANKS + ("7",) for c in s.hands[me]) or (players == 2 and not s.stock):
            continue
        checked += 1
        assert a.card.rank != "7", (s.to_record().actions[-8:], [c.text for c in s.hands[me]])
    assert checked > 50


def test_sieben_bot_beats_a_worthless_trick_rather_than_throw_a_counter():
    """The old bot's fault: a 9 led, the bot holds a 9 and only counters besides; it threw an Ace. Now it
    takes the trick with its 9."""
    g = cardkit.load_game("sieben")
    s = stacked_partial(g, [["9H", "JS", "QS", "KS"], ["9D", "AD", "AC", "10D"]], size=4, avoid=("7", "9"))
    s.apply("9H")
    assert game_bots(g)["rule-based"](0).choose(s).text == "9D"


def test_sieben_bot_smears_onto_its_partners_nearly_sure_trick():
    """4 players: North leads 7♥ (only a 7 beats it), East does not beat, and South holds two of the other
    three 7s: only 7♠ can still take the trick from North, and West holds it with a chance of 4 in 26.
    South adds its Ace to the partner's trick (the old bot added counters only as the last to answer)."""
    g = cardkit.load_game("sieben", players=4)
    s = stacked_partial(g, [["7H", "8S", "8C", "9S"], ["QD", "QS", "KD", "KS"], ["7C", "7D", "AD", "9D"],
                            ["QC", "QH", "KC", "KH"]], size=4)
    s.apply("7H"), s.apply("QD")
    assert s.current_player == 2
    assert game_bots(g)["rule-based"](0).choose(s).text == "AD"


def test_careful_and_rule_based_bots_on_the_play_table_menu():
    for name in cardkit.GAMES:
        assert list(game_bots(cardkit.load_game(name))) == ["random", "careful", "rule-based"]
    assert PIQUET32.parse("AD").rank == "A"


# --- the expert: a determinized search bot for every game ----------------------------------------------------


def decisions(g, seed: int, every: int = 5, most: int = 3):
    """Up to `most` positions with a choice (two or more legal actions), met in a seeded random game: the
    first one and then every `every`-th decision."""
    s = g.new_state(seed=seed)
    r = Rng(seed)
    found, step = [], 0
    while not s.is_terminal() and len(found) < most:
        legal = s.legal_actions()
        if len(legal) > 1:
            if step % every == 0:
                found.append(s.clone())
            step += 1
        s.apply(legal[r.below(len(legal))])
    return found


@pytest.mark.parametrize("name,n", CASES)
def test_expert_analyses_every_legal_action_and_plays_a_legal_one(name, n):
    g = cardkit.load_game(name, players=n)
    positions = decisions(g, seed=3)
    assert positions
    for s in positions:
        legal = s.legal_actions()
        bot = ExpertBot(seed=1, playouts=24)
        est = bot.analyse(s)
        assert all(isinstance(e, Estimate) for e in est)
        assert sorted(e.text for e in est) == sorted(a.text for a in legal)        # each legal action once
        rest = [e.mean for e in est[1:]]
        assert rest == sorted(rest, reverse=True)                 # the move it plays, then the rest, best first
        assert all(e.samples >= 1 and e.low <= e.mean <= e.high for e in est)
        assert sum(e.samples for e in est) == bot.stats["playouts"] <= max(24, len(legal))
        assert all(e.action in legal for e in est)                                  # the state's own actions
        before = s.snapshot()
        a = ExpertBot(seed=1, playouts=24).choose(s)
        assert a in legal and a.text == est[0].text and s.snapshot() == before       # the state is not touched


def test_expert_spends_exactly_its_playout_budget():
    """One playout = one legal action played out in one sample; every action is tried in every sample, at
    least one sample is taken, and no sample is begun that the budget cannot finish."""
    s = cardkit.load_game("magische7").new_state(seed=4)
    k = len(s.legal_actions())
    assert k == 7
    for cap, want in ((1, 7), (7, 7), (20, 14), (100, 98)):
        bot = ExpertBot(seed=2, playouts=cap)
        est = bot.analyse(s)
        assert bot.stats["playouts"] == want and bot.stats["samples"] == want // k
        assert all(e.samples == want // k for e in est)
    bot = ExpertBot(seed=2, ms=5)                          # a time budget: at least one sample, all actions
    est = bot.analyse(s)
    assert bot.stats["samples"] >= 1 and len(est) == k and all(e.samples == bot.stats["samples"] for e in est)
    default = ExpertBot(seed=2)                                # the default: the game's own playouts
    assert default.playouts is None and default.ms is None
    default.analyse(s)
    assert default.stats["playouts"] == ExpertBot.PLAYOUTS // k * k
    faro = cardkit.load_game("faro", players=3).new_state(seed=5)
    while len(faro.legal_actions()) < 2:
        faro.apply(faro.legal_actions()[0])
    default.analyse(faro)
    kf = len(faro.legal_actions())
    assert default_playouts("faro") == 20 and default.stats["playouts"] == max(kf, 20 // kf * kf)


def test_the_time_never_stops_the_expert_short_of_its_measured_strength():
    """The play table stops the expert's thinking after a while, but never before the playouts at which the
    evidence in docs/bots.md measured it (`evidence_playouts`): in the static site Python runs slower, in the visitor's
    browser, and the opponent must still be the one measured."""
    from cardkit.bots import EVIDENCE_PLAYOUTS, evidence_playouts
    s = cardkit.load_game("magische7").new_state(seed=4)
    quick = ExpertBot(seed=2, ms=0.001)                          # the clock alone: one sample of 7 actions
    quick.analyse(s)
    floored = ExpertBot(seed=2, ms=0.001, playouts=100, min_playouts=30)
    floored.analyse(s)
    assert quick.stats["playouts"] == 7 and floored.stats["playouts"] == 35   # the sample that reaches 30 ends
    assert evidence_playouts(cardkit.load_game("magische7")) == 100 == EVIDENCE_PLAYOUTS["magische7"]
    assert evidence_playouts(cardkit.load_game("magische7", players=4)) == 30
    assert evidence_playouts(cardkit.load_game("bakkarat")) == default_playouts("bakkarat")
    from cardkit.tournament import EXPERT_EVIDENCE, expert_plan
    for game in cardkit.GAMES:                                   # the evidence is measured at the same playouts
        for n in player_counts(game):
            g = cardkit.load_game(game, **({"players": n} if "players" in cardkit.game_class(game)().options else {}))
            assert expert_plan(game, n).playouts in (None, evidence_playouts(g))
    assert set(EXPERT_EVIDENCE) == set(EVIDENCE_PLAYOUTS)


@pytest.mark.parametrize("bad", [{"playouts": 0}, {"playouts": -3}, {"playouts": True}, {"playouts": 2.5},
                                 {"ms": 0}, {"ms": -1}, {"ms": "5"}, {"ms": True}, {"min_playouts": 0},
                                 {"min_playouts": 1.5}])
def test_expert_rejects_a_budget_that_is_not_one(bad):
    with pytest.raises(cardkit.CardkitError, match="playouts|ms"):
        ExpertBot(seed=0, **bad)


def test_expert_is_deterministic_for_its_seed():
    s = cardkit.load_game("sieben", players=3).new_state(seed=8)
    a = [(e.text, e.mean, e.samples) for e in ExpertBot(seed=5, playouts=40).analyse(s)]
    b = [(e.text, e.mean, e.samples) for e in ExpertBot(seed=5, playouts=40).analyse(s)]
    c = [(e.text, e.mean, e.samples) for e in ExpertBot(seed=6, playouts=40).analyse(s)]
    assert a == b and a != c
    with pytest.raises(cardkit.CardkitError, match="no player is to move"):
        ExpertBot().analyse(cardkit.load_game("sieben").blank_state())


class PeekingExpert(ExpertBot):
    """Deliberately cheats: searches the true deal instead of deals of the unseen cards."""
    def _sample(self, state, me):
        return state._fork()


def hidden_differs(s, other) -> bool:
    deal = lambda st: next(a for a in reversed(st.history) if a.__class__ is cardkit.Deal)  # noqa: E731
    return deal(s) != deal(other)


@pytest.mark.parametrize("name,n", CASES)
def test_expert_never_reads_cards_it_has_not_seen(name, n):
    """Two positions that differ only in cards the mover has not seen (the second: the first with those cards
    dealt anew) get the same analysis from experts with the same seed, to the last digit; an expert that
    searches the true deal is caught by the same comparison."""
    g = cardkit.load_game(name, players=n)
    # Whist's scores are games, which a hand rarely moves: its playouts go to the end of the game here, or
    # every action would be worth 0 to both experts and the peeking one could not show itself
    kw = {"horizon": "game", "policy": "random"} if name == "whist" else {}
    compared = caught = 0
    for seed in (3, 4):
        for s in decisions(g, seed=seed, every=3, most=2):
            me = s.current_player
            other = s.resample(me, Rng(99 + seed))
            if not hidden_differs(s, other):
                continue
            compared += 1
            look = lambda bot, st: [(e.text, e.mean, e.samples) for e in bot.analyse(st)]  # noqa: E731
            assert look(ExpertBot(7, 30, **kw), s) == look(ExpertBot(7, 30, **kw), other)
            caught += look(PeekingExpert(7, 30, **kw), s) != look(PeekingExpert(7, 30, **kw), other)
    assert compared >= 2 and caught >= 1


# A position of Die Magische 7 (2 players) from a game between the rule-based bots: the stock is empty, so
# the opponent's hand is known (6 5 8 10 against Player 1's 2 -3 1 Spiegel), and Player 1 leads. Only the
# Spiegel lead wins the game whatever the opponent does.
SURE_WIN = ["deal: 7 Kreuz 2 6 3 -2 -4 -6 4 13 -3 -1 11 5 8 1 Spiegel 12 9 10 0 -5", "4", "-6", "11", "Joker",
            "13", "Joker", "3", "-2", "9", "-1", "7", "-5", "0", "Kreuz", "-4", "12"]


def sure_win(s, me) -> bool:
    """Whether `me` wins the game from `s` whatever the others do (all cards known: the stock is empty)."""
    if s.is_terminal():
        return s.winners() == [me]
    outcomes = []
    for a in s.legal_actions():
        f = s.clone()
        f.apply(a.text)
        outcomes.append(sure_win(f, me))
    return any(outcomes) if s.current_player == me else all(outcomes)


def test_expert_takes_a_sure_win_that_random_play_misses():
    s = cardkit.Record("magische7", {"players": 2}, SURE_WIN, {}).final_state()
    me = s.current_player
    assert me == 0 and not s.stock and [c.text for c in s.hands[1]] == ["6", "5", "8", "10"]
    wins = []
    for a in s.legal_actions():
        f = s.clone()
        f.apply(a.text)
        wins.append(a.text) if sure_win(f, me) else None
    assert wins == ["Spiegel"] and len(s.legal_actions()) == 4
    est = ExpertBot(seed=0).analyse(s)
    assert est[0].text == "Spiegel" and ExpertBot(seed=0).choose(s).text == "Spiegel"
    assert max(est, key=lambda e: e.mean) is est[0] and est[0].mean > 0     # the search finds it too
    assert sum(RandomBot(seed).choose(s).text == "Spiegel" for seed in range(100)) < 50


def test_expert_beats_random_play():
    r = match("magische7", {"players": 2}, "expert", "random", games=16, seed=0)
    assert r.a == "expert" and r.win_rate >= 0.8 and r.significant


def test_every_game_offers_the_expert():
    for name in cardkit.GAMES:
        g = cardkit.load_game(name)
        bots = bots_for(g)
        assert list(bots) == [*game_bots(g), "expert"] and bots["expert"] is ExpertBot
        assert bots["expert"](seed=3).name == "expert"
    assert "expert" not in game_bots(cardkit.load_game("sieben"))          # the game need not list it


def test_expert_carries_its_samples_through_a_hand_and_they_agree_with_what_it_sees():
    """The samples of a decision are replayed to the next decision of the same hand and kept when the seat's
    view agrees; a new hand starts afresh."""
    from cardkit.bots.expert import _observation
    g = cardkit.load_game("sieben", players=2)
    s = g.new_state(seed=2)
    expert, other = ExpertBot(seed=1, playouts=30), game_bots(g)["rule-based"](5)
    carried, fresh_hands = [], 0
    hand = 0
    while len(carried) < 40 and not s.is_terminal():
        if s.current_player == 0 and len(s.legal_actions()) > 1:
            deals = sum(1 for a in s.history if a.__class__ is cardkit.Deal)
            a = expert.choose(s)
            if deals != hand:
                assert expert.stats["carried"] == 0                  # a new hand: nothing carried
                hand, fresh_hands = deals, fresh_hands + 1
            else:
                carried.append(expert.stats["carried"])
            samples = expert._carry[3]
            assert all(_observation(x, 0) == _observation(s, 0) for x in samples)
            s.apply(a)
        else:
            s.apply(other.choose(s) if s.current_player == 1 else expert.choose(s))
    assert fresh_hands >= 2 and sum(carried) > 0 and max(carried) <= 30


def test_the_expert_leaves_the_rule_based_move_only_on_the_evidence_of_a_one_sided_t_test():
    from cardkit.stats import t95_one_sided as t95
    assert t95(1) == 6.314 and t95(6) == 1.943 and t95(30) == 1.697 and t95(1000) == 1.645
    assert t95(35) == t95(30) and t95(0) == float("inf")        # between rows the safer, larger quantile
    s = cardkit.load_game("magische7").new_state(seed=4)
    legal = s.legal_actions()
    rule = game_bots(cardkit.load_game("magische7"))["rule-based"](0).choose(s)
    d = legal.index(rule)
    bot = ExpertBot(seed=0)
    other = (d + 1) % len(legal)

    def values(n, gain, noise):
        vals = [[0.0] * n for _ in legal]
        vals[other] = [gain + (noise if i % 2 else -noise) for i in range(n)]
        return vals
    assert bot._pick(s, legal, values(1, 5.0, 0.0), other) == d            # one sample proves nothing
    # seven samples alternating gain ∓ 0.5: mean gain − 0.5/7, standard error 0.53/√7 ≈ 0.202
    assert bot._pick(s, legal, values(7, 1.0, 0.5), other) == other        # t ≈ 4.6 > 1.943
    assert bot._pick(s, legal, values(7, 0.3, 0.5), other) == d            # t ≈ 1.13
    assert bot._pick(s, legal, values(7, 0.44, 0.5), other) == d           # t ≈ 1.82: past z = 1.64, short of t
    fixed = ExpertBot(seed=0)
    fixed.ANCHOR = 1.64                                                    # a fixed z would have deviated
    assert fixed._pick(s, legal, values(7, 0.44, 0.5), other) == other
    assert bot._pick(s, legal, values(40, 0.3, 0.5), other) == other       # enough samples: t ≈ 3.7
    # the same gain in every sample: no spread for a t-test; a sign test needs 5 samples all in favour
    assert bot._pick(s, legal, values(2, 1.0, 0.0), other) == d            # two alike prove nothing
    assert bot._pick(s, legal, values(4, 1.0, 0.0), other) == d            # ½⁴ ≈ 6 %
    assert bot._pick(s, legal, values(5, 1.0, 0.0), other) == other        # ½⁵ ≈ 3 %


def test_magische7_rule_based_endgame_plays_a_best_move():
    """With 2 players and the stock empty each seat knows the other's hand: the bot's exact endgame must play a
    move whose outcome under best play on both sides (a plain search over the engine's own states) is the best
    one — point difference from here, the bot's seat against the other."""
    g = cardkit.load_game("magische7", joker_completes_seven=True)
    bot = game_bots(g)["rule-based"]

    def best(s, me):
        if s.is_terminal():
            sc = s.scores()
            return sc[me] - sc[1 - me]
        vals = []
        for a in s.legal_actions():
            f = s._fork()
            f.apply(a)
            vals.append(best(f, me))
        return max(vals) if s.current_player == me else min(vals)

    checked = 0
    for seed in range(40):
        s = g.new_state(seed=seed)
        r = Rng(seed)
        while not s.is_terminal():
            me, legal = s.current_player, s.legal_actions()
            if not s.stock and len(s.hands[me]) <= 4 and len(legal) > 1:
                outcome = {}
                for a in legal:
                    f = s._fork()
                    f.apply(a)
                    outcome[a.text] = best(f, me)
                assert outcome[bot(seed).choose(s).text] == max(outcome.values())
                checked += 1
                break
            s.apply(legal[r.below(len(legal))])
    assert checked >= 20


def test_magische7_light_copies_play_on_exactly_like_replays():
    """The expert's playouts and resample's tries start from ``_fork``, a light copy of the position: it equals
    the replayed clone, plays on to the same states, and leaves the original untouched."""
    for opts in ({"players": 2}, {"players": 4, "no_repeat": "same_pair", "draw_4p": "all"}):
        g = cardkit.load_game("magische7", **opts)
        r = Rng(5)
        for seed in range(6):
            s = g.new_state(seed=seed)
            while not s.is_terminal():
                f, c = s._fork(), s.clone()
                assert f.snapshot() == c.snapshot() == s.snapshot()
                q = Rng(seed)
                while not f.is_terminal():
                    l1, l2 = f.legal_actions(), c.legal_actions()
                    assert [a.text for a in l1] == [a.text for a in l2]
                    i = q.below(len(l1))
                    f.apply(l1[i])
                    c.apply(l2[i])
                assert f.snapshot() == c.snapshot() and s.snapshot() == s.clone().snapshot()
                legal = s.legal_actions()
                s.apply(legal[r.below(len(legal))])


def test_the_evidence_command_runs_one_game_and_player_count(capsys, monkeypatch):
    """`python -m cardkit.tournament expert --only GAME --players N` (tiny here: two games at 7 playouts)."""
    from cardkit import tournament
    monkeypatch.setitem(tournament.EXPERT_EVIDENCE, "magische7", tournament.Plan(7))
    assert tournament.main(["expert", "--only", "magische7", "--players", "2", "--games", "2", "--no-times"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("magische7")]
    assert len(rows) == 1 and " 2  game        7     2 " in rows[0] and "paired" in out
    assert tournament.main(["expert", "--only", "magische7", "--players", "2", "--games", "2", "--no-times",
                            "--jobs", "2"]) == 0
    again = [line for line in capsys.readouterr().out.splitlines() if line.startswith("magische7")]
    cpu = rows[0].index(" s") - 6                         # the CPU column, the one figure that may differ
    assert again[0][:cpu] == rows[0][:cpu] and len(rows[0][:cpu]) > 100   # the same with two workers
    t = tournament.expert_move_times("magische7", {}, positions=2, playouts=7)
    assert t["positions"] == 2 and t["median_cpu_s"] <= t["slowest_cpu_s"] and t["playouts_per_s"] > 0
    assert t["at_cap"] is None or 0 <= t["at_cap"] < 7


@pytest.mark.parametrize("name,players", CASES)
def test_one_bot_playing_every_seat_decides_as_fresh_bots_do(name, players):
    """The expert's playouts seat one rule-based (or careful) bot in every seat: whatever a bot keeps between
    decisions (a memo, say) must serve any seat, so that, given the same random numbers, it chooses what a
    fresh bot would (Sieben's endgame memo once gave values for the wrong side)."""
    g = cardkit.load_game(name, players=players)
    for policy in ("rule-based", "careful"):
        make = game_bots(g).get(policy)
        if make is None:
            continue
        for seed in range(2):
            s, shared, k = g.new_state(seed=seed), make(7), 0
            while not s.is_terminal() and k < 120:
                legal = s.legal_actions()
                if len(legal) > 1:
                    shared.rng, fresh = Rng(k), make(7)
                    fresh.rng = Rng(k)
                    a = shared.choose(s)
                    assert a.text == fresh.choose(s).text, (policy, seed, k)
                    s.apply(a)
                else:
                    s.apply(legal[0])
                k += 1


@pytest.mark.parametrize("bad", [{"policy": "clever"}, {"horizon": "match"}, {"objective": "money"}])
def test_expert_rejects_an_unknown_rollout(bad):
    with pytest.raises(cardkit.CardkitError, match="policy|horizon|objective"):
        ExpertBot(seed=0, **bad)


class _Ended:
    """A stand-in for a playout's last state: its scores and (at the end of the game) its winners."""
    def __init__(self, scores, winners=None):
        self._s, self._w = scores, winners

    def scores(self):
        return self._s

    def winners(self):
        return self._w

    def is_terminal(self):
        return self._w is not None


def test_expert_playing_to_win_counts_its_share_as_the_evidence_does():
    share = ExpertBot._share
    sides = [[0], [1], [2]]
    # a hand: the sides that gained most since it was dealt share the win
    assert share(_Ended([5, 5, 1]), sides, 0, 1, [0, 0, 0], False) == 0.5
    assert share(_Ended([5, 5, 1]), sides, 2, 1, [0, 0, 0], False) == 0.0
    assert share(_Ended([5, 5, 1]), sides, 2, 1, [0, 0, -9], False) == 1.0      # gained 10 since the deal
    assert share(_Ended([5, 5, 1]), sides, 2, -1, [0, 0, 0], False) == 1.0     # the lowest score wins
    # the end of the game: its own winners, whatever the scores
    assert share(_Ended([5, 5, 1], winners=[1]), sides, 1, 1, [0, 0, 0], True) == 1.0
    assert share(_Ended([5, 5, 1], winners=[1]), sides, 0, 1, [0, 0, 0], True) == 0.0
    # partners share their side's win
    assert share(_Ended([3, 0, 3, 0]), [[0, 2], [1, 3]], 0, 1, [0, 0, 0, 0], False) == 1.0


def test_expert_playing_to_win_estimates_its_chance_of_winning():
    g = cardkit.load_game("faro", players=3)
    s = g.new_state(seed=5)
    rule = game_bots(g)["rule-based"](0)
    while len(s.legal_actions()) < 2:
        s.apply(rule.choose(s))
    win = ExpertBot(seed=1, playouts=60, objective="win").analyse(s)
    assert {e.unit for e in win} == {"win"} and all(-1e-3 < e.mean < 1 + 1e-3 for e in win)
    assert any(0 < e.mean < 1 for e in win)                      # neither sure to win nor sure to lose
    points = ExpertBot(seed=1, playouts=60, objective="points").analyse(s)
    assert {e.unit for e in points} == {"points"} and any(abs(e.mean) > 1 for e in points)



def test_playing_to_win_a_points_edge_alone_never_overrules_the_rule_based_move(monkeypatch):
    """Points only break ties between equal shares: where every sample gave each action the same share of the
    win, the expert plays the rule-based move, however consistently another action gained money."""
    g = cardkit.load_game("faro", players=3)
    rule = game_bots(g)["rule-based"]
    positions = []
    s = g.new_state(seed=11)
    while not s.is_terminal() and len(positions) < 40:
        if len(s.legal_actions()) > 1:
            positions.append(copy.deepcopy(s))
        s.apply(rule(0).choose(s))

    def departures(objective):
        bot = ExpertBot(seed=3, playouts=60, objective=objective)
        return sum(bot.choose(p).text != rule(0).choose(p).text for p in positions)
    assert departures("points") > 0                       # money alone does move the expert off the rule-based move
    monkeypatch.setattr(ExpertBot, "_share", staticmethod(lambda *a: 0.0))   # every playout: the same share
    assert departures("win") == 0


def test_the_expert_tells_whists_cards_apart_by_the_hand_points_they_make(monkeypatch):
    """Whist's scores are game points, which the first hand of a game cannot move (a game point needs seven
    hand points: all 13 tricks). Valued by the scores, every card of the first hand looked alike to the
    expert; valued by the standing (``State.standing``: the hand points too) it tells them apart."""
    g = cardkit.load_game("whist")
    rule = game_bots(g)["rule-based"](0)
    s, positions = g.new_state(seed=4), []
    while len(positions) < 6:
        if len(s.legal_actions()) > 2:
            positions.append(copy.deepcopy(s))
        s.apply(rule.choose(s))
    assert s.scores() == [0, 0, 0, 0] and not s.is_chance()          # still the first hand

    def spread():
        return [max(e.mean for e in est) - min(e.mean for e in est)
                for est in (ExpertBot(seed=2, playouts=40).analyse(p) for p in positions)]
    assert max(spread()) >= 0.5
    monkeypatch.setattr(type(s), "standing", lambda self: self.scores())
    assert max(spread()) == 0


def test_expert_rollouts_per_game():
    assert ExpertBot().rollouts(cardkit.load_game("magische7")) == ("rule-based", "game")
    assert ExpertBot().rollouts(cardkit.load_game("sieben")) == ("rule-based", "hand")
    assert ExpertBot().rollouts(cardkit.load_game("ecarte")) == ("rule-based", "hand")
    assert ExpertBot(policy="random", horizon="hand").rollouts(cardkit.load_game("magische7")) == ("random", "hand")
