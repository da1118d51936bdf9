"""`cardkit bench`'s measurements: what they count and compare (not how fast: speed figures live in the bench)."""
import pytest

import cardkit
from cardkit import bench
from cardkit.game import Deal
from cardkit.rng import Rng


def _random_game(name, options, seed, below):
    s = cardkit.load_game(name, **options).new_state(seed=seed)
    n = 0
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply(acts[below(len(acts))])
        n += 1
    return n, s


def test_a_slice_plays_whole_seeded_games_and_counts_their_decisions_and_hands():
    e = bench._Engine("sieben", {"players": 2})
    d, h, g, dt = e.run(0.0)                       # a slice plays at least one whole game
    assert g == 1 and e.seed == 1 and dt >= 0
    want, s = _random_game("sieben", {"players": 2}, 0, Rng(7).below)
    assert d == want
    assert h == sum(1 for a in s.history if a.__class__ is Deal) > 1     # Sieben deals several hands
    d2, _, g2, _ = e.run(0.0)                      # the next slice goes on with the next seed
    below = Rng(7).below
    _random_game("sieben", {"players": 2}, 0, below)
    assert (d2, g2) == (_random_game("sieben", {"players": 2}, 1, below)[0], 1)


def test_engine_throughput_reports_per_second_rates():
    r = bench.engine_throughput("magische7", {}, 0.05)
    assert r["game"] == "magische7" and r["decisions_per_s"] > 0
    assert abs(r["decisions_per_s"] - r["games_per_s"] * r["decisions_per_game"]) <= 1e-9 * r["decisions_per_s"]


def test_beside_a_reference_the_ratio_is_to_the_median_of_the_slices_taken_turn_about():
    reference = {"a": bench._Engine("magische7", {}), "b": bench._Engine("sieben", {"players": 3}),
                 "c": bench._Engine("whist", {})}
    r = bench.beside_openspiel("magische7", {}, 0.3, rounds=3, reference=reference)
    assert set(r["openspiel"]) == {"a", "b", "c"}
    assert all(e.seed >= 3 for e in reference.values())          # every reference game ran in every round
    assert r["openspiel_median"] == sorted(r["openspiel"].values())[1]
    assert r["openspiel_ratio"] == r["decisions_per_s"] / r["openspiel_median"]



def test_a_burst_ratio_compares_each_round_with_the_baselines_burst_of_the_same_round():
    # the machine is slow in the second round, for the page and the baseline alike
    times = {"baseline.ipynb": [17.0, 24.0, 18.0], "p.ipynb": [20.4, 28.8, 19.0]}
    memory = {"baseline.ipynb": [5, 6, 7], "p.ipynb": [9, 8, 7]}
    r = bench.burst_summary(times, memory)
    assert r["p.ipynb"]["ratio"] == pytest.approx(1.2)           # rounds: 1.2, 1.2, 1.06
    assert r["baseline.ipynb"]["ratio"] == 1.0
    assert r["p.ipynb"]["seconds"] == 20.4 and r["p.ipynb"]["memory"] == 8
    assert r["p.ipynb"]["bursts"] == [20.4, 28.8, 19.0]
    # median against median would pair the page's first round with the baseline's third
    assert r["p.ipynb"]["seconds"] / r["baseline.ipynb"]["seconds"] == pytest.approx(20.4 / 18.0)


def test_the_cold_odds_row_times_every_phase_with_the_memos_emptied(monkeypatch):
    from cardkit.games import bakkarat
    cleared = []
    monkeypatch.setattr(bench, "_clear_odds_memos", lambda name: cleared.append(name) or bakkarat._CACHE.clear())
    r = bench.cold_odds_times("bakkarat", {}, sittings=1, positions=12)
    assert r["game"] == "bakkarat" and len(cleared) == 12                # every advice starts from empty memos
    assert "stake" in r["phases"] and r["max"] == max(r["phases"].values())


def test_vingt_et_uns_cold_rows_reach_every_stake_position():
    g = cardkit.load_game("vingt_et_un", bank_second="with")
    from cardkit.games.vingt_et_un import CLS, STAKE
    seen = set()
    for s in bench._vu_stake_positions(g):
        assert s.phase == STAKE and s.current_player == 0 and len(s.hands[s.bank]) == 1   # its second: later
        seen.add((CLS[s.hands[s.bank][0].index], CLS[s.hands[0][0].index]))
    assert len(seen) == 49


def test_a_tables_ratio_to_the_bare_pyodide_page_compares_each_round_with_the_bare_page_of_the_same_round():
    # (the Pyodide rows themselves are not run here: a Pyodide start in Node.js costs about 3 s of CPU, 8-15 s on
    # the loaded machine, and on a clean clone it would fetch Pyodide into the cache the static build is filling)
    from cardkit.bench import ratios_to_bare
    bare = [4.0, 6.0, 4.5]                      # the machine slow in the second round
    assert ratios_to_bare([5.0, 7.5, 5.0], bare) == pytest.approx(1.25)     # rounds: 1.25, 1.25, 1.11
    assert ratios_to_bare([None, 7.5], bare) == pytest.approx(1.25)          # a round without a time left out
    assert ratios_to_bare([], bare) is None
