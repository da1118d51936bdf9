"""Faro: every rule of cardkit/rules/faro.toml, tested through the public protocol; the examples; bad input;
the exact odds against brute-force counts and a seeded simulation; the bots.

Each test names the rule IDs it checks with ``@covers("FA-…")`` (tests/test_rulebooks.py checks that every
rule ID of the rulebook appears in this file; ``test_every_rule_is_covered`` checks the decorators).
Expected outcomes are written down here from the rules, not computed with the engine's own functions.
"""
from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

import cardkit
from cardkit import CHANCE, TERMINAL, CardkitError, IllegalActionError, OptionError, Record, load_game
from cardkit.bots import game_bots, play_out
from cardkit.cards import FRENCH52
from cardkit.events import narration
from cardkit.games.faro import LOSS
from cardkit.ledger import TABLE
from cardkit.record import example_names, load_example
from cardkit.rng import Rng
from rule_marks import rule_marker

COVERED, covers = rule_marker()
ANNA, BANK, BERT, CLARA = 0, 1, 2, 3


def game(**opts):
    return load_game("faro", **opts)


def stacked(turns, bottom="KC", **opts):
    g = game(**opts)
    return g.new_state(deal=g.stack(turns, bottom=bottom))


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


def legal(s):
    return [a.text for a in s.legal_actions()]


def bal(s, name):
    return s.ledger.balance(name)


def pile(s, name, viewer=None):
    return next((p for p in s.view(viewer).piles if p.name == name), None)


# --- FA-0 the table ------------------------------------------------------------------------------------
@covers("FA-0", "FA-0.1")
def test_seats_books_and_the_bank():
    for n in (2, 3, 4):
        g = game(players=n)
        assert g.player_names() == ["Anna", "Bank", "Bert", "Clara"][:n]
        s = g.new_state(seed=1)
        assert s.current_player == ANNA and len(s.history) == 1      # dealt, Anna stakes first
        for p in range(n):
            hand = s.view(None).seats[p].hand
            if p == BANK:
                assert len(hand) == 2 and s.view(ANNA).seats[BANK].hand == [None, None]
            else:
                suit = "S"                                          # every book is the spades
                assert [c.text for c in hand] == [r + suit for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                                     "10", "J", "Q", "K")]
                assert s.view(ANNA).seats[p].hand == hand            # the books are public
    with pytest.raises(OptionError):
        game(players=5)
    # a card of another book, or of no book, cannot be staked on
    s = game(players=3).new_state(seed=2)
    for bad in ("7H", "7D"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "FA-0.1" and "your book" in e.value.why


@covers("FA-0.2")
def test_a_sitting_of_deals_and_a_balanced_ledger():
    for deals in (1, 3):
        g = game(deals=deals, players=3)
        s = g.new_state(seed=deals)
        rnd = random.Random(deals)
        deal_actions = 0
        while not s.is_terminal():
            s.apply(rnd.choice(s.legal_actions()))
            assert s.ledger.total() == 0
            deal_actions += 1
        assert s.deal_no == deals == sum(1 for a in s.history if a.__class__ is cardkit.Deal)
        assert len(s.rows) == deals and s.ledger.balance(TABLE) == 0
        assert sum(s.scores()) == 0 and s.scores() == [s.ledger.balance(n) for n in g.player_names()]
        assert all(isinstance(x, int) for x in s.scores())
        best = max(s.scores())
        assert s.winners() == [p for p in range(3) if s.scores()[p] == best]
        table = s.score_table()
        assert [r[0] for r in table.rows] == [f"Deal {i}" for i in range(1, deals + 1)] + ["Balance"]
        # each deal's changes add up to the balances
        for p in range(3):
            assert sum(r["change"][p] for r in s.rows) == s.scores()[p]


@covers("FA-0.3")
def test_every_payment_is_entered_with_who_why_and_the_rule():
    s = stacked([("7H", "KD")])
    play(s, "7S", "stake 2", "KS", "stake 1", "done", "show", "turn")
    rows = s.ledger.rows(1)
    assert ("Anna", TABLE, 2) == rows[0][1:4] and ("Anna", TABLE, 1) == rows[1][1:4]
    assert (1, TABLE, "Bank", 2, "loses", "FA-2") in rows      # the 7 on the left loses (source reading)
    assert (1, "Bank", "Anna", 1, "wins", "FA-2") in rows      # the King on the right wins
    assert "wins 1 unit" in pile(s, "Last turn").note and "loses 2 units" in pile(s, "Last turn").note


# --- FA-1 the deal ----------------------------------------------------------------------------------------
@covers("FA-1", "FA-1.1", "FA-1.3")
def test_the_deal_two_packs_left_then_right():
    g = game()
    assert len(g.full_deck()) == 104 and Counter(g.full_deck()) == Counter({c: 2 for c in FRENCH52.cards})
    s = stacked([("2H", "3D"), ("4C", "5S")], bottom="9D")
    assert s.phase == 0 and s.current_player == ANNA           # the stakes come after the shuffle
    play(s, "done")
    assert s.current_player == BANK and legal(s) == ["show"]
    play(s, "show")
    assert legal(s) == ["turn"]
    play(s, "turn")
    assert [c.text for c in s.left] == ["2H"] and [c.text for c in s.right] == ["3D"]
    play(s, "turn")
    assert [c.text for c in s.left] == ["2H", "4C"] and [c.text for c in s.right] == ["3D", "5S"]
    assert len(s.hands[BANK]) == 100
    # a punter never turns a card
    s2 = stacked([("7H", "KD")])
    play(s2, "7S", "stake 1", "done", "show", "turn")
    with pytest.raises(IllegalActionError) as e:
        s2.apply("turn")
    assert e.value.rule == "FA-1.3"


@covers("FA-1.2")
def test_the_bottom_card_is_shown_once_before_the_first_turn():
    s = stacked([("2H", "3D")], bottom="9D")
    assert pile(s, "Bottom card") is None and not s.bottom_shown
    with pytest.raises(IllegalActionError) as e:
        s.apply("show")                       # Anna is staking: the bank shows it after the stakes
    assert e.value.rule == "FA-1.2"
    play(s, "done")
    with pytest.raises(IllegalActionError) as e:
        s.apply("turn")
    assert e.value.rule == "FA-1.2"
    play(s, "show")
    assert [c.text for _, c in pile(s, "Bottom card", ANNA).cards] == ["9D"]
    assert any(k == "Bottom card" for k, _ in s.view(ANNA).facts)
    with pytest.raises(IllegalActionError) as e:
        s.apply("show")
    assert e.value.rule == "FA-1.2" and "already" in e.value.why


def _deal_out(s):
    """Play the deal to its end: the bank turns, punters keep their stake (or withdraw when they may)."""
    while s.current_player not in (CHANCE, TERMINAL):
        ls = legal(s)
        s.apply("withdraw" if "withdraw" in ls else "lappe" if "lappe" in ls else ls[0] if s.current_player == BANK
                else "done")
    return s


@covers("FA-1.4", "FA-2.2")
def test_the_check_and_the_end_of_a_deal():
    s = game(deals=1).new_state(seed=11)
    play(s, "AS", "stake 1", "5S", "stake 2", "done")
    bottom = s.bottom
    _deal_out(s)
    assert s.is_terminal() and len(s.left) == len(s.right) == 52
    assert s.right[-1] is bottom and s.check_ok is True
    assert s.rows[0]["check"] is True and "FA-1.4" in s.score_table().rows[0][-1]
    assert s.ledger.balance(TABLE) == 0 and not any(s.stakes)                  # FA-2.2: the stakes came back
    assert len(s.hands[ANNA]) == 13
    back = [e for e in s.ledger.rows() if e[5] == "FA-2.2"]
    assert all(e[1] == TABLE and e[2] == "Anna" for e in back)


@covers("FA-1.5")
def test_the_bottom_card_counts_for_nobody():
    g = game(deals=1)
    # the bottom card is a 7: Anna's 7 is staked and the last turn's right card is that 7
    deal = g.stack([], bottom="7D")
    s = g.new_state(deal=deal)
    play(s, "7S", "stake 1", "done", "show")
    while len(s.hands[BANK]) > 2:
        s.apply("turn" if s.current_player == BANK else "lappe")
    last_left = s.hands[BANK][0]
    entries = len(s.ledger.entries)
    s.apply("turn")
    new = s.ledger.entries[entries:]
    if last_left.rank != "7":
        assert not [e for e in new if e[5] in ("FA-2", "FA-4.1")]              # the dead 7 paid nothing
    assert "dead" in pile(s, "Last turn").note and "FA-1.5" in pile(s, "Last turn").note


# --- FA-2 which pile wins --------------------------------------------------------------------------------
@covers("FA-2", "FA-2.1")
@pytest.mark.parametrize("reading", ["source", "historical"])
def test_which_pile_wins_under_each_reading(reading):
    s = stacked([("9D", "QH")], winning_pile=reading)
    play(s, "9S", "stake 2", "QS", "stake 2", "done", "show")
    a0, b0 = bal(s, "Anna"), bal(s, "Bank")
    assert a0 == -4 and s.ledger.balance(TABLE) == 4
    play(s, "turn")
    if reading == "source":        # the right pile (the Queen) wins, the left (the 9) loses
        win, lose = "QS", "9S"
    else:                          # the bank's card, on the right, wins for the bank; the left for the punters
        win, lose = "9S", "QS"
    # even money: the winning stake's 2 are paid to Anna; the losing stake's 2 go to the bank
    assert bal(s, "Anna") == a0 + 2 and bal(s, "Bank") == b0 - 2 + 2
    stakes = {st.card.text: st.amount for lst in s.stakes for st in lst}
    assert stakes[win] == 2 and stakes[lose] == 0
    words = pile(s, "Last turn").note
    assert f"{FRENCH52.parse(win).label} wins 2 units" in words and f"{FRENCH52.parse(lose).label} loses 2" in words


# --- FA-3 the stake choices --------------------------------------------------------------------------------
@covers("FA-3", "FA-3.2", "FA-3.4")
def test_the_choices_after_a_win_and_after_a_loss():
    s = stacked([("7H", "KD"), ("QC", "7D"), ("KH", "3C")])
    play(s, "7S", "stake 2", "KS", "stake 1", "done", "show", "turn")
    # the 7 lost first: no Paroli; Lappé, Six- and Sept-et-le-va (12, 14 within 20); no withdrawal yet
    assert legal(s) == ["lappe", "six-et-le-va", "sept-et-le-va"]
    a = bal(s, "Anna")
    play(s, "six-et-le-va")
    assert bal(s, "Anna") == a - 12                       # six times the lost 2, laid anew
    # the King won: Paroli (2), Lappé (1), Six (6), Sept (7)
    assert legal(s) == ["paroli", "lappe", "six-et-le-va", "sept-et-le-va"]
    a = bal(s, "Anna")
    play(s, "paroli")
    assert bal(s, "Anna") == a - 1                        # the win of 1 joins the stake
    stakes = {st.card.text: st.amount for lst in s.stakes for st in lst}
    assert stakes == {"7S": 12, "KS": 2}
    a, b = bal(s, "Anna"), bal(s, "Bank")
    play(s, "turn")                                       # the 7 falls right: wins 12
    assert bal(s, "Anna") == a + 12 and bal(s, "Bank") == b - 12
    assert "withdraw" in legal(s)                         # its second showing
    assert "paroli" not in legal(s)                       # Paroli of 12 would be 24 > 20: not offered


@covers("FA-3.3", "FA-3.6")
def test_lappe_and_no_withdrawal_before_the_second_showing():
    s = stacked([("7H", "KD"), ("QC", "7D"), ("KH", "3C")])
    play(s, "7S", "stake 2", "done", "show", "turn")
    with pytest.raises(IllegalActionError) as e:
        s.apply("withdraw")
    assert e.value.rule == "FA-3.6" and "second showing" in e.value.why
    a = bal(s, "Anna")
    play(s, "lappe")                                      # after the loss the original 2 are laid again
    assert bal(s, "Anna") == a - 2 and s.stakes[6][0].amount == 2
    play(s, "turn")                                       # the 7 wins 2 (second showing)
    play(s, "sept-et-le-va")
    assert s.stakes[6][0].amount == 14
    s2 = stacked([("2H", "7D"), ("7C", "KH"), ("4C", "7H")])
    play(s2, "7S", "stake 2", "done", "show", "turn", "paroli", "turn")   # 4 on the card, then it loses
    a = bal(s2, "Anna")
    play(s2, "lappe")                                     # only the original stake stays: 2 laid again
    assert bal(s2, "Anna") == a - 2 and s2.stakes[6][0].amount == 2
    play(s2, "turn")                                      # wins 2 (third showing)
    a = bal(s2, "Anna")
    play(s2, "withdraw")
    assert bal(s2, "Anna") == a + 2 and not s2.stakes[6] and "7S" in [c.text for c in s2.hands[ANNA]]
    assert s2.ledger.balance(TABLE) == 0


@covers("FA-3.1")
def test_staking_cards_of_the_book_with_amounts_within_the_limit():
    s = game(limit=10).new_state(seed=3)
    assert legal(s)[-1] == "done" and len(legal(s)) == 14
    play(s, "QS")
    assert legal(s) == ["stake 1", "stake 2", "stake 5", "stake 10"]
    play(s, "stake 5")
    assert bal(s, "Anna") == -5 and s.ledger.balance(TABLE) == 5
    with pytest.raises(IllegalActionError) as e:
        s.apply("QS")
    assert e.value.rule == "FA-3.1" and "already staked" in e.value.why
    play(s, "done")
    assert s.current_player == BANK
    # none at all is allowed too
    s = game(players=3).new_state(seed=3)
    play(s, "done", "done")
    assert s.current_player == BANK and s.ledger.entries == []


@covers("FA-3.7")
def test_a_stake_may_stay_as_it_lies_under_the_other_reading():
    """FA-3.7. The kit's reading: every showing calls for a choice, and after a loss Lappé lays the first stake
    again ("leave" is refused). The other reading: the punter may leave the stake as it lies; after a loss the
    card stays without a stake unless Six- or Sept-et-le-va is called; Lappé only where it changes the stake."""
    turns = [("7H", "KD"), ("QC", "7D"), ("KH", "3C"), ("7C", "2D")]
    s = stacked(turns)
    play(s, "7S", "stake 2", "KS", "stake 1", "done", "show", "turn")
    assert "leave" not in legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("leave")
    assert e.value.rule == "FA-3.7"
    s = stacked(turns, stake_choice="optional")
    play(s, "7S", "stake 2", "KS", "stake 1", "done", "show", "turn")
    assert legal(s) == ["leave", "six-et-le-va", "sept-et-le-va"]      # the 7 lost: no Lappé, no Paroli
    with pytest.raises(IllegalActionError) as e:
        s.apply("lappe")
    assert e.value.rule == "FA-3.7"
    a = bal(s, "Anna")
    play(s, "leave")                                      # the 7 stays on the table, without a stake
    assert bal(s, "Anna") == a and s.stakes[6][0].amount == 0 and "7S" not in legal(s)
    assert legal(s) == ["leave", "paroli", "six-et-le-va", "sept-et-le-va"]   # the King won; no Lappé: 1 lies
    play(s, "leave")
    assert s.stakes[12][0].amount == 1 and s.current_player == BANK
    a, b = bal(s, "Anna"), bal(s, "Bank")
    play(s, "turn")                                       # the 7 falls right again: no stake, nothing paid
    assert (bal(s, "Anna"), bal(s, "Bank")) == (a, b) and "no stake on it" in pile(s, "Last turn").note
    assert legal(s) == ["leave", "withdraw"]              # its second showing: it may go back to the book
    play(s, "withdraw")
    assert not s.stakes[6] and "7S" in [c.text for c in s.hands[ANNA]]
    a = s.position(ANNA)
    play(s, "turn")                                       # the King falls left: loses its 1
    assert s.position(ANNA) == a - 1 and legal(s) == ["leave", "six-et-le-va", "sept-et-le-va", "withdraw"]
    assert s.ledger.total() == 0 and s.ledger.balance(TABLE) == 0


@covers("FA-3.8")
def test_stakes_between_the_turns_under_the_historical_reading():
    """FA-3.8. The kit's reading: stakes only before the bottom card is shown; the bank turns on. The
    historical reading: before every turn each punter may stake on cards of his book again."""
    turns = [("7H", "KD"), ("QC", "7D"), ("9H", "3C")]
    s = stacked(turns, players=3)
    play(s, "7S", "stake 2", "done", "done", "show", "turn", "lappe")
    assert s.current_player == BANK and legal(s) == ["turn"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("9S")                                     # nobody stakes now: the bank turns
    assert e.value.rule == "FA-1.3"
    s = stacked(turns, players=3, late_stakes=True)
    play(s, "7S", "stake 2", "done", "done", "show")
    assert s.current_player == BANK                        # the first turn follows the stakes at once
    play(s, "turn", "lappe")
    assert s.current_player == ANNA and "9S" in legal(s) and "7S" not in legal(s) and legal(s)[-1] == "done"
    assert s.progress() == ("Deal 1", "Turn 2")
    play(s, "9S", "stake 5", "done")
    assert s.current_player == BERT
    play(s, "KS", "stake 1", "done")
    assert s.current_player == BANK
    a = bal(s, "Anna")
    play(s, "turn")                                       # the 7 wins 2 (its second showing)
    assert bal(s, "Anna") == a + 2 and "withdraw" in legal(s)
    play(s, "lappe", "done", "done")
    b = s.position(ANNA)
    play(s, "turn")                                       # the 9 falls left: the late stake of 5 loses
    assert s.position(ANNA) == b - 5 and "withdraw" not in legal(s)
    assert s.ledger.total() == 0


@covers("FA-3.8", "FA-5.1")
def test_no_late_stake_on_a_rank_with_no_card_left_to_turn():
    """FA-3.8. Between the turns a punter stakes only on a rank that still has a card to turn: all eight 9s
    turned, or the 8th King the bottom card (dead, FA-1.5), leaves nothing for a stake to meet. Such a stake
    is not offered, and forced it names FA-3.8 and changes nothing."""
    turns = [("9H", "9D"), ("9C", "9S"), ("9H", "9D"), ("9C", "9S"),
             ("KH", "KD"), ("KC", "KS"), ("KH", "KD"), ("KS", "7H")]
    s = stacked(turns, bottom="KC", late_stakes=True)
    play(s, "done", "show", "turn")
    assert "9S" in legal(s) and "KS" in legal(s)
    play(s, "done", "turn", "done", "turn", "done", "turn")
    assert s.live_count(8) == 0 and "9S" not in legal(s) and "KS" in legal(s) and "7S" in legal(s)
    play(s, *["done", "turn"] * 4)
    assert s.live_count(12) == 0 and s.live_count(6) == 7
    assert "9S" not in legal(s) and "KS" not in legal(s) and "7S" in legal(s) and legal(s)[-1] == "done"
    for text in ("9S", "KS"):
        before = s.snapshot()
        with pytest.raises(IllegalActionError) as e:
            s.apply(text)
        assert e.value.rule == "FA-3.8" and "no card" in e.value.why and s.snapshot() == before, text
    play(s, "7S", "stake 1")                              # a rank with cards left is staked as before
    assert legal(s)[-1] == "done" and "9S" not in legal(s)
    # a card withdrawn to the book on a rank that has gone dead is not offered again
    s = stacked([("7H", "KD"), ("7C", "7D"), ("7H", "7D"), ("7C", "7S"), ("7S", "2H")], late_stakes=True)
    play(s, "7S", "stake 2", "done", "show", "turn", "lappe", "done", "turn", "withdraw")
    assert "7S" in legal(s)                               # three 7s turned, five left
    play(s, *["done", "turn"] * 3)
    assert s.live_count(6) == 0 and "7S" not in legal(s)


@covers("FA-3.5")
def test_sept_et_le_va_multiplies_by_seven_also_after_a_loss():
    s = stacked([("7H", "KD")], limit=50)
    play(s, "7S", "stake 5", "done", "show", "turn")
    a = bal(s, "Anna")
    play(s, "sept-et-le-va")
    assert s.stakes[6][0].amount == 35 and bal(s, "Anna") == a - 35


# --- FA-4 doublets and limits ----------------------------------------------------------------------------
@covers("FA-4", "FA-4.1")
@pytest.mark.parametrize("rule,taken", [("half", 3), ("all", 5), ("none", 0)])
def test_a_doublet(rule, taken):
    s = stacked([("5H", "5C"), ("JD", "2S")], doublets=rule)
    play(s, "5S", "stake 5", "done", "show")
    b = bal(s, "Bank")
    play(s, "turn")
    assert bal(s, "Bank") == b + taken and s.stakes[4][0].amount == 5 - taken
    assert "paroli" not in legal(s)                     # no win to let ride
    play(s, "lappe")
    assert s.stakes[4][0].amount == 5 and s.ledger.total() == 0
    assert "doublet" in pile(s, "Last turn").note


@covers("FA-4.2")
def test_the_limit_a_card():
    s = game(limit=10).new_state(seed=5)
    play(s, "AS")
    for bad, words in (("stake 20", "above the bank's limit of 10 units"), ("stake 0", "at least 1 unit"),
                       ("stake -3", "at least 1 unit"), ("stake 3", "offers stakes of 1, 2, 5, 10")):
        before = s.snapshot()
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert words in e.value.why and s.snapshot() == before
        assert e.value.rule in ("FA-4.2", "FA-3.1")
    # a choice above the limit is not offered, and refused by name
    s = stacked([("7H", "KD")], limit=10)
    play(s, "7S", "stake 2", "done", "show", "turn")
    assert legal(s) == ["lappe"]                         # 12 and 14 are above 10
    with pytest.raises(IllegalActionError) as e:
        s.apply("six-et-le-va")
    assert e.value.rule == "FA-4.2" and "12 units" in e.value.why


# --- FA-5 odds ---------------------------------------------------------------------------------------
from cardkit.games.faro import showing_counts, showing_odds, strategy_table, turn_counts, turn_odds  # noqa: E402


def brute_showing(live, u):
    """Every placement of the rank's u cards among live positions: how its first showing goes."""
    out = Counter()
    for pos in itertools.combinations(range(1, live + 1), u):
        i = pos[0]
        if i % 2 == 0:
            out["right"] += 1
        elif i == live:
            out["left"] += 1
        elif i + 1 in pos:
            out["doublet"] += 1
        else:
            out["left"] += 1
    return out, math.comb(live, u)


@covers("FA-5")
@pytest.mark.parametrize("live,u", [(1, 1), (3, 1), (3, 2), (5, 2), (7, 3), (9, 4), (8, 2), (11, 8), (6, 0)])
def test_the_odds_against_brute_force_counts(live, u):
    left, right, dbl, never, total = showing_counts(live, u)
    if u == 0:
        assert (left, right, dbl, never) == (0, 0, 0, 1)
        return
    counts, t = brute_showing(live, u)
    assert (left, right, dbl, total) == (counts["left"], counts["right"], counts["doublet"], t)
    # the next turn: every ordered pair of the top two cards
    cards = ["r"] * u + ["x"] * (live - u)
    if live >= 2:
        pairs = Counter((a, b) for a, b in itertools.permutations(range(live), 2))
        got = Counter()
        for (i, j), k in pairs.items():
            got[(cards[i], cards[j])] += k
        tl, tr, td, tn, tt = turn_counts(live, u)
        assert tt == live * (live - 1)
        assert (tl, tr, td, tn) == (got[("r", "x")], got[("x", "r")], got[("r", "r")], got[("x", "x")])


@covers("FA-5")
def test_the_odds_with_an_unseen_bottom_card_by_brute_force():
    """Before the bottom card is shown it is one of the pack, dead: over every placement of the rank's cards
    among n positions (the last one dead), the first live showing."""
    for n, u in ((6, 2), (8, 3), (4, 1)):
        counts = Counter()
        total = 0
        for pos in itertools.combinations(range(1, n + 1), u):
            live_pos = [p for p in pos if p < n]
            total += 1
            if not live_pos:
                counts["never"] += 1
                continue
            i = live_pos[0]
            if i % 2 == 0:
                counts["right"] += 1
            elif i + 1 in live_pos:
                counts["doublet"] += 1
            else:
                counts["left"] += 1
        left, right, dbl, never = showing_odds(n, u, bottom_known=False)
        assert (left, right, dbl, never) == tuple(Fraction(counts[k], total) for k in ("left", "right", "doublet",
                                                                                       "never"))
        assert sum(turn_odds(n, u, bottom_known=False)) == 1


@covers("FA-5", "FA-5.1")
def test_the_advisor_at_a_real_position_against_the_cards_left():
    """Late in a deal, the advice for Anna's rank equals the count over every order of the cards left in the
    pack (the bottom card fixed and dead)."""
    s = game(deals=1).new_state(seed=21)
    for c in list(s.hands[ANNA]):
        play(s, c.text, "stake 1")
    play(s, "done", "show")
    found = None
    while not s.is_terminal():
        if s.current_player == ANNA and len(s.hands[BANK]) <= 8:
            found = s
            break
        s.apply("turn" if s.current_player == BANK else "lappe")
    assert found is not None
    st = s.pending[0][0]
    rank = st.card.rank
    rest = s.hands[BANK][:-1]                          # the live cards; the bottom card is last
    orders = set(itertools.permutations(rest))
    win = lose = dbl = 0
    for order in orders:
        marks = [c.rank == rank for c in order]
        for i, m in enumerate(marks):
            if not m:
                continue
            if i % 2 == 1:
                win += 1                               # right pile: wins under the source's reading
            elif i + 1 < len(marks) and marks[i + 1]:
                dbl += 1
            else:
                lose += 1
            break
    figures = {o.label: o.value for o in s.advice(ANNA)}
    word = st.card.rank if st.card.rank not in "AJQK" else {"A": "Ace", "J": "Jack", "Q": "Queen",
                                                           "K": "King"}[st.card.rank]
    assert figures[f"Next showing: your {word} wins"] == Fraction(win, len(orders))
    assert figures[f"Next showing: your {word} loses"] == Fraction(lose, len(orders))
    assert figures["Next showing: a doublet"] == Fraction(dbl, len(orders))
    # the case-keeper counts the cards turned of each rank
    turned = Counter(c.rank for c in s.left + s.right)
    ranks = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    assert s.case_keeper() == " · ".join(f"{r} {turned[r]}" for r in ranks)
    assert dict(s.view(ANNA).facts)["Case-keeper"].startswith(s.case_keeper())


def _first_showing(cards, rank):
    live = cards[:-1]
    for i, c in enumerate(live):
        if c.rank == rank:
            if i % 2 == 1:
                return "right"
            if i + 1 < len(live) and live[i + 1].rank == rank:
                return "doublet"
            return "left"
    return "never"


@covers("FA-5")
def test_the_odds_against_a_seeded_simulation():
    g = game()
    rng = Rng(2024)
    n = 3000
    seen = Counter(_first_showing(g.random_deal(rng).cards, "7") for _ in range(n))
    left, right, dbl, never = showing_odds(104, 8, bottom_known=False)
    for k, p in (("left", left), ("right", right), ("doublet", dbl), ("never", never)):
        lo, hi = _wilson(seen[k] / n, n, 3.29)          # 99.9 %
        assert lo <= float(p) <= hi, (k, seen[k] / n, float(p))


def _wilson(mean, n, z):
    z2 = z * z
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n))
    return centre - half, centre + half


@covers("FA-5.2")
def test_the_strategy_table_from_the_exact_odds():
    t = game().rule_tables()["strategy"]
    assert t.headers[0] == "left in the pack" and len(t.rows) == 7
    # a case card with one live card left: the last card is alone on the left (source: it loses)
    assert t.rows[-1][1] == "-1 (-1.000)"
    # ... and under the historical reading too: the lone last live card is the bank's hocly (FA-2, FA-1.5)
    assert game(winning_pile="historical").rule_tables()["strategy"].rows[-1][1] == "-1 (-1.000)"
    # 103 live cards, a case card: 52 odd places (left) of 103, 51 even (right)
    assert t.rows[0][1] == "-1/103 (-0.010)"
    # with doublets nothing paid, two cards left can be better than under half
    none = game(doublets="none").rule_tables()["strategy"]
    assert none.rows[0][2] != t.rows[0][2]
    ch = game().rule_tables()["choices"]
    assert ch.rows[0][2] == "not offered: no win" and ch.rows[2][1] == "stake 12 (adds 10)"


@covers("FA-5")
def test_advice_only_for_the_player_to_decide_and_exact():
    s = game(players=3).new_state(seed=4)
    assert s.advice(BERT) == [] and s.advice(BANK) == []
    odds = s.advice(ANNA)
    assert odds and all(isinstance(o.value, (Fraction, int)) for o in odds)
    chances = [o.value for o in odds if o.kind == "chance"]
    assert sum(chances[:3]) <= 1 and sum(chances[3:7]) == 1
    with pytest.raises(CardkitError):
        s.advice(7)


@covers("FA-2.2", "FA-1.5")
def test_no_decision_after_the_last_turn():
    """The last turn settles the last live card's rank (the bank's, FA-1.5/FA-2) and the deal ends: no card
    follows, so nobody is asked what to do with a stake (before, a lost stake had to be laid again for
    nothing); the stakes still lying go back."""
    s = stacked([], bottom="KC", deals=1)
    play(s, *[x for c in list(s.hands[ANNA]) for x in (c.text, "stake 1")], "done", "show")
    while len(s.hands[BANK]) > 2 or s.current_player == ANNA:
        s.apply("turn" if s.current_player == BANK else "lappe")
    last = s.hands[BANK][0]
    before = s.position(ANNA)
    s.apply("turn")
    assert s.is_terminal() and not s.pending and s.ledger.balance(TABLE) == 0
    assert s.balances()[ANNA] == before - 1                 # the last live card's stake, lost to the bank
    assert s.last_turn[3] == [(ANNA, next(c for c in s.game.books[ANNA] if c.rank == last.rank), LOSS, 1)]


# --- examples ------------------------------------------------------------------------------------------
def test_the_examples_replay_as_the_rules_say():
    assert set(example_names("faro")) >= {"stake-choices", "which-pile", "doublet", "the-check"}
    s = load_example("faro", "stake-choices").final_state()
    assert s.ledger.total() == 0 and not s.stakes[6] and "7S" in [c.text for c in s.hands[ANNA]]
    s = load_example("faro", "which-pile").final_state()
    assert {st.card.text: st.amount for lst in s.stakes for st in lst} == {"9S": 0, "QS": 2}
    s = load_example("faro", "which-pile").final_state(winning_pile="historical")
    assert {st.card.text: st.amount for lst in s.stakes for st in lst} == {"9S": 2, "QS": 0}
    s = load_example("faro", "doublet").final_state()
    assert s.ledger.balance("Bank") == 3 and s.stakes[4][0].amount == 5
    s = load_example("faro", "the-check").final_state()
    assert s.is_terminal() and s.check_ok and s.ledger.balance(TABLE) == 0
    for name in example_names("faro"):
        rec = load_example("faro", name)
        assert len(narration(rec)) == len(rec.actions)
        assert Record.loads(rec.dumps()).final_state() == rec.final_state()


# --- bad input -------------------------------------------------------------------------------------------
def test_bad_input_names_the_rule_and_changes_nothing():
    s = stacked([("7H", "KD")])
    cases = [("paroli", "FA-3.2"), ("withdraw", "FA-3.6"), ("turn", "FA-1.3"), ("show", "FA-1.2"),
             ("stake 2", "FA-3.1"), ("7D", "FA-0.1"), ("XYZ", "FA-3.1")]
    for text, rule in cases:
        before = s.snapshot()
        with pytest.raises(IllegalActionError) as e:
            s.apply(text)
        assert e.value.rule == rule, (text, e.value.rule)
        assert s.snapshot() == before
    play(s, "7S")
    with pytest.raises(IllegalActionError) as e:
        s.apply("KS")                                  # the amount first
    assert e.value.rule == "FA-3.1"
    play(s, "stake 1", "done", "show", "turn")
    for text, rule in (("turn", "FA-1.3"), ("KS", "FA-3"), ("paroli", "FA-3.2"), ("done", "FA-3.1"),
                       ("stake 1", "FA-3.1")):
        before = s.snapshot()
        with pytest.raises(IllegalActionError) as e:
            s.apply(text)
        assert e.value.rule == rule and s.snapshot() == before, text
    with pytest.raises(CardkitError):
        game().stack([("7H", "7H"), ("7H", "KD")])     # three 7♥
    with pytest.raises(OptionError):
        game(limit=15)
    with pytest.raises(OptionError):
        game(doublets="some")


def test_replay_undo_and_the_hidden_pack():
    s = game(players=3).new_state(seed=8)
    rnd = random.Random(8)
    snaps = []
    for _ in range(150):
        snaps.append(s.snapshot())
        s.apply(rnd.choice(s.legal_actions()))
    c = s.clone()
    for k in range(1, 40):
        c.undo()
    assert c.snapshot() in snaps
    assert Record.loads(s.to_record().dumps()).final_state() == s
    v = s.view(ANNA)
    assert all(c is None for c in v.seats[BANK].hand if not (s.bottom_shown and c is s.bottom))


# --- bots ----------------------------------------------------------------------------------------------
def test_bots_and_the_rule_based_bot_uses_the_odds():
    g = game()
    assert list(game_bots(g)) == ["random", "careful", "rule-based"]
    from cardkit.tournament import match
    r = match("faro", {}, "rule-based", "random", games=40, seed=3)
    assert r.games == 40 and r.win_rate > 0.5
    # the rule-based bot withdraws (once it may) when ahead
    s = stacked([("7H", "7D"), ("QC", "7C")], doublets="none")
    play(s, "7S", "stake 2", "done", "show", "turn", "lappe", "turn")
    bot = game_bots(g)["rule-based"](0)
    assert s.position(ANNA) > 0 and "withdraw" in legal(s)
    assert bot.choose(s).text == "withdraw"


def test_games_by_the_bots_end_with_a_balanced_ledger():
    for seed in range(3):
        for bot in ("random", "careful", "rule-based"):
            g = game(players=4, deals=1)
            s = g.new_state(seed=seed)
            play_out(s, {p: game_bots(g)[bot](seed * 10 + p) for p in range(4)})
            assert s.is_terminal() and s.ledger.total() == 0 and s.ledger.balance(TABLE) == 0


def last_live(g, rank_card="7D", bottom="KC"):
    """A deal whose 103rd card (the last live one, on the left in the last turn) is `rank_card`."""
    cards = g.stack([], bottom=bottom).split()[1:]
    j = max(k for k, c in enumerate(cards[:-1]) if c == rank_card)
    card = cards.pop(j)
    cards.insert(len(cards) - 1, card)
    return g.new_state(deal="deal: " + " ".join(cards))


@covers("FA-2")
def test_the_last_live_card_is_the_banks_hocly_under_both_readings():
    for reading in ("source", "historical"):
        g = load_game("faro", winning_pile=reading, deals=1)
        s = last_live(g)
        for a in ("7S", "stake 1", "done", "show"):
            s.apply(a)
        while len(s.hands[1]) > 2:
            s.apply("turn" if s.current_player == 1 else "lappe")
        bank = s.ledger.balance("Bank")
        s.apply("turn")                                   # the last turn: a 7 on the left, the dead King right
        assert s.ledger.balance("Bank") == bank + 1, reading      # the stake on the 7 goes to the bank
    # and the odds agree: a case card with 1 live card left is a sure loss under both readings
    for reading in ("source", "historical"):
        t = strategy_table({"winning_pile": reading, "doublets": "half"})
        assert t.rows[-1][1].startswith("-1 "), (reading, t.rows[-1])
