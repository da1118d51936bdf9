"""Écarté: every rule of cardkit/rules/ecarte.toml, tested through the public protocol.

Each test names the rule IDs it checks with ``@covers("EC-…")`` (tests/test_rulebooks.py checks that every
rule ID of the rulebook appears in this file; ``test_every_rule_is_covered`` checks the decorators).
Expected outcomes are written down here from the rules, not computed with the engine's own functions.
"""
from __future__ import annotations

import random

import pytest

import cardkit
from cardkit import CHANCE, TERMINAL, CardkitError, IllegalActionError, OptionError, Record, load_game
from cardkit.bots import RandomBot, game_bots, play_out
from cardkit.cards import PIQUET32
from cardkit.events import narration
from cardkit.record import example_names, load_example
from cardkit.tournament import match
from rule_marks import rule_marker

COVERED, covers = rule_marker()
SOUTH, NORTH = 0, 1


# --- helpers (public protocol and the state's public attributes) ----------------------------------------
def game(**opts):
    return load_game("ecarte", **opts)


def dealt(g, south, north, turned, talon=(), dealer=NORTH):
    """A new match whose first deal gives South and North these five cards each and turns `turned`, with
    `talon` on top of the talon (top first)."""
    return g.new_state(deal=g.stack([south.split(), north.split()], turned, talon.split() if isinstance(talon, str)
                                     else talon, dealer))


def hand(s, p):
    return sorted(c.text for c in s.view(None).seats[p].hand)


def legal(s):
    return sorted(a.text for a in s.legal_actions())


def pile(s, name, viewer=None):
    return next((p for p in s.view(viewer).piles if p.name == name), None)


def talon_count(s):
    return pile(s, "Talon").count


def fact(s, label, viewer=None):
    return dict(s.view(viewer).facts).get(label)


def discard(s, card):
    """Throw `card` away: the legal discard action whose card it is (its text names its place in the hand)."""
    s.apply(next(a for a in s.legal_actions() if a.data == "discard" and a.card.text == card))


def play_tricks(s, cards):
    for c in cards.split():
        s.apply(c)


def last_trick(s):
    p = pile(s, "Last trick")
    return [c.text for _, c in p.cards], p.note


def bots_match(seed=0, bot="random", **opts):
    g = game(**opts)
    s = g.new_state(seed=seed)
    play_out(s, {p: game_bots(g)[bot](seed * 10 + p) for p in (0, 1)})
    return s


def random_matches(n, **opts):
    for seed in range(n):
        yield bots_match(seed, **opts)


# --- EC-0 cards, players, aim ----------------------------------------------------------------------------
@covers("EC-0")
def test_two_players_south_and_north_and_five_points_win():
    g = game()
    assert g.num_players == 2 and g.player_names() == ["South", "North"]
    for bad in (3, 4, 1):
        with pytest.raises(OptionError) as e:
            game(players=bad)
        assert "2" in str(e.value)
    for s in random_matches(20):
        assert s.is_terminal() and max(s.points) >= 5 and min(s.points) < 5
        w = s.winners()[0]
        assert s.points[w] >= 5


@covers("EC-0.1")
def test_the_pack_and_the_rank_order_ace_between_jack_and_ten():
    g = game()
    assert len(g.full_deck()) == 32 and {c.rank for c in g.full_deck()} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    # high to low within a suit: K Q J A 10 9 8 7 — every pair of neighbours checked in a real trick
    order = ["KH", "QH", "JH", "AH", "10H", "9H", "8H", "7H"]
    for higher, lower in zip(order, order[1:]):
        rest = [c for c in order if c not in (higher, lower)]
        s = dealt(g, f"{lower} 7S 8S 9S 10S", f"{higher} {' '.join(rest[:2])} JS QS", "KC")
        s.apply("keep"), s.apply("keep")
        s.apply(lower)
        s.apply(higher)
        assert last_trick(s)[1].startswith("won by North"), (higher, lower)
    table = g.rule_tables()["ranks"]
    assert [r[0] for r in table.rows] == ["King", "Queen", "Jack", "Ace", "10", "9", "8", "7"]
    # German names; a word that is not a card breaks EC-0.1 and changes nothing
    p = PIQUET32.parse
    assert p("DH") is p("QH") and p("BS") is p("JS") and p("AsC") is p("AC")
    s = g.new_state(seed=1)
    before = s.snapshot()
    for bad in ("6H", "banana", "11S", "discard banana"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "EC-0.1" and "32-card pack" in e.value.why
    assert s.snapshot() == before


# --- EC-1 the deal --------------------------------------------------------------------------------------
@covers("EC-1", "EC-1.2")
def test_two_and_two_then_three_and_three_elder_first_then_the_turned_card():
    g = game()
    order = [c.text for c in g.full_deck()]
    s = g.new_state(deal="deal: " + " ".join(order))
    # North deals: South (the elder hand) gets cards 1-2 and 5-7, North 3-4 and 8-10, the 11th is turned
    assert hand(s, SOUTH) == sorted(order[0:2] + order[4:7])
    assert hand(s, NORTH) == sorted(order[2:4] + order[7:10])
    assert s.turned.text == order[10] and talon_count(s) == 21
    # stack() writes the same deal
    assert g.stack([order[0:2] + order[4:7], order[2:4] + order[7:10]], order[10], order[11:]) == \
        "deal: " + " ".join(order)
    with pytest.raises(IllegalActionError) as e:
        g.stack([["7C", "8C"], ["9C", "10C", "JC", "QC", "KC"]])
    assert e.value.rule == "EC-1.2"
    with pytest.raises(IllegalActionError) as e:
        g.stack([["7C", "7C", "8C", "9C", "10C"], ["JC", "QC", "KC", "AC", "7S"]])
    assert e.value.rule == "EC-0.1"
    with pytest.raises(IllegalActionError) as e:
        g.stack([["7C", "8C", "9C", "10C", "JC"], ["QC", "KC", "AC", "7S", "8S"]], dealer=2)
    assert e.value.rule == "EC-1.1"
    # a deal that is not the 32 cards is refused before the game starts
    with pytest.raises(IllegalActionError):
        g.new_state(deal="deal: " + " ".join(order[:-1]))


@covers("EC-1.1")
def test_north_deals_first_south_leads_then_the_deal_alternates():
    for s in random_matches(10):
        dealers = [d["dealer"] for d in s.deals]
        assert dealers[0] == NORTH
        assert dealers == [NORTH if i % 2 == 0 else SOUTH for i in range(len(dealers))]
    s = game().new_state(seed=3)
    assert s.current_player == SOUTH and fact(s, "Dealer").startswith("North")


@covers("EC-1.3")
def test_the_turned_card_names_trumps_and_is_nobodys_card():
    g = game()
    s = dealt(g, "7H 8H 9H 10H JH", "7S 8S 9S 10S JS", "9C", "AD KD QD")
    assert s.trump == "C" and fact(s, "Trump").startswith("♣ Clubs") and "9♣" in fact(s, "Trump")
    assert pile(s, "Trump card", SOUTH).cards[0][1].text == "9C"        # face up for both
    assert pile(s, "Trump card", NORTH).cards[0][1].text == "9C"
    discard(s, "7H")
    s.apply("buy 1")                                                      # the talon's top, not the turned card
    assert "AD" in hand(s, SOUTH) and "9C" not in hand(s, SOUTH) + hand(s, NORTH)
    s.apply("keep")
    s.apply("8H")
    assert legal(s) == ["10S", "7S", "8S", "9S", "JS"]                    # no heart, no club (trumps): any card
    s.apply("7S")
    assert last_trick(s)[1].startswith("won by South")


@covers("EC-1.4")
def test_a_turned_king_scores_the_dealer_a_point_at_once():
    g = game()
    s = dealt(g, "7H 8H 9H 10H JH", "7S 8S 9S 10S JS", "KC")
    assert s.points == [0, 1] and s.current_player == SOUTH              # before the exchange
    s = dealt(g, "7H 8H 9H 10H JH", "7S 8S 9S 10S JS", "QC")
    assert s.points == [0, 0]
    ex = load_example("ecarte", "turned-king")
    states = ex.states()
    assert states[1].points == [0, 1]
    final = ex.final_state()
    assert final.deals[0]["king_turned"] and final.deals[0]["points"][NORTH] >= 1


# --- EC-2 the exchange and the pot ---------------------------------------------------------------------
@covers("EC-2")
def test_both_may_throw_away_any_number_and_buy_as_many():
    g = game()
    s = dealt(g, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D", "QD AS KH 10S")
    assert s.current_player == SOUTH
    assert legal(s) == ["discard 1", "discard 2", "discard 3", "discard 4", "discard 5", "keep"]
    assert sorted(a.label for a in s.legal_actions()) == sorted(
        ["discard K♠", "discard 9♠", "discard 8♥", "discard 7♣", "discard J♦", "keep my cards"])
    for c in ("9S", "7C", "8H"):
        discard(s, c)
    assert len(hand(s, SOUTH)) == 2 and "buy 3" in legal(s)
    s.apply("buy 3")
    assert hand(s, SOUTH) == sorted(["KS", "JD", "QD", "AS", "KH"]) and talon_count(s) == 18
    assert s.current_player == NORTH
    discard(s, "9H")
    s.apply("buy 1")
    assert hand(s, NORTH) == sorted(["QC", "KC", "10D", "7D", "10S"])
    # the discards are face down: North sees how many South threw away, never which
    d = pile(s, "Discards", NORTH)
    assert [c for o, c in d.cards if o == "South"] == [None, None, None]
    assert [c.text for o, c in d.cards if o == "North"] == ["9H"]
    assert sorted(c.text for o, c in pile(s, "Discards", SOUTH).cards if o == "South") == ["7C", "8H", "9S"]
    # all five may go
    s = dealt(g, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D")
    for c in ("KS", "9S", "7C", "8H", "JD"):
        discard(s, c)
    assert legal(s) == ["buy 5"]


@covers("EC-2.1")
def test_the_exchange_freely_or_proposed_and_accepted():
    g = game()
    s = dealt(g, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D")
    for word in ("propose", "accept", "refuse", "play"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(word)
        assert e.value.rule == "EC-2.1"
    c = game(exchange="propose")
    s = dealt(c, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D", "QD AS KH 10S JC")
    assert s.current_player == SOUTH and legal(s) == ["play", "propose"]
    before = s.snapshot()
    for bad in ("9S", "discard 1", "keep", "accept"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule.startswith("EC-2")
    assert s.snapshot() == before
    s.apply("propose")
    assert s.current_player == NORTH and legal(s) == ["accept", "refuse"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("QC")
    assert e.value.rule == "EC-2.1" and "accept or refuse" in e.value.why
    s.apply("accept")
    # the elder hand throws away at least one card
    assert s.current_player == SOUTH and "keep" not in legal(s) and len(legal(s)) == 5
    with pytest.raises(IllegalActionError) as e:
        s.apply("keep")
    assert e.value.rule == "EC-2.1"
    discard(s, "9S")
    s.apply("buy 1")
    # the dealer: none to five
    assert s.current_player == NORTH and "keep" in legal(s)
    s.apply("keep")
    # the elder hand may propose again
    assert s.current_player == SOUTH and legal(s) == ["play", "propose"]
    s.apply("propose")
    s.apply("refuse")
    assert s.phase == 3 and s.current_player == SOUTH and "KS" in legal(s)
    assert not s.refused                             # not the first proposal: no risk (EC-2.3)


@covers("EC-2.2")
def test_one_card_at_a_time_elder_first_discards_out_of_play_until_the_shuffle():
    g = game()
    s = dealt(g, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D")
    # the discard's text is its place in the hand as shown (♠ ♥ ♣ ♦, high to low), its label the card
    shown = [c.text for c in s.view(SOUTH).seats[SOUTH].hand]
    assert shown == ["KS", "9S", "8H", "7C", "JD"]
    assert {a.text: a.card.text for a in s.legal_actions() if a.card} == {
        "discard 1": "KS", "discard 2": "9S", "discard 3": "8H", "discard 4": "7C", "discard 5": "JD"}
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply("9S")                                # a card alone is no exchange action
    assert e.value.rule == "EC-2.2" and "discard 2" in e.value.why
    with pytest.raises(IllegalActionError) as e:
        s.apply("discard 6")
    assert e.value.rule == "EC-2.2"
    with pytest.raises(IllegalActionError) as e:
        s.apply("buy 2")                             # nothing thrown away yet
    assert e.value.rule == "EC-2.2" and "keep" in e.value.why
    assert s.snapshot() == before
    assert s.current_player == SOUTH                 # the elder hand first
    s.apply("discard 9♠")                            # its label works too
    assert [c.text for c in s.discards[SOUTH]] == ["9S"]
    s.apply("buy 1")
    assert s.current_player == NORTH                 # then the dealer, once
    s.apply("keep")
    assert s.phase == 3 and s.current_player == SOUTH   # and the play begins
    # the record holds only the places: a replay of it gives the same game
    assert Record.loads(s.to_record().dumps()).final_state() == s
    # after the deal the discards stay out of play: South sees his own, North sees them face down
    ex = load_example("ecarte", "free-exchange").final_state()
    assert ex.deal_no == 2
    mine = pile(ex, "Out of play since the shuffle", SOUTH)
    theirs = pile(ex, "Out of play since the shuffle", NORTH)
    assert len(mine.cards) == len(theirs.cards) == 10 + 1 + 4   # ten played, the turned card, four discards
    assert sorted(c.text for o, c in mine.cards if o == "South" and c.text in ("9S", "7C", "8H")) == \
        ["7C", "8H", "9S"]
    assert [c for o, c in theirs.cards if c is None] == [None, None, None]
    assert [c for o, c in mine.cards if c is None] == [None]     # North's one discard
    assert not any(c.text == "9H" for o, c in mine.cards if c is not None)


@covers("EC-2.3")
def test_classic_standing_is_a_risk():
    c = game(exchange="propose")
    hands = ("KC 9C KH QH JS", "QC AC KD QD KS", "10C")
    tricks = "KH QC KS JS KD 9C QH AC QD KC"            # South 2 tricks, North 3
    # the elder hand plays without proposing and takes only 2 tricks: the dealer scores 2
    s = dealt(c, *hands)
    s.apply("play")
    play_tricks(s, tricks)
    assert s.deals[0]["tricks"] == [2, 3] and s.deals[0]["points"] == [0, 2] and s.deals[0]["why"] == "stood"
    # the same deal after an exchange was proposed and refused: South did not stand, North refused and made
    # the point: 1
    s = dealt(c, *hands)
    s.apply("propose"), s.apply("refuse")
    play_tricks(s, tricks)
    assert s.deals[0]["points"] == [0, 1]
    # the same cards under the source's free exchange: 1 point
    s = dealt(game(), *hands)
    s.apply("keep"), s.apply("keep")
    play_tricks(s, tricks)
    assert s.deals[0]["points"] == [0, 1]
    # the dealer refuses the first proposal and fails: the elder hand scores 2
    s = dealt(c, "QC AC KD QD KS", "KC 9C KH QH JS", "10C")
    s.apply("propose"), s.apply("refuse")
    assert s.refused
    play_tricks(s, "KS JS KD 9C KH AC QD KC QH QC")
    assert s.deals[0]["tricks"] == [3, 2] and s.deals[0]["points"] == [2, 0] and s.points == [2, 0]
    ex = load_example("ecarte", "propose-refuse").final_state()
    assert ex.deals[0]["why"] == "stood" and ex.deals[0]["points"] == [2, 0]
    # every deal of random classic matches: the risk exactly as the rule says
    checked = 0
    for m in random_matches(40, exchange="propose"):
        for d in m.deals:
            if d["why"] == "ended":
                continue
            t = d["tricks"]
            w = 0 if t[0] >= 3 else 1
            kings = [int(d["king_turned"] and d["dealer"] == p) for p in (0, 1)]
            got = d["points"][w] - kings[w]
            if d["why"] == "stood":
                checked += 1
                assert t[w] < 5 and got == 2
            else:
                assert got == (2 if t[w] == 5 else 1)
    assert checked


@covers("EC-2.4")
def test_the_king_of_trumps_in_hand():
    g = game()
    s = dealt(g, "KC 8C QH 10D 7S", "AC JC KH QS 8D", "9C")
    s.apply("keep"), s.apply("keep")
    assert "announce" not in legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("announce")
    assert e.value.rule == "EC-2.4"
    k = game(king_in_hand=True)
    s = dealt(k, "KC 8C QH 10D 7S", "AC JC KH QS 8D", "9C")
    s.apply("keep")
    with pytest.raises(IllegalActionError) as e:
        s.apply("announce")                            # not in the exchange
    assert e.value.rule == "EC-2.4"
    s.apply("keep")
    assert "announce" in legal(s) and s.current_player == SOUTH
    assert s.view(NORTH).seats[SOUTH].hand == [None] * 5
    s.apply("announce")
    assert s.points == [1, 0] and s.current_player == SOUTH and "announce" not in legal(s)
    assert s.view(NORTH).seats[SOUTH].hand[0].text == "KC"        # shown to the table
    assert s.view(NORTH).seats[SOUTH].hand[1:] == [None] * 4
    assert "South announced" in fact(s, "King of trumps", NORTH)
    # too late once a card is played
    s = dealt(k, "KC 8C QH 10D 7S", "AC JC KH QS 8D", "9C")
    s.apply("keep"), s.apply("keep")
    s.apply("QH")
    s.apply("KH")
    assert "announce" not in legal(s)
    # the dealer may announce before his first card
    s = dealt(k, "AC JC KH QS 8D", "KC 8C QH 10D 7S", "9C")
    s.apply("keep"), s.apply("keep")
    assert "announce" not in legal(s)
    s.apply("KH")
    assert "announce" in legal(s)
    s.apply("announce")
    assert s.points == [0, 1]
    # a King of trumps that was turned is nobody's: only the dealer's point
    s = dealt(k, "AC JC KH QS 8D", "7C 8C QH 10D 7S", "KC")
    s.apply("keep"), s.apply("keep")
    assert s.points == [0, 1] and "announce" not in legal(s)
    ex = load_example("ecarte", "king-in-hand")
    assert ex.final_state().deals[0]["king_held"] == SOUTH
    with pytest.raises(cardkit.RecordError) as e:
        ex.final_state(king_in_hand=False)
    assert e.value.step == 3


@covers("EC-2.5")
@pytest.mark.parametrize("stake", [1, 2, 5, 10])
def test_equal_stakes_into_the_pot_after_the_exchange(stake):
    g = game(stake=stake)
    s = dealt(g, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D")
    assert s.pot == 0 and fact(s, "Pot").startswith("empty")
    s.apply("keep")
    assert s.pot == 0
    s.apply("keep")
    assert s.pot == 2 * stake and s.paid == [stake, stake]
    assert fact(s, "Pot").startswith(f"{2 * stake} units")
    for m in random_matches(6, stake=stake):
        assert m.pot == 2 * stake
        w = m.winners()[0]
        gain = stake * (3 if m.points[1 - w] == 0 else 1)
        assert m.scores()[w] == gain and m.scores()[1 - w] == -gain
    with pytest.raises(OptionError):
        game(stake=3)
    assert game(stake=2).rule_tables()["settlement"].rows[0][1:] == ["+2 units", "−2 units"]


@covers("EC-2.5.1")
def test_staking_once_or_every_deal():
    g = game(staking="every deal")
    s = dealt(g, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D")
    s.apply("keep"), s.apply("keep")
    assert s.pot == 2
    for m in random_matches(8, staking="every deal"):
        # a deal adds two stakes once its exchange is over: every deal but one the match ended before its play
        staked = sum(1 for d in m.deals if not (d["why"] == "ended" and d["king_turned"] and d["tricks"] == [0, 0]
                                                 and d["king_held"] is None and d["bought"] == [0, 0]))
        assert m.pot == 2 * staked, (m.pot, m.deals)
        w = m.winners()[0]
        gain = m.pot // 2 + (m.pot if m.points[1 - w] == 0 else 0)
        assert m.scores() == ([gain, -gain] if w == 0 else [-gain, gain])
    for m in random_matches(8, staking="once"):
        assert m.pot == 2
    rec = load_example("ecarte", "whole-match")
    once, every = rec.final_state(), rec.final_state(staking="every deal")
    assert once.pot == 2 and once.scores() == [3, -3]
    assert every.pot == 6 and every.scores() == [9, -9]      # three deals staked; the fourth ended first


# --- EC-3 the play --------------------------------------------------------------------------------------
@covers("EC-3", "EC-3.1")
def test_the_elder_hand_leads_and_the_winner_leads_next():
    g = game()
    s = dealt(g, "KH 7S 8S 9C 10C", "QH 7D 8D AS JC", "9D")
    s.apply("keep"), s.apply("keep")
    assert s.current_player == SOUTH
    assert legal(s) == sorted(["KH", "7S", "8S", "9C", "10C"])          # the lead: any card
    s.apply("KH"), s.apply("QH")
    assert s.current_player == SOUTH                                     # South took it and leads again
    s.apply("7S"), s.apply("AS")
    assert s.current_player == NORTH                                     # North took it
    assert sum(s.tricks) == 2


@covers("EC-3.2")
def test_follow_suit():
    g = game()
    s = dealt(g, "KH 7S 8S 9C 10C", "QH 8H 8D AS JC", "9D")
    s.apply("keep"), s.apply("keep")
    s.apply("KH")
    assert legal(s) == ["8H", "QH"]
    before = s.snapshot()
    for bad in ("AS", "8D", "JC"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "EC-3.2" and e.value.why == "you hold a heart: follow suit"
    assert s.snapshot() == before
    with pytest.raises(IllegalActionError) as e:
        s.apply("KS")                                                    # not in his hand
    assert e.value.rule == "EC-3" and "do not hold" in e.value.why


@covers("EC-3.3")
def test_void_trump_if_you_can():
    g = game()
    s = dealt(g, "KH 7S 8S 9C 10C", "8D QD AS JC 10S", "9D")
    s.apply("keep"), s.apply("keep")
    s.apply("KH")
    assert legal(s) == ["8D", "QD"]                                      # no heart: a trump
    with pytest.raises(IllegalActionError) as e:
        s.apply("AS")
    assert e.value.rule == "EC-3.3" and "no heart" in e.value.why and "trump" in e.value.why
    s.apply("8D")
    assert last_trick(s)[1].startswith("won by North")
    # a trump led is followed like any suit: trumps if he has them
    s = dealt(g, "9D 7S 8S 9C 10C", "8D KH AS JC 10S", "7D")
    s.apply("keep"), s.apply("keep")
    s.apply("9D")
    assert legal(s) == ["8D"]


@covers("EC-3.4")
def test_with_neither_any_card_and_it_loses():
    g = game()
    s = dealt(g, "KH 7S 8S 9C 10C", "AS JC 10S QC 7C", "9D")
    s.apply("keep"), s.apply("keep")
    s.apply("KH")
    assert legal(s) == sorted(["AS", "JC", "10S", "QC", "7C"])
    s.apply("AS")
    assert last_trick(s)[1].startswith("won by South")


@covers("EC-3.5")
@pytest.mark.parametrize("led,answer,winner", [
    ("JH", "QH", "North"),     # the higher card of the led suit
    ("JH", "AH", "South"),     # the Ace is below the Jack
    ("JH", "7S", "North"),     # a trump (spades) takes it
    ("JH", "KC", "South"),     # another suit never takes it, however high
    ("JS", "QS", "North"),     # two trumps: the higher
    ("QS", "JS", "South"),
    ("7S", "KH", "South"),     # a trump led: nothing but a higher trump takes it
])
def test_who_takes_the_trick(led, answer, winner):
    g = game()
    pool = [c.text for c in g.full_deck() if c.text not in (led, answer)]
    # South: the led card + filler that cannot matter; North: the answer, and no card that must be played
    # instead (no other card of the led suit, no other trump)
    suit = led[-1]
    fill_n = [c for c in pool if c[-1] not in (suit, "S")][:4]
    fill_s = [c for c in pool if c not in fill_n and c[-1] != "S"][:4]
    s = dealt(g, " ".join([led] + fill_s), " ".join([answer] + fill_n), "8S")
    s.apply("keep"), s.apply("keep")
    s.apply(led), s.apply(answer)
    assert last_trick(s)[1].startswith(f"won by {winner}") and "[EC-3.5]" in last_trick(s)[1]


@covers("EC-3.5")
def test_the_beats_table():
    rows = {r[0]: r[1] for r in game().rule_tables()["beats"].rows}
    assert rows == {"a higher heart (Q♥)": "the second card", "a lower heart (A♥)": "the led J♥",
                    "a trump (7♠)": "the second card", "another suit, however high (K♣)": "the led J♥",
                    "trumps led (J♠), a higher trump (Q♠)": "the second card"}


@covers("EC-3.6")
def test_the_duty_to_win_the_trick():
    base = ("JH KC 9D 8S 10C", "QH 8H AD 9S 7C", "7S")
    s = dealt(game(), *base)
    s.apply("keep"), s.apply("keep"), s.apply("JH")
    assert legal(s) == ["8H", "QH"]                        # the source: any heart
    o = game(overtake=True)
    s = dealt(o, *base)
    s.apply("keep"), s.apply("keep"), s.apply("JH")
    assert legal(s) == ["QH"]
    with pytest.raises(IllegalActionError) as e:
        s.apply("8H")
    assert e.value.rule == "EC-3.6" and "must win" in e.value.why
    # no heart can win: any heart
    s = dealt(o, "KH 7S 8S 9C 10C", "QH 8H 8D AS JC", "9D")
    s.apply("keep"), s.apply("keep"), s.apply("KH")
    assert legal(s) == ["8H", "QH"]
    # void: any trump wins a side lead; a trump led: a higher trump if he has one
    s = dealt(o, "9D 7S 8S 9C 10C", "8D KD AS JC 10S", "7D")
    s.apply("keep"), s.apply("keep"), s.apply("9D")
    assert legal(s) == ["KD"]
    # the example: fine under the source, illegal under the classic duty
    rec = load_example("ecarte", "overtake")
    rec.final_state()
    with pytest.raises(cardkit.RecordError) as e:
        rec.final_state(overtake=True)
    assert e.value.step == 4 and "EC-3.6" in str(e.value)


# --- EC-4 scoring and the match -------------------------------------------------------------------------
def ref_points(tricks: int) -> int:
    """EC-4.1, written down again: 3 or 4 tricks 1 point, 5 tricks 2, fewer nothing."""
    return 2 if tricks == 5 else 1 if tricks >= 3 else 0


@covers("EC-4", "EC-4.1")
def test_three_or_four_tricks_one_point_five_two():
    g = game()
    seen = set()
    for m in random_matches(40):
        for d in m.deals:
            if d["why"] == "ended":
                continue
            t = d["tricks"]
            assert sum(t) == 5
            kings = [int(d["king_turned"] and d["dealer"] == p) for p in (0, 1)]
            assert [d["points"][p] - kings[p] for p in (0, 1)] == [ref_points(t[0]), ref_points(t[1])]
            seen.add(max(t))
    assert seen == {3, 4, 5}
    rows = {r[0]: r[1] for r in g.rule_tables()["points"].rows}
    assert rows["3 or 4"] == "1 point" and rows["5"] == "2 points" and rows["0, 1 or 2"].startswith("nothing")


@covers("EC-4.2")
def test_the_dealer_changes_every_deal_and_the_other_leads():
    for m in random_matches(10):
        for a, b in zip(m.deals, m.deals[1:]):
            assert b["dealer"] == 1 - a["dealer"]


@covers("EC-4.3")
def test_deals_go_on_from_the_talon_until_it_is_used_up():
    rec = load_example("ecarte", "from-the-talon")
    deals = sum(1 for a in rec.actions if a.startswith("deal:"))
    assert deals == 1                                      # one shuffle gave two deals
    states = rec.states()
    end = states[-1]
    assert end.current_player == CHANCE and end.deal_no == 2 and len(end.talon) == 0
    second = next(s for s in states if s.deal_no == 2)
    assert second.dealer == SOUTH and talon_count(second) == 5 and second.turned is not None
    # the cards of the first deal are out of play, the played ones face up for both
    out = pile(second, "Out of play since the shuffle", NORTH)
    assert sum(1 for _, c in out.cards if c is not None) == 10 + 1 + 2   # ten played, the turned card, his discards
    assert len(out.cards) == 10 + 1 + 5
    # seeded matches: a new shuffle only when the talon cannot give a deal
    for m in random_matches(10):
        shuffles = sum(1 for a in m.history if a.__class__ is cardkit.Deal)
        assert shuffles == m.shuffles and shuffles < m.deal_no + 1
        assert m.shuffles < m.deal_no                      # at least one deal came from a talon left over


@covers("EC-4.4")
def test_the_talon_runs_short():
    g = game()
    s = dealt(g, "KS 9S 7C 8H JD", "QC KC 10D 7D 9H", "8D")
    # a talon of 21: South may throw away all five
    for c in ("KS", "9S", "7C", "8H", "JD"):
        discard(s, c)
    s.apply("buy 5")
    assert talon_count(s) == 16
    # the limit: only as many as the talon can replace — the second deal of the example
    rec = load_example("ecarte", "from-the-talon")
    st = rec.states()
    s = next(x for x in st if x.deal_no == 2 and x.current_player == SOUTH and x.phase == 0)
    assert len(s.talon) == 1 and "discard 1" in legal(s)
    s.apply("discard 1")
    assert legal(s) == ["buy 1"]
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply(s.view(SOUTH).seats[SOUTH].hand[0].text)
    assert e.value.rule == "EC-4.4" and "talon holds only 1 card" in e.value.why
    assert s.snapshot() == before
    # "only with a full exchange": the talon of 16 gives no deal, the whole pack is shuffled
    lines = rec._engine_lines(short_talon="fresh")
    k = next(i for i, line in enumerate(lines) if "shuffled again" in line)
    assert "16 cards" in lines[k] and "full exchange" in lines[k]
    with pytest.raises(cardkit.RecordError) as e:
        rec.final_state(short_talon="fresh")       # the record goes on with a deal from the talon
    assert e.value.step == k + 1
    for m in random_matches(15, short_talon="fresh"):
        # a deal from the talon only after a deal in which nobody bought (the talon still held 21)
        for a, b in zip(m.deals, m.deals[1:]):
            if a["bought"] != [0, 0]:
                assert not _from_talon(m, b["deal"]), (a, b)
    # an empty talon: nobody exchanges, the play begins at once
    seen = 0
    for m in random_matches(30):
        for d in m.deals:
            if _from_talon(m, d["deal"]) and _talon_before_exchange(m, d["deal"]) == 0:
                seen += 1
                assert d["bought"] == [0, 0]
    assert seen


def _deal_starts(m):
    """For each deal number, the state just after it was dealt (replayed from the record)."""
    out = {}
    s = m.game.blank_state()
    for a in m.history:
        n = s.deal_no
        s.apply(a)
        if s.deal_no != n:
            out[s.deal_no] = (s.clone(), a.__class__ is cardkit.Deal)
    return out


def _from_talon(m, deal_no):
    return not _deal_starts(m)[deal_no][1]


def _talon_before_exchange(m, deal_no):
    return len(_deal_starts(m)[deal_no][0].talon)


@covers("EC-4.5", "EC-4.6")
def test_five_points_win_the_pot_and_a_loser_on_nothing_pays_it_again():
    rec = load_example("ecarte", "whole-match")
    s = rec.final_state()
    assert s.is_terminal() and s.points == [5, 0] and s.winners() == [SOUTH]
    assert s.scores() == [3, -3]                          # the pot of 2: +1, and the pot once more
    assert "pays the pot once more" in s.view(None).result
    table = s.score_table()
    assert table.rows[-1][:6] == ["Units won", "", "", "", "+3", "−3"]
    one, zero = 0, 0
    for m in random_matches(60):
        w = m.winners()[0]
        lose = m.points[1 - w]
        if lose == 0:
            zero += 1
            assert m.scores()[w] == 3
        else:
            one += 1
            assert m.scores()[w] == 1
        assert sum(m.scores()) == 0
    assert one and zero
    rows = game().rule_tables()["settlement"].rows
    assert rows == [["the loser has 1 point or more", "+1 unit", "−1 unit"],
                    ["the loser has no point", "+3 units", "−3 units"]]


class Announcer(RandomBot):
    """Plays at random, but always announces the King of trumps when it may."""

    def choose(self, state):
        legal = state.legal_actions()
        return next((a for a in legal if a.text == "announce"), None) or super().choose(state)


@covers("EC-4.7")
def test_a_point_counts_at_once_and_the_fifth_ends_the_match_within_a_deal():
    rec = load_example("ecarte", "whole-match")
    s = rec.final_state()
    last = s.deals[-1]
    assert last["why"] == "ended" and last["king_turned"] and last["dealer"] == SOUTH and last["tricks"] == [0, 0]
    assert s.is_terminal() and s.phase != 3 and s.points == [5, 0]     # ended before the exchange
    g = game(king_in_hand=True)
    ended_by_king = kings_only = 0
    for seed in range(150):
        m = g.new_state(seed=seed)
        play_out(m, {0: Announcer(seed), 1: Announcer(seed + 1000)})
        last = m.deals[-1]
        # an announced King that brings the fifth point ends the match before the deal's tricks are played
        if last["why"] == "ended" and last["king_held"] is not None:
            ended_by_king += 1
            assert sum(last["tricks"]) < 5 and m.points[last["king_held"]] >= 5
        # every point is a point: a loser whose only points are Kings is not on 0
        w = m.winners()[0]
        lose = 1 - w
        if m.points[lose] and not any(d["winner"] == lose for d in m.deals):
            kings_only += 1
            assert m.scores() == ([1, -1] if w == 0 else [-1, 1])
    assert ended_by_king and kings_only


# --- the kit: examples, narration, bad input, bots -----------------------------------------------------
def test_examples_replay_and_are_described():
    names = example_names("ecarte")
    assert set(names) >= {"free-exchange", "turned-king", "king-in-hand", "overtake", "propose-refuse",
                          "from-the-talon", "whole-match"}
    book = game().rulebook
    for name in names:
        rec = load_example("ecarte", name)
        assert rec.meta["title"] and rec.meta["description"]
        book.rule(rec.meta["rule"])
        lines = narration(rec)
        assert len(lines) == len(rec.actions) and all(lines)
        assert Record.loads(rec.dumps()).final_state() == rec.final_state()


def test_describe_narrates_public_facts_only():
    """No line names a card of the other hand or a discard: the discards, the buys and the hidden hands
    stay hidden; every card a line names has been shown (played, turned, announced) by then."""
    for seed in range(6):
        g = game(king_in_hand=True)
        s = g.new_state(seed=seed)
        bot = RandomBot(seed)
        while not s.is_terminal():
            a = bot.choose(s)
            before = s.clone()
            line = s.describe(a)
            s.apply(a)
            shown = {c.label for _, c in s.shown} | {c.label for _, c, up in s.out if up}
            for p in (0, 1):
                for c in before.hands[p]:
                    if c.label in line:
                        assert c.label in shown or (a.card is c and a.data != "discard"), (line, c.label)
            if a.data == "discard":
                assert a.card.label not in line


def test_bad_options_and_after_the_end():
    for opts in ({"exchange": "trade"}, {"overtake": 1}, {"stake": 0}, {"short_talon": "never"},
                 {"staking": True}, {"trumps": "S"}):
        with pytest.raises(OptionError):
            game(**opts)
    s = bots_match(1)
    with pytest.raises(IllegalActionError) as e:
        s.apply("KH")
    assert e.value.rule == "end"
    assert s.current_player == TERMINAL and s.legal_actions() == []
    with pytest.raises(CardkitError):
        game().new_state(seed="7")


def test_views_hide_the_other_hand_the_talon_and_the_discards():
    for m in (game().new_state(seed=s) for s in range(5)):
        bot = RandomBot(3)
        while not m.is_terminal():
            for viewer in (0, 1):
                v = m.view(viewer)
                other = v.seats[1 - viewer].hand
                king = m.king_held == 1 - viewer
                assert all(c is None for c in other[1 if king else 0:])
                assert pile(m, "Talon", viewer).cards == []
                d = pile(m, "Discards", viewer)
                if d:
                    assert all(c is None for o, c in d.cards if o != ("South", "North")[viewer])
            m.apply(bot.choose(m))


def test_progress_and_score_table():
    s = game().new_state(seed=2)
    assert s.progress() == ("Deal 1", "Exchange")
    s.apply("keep"), s.apply("keep")
    assert s.progress() == ("Deal 1", "Trick 1")
    m = bots_match(2)
    assert m.progress()[1] == "End of the match"
    t = m.score_table()
    assert [r[0] for r in t.rows[:-2]] == [f"Deal {d['deal']}" for d in m.deals]
    assert t.rows[-2][4:6] == [str(m.points[0]), str(m.points[1])]


def test_bots_play_legal_matches():
    g = game()
    assert list(game_bots(g)) == ["random", "careful", "rule-based"]
    for opts in ({}, {"exchange": "propose", "king_in_hand": True, "overtake": True}):
        for bot in game_bots(g):
            s = bots_match(3, bot=bot, **opts)
            assert s.is_terminal()


def test_rule_based_bot_beats_random():
    """A few dozen matches with a generous margin (the figure over 1,000 matches is in docs/bots.md)."""
    r = match("ecarte", {}, "rule-based", "random", games=30, seed=0)
    assert r.win_rate >= 0.7, r.win_rate


def test_rule_based_bot_keeps_trumps_and_kings_and_throws_weak_cards():
    g = game()
    bot = game_bots(g)["rule-based"](0)
    s = dealt(g, "KC 9S 7H 8D JD", "QC KH 10D 7D 9H", "8D".replace("8D", "10C"))
    thrown = []
    while s.current_player == SOUTH and s.phase == 0:
        a = bot.choose(s)
        if a.data == "discard":
            thrown.append(a.card.text)
        s.apply(a)
    assert sorted(thrown) == ["7H", "8D", "9S", "JD"]          # clubs are trumps: the K♣ stays
    # classic: the elder hand proposes with a weak hand, stands with a strong one
    c = game(exchange="propose")
    s = dealt(c, "7C 9S 7H 8D JD", "QC KH 10D 7D 9H", "10C")
    assert bot.choose(s).text == "propose"
    s = dealt(c, "KC AC QC KH KS", "JC KD 10D 7D 9H", "10C")
    assert bot.choose(s).text == "play"
    k = game(king_in_hand=True)
    s = dealt(k, "KC 8C QH 10D 7S", "AC JC KH QS 8D", "9C")
    s.apply("keep"), s.apply("keep")
    assert bot.choose(s).text == "announce"


def test_random_play_many_options():
    rnd = random.Random(5)
    for i in range(20):
        opts = {"exchange": rnd.choice(["buy", "propose"]), "overtake": rnd.choice([False, True]),
                "king_in_hand": rnd.choice([False, True]), "short_talon": rnd.choice(["limit", "fresh"])}
        s = bots_match(i, **opts)
        assert s.is_terminal() and s.winners()
