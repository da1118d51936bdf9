"""The engines' fast paths agree with the rules worked out directly from the state, at every step of seeded
random games: the legal plays of 24 (kept as the hand's actions and filtered by colour) and Faro's stakes (kept
beside the book), and Whist's revoke claims as at the table (checked on the trick just taken, not on all the
cards played)."""
from __future__ import annotations

import pytest
from protocol_checks import random_games

import cardkit
from cardkit.games import faro, vierundzwanzig as v24


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 5}, {"players": 4, "trump_twos": True},
                                     {"players": 3, "sitting_out": True}])
def test_vierundzwanzig_plays_follow_the_led_colour_of_the_hand(options):
    """V24-4.2, V24-4.4: the legal plays are the hand's cards (in its order) of the led colour, the 24 counting
    as the trump colour; all of them at the lead or when the hand has none of it."""
    plays = 0
    for s in random_games("vierundzwanzig", options, 12):
        if s.phase != v24.PLAY:
            continue
        hand = s.hands[s.current_player]
        if s.trick:
            led = v24.SUIT_OF[s.trump][s.trick[0][1]]
            same = [c for c in hand if v24.SUIT_OF[s.trump][c] == led]
        else:
            same = []
        assert [a.card for a in s.legal_actions()] == (same or hand)
        plays += 1
    assert plays > 300


@pytest.mark.parametrize("players", [2, 4])
def test_faro_stakes_are_the_cards_left_in_the_book(players):
    """FA-3.1: a punter stakes on a card of his book not staked yet (in rank order), or is done."""
    stakes = 0
    for s in random_games("faro", {"players": players, "deals": 3}, 6):
        if s.phase != faro.STAKE:
            continue
        p = s.current_player
        on_table = {st.card for lst in s.stakes for st in lst if st.seat == p}
        left = [c for c in s.game.books[p] if c not in on_table]
        assert [a.text for a in s.legal_actions()] == [c.text for c in left] + ["done"]
        stakes += 1
    assert stakes > 50


@pytest.mark.parametrize("options", [{"players": 4}, {"players": 3, "limit": 10, "winning_pile": "historical"},
                                     {"players": 2, "limit": 100, "doublets": "all"}])
def test_faro_choices_handed_on_by_each_move_are_the_rules(options):
    """FA-3.2-FA-3.6, FA-4.2: the legal actions each move hands on (kept instead of worked out again) are those
    the state gives when asked afresh; after a showing: Paroli after a win, Lappé, Six- and Sept-et-le-va within
    the limit, and withdrawing from the card's second showing."""
    decided = 0
    lim = options["limit"] if "limit" in options else 20
    prev = None
    for s in random_games("faro", options, 8):
        legal = s.legal_actions()
        assert legal == s._legal() and legal is not prev         # a fresh list at every position
        prev = legal
        if s.phase != faro.DECIDE:
            continue
        st, outcome, before = s.pending[0]
        want = ["paroli"] if outcome == faro.WIN and 2 * before <= lim else []
        want += ["lappe"] + ["six-et-le-va"] * (6 * before <= lim) + ["sept-et-le-va"] * (7 * before <= lim)
        want += ["withdraw"] * (st.showings >= 2)
        assert [a.text for a in legal] == want
        decided += 1
    assert decided > 100


def test_whist_revokes_are_offered_once_the_cards_have_shown_them():
    """WH-4.6: after a trick, a revoke is offered for a claim exactly when a card its player held of the suit
    has been played, or lies face up in his hand; until then it stays hidden."""
    shown = 0
    prev = None
    for s in random_games("whist", {"mode": "table"}, 12):
        if prev is not None and s.tricks_played == prev + 1:       # a trick was just taken
            played = {c for _, cs, _ in s.done for c in cs}
            for r in s.revokes:
                seen = any(c in played or c in s.faceup[r["seat"]] for c in r["held"])
                if r["state"] == "hidden":
                    assert not seen, r
                elif r.get("shown_at") == s.tricks_played:
                    assert seen, r
                    shown += 1
        prev = s.tricks_played if s.hands_dealt else None
    assert shown > 20
