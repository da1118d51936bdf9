"""Whist: every rule of cardkit/rules/whist.toml, tested through the public protocol.

Each test names the rule IDs it checks with ``@covers("WH-…")`` (tests/test_rulebooks.py checks that every
rule ID of the rulebook appears in this file; ``test_every_rule_is_covered`` checks the decorators).
Expected outcomes are written down here from the rules (who takes a trick, what a hand scores), not
computed with the engine's own functions.
"""
from __future__ import annotations

import random
import re

import pytest

import cardkit
from cardkit import TERMINAL, CardkitError, IllegalActionError, OptionError, Record, load_game
from cardkit.bots import RandomBot, game_bots, play_out
from cardkit.cards import FRENCH52
from cardkit.events import narration
from cardkit.record import example_names, load_example
from cardkit.rng import Rng
from rule_marks import rule_marker
from test_hidden import hints_checked
from test_whist_properties import score_source

COVERED, covers = rule_marker()
S, W, N, E = 0, 1, 2, 3
P = FRENCH52.parse_many
RANK = {r: v for v, r in enumerate("2 3 4 5 6 7 8 9 10 J Q K A".split(), start=2)}


# --- helpers (public protocol and the state's public attributes) ----------------------------------------
def game(**opts):
    return load_game("whist", **opts)


def fill(partial: dict, avoid: dict | None = None) -> list:
    """Four hands of 13: seat -> the cards it must hold, filled up with the unused cards; `avoid`: seat ->
    suits it must not be given beyond its listed cards. Cards of suits most seats avoid are placed first,
    each with the allowed seat that has the most room left."""
    avoid = avoid or {}
    used = {c for cs in partial.values() for c in P(cs)}
    pool = [c for c in FRENCH52.cards if c not in used]
    hands = [list(P(partial.get(p, ""))) for p in range(4)]
    pool.sort(key=lambda c: -sum(1 for p in range(4) if c.suit in avoid.get(p, "")))
    for c in pool:
        ok = [p for p in range(4) if len(hands[p]) < 13 and c.suit not in avoid.get(p, "")]
        assert ok, f"cannot place {c.text}"
        hands[max(ok, key=lambda p: (13 - len(hands[p]), -p))].append(c)
    assert all(len(h) == 13 for h in hands)
    return [[c.text for c in h] for h in hands]


def stacked(partial: dict, dealer=E, turned=None, avoid=None, exposed=(), more=(), **opts):
    """A state dealt from these (partial) hands, `dealer` dealing and turning `turned` (one of his cards);
    `more`: further deals after this one."""
    g = game(**opts)
    hands = fill(partial, avoid)
    if turned is not None and turned not in hands[dealer]:
        raise AssertionError("the turned card must be in the dealer's partial hand")
    return g.new_state(deal=[g.draw(dealer), g.stack(hands, turned=turned, dealer=dealer, exposed=exposed), *more])


def hand(s, p):
    return sorted(c.text for c in s.view(None).seats[p].hand)


def legal(s):
    return sorted(a.text for a in s.legal_actions())


def pile(s, kind, viewer=None):
    return next((p for p in s.view(viewer).piles if p.kind == kind or p.name == kind), None)


def play_hand(s, choose):
    """Play until the hand is over or the game is over; `choose(state) -> action`. (A seeded state deals the
    next hand by itself; a stacked one waits at the chance node.)"""
    n = len(s.log)
    while not s.is_terminal() and not s.is_chance() and len(s.log) == n:
        s.apply(choose(s))
    return s


def first_legal(s):
    """Play the first legal action (a fixed, simple policy) until the hand is over."""
    return play_hand(s, lambda st: st.legal_actions()[0])


def honest(s):
    """Follow suit when possible, answer "having none" truthfully, claim nothing, play on."""
    legal = s.legal_actions()
    texts = [a.text for a in legal]
    for word in ("none", "no claim", "play on"):
        if word in texts:
            return legal[texts.index(word)]
    if s.trick:
        same = [a for a in legal if a.card.suit == s.led]
        if same:
            return same[0]
    return legal[0]


def random_play(seed):
    rnd = random.Random(seed)
    return lambda s: rnd.choice(s.legal_actions())


def beats(card, best, led, trump):
    """WH-4.3 written down again: does `card` take the trick from `best` (the best so far)?"""
    if card.suit == best.suit:
        return RANK[card.rank] > RANK[best.rank]
    return card.suit == trump


def ref_winner(cards, trump):
    best = 0
    for i in range(1, 4):
        if beats(cards[i], cards[best], cards[0].suit, trump):
            best = i
    return best


# --- WH-1 players, pack, first dealer -----------------------------------------------------------------------
@covers("WH-1", "WH-1.1")
def test_four_players_partners_opposite_play_to_the_left():
    g = game()
    assert g.num_players == 4 and g.player_names() == ["South", "West", "North", "East"]
    s = g.new_state(seed=2)
    teams = [x.team for x in s.view(None).seats]
    assert teams == ["North–South", "East–West", "North–South", "East–West"]
    # partners share one score; play goes to the left, one seat at a time
    order = []
    p = s.current_player
    for _ in range(4):
        order.append(s.current_player)
        s.apply(s.legal_actions()[0])
    assert order == [p, (p + 1) % 4, (p + 2) % 4, (p + 3) % 4]
    first_legal(s)
    sc = s.scores()
    assert sc[S] == sc[N] and sc[W] == sc[E]
    for bad in (2, 3, 5, "4"):
        with pytest.raises(OptionError) as e:
            game(players=bad)
        assert "players" in str(e.value) and "4" in str(e.value)


@covers("WH-1.2")
def test_the_pack_52_cards_aces_high_and_notation():
    g = game()
    deck = g.full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert {c.suit for c in deck} == set("CSHD") and all(sum(1 for c in deck if c.suit == x) == 13 for x in "CSHD")
    # the Ace beats the King of its suit
    s = stacked({S: "KH", W: "AH", N: "2H", E: "3H 4S"}, turned="4S")
    for c in ("KH", "AH", "2H", "3H"):
        s.apply(c)
    assert pile(s, "last-trick").note.startswith("won by West with A♥")
    before = s.snapshot()
    for bad in ("banana", "11H", "1X", "ZZ"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "WH-1.2" and "52-card pack" in e.value.why
    assert s.snapshot() == before
    assert FRENCH52.parse("10♥") is FRENCH52.parse("10H") is FRENCH52.parse("Ten of Hearts")


def draw_deal(first: str) -> str:
    cs = P(first)
    return "deal: " + FRENCH52.format(cs + [c for c in FRENCH52.cards if c not in cs])


@covers("WH-1.3")
def test_the_first_dealer_highest_card_ties_draw_again():
    g = game()
    # South 7, West K, North 2, East K: West and East tie and draw again (3 against 9): East deals
    s = g.blank_state()
    s.deal(draw_deal("7H KS 2C KD 3S 9H"))
    assert s.is_chance() and s.dealer == E and s.hands_dealt == 0      # the draw is not a hand
    assert "West and East tie and draw again" in g.blank_state().describe(s.history[0])
    # the Ace is the highest card
    s = g.blank_state()
    s.deal(draw_deal("7H AS 2C KD"))
    assert s.dealer == W
    # after the draw the pack is dealt as a hand, from the new dealer's left
    s.deal(seed=4)
    assert s.hands_dealt == 1 and s.current_player == N
    # a draw the examples stack: the given seat draws an Ace and deals, under either reading
    for dealer in range(4):
        for reading in ("highest", "lowest"):
            assert game(first_dealer=reading).new_state(deal=[game().draw(dealer)]).dealer == dealer
    for bad in (4, -1, "East", True):
        with pytest.raises(CardkitError):
            g.draw(bad)
    # the draw exposes no card
    with pytest.raises(IllegalActionError) as e:
        game(mode="table").new_state(deal=[draw_deal("7H AS 2C KD") + " 7H"])
    assert e.value.rule == "deal"


@covers("WH-1.3")
def test_the_first_dealer_lowest_card_with_the_ace_low():
    g = game(first_dealer="lowest")
    for first, dealer in (("7H KS 2C KD 3S 9H", N), ("7H AS 2C KD", W), ("7H 2S 2C KD 5S 3C", N),
                          ("9H 9S 9C 9D 4H 4S 3C 5D", N)):
        s = g.blank_state()
        s.deal(draw_deal(first))
        assert s.dealer == dealer, first
    # the example: the same draw, another dealer under each reading
    rec = load_example("whist", "first-dealer")
    assert rec.final_state().dealer == E and rec.final_state(first_dealer="lowest").dealer == N
    assert rec.final_state().current_player == S and rec.final_state(first_dealer="lowest").current_player == E


@covers("WH-1.4")
def test_the_deal_passes_to_the_left_after_each_hand():
    s = game().new_state(seed=9)
    dealers = [s.dealer]
    choose = random_play(9)
    while not s.is_terminal() and len(dealers) < 6:
        n = s.hands_dealt
        play_hand(s, choose)
        if s.is_terminal():
            break
        assert s.hands_dealt == n + 1
        dealers.append(s.dealer)
    assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:])) and len(dealers) >= 3
    assert ("Dealer", f"{['South', 'West', 'North', 'East'][s.dealer]} — "
            f"{['South', 'West', 'North', 'East'][(s.dealer + 1) % 4]} deals next") in s.view(0).facts


# --- WH-2 the deal ---------------------------------------------------------------------------------------
@covers("WH-2", "WH-2.1")
def test_one_card_at_a_time_from_the_dealers_left():
    g = game()
    order = [c.text for c in FRENCH52.cards]
    for dealer in range(4):
        s = g.new_state(deal=[g.draw(dealer), "deal: " + " ".join(order)])
        assert s.dealer == dealer
        for k in range(4):
            p = (dealer + 1 + k) % 4
            want = sorted(order[k:51:4])                 # every fourth card from the dealer's left
            assert hand(s, p) == sorted(want), (dealer, p)
        assert [len(hand(s, p)) for p in range(4)].count(13) == 3 and len(hand(s, dealer)) == 12
        assert s.current_player == (dealer + 1) % 4
    # stack() writes such a deal from four hands
    hands = fill({})
    text = g.stack(hands, dealer=W)
    s = g.new_state(deal=[g.draw(W), text])
    for p in range(4):
        want = sorted(hands[p])
        if p == W:
            want.remove(hands[W][-1])                    # the turned card lies on the table
        assert hand(s, p) == want
    for bad, rule in ((5, "WH-2.1"), ([hands[0]] * 3, "WH-2.1"), ([hands[0], hands[0], hands[2], hands[3]], "WH-1.2"),
                      ([hands[0][:12], *hands[1:]], "WH-2.1")):
        with pytest.raises(IllegalActionError) as e:
            g.stack(bad)
        assert e.value.rule == rule
    with pytest.raises(IllegalActionError) as e:
        g.stack(hands, turned=hands[0][0], dealer=E)
    assert e.value.rule == "WH-2.2"


@covers("WH-2.2")
def test_the_last_card_is_turned_up_and_names_trumps():
    s = stacked({E: "7D"}, turned="7D")
    assert s.trump == "D" and s.turned.text == "7D"
    t = pile(s, "Turned card", viewer=S)
    assert [c.text for _, c in t.cards] == ["7D"]
    assert ("Trumps", "♦ Diamonds (the 7♦ turned by East)") in s.view(S).facts
    assert "the last, 7♦, is turned face up: diamonds are trumps" in \
        s.game.blank_state().describe(s.history[0]) + game().new_state(deal=s.history[:1]).describe(s.history[1])


@covers("WH-2.3")
def test_the_dealer_takes_up_the_turned_card_at_his_first_turn_and_may_play_it():
    s = stacked({S: "2C", W: "3C", N: "4C", E: "KD 7C"}, turned="KD", avoid={E: "C"})
    assert hand(s, E) == sorted(hand(s, E)) and "KD" not in hand(s, E) and len(hand(s, E)) == 12
    # every seat sees the turned card on the table
    for v in range(4):
        assert [c.text for _, c in pile(s, "Turned card", viewer=v).cards] == ["KD"]
    # nobody else may play it
    with pytest.raises(IllegalActionError) as e:
        s.apply("KD")
    assert e.value.rule == "WH-2.3"
    s.apply("2C"), s.apply("3C")
    line = s.describe(s.legal_actions()[0])
    s.apply("4C")
    assert "East takes the turned K♦ into his hand" in line
    assert s.current_player == E and "KD" in hand(s, E) and len(hand(s, E)) == 13
    assert pile(s, "Turned card") is None
    # it lies face up among his cards for everyone
    for v in (S, W, N):
        assert [c.text for c in s.view(v).seats[E].hand if c is not None] == ["KD"]
    # East has clubs: he must follow (7C), so the K♦ waits; void, he could have played it
    assert legal(s) == ["7C"]
    s.apply("7C")
    s2 = stacked({S: "2C", W: "3C", N: "4C", E: "KD"}, turned="KD", avoid={E: "C"})
    for c in ("2C", "3C", "4C"):
        s2.apply(c)
    assert "KD" in legal(s2)
    s2.apply("KD")
    assert pile(s2, "last-trick").note.startswith("won by East with K♦, the only trump")


# --- WH-3 misdeals ------------------------------------------------------------------------------------------
@covers("WH-3", "WH-3.1")
def test_a_deal_must_be_the_whole_pack():
    g = game()
    good = g.new_state(seed=1).history[1].text
    for bad in (good.rsplit(" ", 1)[0], good.rsplit(" ", 2)[0], "deal: " + good.split()[1]):
        with pytest.raises(IllegalActionError) as e:
            g.new_state(deal=[g.draw(), bad])
        assert e.value.rule == "deal" and "52 cards" in e.value.why
    # every hand of a deal is complete: 13 cards each, the dealer's turned card counted
    s = g.new_state(seed=3)
    assert sorted(len(h) for h in s.hands) == [12, 13, 13, 13] and s.turned_on_table


@covers("WH-3.2")
def test_a_card_exposed_in_the_deal_is_refused_strict_and_a_misdeal_at_the_table():
    hands = fill({N: "9C"})
    g = game()
    with pytest.raises(IllegalActionError) as e:
        g.new_state(deal=[g.draw(), g.stack(hands, exposed=["9C"])])
    assert e.value.rule == "deal" and "WH-3.2" in e.value.why
    t = game(mode="table")
    s = t.new_state(deal=[t.draw(), t.stack(hands, exposed=["9C"])])
    assert s.current_player == S and legal(s) == ["play on", "redeal"]
    assert "misdeal" in s.view(S).status.lower()
    for v in range(4):                                  # everyone has seen it: face up in North's hand
        assert sorted(c.text for c in s.view(v).seats[N].hand if c is not None) == (["9C"] if v != N else hand(s, N))
    # the last card is turned up anyway: it cannot be "exposed"
    with pytest.raises(IllegalActionError) as e:
        t.new_state(deal=[t.draw(), t.stack(hands, exposed=[hands[E][-1]])])
    assert e.value.rule == "deal"
    with pytest.raises(IllegalActionError) as e:
        t.new_state(deal=[t.draw(), t.stack(hands, exposed=["9C", "9C"])])
    assert e.value.rule == "deal"


@covers("WH-3.3")
def test_any_player_may_demand_a_redeal_and_the_same_dealer_deals_again():
    hands = fill({N: "9C"})
    t = game(mode="table")
    again = t.stack(fill({}), dealer=E)
    s = t.new_state(deal=[t.draw(), t.stack(hands, exposed=["9C"]), again])
    asked = []
    for answer in ("play on", "play on", "redeal"):
        asked.append(s.current_player)
        s.apply(answer)
    assert asked == [S, W, N]                           # in turn from the dealer's left
    assert s.hands_dealt == 2 and s.dealer == E and s.current_player == S   # dealt again by East
    assert s.log[-1]["kind"] == "misdeal" and "North demanded a redeal" in s.hand_text(s.log[-1])
    # nobody demands one: the hand is played, the exposed card stays face up until played
    s = t.new_state(deal=[t.draw(), t.stack(hands, exposed=["9C"])])
    for _ in range(4):
        s.apply("play on")
    assert s.current_player == S and s._phase == 0 and all(a.card is not None for a in s.legal_actions())
    assert [c.text for c in s.view(S).seats[N].hand if c is not None] == ["9C"]
    # the example
    rec = load_example("whist", "misdeal")
    f = rec.final_state()
    assert f.hands_dealt == 2 and f.log[0]["kind"] == "misdeal" and f.log[0]["by"] == W and f.dealer == E
    # strict: no redeal to demand
    with pytest.raises(IllegalActionError) as e:
        game().new_state(seed=1).apply("redeal")
    assert e.value.rule == "WH-3.3"


# --- WH-4 the play --------------------------------------------------------------------------------------------
@covers("WH-4", "WH-4.1")
def test_the_dealers_left_leads_then_the_winner_of_each_trick():
    for seed in range(6):
        s = game().new_state(seed=seed)
        assert s.current_player == (s.dealer + 1) % 4
        for _ in range(5):
            for _ in range(4):
                s.apply(s.legal_actions()[-1])
            ld, cards, w = s.done[-1]
            assert s.current_player == w == (ld + ref_winner(cards, s.trump)) % 4


@covers("WH-4.2")
def test_follow_suit_else_any_card():
    s = stacked({S: "7H", W: "KH 2S", N: "3D", E: "4S"}, turned="4S", avoid={N: "H", E: "H"})
    s.apply("7H")
    assert all(FRENCH52.parse(t).suit == "H" for t in legal(s)) and "KH" in legal(s)
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply("2S")
    assert e.value.rule == "WH-4.2" and e.value.why.startswith("you hold a heart: follow suit")
    assert s.snapshot() == before
    with pytest.raises(IllegalActionError) as e:
        s.apply("3D")                                   # North's card
    assert e.value.rule == "WH-4.2" and "does not hold" in e.value.why
    s.apply("KH")
    assert len(legal(s)) == 13                           # North has no heart: any card
    line = s.describe(s.parse_action("3D"))
    assert "with no heart, throws 3♦ away" in line


@covers("WH-4.3")
def test_the_highest_trump_else_the_highest_of_the_suit_led():
    cases = [("7H KH 2H AH", "East"), ("7H KH 2S AH", "North"), ("7H 3S QS AH", "North"),
             ("7H AD 2H 3C", "South")]
    for cards, who in cases:
        c = cards.split()
        s = stacked({S: c[0], W: c[1], N: c[2], E: c[3] + " 4S" if c[3] != "4S" else c[3]}, turned="4S",
                    avoid={p: "H" for p in range(4) if FRENCH52.parse(c[p]).suit != "H"})
        for x in c:
            s.apply(x)
        note = pile(s, "last-trick").note
        assert note.startswith("won by " + who.split()[0]) and "[WH-4.3]" in note, (cards, note)
    # the engine's table agrees with the rule written down here
    t = game().rule_tables()["trick"]
    names = ["South", "West", "North", "East"]
    for row in t.rows:
        cs = [FRENCH52.parse(x) for x in row[1].split()]
        k = ref_winner(cs, "S")
        assert row[2] == f"{names[k]} with {cs[k].label}"
    # and so does every trick of random games
    for seed in range(5):
        s = game().new_state(seed=seed)
        play_hand(s, random_play(seed))
        assert all(w == (ld + ref_winner(cs, s.log[-1]["trump"].suit)) % 4 for ld, cs, w in s.done)


@covers("WH-4.4")
def test_strict_refuses_a_revoke_the_table_lets_it_be_played():
    partial = {S: "7H", W: "KH 2S", N: "3D", E: "4S"}
    s = stacked(partial, turned="4S", avoid={N: "H", E: "H"})
    s.apply("7H")
    assert "2S" not in legal(s)
    t = stacked(partial, turned="4S", avoid={N: "H", E: "H"}, mode="table")
    t.apply("7H")
    assert len(legal(t)) == 13 and "2S" in legal(t)
    # the example: a revoke shown and claimed; under the strict rules the record stops at the revoke
    rec = load_example("whist", "revoke-claimed")
    assert rec.options["mode"] == "table"
    r = rec.final_state().log[-1]
    assert r["claimed"] == [W]
    with pytest.raises(cardkit.RecordError) as e:
        rec.final_state(mode="strict")
    assert "WH-4.2" in str(e.value) and "follow suit" in str(e.value)


@covers("WH-4.5", "WH-4.8")
def test_having_none_asked_after_every_card_that_does_not_follow_and_a_correction():
    partial = {S: "7H", W: "KH 2S", N: "3D", E: "4S"}
    t = stacked(partial, turned="4S", avoid={W: "H", N: "H", E: "H"}, mode="table")
    t.apply("7H")
    t.apply("2S")                                        # West holds K♥: a revoke, so far
    assert t.current_player == W and legal(t) == ["KH", "none"]
    assert "“Having none?” asks his partner East" in t.view(S).status
    # the question is the same for everyone, whatever West holds
    assert t.view(S).status == t.view(N).status == t.view(E).status
    t.apply("KH")                                        # West corrects
    assert [c.text for c in t.trick] == ["7H", "KH"]
    assert "2S" in hand(t, W)
    for v in (S, N, E):                                 # the card taken back lies face up (WH-4.8)
        assert [c.text for c in t.view(v).seats[W].hand if c is not None] == ["2S"]
    assert t.current_player == N
    # North has no heart: he too is asked, and his only answer is "having none"
    t.apply("3D")
    assert t.current_player == N and legal(t) == ["none"]
    t.apply("none")
    assert t.current_player == E
    # a question nobody is asked cannot be answered
    s = stacked(partial, turned="4S", avoid={W: "H", N: "H", E: "H"}, mode="table")
    with pytest.raises(IllegalActionError) as e:
        s.apply("none")
    assert e.value.rule == "WH-4.5"
    # while asked, a card of another suit is no answer
    s.apply("7H"), s.apply("2S")
    with pytest.raises(IllegalActionError) as e:
        s.apply(hand(s, W)[0] if hand(s, W)[0] != "KH" else hand(s, W)[1])
    assert e.value.rule == "WH-4.5"
    rec = load_example("whist", "revoke-corrected")
    f = rec.final_state()
    assert f.log[-1]["kind"] == "played" and f.log[-1]["claimed"] == [] and f.log[-1]["penalty"] == [0, 0]
    assert [(p, wrong.text) for p, _, wrong, _ in f.corrections] == [(N, "AH")]


@covers("WH-4.8")
def test_a_face_up_card_leaves_the_view_when_played():
    rec = load_example("whist", "revoke-corrected")
    st = rec.load_game().blank_state()
    up_seen = played = False
    for text in rec.actions:
        a = st.parse_action(text)
        st.apply(a)
        if st.corrections and not played:
            p, _, wrong, _ = st.corrections[0]
            shown = [c for c in st.view((p + 1) % 4).seats[p].hand if c is not None]
            if wrong in shown:
                up_seen = True
            elif up_seen and wrong in st._played():
                played = True
                assert all(c is not wrong for c in shown)
    assert up_seen and played


def _corrected(**opts):
    """West revokes with 2♠ on South's 7♥ and corrects it with K♥: the 2♠ lies face up in his hand."""
    partial = {S: "7H 2H", W: "KH QH 2S 3S", N: "2C", E: "4D 3C"}
    t = stacked(partial, turned="4D", avoid={W: "D", N: "H", E: "H"}, mode="table", **opts)
    t.apply("7H"), t.apply("2S"), t.apply("KH")
    return t


@covers("WH-4.8.1")
def test_a_shown_card_is_called_by_the_partner_or_by_the_opponents():
    """WH-4.8.1. The quick rules: the holder's partner calls his shown card; not called, it waits (unless it
    is his only card of the suit led). The classic laws: an opponent (the left-hand one) calls it; not
    called, the holder plays as he likes. The question is asked at every turn of the holder that has
    another card, whatever his cards are; a call that would make him revoke lapses."""
    t = _corrected()
    t.apply("2C"), t.apply("none"), t.apply("3C"), t.apply("none")   # West wins with K♥ and leads: the call first
    assert t.current_player == E and legal(t) == ["call 2S", "no call"]     # his partner East decides
    assert "may call it" in t.view(S).status and t.view(S).status == t.view(N).status
    before = t.snapshot()
    for bad in ("2S", "call 3S"):
        with pytest.raises(IllegalActionError) as e:
            t.apply(bad)
        assert e.value.rule == "WH-4.8.1" and t.snapshot() == before
    t.apply("no call")
    assert t.current_player == W and "2S" not in legal(t) and "3S" in legal(t)   # it waits for the call
    with pytest.raises(IllegalActionError) as e:
        t.apply("2S")
    assert e.value.rule == "WH-4.8.1" and "partner calls it" in e.value.why
    t = _corrected()
    t.apply("2C"), t.apply("none"), t.apply("3C"), t.apply("none"), t.apply("call 2S")
    assert t.current_player == W and legal(t) == ["2S"]    # called: he leads it now
    t.apply("2S")
    assert t.trick == P("2S") and not t._liable(W)
    # the classic laws: the left-hand opponent, North, decides; not called, West may lead it or not
    t = _corrected(calling="opponents")
    t.apply("2C"), t.apply("none"), t.apply("3C"), t.apply("none")
    assert t.current_player == N and legal(t) == ["call 2S", "no call"]
    t.apply("no call")
    assert t.current_player == W and {"2S", "3S", "QH"} <= set(legal(t))
    # a call that would make its holder revoke lapses: hearts led, West holds Q♥ beside his shown 2♠
    u = stacked({S: "AH KH", W: "3H QH 2S 3S", N: "2C", E: "4D 3C"}, turned="4D",
                avoid={W: "D", N: "H", E: "H"}, mode="table")
    for a in ("AH", "2S", "3H", "2C", "none", "3C", "none", "KH"):
        u.apply(a)
    assert u.current_player == E and legal(u) == ["call 2S", "no call"]
    u.apply("call 2S")
    assert u.current_player == W and "QH" in legal(u) and len(legal(u)) > 1
    # the rule card's example: who decides each call, in the record's words under either reading
    rec = load_example("whist", "revoke-corrected")
    for calling, who in (("partner", S), ("opponents", E)):
        lines, _, _ = rec.narration_for(calling=calling)
        st = rec.load_game(calling=calling).blank_state()
        for i, text in enumerate(rec.actions):
            if text == "no call" or text.startswith("call "):
                assert st.current_player == who and ["South", "West", "North", "East"][who] in lines[str(i)]
            st.apply(st.parse_action(text))
    # the turned card, face up in the dealer's hand, is no shown card: nobody calls it
    s = stacked({E: "AS"}, turned="AS", mode="table")
    while not s.turned_on_table is False:
        s.apply(honest(s))
    assert s._phase != 4 and not s._liable(E)


@covers("WH-4.8.1", "WH-2.3", "WH-4.5")
def test_the_turned_card_taken_back_from_a_revoke_is_a_shown_card():
    """The dealer (South) plays the turned A♠ as a revoke on clubs and takes it back: it lies face up as any
    card taken back does, and at his next turn (he won the trick with 5♣ and leads) it is called as any
    shown card — under the quick rules it waits for his partner's call, under the classic laws an opponent
    may call it and, not called, South plays as he likes."""
    rec = Record.loads(  # the record of issue 39, as it was filed
        '{"format": "cardkit-record", "version": 1, "game": "whist", "options": {"players": 4, "mode": "table", '
        '"ruleset": "source", "first_dealer": "highest", "revoke_bar": "game", "calling": "partner", '
        '"first_six": "book"}, "actions": ["deal: AS 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D 4D 5D 6D 7D '
        '8D 9D 10D JD QD KD AD 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", '
        '"deal: 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2H 3H 4H 5H 6H '
        '7H 8H 9H 10H JH QH KH AH 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "2C", "3C", "4C", "AS", "5C"]}')
    for calling, caller in (("partner", N), ("opponents", W)):
        s = rec.final_state(calling=calling)
        assert s.dealer == S and s.turned.text == "AS" and s.corrections and s.leader == S
        assert P("AS")[0] in s.faceup[S] and "AS" in hand(s, S)
        assert [c for c in s.view(E).seats[S].hand if c is not None] == P("AS")   # face up for all to see
        assert s.current_player == caller and legal(s) == ["call AS", "no call"]
        assert "holds the A♠ face up" in s.view(S).status
        t = rec.final_state(calling=calling)
        t.apply("call AS")
        assert t.current_player == S and legal(t) == ["AS"]                   # called: he leads it now
        s.apply("no call")
        assert s.current_player == S and ("AS" in legal(s)) == (calling == "opponents")
        if calling == "partner":
            with pytest.raises(IllegalActionError) as e:
                s.apply("AS")
            assert e.value.rule == "WH-4.8.1" and "partner calls it" in e.value.why
        s.apply("KC")                                  # another card: the A♠ stays face up, and is asked again
        assert P("AS")[0] in s.faceup[S]
        assert s.current_player == W and "call AS" not in legal(s)         # only the holder's turns ask


@covers("WH-4.8.1", "WH-3.3")
def test_a_card_exposed_in_a_deal_let_stand_is_called_only_under_the_quick_rules():
    """A card exposed in a deal that nobody redealt: a shown card under §8 (the partner calls it); under the
    classic laws it "cannot be called"."""
    hands = fill({W: "9C"})
    for calling, asked in (("partner", True), ("opponents", False)):
        t = game(mode="table", calling=calling)
        s = t.new_state(deal=[t.draw(), t.stack(hands, exposed=["9C"])])
        for _ in range(4):
            s.apply("play on")
        s.apply(honest(s))                                # South leads: West is next
        assert (s._phase == 4) == asked and s._liable(W) == (P("9C") if asked else [])


@covers("WH-4.6")
def test_a_revoke_is_claimed_only_once_it_has_shown():
    rec = load_example("whist", "revoke-claimed")
    st = rec.load_game().blank_state()
    revoke_at = shown_at = None
    for i, text in enumerate(rec.actions):
        before = st.clone() if i else None
        st.apply(st.parse_action(text))
        if st.revokes and revoke_at is None:
            revoke_at = i
        if st._phase == 3 and shown_at is None:
            shown_at = i
            r = st._claims[0]
            assert r["seat"] == W and st.current_player == N     # the left-hand opponent decides
            assert legal(st) == ["claim", "no claim"]
            # the revoker has now played a card of the suit he denied
            assert r["suit"] in {c.suit for c in st.done[-1][1]}
    assert revoke_at is not None and shown_at is not None and revoke_at < shown_at
    # before it showed, nothing in any other seat's view or the narration tells of it
    mid = rec.load_game().blank_state()
    for text in rec.actions[:revoke_at + 2]:
        mid.apply(mid.parse_action(text))
    for v in (S, N, E):
        view = mid.view(v)
        assert "revoke" not in view.status.lower() and not any("Revokes" == k for k, _ in view.facts)
    # no claim: the revoke goes unpunished
    st = rec.load_game().blank_state()
    for text in rec.actions[:shown_at + 1]:
        st.apply(st.parse_action(text))
    st.apply("no claim")
    play_hand(st, honest)
    assert st.log[-1]["claimed"] == [] and st.log[-1]["penalty"] == [0, 0]
    with pytest.raises(IllegalActionError) as e:
        game().new_state(seed=2).apply("claim")
    assert e.value.rule == "WH-4.6"


@covers("WH-4.7")
def test_both_sides_revoke_the_hand_is_dealt_again():
    rec = load_example("whist", "revoked-hand")
    f = rec.final_state()
    e = f.log[-1]
    assert e["kind"] == "revoked" and {s % 2 for s in e["claimed"]} == {0, 1}
    assert f.points == e["points_before"] and f.games == e["games_before"]          # no score
    assert f.hands_dealt == 2 and f.dealer == e["dealer"]                            # the same dealer
    assert "revoked hand" in f.hand_text(e)
    assert rec.final_state(ruleset="long").log[-1]["kind"] == "revoked"             # Enquire Within: a new deal
    # the Laws of Short Whist (1864), law 81: the hand is played out; each side is punished, neither can win
    n = max(i for i, a in enumerate(rec.actions) if a.startswith("deal:"))          # the redeal
    s = rec.load_game(ruleset="short").blank_state()
    for text in rec.actions[:n]:
        s.apply(s.parse_action(text))
    assert not s.log and not s.is_chance()
    play_hand(s, honest)
    e = s.log[-1]
    assert e["kind"] == "played" and e["penalty"] == [3, 3]
    assert max(e["points"]) <= 4 and e["game"] is None


@covers("WH-4.9")
def test_the_hand_ends_after_thirteen_tricks():
    g = game()
    s = g.new_state(deal=[g.draw(), g.random_deal(Rng(5))])
    n = 0
    choose = random_play(5)
    while not s.is_chance() and not s.is_terminal():
        s.apply(choose(s))
        n += 1
        if n < 52:
            assert not s.is_chance() and not s.is_terminal() and not s.log
    assert n == 52 and len(s.done) == 13 and not any(s.hands) and s.log[-1]["kind"] == "played"
    assert sum(s.log[-1]["tricks"]) == 13


# --- WH-5 scoring ---------------------------------------------------------------------------------------
def expected_source(log, bar="game"):
    """WH-5.1 - WH-5.5 written down again (the property tests' `score_source`): (hand points, game
    points) after each played hand."""
    hp, gp, out = [0, 0], [0, 0], []
    for e in log:
        if e["kind"] != "played":
            out.append((list(hp), list(gp)))
            continue
        score_source(e, hp, gp, bar)
        out.append((list(hp), list(gp)))
    return out


@covers("WH-5", "WH-5.1", "WH-5.4", "WH-5.5")
def test_hand_points_game_points_and_the_game():
    for seed in range(8):
        s = game().new_state(seed=seed)
        play_out(s, {p: RandomBot(seed * 4 + p) for p in range(4)})
        assert s.is_terminal()
        want = expected_source(s.log)
        assert [(e["points"], e["games"]) for e in s.log] == want
        assert max(s.games) >= 7 and min(s.games) < 7
        w = 0 if s.games[0] >= 7 else 1
        assert s.winners() == [w, w + 2]
        assert s.scores() == [s.games[0], s.games[1], s.games[0], s.games[1]]
        # 13 tricks a hand, one side scores the tricks beyond six
        for e in s.log:
            assert sum(e["tricks"]) == 13
            assert sorted(e["tricks_scored"]) == [0, max(e["tricks"]) - 6]
    # a side that takes all 13 tricks against none scores 7 hand points, and 7 - 0 = 7 game points: the game
    hands = fill({S: "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"})
    g = game()
    s = g.new_state(deal=[g.draw(S), g.stack(hands, dealer=S, turned="2S")])
    play_hand(s, lambda st: max(st.legal_actions(), key=lambda a: (a.card.suit == "S", a.card.value)))
    assert s.log[-1]["tricks"] == [13, 0] and s.is_terminal() and s.games == [7, 0]
    assert "win the game, 7 game points to 0" in s.result_text()


@covers("WH-5.2", "WH-5.3")
def test_the_revoke_penalty_and_what_a_revoking_side_cannot_win():
    rec = load_example("whist", "revoke-claimed")
    f = rec.final_state()
    e = f.log[-1]
    t = e["tricks"]
    ns, ew = max(0, t[0] - 6), max(0, t[1] - 6)
    assert e["claimed"] == [W]
    assert f.points == [ns + 2, ew - 2]                 # East–West give 2 hand points (below zero if need be)
    # the two readings of "cannot win the game in that hand"
    bar = load_example("whist", "revoke-bar")
    game_reading = bar.final_state()
    hand_reading = bar.final_state(revoke_bar="hand")
    e1, e2 = game_reading.log[-1], hand_reading.log[-1]
    assert e1["claimed"] == e2["claimed"] == [S]
    assert game_reading.log[0]["points"] == [6, 0]
    # 6 - 2 + (9 - 6) = 7 hand points
    assert e1["tricks"] == [9, 4]
    assert game_reading.games == [7 - 2, 0] and game_reading.points == [0, 0]
    assert hand_reading.games == [0, 0] and hand_reading.points == [6, 2]
    assert [(x["points"], x["games"]) for x in game_reading.log] == expected_source(game_reading.log, "game")
    assert [(x["points"], x["games"]) for x in hand_reading.log] == expected_source(hand_reading.log, "hand")


@covers("WH-5.1.1")
def test_the_first_six_tricks_played_score_nothing_read_to_the_letter():
    """WH-5.1.1. The kit's reading: each side's tricks beyond its six (North–South 8 tricks: 2 hand points, and
    East–West nothing). To the letter: tricks 7 to 13 of the hand score, each for the side that took it, so
    both sides may score in one hand."""
    rec = load_example("whist", "whole-hand")
    book, letter = rec.final_state(), rec.final_state(first_six="played")
    e = letter.log[-1]
    assert book.log[-1]["tricks"] == [8, 5] and book.points == [2, 0]
    late = [w % 2 for _, _, w in letter.done[6:]]
    assert e["late"] == late and letter.points == [late.count(0), late.count(1)] == [5, 2]
    assert "took 5 of the tricks 7 to 13" in letter.hand_text(e)
    # the first side to 7 is the first in the order of the tricks: 5 : 5, then tricks 7 to 13 go N-S, E-W,
    # E-W: East–West reach 7 against North–South's 6 and score 1; the rest is not counted
    s = game(first_six="played").blank_state()
    s.points, s.games, s.won = [5, 5], [0, 0], [6, 7]
    e = {"claimed": [], "penalty": [0, 0], "tricks_scored": [0, 0], "capped": [], "game": None,
         "game_points": 0, "late": [0, 1, 1, 0, 0, 1, 1], "dropped": [0, 0]}
    s._score_source(e)
    assert s.games == [0, 1] and e["hand_points_at_game"] == [6, 7] and e["dropped"] == [2, 2]
    assert s.points == [0, 0]


@covers("WH-5.4.1")
def test_both_sides_reaching_seven_in_one_hand_the_first_in_order_scores():
    """WH-5.4.1 (the kit's reading, in the order the points are won): both sides at 6; North–South take 9
    tricks (+3) but a claimed revoke of theirs costs 2 first — East–West reach 8 while North–South stand at
    4, and score 7 − 4 = 3 game points; North–South's tricks come too late to count."""
    s = game(mode="table").blank_state()
    s.points, s.games, s.won = [6, 6], [0, 0], [9, 4]
    s.log = []
    e = {"claimed": [S], "penalty": [0, 0], "tricks_scored": [0, 0], "capped": [], "game": None,
         "game_points": 0, "late": [0] * 7, "dropped": [0, 0]}
    s._score_source(e)
    assert e["game"] == 1 and e["game_points"] == 3 and s.games == [0, 3] and s.points == [0, 0]
    assert e["hand_points_at_game"] == [4, 8] and e["dropped"] == [3, 0]
    e.update(kind="played", tricks=[9, 4], honours=None, honours_scored=None)
    assert "not counted: East–West had reached 7 hand points first" in s.hand_text(e)
    assert "7 − 4 = 3 game points" in s.hand_text(e)
    hp, gp = [6, 6], [0, 0]
    score_source({"claimed": [S], "tricks": [9, 4], "late": [0] * 7}, hp, gp, "game")
    assert (hp, gp) == ([0, 0], [0, 3])                  # the reference arithmetic agrees


def test_a_revoking_side_stops_at_six_game_points():
    """WH-5.3, reading "game": North–South at 3 game points reach 7 hand points in a hand they revoked in:
    7 - 0 would win the game, but the revoke bars the seventh game point."""
    g = game(mode="table")
    s = g.blank_state()
    s.games = [3, 0]
    s.points = [6, 0]
    s.log = []
    e = {"claimed": [S], "penalty": [0, 0], "tricks_scored": [0, 0], "capped": [], "game": None,
         "game_points": 0, "late": [], "dropped": [0, 0]}
    s.won = [13, 0]
    s._score_source(e)
    # 6 - 2 + 7 = 11 >= 7: 7 - 2 = 5 game points would make 8; the revoke stops them at 6
    assert s.games == [6, 0] and e["capped"] == [0]


@covers("WH-5.6", "WH-5.6.1")
def test_the_classic_rules_score_one_hand_three_ways():
    rec = load_example("whist", "classic-scoring")
    src, long_, short = (rec.final_state(ruleset=r) for r in ("source", "long", "short"))
    t = src.log[-1]["tricks"][0]
    assert t > 6
    assert src.points == [t - 6, 0] and src.games == [0, 0]
    assert long_.log[-1]["honours"] == [4, 0]
    assert long_.points == [t - 6 + 4, 0] and long_.games == [0, 0]
    assert short.games == [1, 0] and short.points == [0, 0]            # 5 points win a Short Whist game
    table = game(ruleset="long").rule_tables()["rulesets"]
    assert "10 points win a game" in str(table.rows)
    assert "7 game points" in str(game().rule_tables()["rulesets"].rows)
    assert "5 points win a game" in str(game(ruleset="short").rule_tables()["rulesets"].rows)
    assert ("Rules", "Long Whist (classic) · strict: a revoke is refused") in long_.view(0).facts


def test_the_standing_counts_the_hand_points_toward_the_next_game():
    """What the expert values its playouts by (``State.standing``): the scores count game points alone,
    which most hands do not move; the standing adds the hand points (one each under the source's rules,
    WH-5.4: seven less the other side's hand points make the game points) or, in the classic game, the
    share of a game each point is (WH-5.6.4) — and is the scores themselves once the game is over."""
    rec = load_example("whist", "classic-scoring")
    src, long_, short = (rec.final_state(ruleset=r) for r in ("source", "long", "short"))
    t = src.log[-1]["tricks"][0] - 6
    assert src.scores() == [0, 0, 0, 0] and src.standing() == [t, 0, t, 0]
    assert long_.standing() == pytest.approx([(t + 4) / 10, 0, (t + 4) / 10, 0])
    assert short.scores() == [1, 0, 1, 0] and short.standing() == [1, 0, 1, 0]    # the game won: points reset
    s = game().new_state(seed=3)
    play_out(s, {p: RandomBot(p) for p in range(4)})
    assert s.is_terminal() and s.standing() == s.scores()


def classic_hand(ruleset, partial, points_before=(0, 0), claimed=(), tricks=None):
    """Score one hand under a classic ruleset, written down again (WH-5.6.2 - WH-5.6.4)."""
    target = {"long": 10, "short": 5}[ruleset]
    pts = list(points_before)
    revoked = {s % 2 for s in claimed}

    def add(s, k):
        v = pts[s] + k
        if s in revoked and v >= target:
            v = target - 1
        pts[s] = v
        return v >= target
    for s in claimed:
        if add(1 - s % 2, 3):
            return pts, 1 - s % 2
    for s in (0, 1):
        if add(s, max(0, tricks[s] - 6)):
            return pts, s
    return pts, None


@covers("WH-5.6.2")
def test_classic_honours_four_and_three_not_at_the_last_point():
    # North–South hold A K Q of spades (trumps), East–West the Jack: three honours, 2 points
    hands = fill({S: "AS KS", N: "QS", E: "JS 2S"})
    for ruleset, target in (("long", 10), ("short", 5)):
        g = game(ruleset=ruleset)
        s = g.new_state(deal=[g.draw(E), g.stack(hands, dealer=E, turned="2S")])
        assert s.honours == [3, 1]
        play_hand(s, lambda st: st.legal_actions()[0])
        e = s.log[-1]
        tricks = e["tricks"]
        pts, won = classic_hand(ruleset, {}, tricks=tricks)
        if won is None:
            pts[0] = pts[0] + 2
            if pts[0] >= target:
                won = 0
        if won is not None:
            assert s.games[won] == 1 and s.points == [0, 0]
        else:
            assert s.points == pts and e["honours_scored"] == (0, 2)
    # a side at the last point before game when the hand is dealt scores no honours
    for ruleset, target in (("long", 10), ("short", 5)):
        g = game(ruleset=ruleset)
        s = g.new_state(deal=[g.draw(E), g.stack(fill({S: "AS KS QS JS", E: "2S"}), dealer=E, turned="2S")])
        s.points = [target - 1, 0]
        s.won = [6, 7]
        e = {"claimed": [], "penalty": [0, 0], "tricks_scored": [0, 0], "capped": [], "game": None,
             "game_points": 0, "honours_scored": None}
        s._score_classic(e)
        assert s.points == [target - 1, 1] and e["honours_scored"] == (0, 0)
        s.points, s.won = [target - 2, 0], [6, 7]
        s._score_classic({**e, "honours_scored": None, "capped": []})
        assert s.games == [1, 0]                         # 4 honours carry them to game


@covers("WH-5.6.3")
def test_classic_revoke_three_points_and_no_game_for_the_revokers():
    for ruleset, target in (("long", 10), ("short", 5)):
        g = game(ruleset=ruleset, mode="table")
        s = g.blank_state()
        s.points, s.won, s.honours = [target - 2, 0], [13, 0], [0, 0]
        e = {"claimed": [N], "penalty": [0, 0], "tricks_scored": [0, 0], "capped": [], "game": None,
             "game_points": 0, "honours_scored": None}
        s._score_classic(e)
        # East–West score 3 for the revoke; North–South's 7 tricks would make game, but they stay one short
        assert s.points == [target - 1, 3] and s.games == [0, 0] and e["capped"] == [0]
        assert e["penalty"] == [0, 3]


@covers("WH-5.6.4")
def test_classic_game_and_rubber():
    for ruleset, target in (("long", 10), ("short", 5)):
        for seed in range(4):
            s = game(ruleset=ruleset).new_state(seed=seed)
            play_out(s, {p: RandomBot(seed + p) for p in range(4)})
            assert s.is_terminal() and sorted(s.games) in ([0, 2], [1, 2])
            for e in s.log:
                if e["game"] is not None:
                    assert max(e["hand_points_at_game"]) >= target and e["points"] == [0, 0]
                else:
                    assert max(e["points"]) < target
            assert "win the rubber" in s.result_text()


# --- views, narration and bad input ----------------------------------------------------------------------
def test_views_hide_the_other_hands_and_the_quitted_tricks():
    s = game().new_state(seed=7)
    for _ in range(9):
        s.apply(s.legal_actions()[0])
    for v in range(4):
        view = s.view(v)
        for q in range(4):
            shown = [c for c in view.seats[q].hand if c is not None]
            if q == v:
                assert sorted(c.text for c in shown) == hand(s, q)
            else:
                assert shown == ([s.turned] if q == s.dealer and not s.turned_on_table and s.turned in s.hands[q]
                                 else [])
        won = [p for p in view.piles if p.kind == "won"]
        assert all(not p.cards and p.count is not None for p in won)
    assert sum(p.count for p in s.view(0).piles if p.kind == "won") == 8


def test_narration_names_only_public_cards():
    """In a game as at the table, no line of narration says who revoked before the cards show it, and none
    names a card still hidden in a hand."""
    for seed in range(4):
        s = game(mode="table").new_state(seed=seed)
        rnd = random.Random(seed)
        while not s.is_terminal() and s.hands_dealt < 3:
            a = rnd.choice(s.legal_actions())
            line = s.describe(a)
            hidden = {c for p in range(4) for c in s.hands[p] if c not in s.faceup[p]}
            named = [c for c in hidden if c.label in line and (a.card is not c)]
            # a card the line names is the card played, or one already public
            assert not named, (line, named)
            after = s.clone()
            after.apply(a)
            public = {r["seat"] for r in after.revokes if r["state"] != "hidden"} | \
                {x for e in after.log for x in e["claimed"]}
            for name in re.findall(r"(\w+)'s revoke", line):
                assert ["South", "West", "North", "East"].index(name) in public, line
            s.apply(a)


def test_bad_options_and_unknown_option():
    with pytest.raises(OptionError) as e:
        game(ruleset="bridge")
    assert "source" in str(e.value) and "long" in str(e.value)
    with pytest.raises(OptionError):
        game(mode="lenient")
    with pytest.raises(OptionError):
        game(honours=True)


def test_after_the_end_and_before_the_deal():
    blank = game().blank_state()
    assert blank.is_chance() and blank.legal_actions() == []
    with pytest.raises(IllegalActionError) as e:
        blank.apply("2C")
    assert e.value.rule == "protocol"
    s = game().new_state(seed=3)
    while not s.is_terminal():
        first_legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("2C")
    assert e.value.rule == "end"
    assert s.current_player == TERMINAL and s.legal_actions() == []


def test_a_malformed_record_is_a_record_error():
    rec = load_example("whist", "whole-hand")
    bad = Record(rec.game, rec.options, rec.actions[:5] + ["ZZ"] + rec.actions[6:])
    with pytest.raises(cardkit.RecordError) as e:
        bad.final_state()
    assert e.value.step == 5
    with pytest.raises(cardkit.RecordError):
        Record(rec.game, {**rec.options, "ruleset": "bridge"}, rec.actions).final_state()


def test_examples_replay_and_are_described():
    names = example_names("whist")
    assert set(names) >= {"first-dealer", "whole-hand", "classic-scoring", "revoke-claimed", "revoke-corrected",
                          "misdeal", "revoked-hand", "revoke-bar"}
    for name in names:
        rec = load_example("whist", name)
        f = rec.final_state()
        assert len(f.history) == len(rec.actions)
        assert rec.meta["title"] and rec.meta["description"]
        lines = narration(rec)
        assert len(lines) == len(rec.actions) and all(lines)
        assert Record.loads(rec.dumps()).final_state() == f
    w = load_example("whist", "whole-hand").final_state()
    assert w.log[-1]["tricks"] == [8, 5] and w.points == [2, 0]


def test_progress_and_score_table():
    g = game()
    s = g.new_state(deal=[g.draw(), g.random_deal(Rng(4))])
    assert s.progress() == ("Hand 1", "Trick 1")
    for _ in range(4):
        s.apply(s.legal_actions()[0])
    assert s.progress() == ("Hand 1", "Trick 2")
    play_hand(s, random_play(4))
    assert s.is_chance() and s.progress() == ("Hand 2", "")
    t = s.score_table()
    assert t.rows[0][0] == "Hand 1" and len(t.rows) == len(s.log)
    assert game().blank_state().progress() == ("Drawing for the deal", "")


# --- bots --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["strict", "table"])
def test_bots_play_legal_games(mode):
    g = game(mode=mode)
    for bot in ("random", "careful", "rule-based"):
        s = g.new_state(seed=11)
        play_out(s, {p: game_bots(g)[bot](p) for p in range(4)})
        assert s.is_terminal()


def test_the_rule_based_bot_never_revokes_and_claims_at_the_table():
    """As at the table, against random players who revoke often: the rule-based side never revokes, always
    answers "having none" truly, and claims every revoke of the opponents that shows."""
    g = game(mode="table")
    claims = answers = 0
    for seed in range(3):
        s = g.new_state(seed=seed)
        bots = {p: game_bots(g)["rule-based" if p % 2 == 0 else "random"](seed * 4 + p) for p in range(4)}
        while not s.is_terminal() and s.hands_dealt < 4:
            p = s.current_player
            a = bots[p].choose(s)
            if p % 2 == 0 and s._phase == 3:
                assert a.text == "claim" and s._claims[0]["seat"] % 2 == 1
                claims += 1
            if p % 2 == 0 and s._phase == 2:
                assert a.text == "none" and not s._suits[p][s.led]      # the truth: he has none
                answers += 1
            if p % 2 == 0 and s._phase == 0 and s.trick and a.card.suit != s.led:
                assert not s._suits[p][s.led], "the rule-based bot revoked"
            s.apply(a)
        assert not [r for r in s.revokes if r["seat"] % 2 == 0]
    assert claims >= 3 and answers >= 3


def test_rule_based_bot_beats_random_and_careful():
    from cardkit.tournament import match
    r = match("whist", {"players": 4}, "rule-based", "random", games=24, seed=1)
    assert r.win_rate >= 0.8
    r = match("whist", {"players": 4}, "rule-based", "careful", games=40, seed=1)
    assert r.win_rate > 0.5


def _position(partial, plays, dealer=E, turned=None, **kw):
    s = stacked(partial, dealer=dealer, turned=turned, **kw)
    for c in plays:
        s.apply(c)
    return s


def test_rule_based_bot_second_hand_low_third_hand_high():
    bot = game_bots(game())["rule-based"](0)
    # second hand low: South leads 5♥, West holds K♥ 7♥ 2♥ (and no master): plays the 2♥
    s = _position({S: "5H", W: "KH 7H 2H", N: "9H", E: "4S"}, ["5H"], turned="4S",
                  avoid={W: "H", E: "H"})
    assert bot.choose(s).text == "2H"
    # third hand high: South leads 4♦, West plays 7♦; North with K♦ Q♦ 3♦ plays the lower of the touching top
    s = _position({S: "4D", W: "7D", N: "KD QD 3D", E: "4S"}, ["4D", "7D"], turned="4S",
                  avoid={S: "D", W: "D", N: "D"})
    assert bot.choose(s).text == "QD"
    # fourth hand: win as cheaply as it can
    s = _position({S: "4D", W: "7D", N: "9D", E: "KD QD JD 10D 4S"}, ["4D", "7D", "9D"], turned="4S",
                  avoid={S: "D", W: "D", N: "D"})
    assert bot.choose(s).text == "10D"


def test_rule_based_bot_returns_its_partners_lead_and_trumps_when_void():
    bot = game_bots(game())["rule-based"](0)
    # void in hearts, East–West holding the trick: South trumps low
    s = _position({W: "AH", N: "5H", E: "2H 9S", S: "3S 8S"}, [], dealer=S, turned="8S",
                  avoid={S: "H"})
    s.apply("AH"), s.apply("5H"), s.apply("2H")
    assert s.current_player == S
    assert bot.choose(s).text == "3S"
    # partner's trick sure to stand: no ruff, a discard
    s = _position({W: "2H", N: "AH", E: "3H 9S", S: "3S 8S"}, [], dealer=S, turned="8S", avoid={S: "H"})
    s.apply("2H"), s.apply("AH"), s.apply("3H")
    assert FRENCH52.parse(bot.choose(s).text).suit != "S"


@pytest.mark.parametrize("seed", [1, 2])
def test_the_play_table_as_at_the_table_names_no_hidden_card(seed):
    """The hidden-card check of tests/test_hidden.py, for the rules as at the table (revokes, "having none?",
    claims, face-up cards): whole games through the real PlayTable, the human answering every question."""
    import widgets
    from cardkit import Deal
    from test_hidden import _forms, _names
    from test_widgets import synced_text
    table = widgets.PlayTable("whist", seed=seed, mode="table")
    shadow = table.game.blank_state()
    seen: set = set()
    human = RandomBot(seed)
    questions = checked = 0
    while not table.state.is_terminal() and table.state.hands_dealt < 4:
        for a in table.state.history[len(shadow.history):]:
            shadow._deal(a) if a.__class__ is Deal else shadow._apply(a)
            shadow.history.append(a)
            seen |= {c.name for c in shadow.view(0).cards_visible()}
        teacher = table.state.view(None)
        hidden = {c for s in teacher.seats if s.player != 0 for c in s.hand if c.name not in seen}
        text = "\n" + synced_text(table) + "\n"
        for card in hidden:
            for form in _forms(card):
                assert not _names(text, form), (form, len(table.state.history))
        checked += bool(hidden)
        questions += table.state._phase != 0
        assert table.play(human.choose(table.state))
    assert checked > 10 and questions > 0


def test_partners_are_one_side_in_matches():
    from cardkit.tournament import result_for, sides_of
    g = game()
    assert g.sides() == [[S, N], [W, E]] == sides_of(4, g)
    assert result_for([S, N], [S, N], 4, g) == 1 and result_for([W, E], [S, N], 4, g) == 0


def test_the_hint_says_the_same_whatever_the_hidden_cards_are_at_the_table():
    """tests/test_hidden.py's check of `describe` for moves not yet made, for the rules as at the table:
    the narration of a possible move (a revoke, "having none", a claim) never depends on a hidden card."""
    checked = hints_checked(game(mode="table"), seeds=(1, 2, 3), steps=300)
    assert checked > 300
