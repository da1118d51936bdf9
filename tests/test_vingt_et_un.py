"""Vingt-et-un: a test for every rule ID of cardkit/rules/vingt_et_un.toml, the source's worked example, the
settlement table cell by cell, the exact odds against brute force and a seeded simulation, bad input, bots.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from math import sqrt

import pytest

import cardkit
import cardkit.documents
from cardkit import CardkitError, Deal, IllegalActionError, OptionError
from cardkit.cards import PIQUET32
from cardkit.games import vingt_et_un as vu
from cardkit.games.vingt_et_un import DEAD, NATURAL, TWENTYONE
from cardkit.ledger import TABLE
from cardkit.record import load_example
from cardkit.rng import Rng
from cardkit.tournament import match
from cardkit.bots import game_bots

C = PIQUET32.parse_many


def game(**o):
    return cardkit.load_game("vingt_et_un", **o)


def stacked(hands, stock="", **o):
    g = game(**o)
    return g.new_state(deal=g.stack(hands, stock))


def hand(text):
    return vu.odds_hand(C(text))


# --- VU-0: the table, the values, the sitting ---------------------------------------------------------
def test_vu_0_players_and_pack():
    """VU-0: a bank and 2 to 4 players, a 32-card pack."""
    assert [o for o in vu.OPTIONS if o.name == "players"][0].choices == (3, 4, 5)
    assert game().num_players == 4 and game().player_names() == ["Anton", "Berta", "Carl", "Dora"]
    assert len(game().full_deck()) == 32
    for bad in (2, 6):
        with pytest.raises(OptionError, match="players"):
            game(players=bad)


@pytest.mark.parametrize("cards,total", [("AS", 11), ("AS AH", 21), ("JS QH", 2), ("KS", 2), ("10S 7H", 17),
                                         ("AS 10H", 21), ("AS 7C 8H", 26), ("AS AH JC", 22), ("KS KH QD", 5)])
def test_vu_0_1_card_values(cards, total):
    """VU-0.1: Ace 11, two Aces 21, Jack and Queen 1, King 2, the others by pips."""
    assert vu.hand_total(C(cards), 0) == total
    assert "11 (two Aces together: 21)" in game().rule_tables()["values"].markdown()


def test_vu_0_2_a_sitting_of_coups():
    """VU-0.2: a sitting is a fixed number of coups; the scores are the final balances."""
    for coups in (1, 3):
        s = game(coups=coups).new_state(seed=3)
        bot = cardkit.bots.RandomBot(1)
        deals = 0
        while not s.is_terminal():
            s.apply(bot.choose(s))
        deals = sum(1 for a in s.history if isinstance(a, Deal))
        assert deals == coups == s.coup and len(s.log) == coups
        assert s.scores() == [s.ledger.balance(n) for n in s.names] and sum(s.scores()) == 0
        assert len(s.score_table().rows) == coups


def test_vu_0_2_1_every_coup_from_a_fresh_pack():
    """VU-0.2.1: each coup is a deal of the whole pack of its own: the cards of one coup come back in the next."""
    s = game(coups=3).new_state(seed=4)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    deals = [a for a in s.history if a.__class__ is Deal]
    assert len(deals) == 3 and all(sorted(c.index for c in d.cards) == list(range(32)) for d in deals)
    assert not any(o.name in ("pack", "deal_on") for o in vu.OPTIONS)     # not offered: the odds count one pack


def test_vu_0_3_seats_units_and_ledger():
    """VU-0.3: the last seat holds the first bank; money in whole units; the ledger balances."""
    s = game().new_state(seed=1)
    assert s.bank == 3 and s.current_player == 0 and list(s.order) == [0, 1, 2]
    assert s.ledger.accounts == ("Anton", "Berta", "Carl", "Dora", TABLE)
    s.apply("stake 2")
    assert s.ledger.balance("Anton") == -2 and s.ledger.balance(TABLE) == 2 and s.ledger.total() == 0


# --- VU-1: the deal and the players -----------------------------------------------------------------
def test_vu_1_the_order_of_a_coup():
    """VU-1: deal, stakes, second card, more cards, dead over 21, then the bank and the settlement."""
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "10C JD 8D")
    assert s.phase == vu.STAKE
    for _ in range(3):
        s.apply("stake 1")
    assert s.phase == vu.DRAW
    s.apply("stand")            # Anton 19
    s.apply("draw")             # Berta 15 + 10 = 25: dead
    assert s.dead[1] and s.current_player == 2
    s.apply("stand")            # Carl 3; the bank 9 + 1 = 10, + 8 = 18
    assert s.coup == 1 and s.is_chance()
    assert [x[3] for x in s.log[0][3]] == [1, -1, -1]


def test_vu_1_1_one_card_face_down_the_banks_face_up():
    """VU-1.1: one card face down to each player from the bank's left, the bank's own face up."""
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]])
    assert [len(h) for h in s.hands] == [1, 1, 1, 1]
    v = s.view(0)
    assert v.seats[0].hand == C("10H") and v.seats[1].hand == [None] and v.seats[2].hand == [None]
    assert v.seats[3].hand == C("9D")                     # the bank's card is face up
    assert s.view(1).seats[0].hand == [None]


def test_vu_1_2_stakes_within_the_limits():
    """VU-1.2: the stakes offered are 1, 2, 5, 10 up to the limit; anything else is refused."""
    s = game(limit=5).new_state(seed=2)
    assert [a.text for a in s.legal_actions()] == ["stake 1", "stake 2", "stake 5"]
    assert [a.text for a in game(limit=10).new_state(seed=2).legal_actions()][-1] == "stake 10"
    assert [a.text for a in game(limit=2).new_state(seed=2).legal_actions()] == ["stake 1", "stake 2"]
    before = s.snapshot()
    for bad, words in [("stake 20", "above the table's limit of 5 units"), ("stake 3", "stakes of 1, 2, 5"),
                       ("stake 0", "below"), ("stake x", "whole number"), ("draw", "stakes first")]:
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "VU-1.2" and words in str(e.value)
        assert s.snapshot() == before                      # nothing changed


def test_vu_1_2_no_second_stake_once_the_cards_come():
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]])
    for _ in range(3):
        s.apply("stake 1")
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply("stake 1")
    assert e.value.rule == "VU-1.2" and "after the first card" in e.value.why and s.snapshot() == before


def test_vu_1_3_a_second_card_to_all_the_bank_waits():
    """VU-1.3: a second card to every player, face down; the bank takes none yet."""
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]])
    for _ in range(3):
        s.apply("stake 1")
    assert [h for h in s.hands] == [C("10H 9H"), C("8C 7C"), C("KS QS"), C("9D")]
    assert s.view(0).seats[1].hand == [None, None]


def test_vu_1_3_1_the_banks_second_card_with_the_players_under_the_classic_reading():
    """VU-1.3.1. The kit's reading: the bank's second card comes after the players (the test above). The
    classic reading: it comes with the players' second cards, face up, so the players see it before they
    draw — and the odds count with it, before the stake too (checked against a brute force over every
    order of a small pack)."""
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D", "KC"]], "JH 10S", bank_second="with", coups=1)
    assert s.hands[3] == C("9D")
    for _ in range(3):
        s.apply("stake 2")
    assert s.hands[3] == C("9D KC") and s.view(0).seats[3].hand == C("9D KC")     # face up, before anyone draws
    assert "9♦ and K♣ (11)" in s.status()
    odds = {o.label: o.value for o in s.advice(0)}
    pool = vu.pool_without(C("10H 9H 9D KC"))
    assert odds["Expected result if you stand (stake 2)"] == 2 * vu.odds_stand(hand("10H 9H"), hand("9D KC"), pool)
    for _ in range(3):
        s.apply("stand")
    assert s.hands[3] == C("9D KC JH 10S")                 # 11, then J 12, then 10: 22, its draws after the players
    with pytest.raises(IllegalActionError) as e:
        game(bank_second="with").stack([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]])
    assert e.value.rule == "VU-1.1" and "two for the bank" in e.value.why
    # the value of a hand before the stake: the bank's second card seen first, against waiting for it
    mine, bank, pool = C("10H"), C("9D"), C("KS 7C 8H AD QC 9S")
    pt = vu.pool_without(c for c in PIQUET32.cards if c not in pool)
    n = len(pool)
    with_players = sum(_brute_best(mine + [k], bank + [j], [c for c in pool if c not in (k, j)])[0]
                       for k in pool for j in pool if j is not k) / (n * (n - 1))
    after = sum(_brute_best(mine + [k], bank, [c for c in pool if c is not k])[0] for k in pool) / n
    assert vu.odds_hand_value(hand("10H"), hand("9D"), pt, 0, False, True) == with_players
    assert vu.odds_hand_value(hand("10H"), hand("9D"), pt) == after and after != with_players


def test_vu_1_4_more_cards_on_request_face_down():
    s = stacked([["KH", "QH"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "JH JC")
    for _ in range(3):
        s.apply("stake 1")
    s.apply("draw")
    s.apply("draw")
    assert s.hands[0] == C("KH QH JH JC") and s.current_player == 0
    assert s.view(1).seats[0].hand == [None] * 4 and s.view(0).seats[0].hand == C("KH QH JH JC")
    assert {a.text for a in s.legal_actions()} == {"draw", "stand"}
    s.apply("stand")
    assert s.current_player == 1


def test_vu_1_5_dead_at_once_stake_to_the_bank():
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "10C")
    for _ in range(3):
        s.apply("stake 2")
    s.apply("stand")
    s.apply("draw")                                        # Berta: 8 + 7 + 10 = 25
    assert s.dead[1] and s.shown[1] and s.current_player == 2
    assert s.view(0).seats[1].hand == C("8C 7C 10C")      # shown to all
    assert s.ledger.balance("Dora") == 2 and s.ledger.balance(TABLE) == 4
    assert s.ledger.entries[-1][1:4] == (TABLE, "Dora", 2) and s.ledger.entries[-1][5] == "VU-1.5"


def test_vu_1_6_the_pack_cannot_run_out():
    """VU-1.6: counting Aces as 1 the pack holds 156 points, a hand at most 21 + 10: five hands hold 155."""
    low = {"J": 1, "Q": 1, "K": 2, "A": 1}
    points = sum(low.get(c.rank, vu.VALUE[c.rank]) for c in PIQUET32.cards)
    assert points == 156 and 5 * (21 + 10) < points
    # and in play: never more than 31 cards used, under every bank rule and Ace reading
    for opts in ({}, {"players": 5, "bank_rule": "free"}, {"players": 5, "ace": "one or eleven"}):
        s = game(coups=20, **opts).new_state(seed=11)
        bot = cardkit.bots.RandomBot(2)
        while not s.is_terminal():
            assert s.top < 32
            s.apply(bot.choose(s))


# --- VU-1.7: the exact odds ---------------------------------------------------------------------------
def _brute_bank(bank_cards, pool_cards, mode=0):
    """The bank's results by brute force: every order of the pool, the fixed rule."""
    out = {}
    perms = list(itertools.permutations(pool_cards))
    for perm in perms:
        h = list(bank_cards)
        i = 0
        while vu.hand_total(h, mode) < 17 and i < len(perm):
            h.append(perm[i])
            i += 1
        code = vu.result_code(vu.hand_total(h, mode), len(h))
        out[code] = out.get(code, 0) + Fraction(1, len(perms))
    return out


def _brute_stand(my_cards, bank_cards, pool_cards, mode=0):
    me = vu.result_code(vu.hand_total(my_cards, mode), len(my_cards))
    return sum(p * vu.multiple(code, me) for code, p in _brute_bank(bank_cards, pool_cards, mode).items())


def _brute_best(my_cards, bank_cards, pool_cards, mode=0):
    """Expectimax over explicit cards: stand, or draw each card and play on."""
    stand = _brute_stand(my_cards, bank_cards, pool_cards, mode)
    if not pool_cards:
        return stand, stand, None
    draw = Fraction(0)
    for i, c in enumerate(pool_cards):
        rest = pool_cards[:i] + pool_cards[i + 1:]
        h = my_cards + [c]
        if vu.hand_total(h, mode) > 21:
            v = sum(p * vu.multiple(code, DEAD) for code, p in _brute_bank(bank_cards, rest, mode).items())
        else:
            v = _brute_best(h, bank_cards, rest, mode)[0]
        draw += v / len(pool_cards)
    return max(stand, draw), stand, draw


SMALL = [("10H QS", "9D", "KS 7C 8H AD QC"), ("KH QH", "10D", "9S 8C KD JS 7H"), ("AS 7C", "7D", "AH 10C 9S KC QD"),
         ("9H 9C", "AD", "10S 8C 7H JD KH")]


@pytest.mark.parametrize("mine,bank,pool", SMALL)
def test_vu_1_7_odds_match_brute_force_on_small_decks(mine, bank, pool):
    """VU-1.7: the enumeration with integer numerators over M! agrees with a brute force over every order."""
    mine, bank, pool = C(mine), C(bank), C(pool)
    pt = vu.pool_without(c for c in PIQUET32.cards if c not in pool)
    for mode in (0, 1):
        dist = vu.odds_bank(vu.odds_hand(bank), pt, mode)
        assert dist == _brute_bank(bank, pool, mode)
        best, stand, draw = _brute_best(mine, bank, list(pool), mode)
        assert vu.odds_stand(vu.odds_hand(mine), vu.odds_hand(bank), pt, mode) == stand
        assert vu.odds_draw(vu.odds_hand(mine), vu.odds_hand(bank), pt, mode) == draw
        assert vu.odds_best(vu.odds_hand(mine), vu.odds_hand(bank), pt, mode) == best
        dead = Fraction(sum(1 for c in pool if vu.hand_total(mine + [c], mode) > 21), len(pool))
        assert vu.odds_dead(vu.odds_hand(mine), pt, mode) == dead


def test_vu_1_7_odds_against_a_seeded_simulation():
    """The expected result of standing on 15 (10♥ 5 points) against the bank's 10 from a full pack, and the
    bank's chance to go dead, within a 99.9 % interval of a seeded simulation."""
    mine, bank = C("10H KS KH QS"), C("10D")           # 10 + 2 + 2 + 1 = 15
    pt = vu.pool_without(mine + bank)
    ev = vu.odds_stand(vu.odds_hand(mine), vu.odds_hand(bank), pt)
    pdead = vu.odds_bank(vu.odds_hand(bank), pt)[DEAD]
    rest = [c for c in PIQUET32.cards if c not in mine + bank]
    rng = Rng(2024)
    n, total, total2, deads = 20000, 0, 0, 0
    me = vu.result_code(15, 4)
    for _ in range(n):
        cards = rng.shuffle(list(rest))
        h = list(bank)
        i = 0
        while vu.hand_total(h) < 17:
            h.append(cards[i])
            i += 1
        code = vu.result_code(vu.hand_total(h), len(h))
        x = vu.multiple(code, me)
        total += x
        total2 += x * x
        deads += code == DEAD
    mean = total / n
    sd = sqrt(total2 / n - mean * mean)
    assert abs(float(ev) - mean) < 3.3 * sd / sqrt(n)
    assert abs(float(pdead) - deads / n) < 3.3 * sqrt(float(pdead) * (1 - float(pdead)) / n)


def test_vu_1_7_advice_for_the_player_in_front():
    s = stacked([["KH", "QH"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "JH")
    odds = s.advice(0)
    assert odds[0].label.startswith("Expected result per unit staked") and isinstance(odds[0].value, Fraction)
    assert s.advice(1) == []                               # not Berta's turn
    for _ in range(3):
        s.apply("stake 2")
    odds = {o.label: o.value for o in s.advice(0)}
    assert odds["You go dead if you draw"] == 0            # 3 points: nothing takes it over 21
    pool = vu.pool_without(C("KH QH 9D"))
    assert odds["Expected result if you stand (stake 2)"] == 2 * vu.odds_stand(hand("KH QH"), hand("9D"), pool)
    assert odds["Expected result if you draw, then play on by the odds (stake 2)"] > \
        odds["Expected result if you stand (stake 2)"]
    with pytest.raises(CardkitError, match="seat"):
        s.advice(7)


def test_vu_1_7_strategy_chart_for_the_sources_values():
    t = game().rule_tables()["strategy"]
    cells = {r[0]: r[1:] for r in t.rows}
    assert all(x == "draw" for x in cells["2"])            # 2 points: no card takes it over 21
    # 13 is only Ace + King, 14 only 7 + 7: each cell is the odds of that one hand against the open card
    for total, cards in (("13", "AS KS"), ("14", "7S 7H")):
        for b, bank in enumerate(["JD", "KD", "7D", "8D", "9D", "10D", "AD"]):
            pool = vu.pool_without(C(cards + " " + bank))
            draw = vu.odds_draw(hand(cards), hand(bank), pool) > vu.odds_stand(hand(cards), hand(bank), pool)
            assert cells[total][b] == ("draw" if draw else "stand"), (total, bank)
    assert cells["13"] != cells["14"]                      # the chart turns between them


@pytest.mark.parametrize("mode", [0, 1])
def test_vu_1_7_the_chart_on_the_page_is_the_engines_count(mode):
    """The page shows the chart from the module (no wait); the engine counts it again here: the same."""
    assert vu.strategy_table(mode, count=True).rows == vu.strategy_table(mode).rows


# --- VU-2: the bank ---------------------------------------------------------------------------------------
def test_vu_2_the_bank_draws_face_up_after_the_players():
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "KC JC JD 8D", coups=1)
    for _ in range(3):
        s.apply("stake 1")
    s.apply("stand"), s.apply("stand"), s.apply("stand")
    # the bank 9 + K 2 + J 1 + J 1 = 13, + 8 = 21 with five cards
    assert s.hands[3] == C("9D KC JC JD 8D") and s.log[0][2] == TWENTYONE and s.is_terminal()


def test_vu_2_1_the_fixed_rule_and_the_banks_choice():
    """VU-2.1: the fixed rule stands on 17; under the bank's choice its holder decides."""
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "8S 10S", coups=1)
    for _ in range(3):
        s.apply("stake 1")
    for _ in range(3):
        s.apply("stand")
    assert s.hands[3] == C("9D 8S") and s.is_terminal()   # 17: it stands
    f = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "8S 10S", coups=1, bank_rule="free")
    for _ in range(3):
        f.apply("stake 1")
    for _ in range(3):
        f.apply("stand")
    assert f.current_player == 3 and f.phase == vu.BANK and f.hands[3] == C("9D 8S")
    assert [o.label for o in f.advice(3)] == ["You go dead if you draw"]
    f.apply("draw")                                        # the holder draws on 17: 27, dead
    assert f.is_terminal() and f.log[0][2] == DEAD


@pytest.mark.parametrize("reading,bank_after", [("natural", 1), ("left", 0), ("keep", 3)])
def test_vu_2_2_who_holds_the_bank_next(reading, bank_after):
    s = stacked([["10H", "9H"], ["AC", "10C"], ["KS", "QS"], ["9D"]], "8S", coups=3, next_bank=reading)
    for _ in range(3):
        s.apply("stake 1")
    for _ in range(3):
        s.apply("stand")
    assert s.bank == bank_after and s.is_chance()


def test_vu_2_2_no_change_when_the_bank_has_a_natural_too():
    s = stacked([["10H", "9H"], ["AC", "10C"], ["KS", "QS"], ["AD"]], "10S", coups=3, next_bank="natural")
    for _ in range(3):
        s.apply("stake 1")
    for _ in range(3):
        s.apply("stand")
    assert s.log[0][2] == NATURAL and s.bank == 3


# --- VU-3: the settlement table ---------------------------------------------------------------------------
CELLS = {  # (bank, player) -> stakes to the player (+) or the bank (−), as the source's rows read
    (NATURAL, TWENTYONE): -2, (NATURAL, NATURAL): -1, (NATURAL, DEAD): -2, (NATURAL, 18): -2,
    (TWENTYONE, TWENTYONE): -1, (TWENTYONE, DEAD): -2, (TWENTYONE, 18): -1, (TWENTYONE, NATURAL): 1,
    (18, TWENTYONE): 1, (18, NATURAL): 1, (18, DEAD): -1, (18, 18): -1, (18, 15): -1, (18, 19): 1,
    (DEAD, TWENTYONE): 2, (DEAD, NATURAL): 2, (DEAD, DEAD): -1, (DEAD, 15): 1,
}


@pytest.mark.parametrize("cell", sorted(CELLS))
def test_vu_3_settlement_cell_by_cell(cell):
    bank, player = cell
    assert vu.multiple(bank, player) == CELLS[cell]


def test_vu_3_the_table_on_the_page_is_generated_and_quotes_the_rows():
    t = game().rule_tables()["settlement"]
    assert len(t.rows) == 4 and all(len(r) == 6 for r in t.rows)
    # the printed rows, verbatim (the source's own "**"; the page shows them as text, not as Markdown)
    import html
    assert "1EÕS **" in html.unescape(t.html()) and "**" not in t.html()
    assert [r[5] for r in t.rows] == [
        "21(2 K.)2EÕB*2EÕB2EÕB-----", "21(>2 K.)1EÕB2EÕB1EÕB1EÕS **", "unter 211EÕS1EÕB1EÕB1EÕS",
        "über 212EÕS1EÕB-----1EÕS"]
    for printed in t.rows:
        assert printed[5] in cardkit.documents.source_text("004_6e0a5f18523fa2ed.txt")
    expect = [["2 stakes to the bank; with two cards 1 stake to the bank (the first footnote)", "2 stakes to the bank",
               "2 stakes to the bank", vu.IMPOSSIBLE],
              ["1 stake to the bank (a two-card 21 is better: the second footnote)", "2 stakes to the bank",
               "1 stake to the bank", "1 stake to the player (only a two-card 21: the second footnote)"],
              ["1 stake to the player", "1 stake to the bank", "1 stake to the bank (ties: the bank wins)",
               "1 stake to the player"],
              ["2 stakes to the player", "1 stake to the bank", vu.IMPOSSIBLE, "1 stake to the player"]]
    assert [r[1:5] for r in t.rows] == expect
    book = game().rulebook
    assert book.tables["settlement"] is t or book.tables["settlement"].rows == t.rows


def test_vu_3_1_equal_or_worse_pays_one_stake():
    """VU-3.1: the third column is "equal or worse": a lower total pays as a tie does."""
    assert vu.column(18, 18) == vu.column(18, 12) == 2 and vu.multiple(18, 12) == vu.multiple(18, 18) == -1
    assert vu.column(NATURAL, 14) == 2 and vu.multiple(NATURAL, 14) == -2


def test_vu_3_2_footnote_star():
    """VU-3.2: against the bank's two-card 21 a two-card 21 pays the single stake."""
    assert vu.multiple(NATURAL, NATURAL) == -1 and vu.multiple(NATURAL, TWENTYONE) == -2
    rec = load_example("vingt_et_un", "bank-two-card-21")
    s = rec.final_state()
    assert [r[3] for r in s.log[0][3]] == [-1, -2, -2]


def test_vu_3_3_footnote_double_star():
    assert vu.column(TWENTYONE, NATURAL) == 3 and vu.multiple(TWENTYONE, NATURAL) == 1
    assert vu.column(TWENTYONE, TWENTYONE) == 0 and vu.multiple(TWENTYONE, TWENTYONE) == -1


def test_vu_3_4_impossible_cells():
    """VU-3.4: the two cells printed "-----" cannot occur."""
    # nothing is better than the bank's two-card 21; no standing player is equal or worse than a dead bank
    for p in [*range(2, 21), TWENTYONE, NATURAL]:
        assert vu.column(NATURAL, p) != 3
        assert vu.column(DEAD, p) != 2
    assert vu.column(TWENTYONE, 20) == 2                  # only a two-card 21 is better than 21 (VU-3.3)


def test_vu_3_5_the_sources_worked_example():
    """VU-3.5: bank 21 with three cards: an equal player pays 1 stake, a two-card 21 wins 1, a dead player pays 2."""
    rec = load_example("vingt_et_un", "worked-example")
    s = rec.final_state()
    assert s.is_terminal()
    coup, bank, bcode, results, balances = s.log[0]
    assert bank == 3 and bcode == TWENTYONE and len(s.hands[3]) == 3
    assert [(r[2], r[3]) for r in results] == [(TWENTYONE, -1), (NATURAL, 1), (DEAD, -2)]
    assert [r[1] for r in results] == [2, 5, 1]
    assert s.scores() == [-2, 5, -2, -1] and s.ledger.total() == 0 and s.ledger.balance(TABLE) == 0
    assert s.bank == 1                                     # Berta's two-card 21 takes the bank (VU-2.2)
    # the step-through: Carl holds 15 after the second card, 16 after his third card, then goes dead
    seen = {i: (st.total(2), st.dead[2]) for i, _, st in rec.replay() if i in (3, 7, 8)}
    assert seen == {3: (15, False), 7: (16, False), 8: (24, True)}


def test_vu_3_6_the_ledger_books_a_coup():
    """VU-3.6: stakes to the table, a dead stake to the bank at once, then the settlement's entries."""
    s = load_example("vingt_et_un", "worked-example").final_state()
    rows = [(e[1], e[2], e[3], e[5]) for e in s.ledger.entries]
    assert rows == [("Anton", TABLE, 2, "VU-1.2"), ("Berta", TABLE, 5, "VU-1.2"), ("Carl", TABLE, 1, "VU-1.2"),
                    (TABLE, "Dora", 1, "VU-1.5"),
                    (TABLE, "Dora", 2, "VU-3"), (TABLE, "Berta", 5, "VU-3"), ("Dora", "Berta", 5, "VU-3"),
                    ("Carl", "Dora", 1, "VU-3")]
    assert s.ledger.table().rows[-1][-1] == "0"            # nothing left on the table


def test_vu_3_8_the_settlement_shows_results_not_standing_hands():
    """VU-3.8: after the coup the table shows the bank's cards, dead hands and every result; a hand that
    stood stays face down to the others."""
    s = load_example("vingt_et_un", "worked-example").final_state()
    pile = next(p for p in s.view(1).piles if p.kind == "last-trick")
    shown = {(who, c.text) for who, c in pile.cards}
    assert {("Dora", "10S"), ("Dora", "KC"), ("Dora", "9H"), ("Carl", "8D")} <= shown
    assert ("Berta", "AC") in shown and not [x for x in shown if x[0] == "Anton"]     # Berta sees her own
    assert "Anton 21 with more cards: pays 2 units" in pile.note and "[VU-3]" in pile.note


def test_vu_3_7_the_natural_double():
    """VU-3.7: the classic natural wins 2 stakes unless the bank has one too."""
    assert vu.multiple(18, NATURAL, double=True) == 2 and vu.multiple(TWENTYONE, NATURAL, double=True) == 2
    assert vu.multiple(NATURAL, NATURAL, double=True) == -1 and vu.multiple(18, TWENTYONE, double=True) == 1
    table = game(natural="double").rule_tables()["settlement"]
    assert "with two cards 2 stakes to the player" in table.rows[2][1]
    s = stacked([["10H", "9H"], ["AC", "10C"], ["KS", "QS"], ["9D"]], "8S", coups=1, natural="double")
    for _ in range(3):
        s.apply("stake 2")
    for _ in range(3):
        s.apply("stand")
    assert [r[3] for r in s.log[0][3]] == [1, 2, -1] and s.scores()[1] == 4


# --- VU-4: the Ace ------------------------------------------------------------------------------------
def test_vu_4_an_ace_counts_one_or_eleven():
    assert vu.hand_total(C("AS 7C 8H"), 1) == 16 and vu.hand_total(C("AS 7C 8H"), 0) == 26
    assert vu.hand_total(C("AS AH"), 1) == 21 and vu.hand_total(C("AS AH JC"), 1) == 13
    assert vu.hand_total(C("AS 10H"), 1) == 21 and vu.hand_total(C("AS AH AD"), 1) == 13


def test_vu_4_the_example_under_both_readings():
    rec = load_example("vingt_et_un", "ace-one-or-eleven")
    s = rec.final_state()
    assert s.log[0][2] == DEAD and s.scores()[:2] == [2, 1]
    other = cardkit.Record(rec.game, {**rec.options, "ace": "one or eleven"}, rec.actions).final_state()
    assert other.log[0][2] == 17 and other.scores()[:2] == [-2, 1]


# --- bad input, narration, bots ----------------------------------------------------------------------
def test_bad_input_is_refused_and_changes_nothing():
    s = game(coups=1).new_state(seed=5)
    before = s.snapshot()
    for bad in ("stake 99", "stand", "deal: AS", "play", "", 5):
        with pytest.raises(CardkitError):
            s.apply(bad)
        assert s.snapshot() == before
    with pytest.raises(CardkitError):
        game().stack([["AS"]])
    with pytest.raises(CardkitError, match="twice"):
        game().stack([["AS", "AS"], ["8C", "7C"], ["KS", "QS"], ["9D"]])
    while not s.is_terminal():
        s.apply(s.legal_actions()[-1])
    with pytest.raises(IllegalActionError):              # out of turn: the sitting is over
        s.apply("draw")


def test_narration_names_no_hidden_card():
    s = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "10C")
    assert "9♦" in s.game.blank_state().describe(s.history[0])   # the bank's open card
    for _ in range(3):
        s.apply("stake 1")
    for a in s.legal_actions():
        line = s.describe(a)
        assert "10♣" not in line and "10♥" not in line and "VU-1.4" in line


def test_bots_menu_and_the_book_beats_random():
    assert list(game_bots(game())) == ["random", "careful", "rule-based"]
    # with the bank passing to the left every player holds it equally often: the better player wins
    r = match("vingt_et_un", {"players": 3, "coups": 20, "next_bank": "left"}, "rule-based", "random", games=60,
              seed=3)
    assert r.win_rate > 0.45, r.win_rate                    # the even share is 1/3


def test_the_rule_based_bot_follows_the_odds():
    s = stacked([["KH", "QH"], ["8C", "7C"], ["KS", "QS"], ["9D"]], "JH")
    bot = game_bots(game())["rule-based"](0)
    for _ in range(3):
        s.apply(bot.choose(s))
    assert s.current_player == 0 and bot.choose(s).text == "draw"      # 3 points: draw
    t = stacked([["10H", "9H"], ["8C", "7C"], ["KS", "QS"], ["7D"]], "JH")
    for _ in range(3):
        t.apply("stake 1")
    assert bot.choose(t).text == "stand"                                # 19 against a 7: stand


def test_vu_1_7_two_computations_of_the_banks_draw_agree():
    """The bank's draw by multisets of value classes (fast) equals the recursion over the pool."""
    for mode in (0, 1):
        for b in range(7):
            bank = vu._add((0, 0, 0), b)
            full = list(vu.FULL_POOL)
            full[b] -= 1
            for pool in (tuple(full), (3, 2, 1, 2, 1, 2, 1), (1, 1, 0, 0, 1, 0, 1), (0, 0, 0, 0, 0, 0, 0)):
                assert vu._bank_dist(bank, pool, mode) == vu._bank_dist_recursive(bank, pool, mode)


def test_vu_0_2_the_shuffle_is_the_factorial_number_system():
    """VU-0.2: each coup is a fresh shuffle; the fast digits equal plain division, radix 32 first, and a
    seeded sitting deals the same cards again."""
    rng = Rng(5)
    for _ in range(200):
        x = ((rng.next64() << 64) | rng.next64()) % vu._PERMS
        plain, y = [], x
        for k in range(32, 0, -1):
            y, j = divmod(y, k)
            plain.append(j)
        assert vu.perm_digits(x) == plain
    assert vu.perm_digits(0) == [0] * 32 and vu.perm_digits(vu._PERMS - 1) == list(range(31, -1, -1))
    a, b = game().new_state(seed=9), game().new_state(seed=9)
    assert a.history[0] == b.history[0] and sorted(c.index for c in a.history[0].cards) == list(range(32))
