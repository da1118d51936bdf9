"""24 ("24 ist am besten!"): every rule of cardkit/rules/vierundzwanzig.toml, tested through the public protocol.

Each test names the rule IDs it checks with ``@covers("V24-…")`` (tests/test_rulebooks.py checks that every
rule ID of the rulebook appears in this file; ``test_every_rule_is_covered`` checks the decorators).
Expected outcomes are written down here from the rules (trick winners, scores), not computed with the
engine's own functions. Rounds are set up with ``planned_round``: hands in which every trick goes to the
player the test names, everyone following the led colour.
"""
from __future__ import annotations

from collections import Counter

import pytest

import cardkit
from cardkit import CHANCE, CardkitError, IllegalActionError, OptionError, Record, load_game
from cardkit.bots import game_bots, play_out
from cardkit.cards import VIERUNDZWANZIG as DECK
from cardkit.events import narration
from cardkit.record import example_names, load_example
from rule_marks import rule_marker

COVERED, covers = rule_marker()
STEFAN, MARKUS, MICHAEL, SABINE, JANA = range(5)
LETTER = {"yellow": "Y", "red": "R", "blue": "B", "green": "G"}


# --- helpers (public protocol, views, and the state's public attributes) ---------------------------------
def game(**opts):
    return load_game("vierundzwanzig", **opts)


def texts(cards):
    return sorted(c.text for c in cards)


def hand(s, p):
    return texts(s.view(None).seats[p].hand)


def legal(s):
    return [a.text for a in s.legal_actions()]


def fact(s, label, viewer=None):
    return dict(s.view(viewer).facts)[label]


def pile(s, name, viewer=None):
    return next((p for p in s.view(viewer).piles if p.name.startswith(name)), None)


def last_trick(s):
    p = pile(s, "Last trick")
    return [c.text for _, c in p.cards], p.note


def fill(hands, size=6, avoid=("1", "2"), colours="YRBG"):
    """Hands filled up to `size` with unused cards of `colours` whose value is not in `avoid` (never the 24)."""
    used = {c for h in hands for c in h}
    pool = [c.text for c in DECK.cards if c.text not in used and c.text != "24"
            and str(c.value) not in avoid and c.text[0] in colours]
    out = []
    for h in hands:
        h = list(h)
        while len(h) < size:
            h.append(pool.pop(0))
        out.append(h)
    return out


def stacked(g, hands, stock=(), dealer=None, **kw):
    """A new state with these hands (seat order; filled up to 6 cards) and this stock top."""
    return g.new_state(deal=g.stack(fill(hands, **kw), list(stock), dealer=dealer))


def start_round(s, trump="red", blind=False):
    """The start player picks up (or names yellow blind) and names `trump`; everyone keeps his cards."""
    if blind:
        s.apply("blind yellow")
    else:
        if "look" in legal(s):
            s.apply("look")
        s.apply(f"trump: {trump}")
    while "keep" in legal(s):
        s.apply("keep")
    return s


def play(s, *actions):
    for a in actions:
        s.apply(a)
    return s


OTHER = {"yellow": "RBG", "red": "YBG", "blue": "YRG", "green": "YRB"}


def planned_round(g, winners, dealer, trump="red", sitting=()):
    """(deal text, plays): trick j goes to winners[j]. Each trick is played in one of the three colours that
    are not trump (yellow's, red's, blue's … in turn), everyone follows, the winner holds the highest card.
    A player in `sitting` holds trump cards only (he sits out and plays none)."""
    n = g.num_players
    start = (dealer + 1) % n
    cols = OTHER[trump]
    pools = {c: list(range(11, 1, -1)) for c in cols}
    active = [p for p in range(n) if p not in sitting]
    hands = [[] for _ in range(n)]
    plays = []
    leader = start
    for j, w in enumerate(winners):
        c = cols[j % 3]
        order = [(leader + k) % n for k in range(n) if (leader + k) % n in active]
        cards = {w: f"{c}{pools[c].pop(0)}"}
        for p in order:
            if p != w:
                cards[p] = f"{c}{pools[c].pop(0)}"
        for p in order:
            hands[p].append(cards[p])
        plays += [cards[p] for p in order]
        leader = w
    t = LETTER[trump]
    spare = [f"{t}{v}" for v in range(3, 12)]
    for p in sitting:
        hands[p] = [spare.pop() for _ in range(6)]
    return g.stack(hands, dealer=dealer), plays


def planned_match(g, rounds, then=False):
    """A state that has played `rounds`: each (winners, trump, blind) or with a 4th item, the sitters.
    The deal passes to the left from the last seat (V24-3.1). With `then`, one more round is dealt (its
    start player is to decide)."""
    n = g.num_players
    deals, scripts = [], []
    for k, r in enumerate(rounds):
        winners, trump, blind = r[:3]
        sitting = r[3] if len(r) > 3 else ()
        d, plays = planned_round(g, winners, (n - 1 + k) % n, "yellow" if blind else trump, sitting)
        deals.append(d)
        scripts.append((trump, blind, sitting, plays))
    if then:
        deals.append(g.stack(fill([[] for _ in range(n)]), dealer=(n - 1 + len(rounds)) % n))
    s = g.new_state(deal=deals)
    for trump, blind, sitting, plays in scripts:
        if blind:
            s.apply("blind yellow")
        else:
            if "look" in legal(s):
                s.apply("look")
            s.apply(f"trump: {trump}")
        while "keep" in legal(s) or "sit out" in legal(s):
            s.apply("sit out" if s.current_player in sitting else "keep")
        play(s, *plays)
    return s


def bots_match(seed=0, bot="random", **opts):
    g = game(**opts)
    s = g.new_state(seed=seed)
    play_out(s, {p: game_bots(g)[bot](seed * 10 + p) for p in range(g.num_players)})
    return s


# --- V24-1 the cards ---------------------------------------------------------------------------------------
@covers("V24-1", "V24-1.1")
def test_45_cards_four_colours_1_to_11_and_the_white_24():
    g = game()
    deck = g.full_deck()
    assert len(deck) == 45 == len(set(deck))
    assert Counter(c.text[0] for c in deck if c.text != "24") == {"Y": 11, "R": 11, "B": 11, "G": 11}
    assert sorted(c.value for c in deck if c.text.startswith("G")) == list(range(1, 12))
    assert [c.name for c in deck if c.text == "24"] == ["white 24"]
    # the fourth colour, green, is the kit's assumption: named, and marked so in the rulebook
    assert g.rulebook.rule("V24-1.1").kind == "assumption" and "green" in g.rulebook.rule("V24-1.1").text
    assert DECK.parse("G5").name == "green 5" and DECK.parse("Grün 5") is DECK.parse("G5")


@covers("V24-1.2")
def test_the_notation_and_a_word_that_is_not_a_card():
    p = DECK.parse
    assert p("gelb 7") is p("Y7") and p("rot 11") is p("R11") and p("blau 1") is p("B1") and p("yellow 7") is p("Y7")
    assert p("white 24") is p("24") and p("24").label == "24"
    s = game().new_state(seed=1)
    start_round(s)
    while s.current_player != STEFAN or s.trick:
        s.apply(s.legal_actions()[0])
    before = s.snapshot()
    for bad in ("Y12", "banana", "R0", "W7"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "V24-1.2" and "not a card of 24" in e.value.why
    assert s.snapshot() == before


# --- V24-2 players ----------------------------------------------------------------------------------------
@covers("V24-2")
def test_two_to_five_players_and_why_not_six():
    assert game().option("players").choices == (2, 3, 4, 5) and game().num_players == 3
    for bad in (1, 6, 7):
        with pytest.raises(OptionError):
            game(players=bad)
    # the deck bounds it: 6 each dealt, and with everyone giving back 3 the stock still suffices
    for n in (2, 3, 4, 5):
        g = game(players=n)
        s = g.new_state(seed=n)
        s.apply("look")
        s.apply("trump: red")
        assert all(len(hand(s, p)) == 6 for p in range(n)) and pile(s, "Stock").count == 45 - 6 * n
        while s.legal_actions()[0].text.startswith("give back"):
            s.apply(s.legal_actions()[0])           # everyone gives back 3 (the third draws at once)
        assert all(len(hand(s, p)) == 6 for p in range(n))
        assert pile(s, "Stock").count == 45 - 9 * n >= 0
    rows = game().rule_tables()["players"].rows
    assert [r[0] for r in rows if r[-1] == "yes"] == ["2", "3", "4", "5"]
    assert [r[4] for r in rows if r[0] in ("6", "7")] == ["no: only 3 players could give back 3",
                                                          "no: only 1 player could give back 3"]


@covers("V24-2.1")
def test_seats_names_and_clockwise_play():
    assert game(players=3).player_names() == ["Stefan", "Markus", "Michael"]
    assert game(players=5).player_names() == ["Stefan", "Markus", "Michael", "Sabine", "Jana"]
    g = game(players=4)
    s = stacked(g, [["R5"], ["R6"], ["R7"], ["R8"]])
    start_round(s, "green")
    order = []
    for _ in range(4):
        order.append(s.current_player)
        s.apply(next(a for a in s.legal_actions() if a.card.text[0] == "R"))
    assert order == [STEFAN, MARKUS, MICHAEL, SABINE]


# --- V24-3 deal and exchange -----------------------------------------------------------------------------
@covers("V24-3", "V24-3.2")
def test_everyone_starts_at_24_three_cards_then_three_more():
    g = game()
    s = g.new_state(seed=2)
    assert s.scores() == [24, 24, 24]
    assert s.history[0].__class__ is cardkit.Deal
    # before trump is named: 3 cards each (the start player's face down), the second three not yet dealt
    assert [len(x.hand) for x in s.view(None).seats] == [0, 3, 3]
    assert pile(s, "Stefan's cards, face down").count is None and len(pile(s, "Stefan's cards").cards) == 3
    s.apply("look")
    assert [len(x.hand) for x in s.view(None).seats] == [3, 3, 3] and pile(s, "Stock").count == 36
    s.apply("trump: blue")
    assert [len(x.hand) for x in s.view(None).seats] == [6, 6, 6] and pile(s, "Stock").count == 27
    # the deal's order: the first three of each player from the start player on, then the second three
    order = [c.text for c in g.full_deck()]
    s = g.new_state(deal="deal: " + " ".join(order))
    s.apply("look")
    assert hand(s, STEFAN) == sorted(order[0:3]) and hand(s, MARKUS) == sorted(order[3:6])
    s.apply("trump: red")
    assert hand(s, STEFAN) == sorted(order[0:3] + order[9:12])
    assert hand(s, MICHAEL) == sorted(order[6:9] + order[15:18])
    assert g.stack([order[0:3] + order[9:12], order[3:6] + order[12:15], order[6:9] + order[15:18]],
                   order[18:]) == "deal: " + " ".join(order)
    # with another dealer the deal starts at his left
    d = g.stack([order[0:6], order[6:12], order[12:18]], dealer=STEFAN)
    assert d.split()[1:4] == order[6:9]


@covers("V24-3.1")
def test_the_last_seat_deals_first_and_the_deal_passes_to_the_left():
    s = bots_match(seed=4, bot="careful", players=4)
    rounds = s.rounds
    assert len(rounds) >= 3
    for k, r in enumerate(rounds):
        assert r["dealer"] == (3 + k) % 4 and r["start"] == (r["dealer"] + 1) % 4
    s = game().new_state(seed=1)
    assert fact(s, "Dealer").startswith("Michael; Stefan, the start player")


@covers("V24-3.3")
def test_the_start_player_names_one_of_four_trumps():
    g = game()
    s = g.new_state(seed=5)
    assert s.current_player == STEFAN and fact(s, "Trump") == "not named yet"
    s.apply("look")
    assert legal(s) == ["trump: yellow", "trump: red", "trump: blue", "trump: green"]
    s.apply("trump: green")
    assert fact(s, "Trump").startswith("green by Stefan — each trick counts 1")
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply("trump: red")
    assert e.value.rule == "V24-3.3" and s.snapshot() == before
    s = g.new_state(seed=5)
    s.apply("look")
    with pytest.raises(IllegalActionError) as e:
        s.apply(s.view(STEFAN).seats[STEFAN].hand[0].text)
    assert e.value.rule == "V24-3.3" and "names trump" in e.value.why


@covers("V24-3.4")
def test_the_exchange_from_the_start_player_dealer_last():
    rec = load_example("vierundzwanzig", "exchange")
    s = rec.final_state()
    # Stefan gave back G2 and G3 and drew the two top cards; Markus kept; Michael gave back 3, drew 3 at once
    assert hand(s, STEFAN) == sorted(["R11", "B4", "Y7", "B9", "Y11", "24"])
    assert hand(s, MARKUS) == sorted(["R2", "R3", "B2", "B3", "G4", "G5"])
    assert hand(s, MICHAEL) == sorted(["B5", "B6", "G6", "R8", "R9", "R10"])
    assert rec.actions[3:10] == ["give back card 3", "give back card 4", "draw 2", "keep", "give back card 1",
                                 "give back card 2", "give back card 6"]
    assert s.current_player == STEFAN and pile(s, "Set aside", STEFAN).count == 5 and pile(s, "Stock").count == 22
    # the cards given back stay out of the round, unseen: the set-aside pile shows none to a player
    assert pile(s, "Set aside", viewer=MARKUS).cards == []
    assert texts(c for _, c in pile(s, "Set aside").cards) == sorted(["G2", "G3", "R4", "R5", "G7"])
    # the order: the start player, then clockwise, the dealer last
    g = game(players=4)
    s = g.new_state(seed=3)
    s.apply("look")
    s.apply("trump: red")
    seen = []
    while "keep" in legal(s):
        seen.append(s.current_player)
        s.apply("keep")
    assert seen == [STEFAN, MARKUS, MICHAEL, SABINE]


@covers("V24-3.4")
def test_giving_back_a_card_twice_or_drawing_the_wrong_number_is_refused():
    s = game().new_state(seed=6)
    s.apply("look")
    s.apply("trump: red")
    s.apply("give back card 2")
    before = s.snapshot()
    for bad, words in (("give back card 2", "already"), ("give back card 7", "6 places"), ("keep", "draws"),
                       ("draw 3", "draws")):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "V24-3.4" and words in e.value.why
    assert s.snapshot() == before
    assert legal(s)[-1] == "draw 1"
    # by label: the card's name, for the player himself
    card = next(a for a in s.legal_actions() if a.card is not None)
    assert card.label == f"give back {card.card.label}"
    s.apply(card.label)
    assert legal(s)[-1] == "draw 2"


@covers("V24-3.5")
def test_the_stock_never_runs_short():
    # 5 players each giving back 3 empty the stock exactly
    g = game(players=5)
    s = g.new_state(seed=9)
    s.apply("look")
    s.apply("trump: yellow")
    while s.legal_actions()[0].text.startswith("give back"):
        s.apply(s.legal_actions()[0])
    assert pile(s, "Stock").count == 0 and all(len(hand(s, p)) == 6 for p in range(5))
    assert pile(s, "Set aside", MARKUS).count == 15
    # were the stock short, a player could give back only as many as it holds (white box: the stock is
    # shortened by hand, which no game of 2 to 5 players can do)
    s = game(players=5).new_state(seed=9)
    s.apply("look")
    s.apply("trump: red")
    s.stock = s.stock[:2]
    s._legal_cache = None
    s.ex_max = s._max_exchange(s.current_player)
    assert s.ex_max == 2
    s.apply(s.legal_actions()[0])
    s.apply(s.legal_actions()[0])           # the second card draws at once: the stock held two
    # nobody else can exchange (an empty stock): they are passed over and Stefan leads
    assert pile(s, "Stock").count == 0 and s.current_player == STEFAN and not s.trick
    assert all(a.card is not None and not a.text.startswith("give back") for a in s.legal_actions())


# --- V24-4 the tricks -----------------------------------------------------------------------------------
@covers("V24-4", "V24-4.1")
def test_six_tricks_the_start_player_leads_any_card():
    g = game()
    d, plays = planned_round(g, [0, 1, 2, 0, 1, 2], dealer=2)
    s = g.new_state(deal=d)
    start_round(s, "red")
    assert s.current_player == STEFAN and len(s.legal_actions()) == 6      # any of his six cards
    play(s, *plays)
    assert s.current_player == CHANCE and len(s.rounds) == 1    # the next deal is due (none stacked)
    assert s.rounds[0]["tricks"] == [2, 2, 2]
    assert "11 high" in game().rule_tables()["ranks"].rows[0][0]
    # a card one does not hold
    s = g.new_state(deal=d)
    start_round(s, "red")
    other = next(c for c in DECK.cards if c.text not in hand(s, STEFAN))
    with pytest.raises(IllegalActionError) as e:
        s.apply(other.text)
    assert e.value.rule == "V24-4.1" and "does not hold" in e.value.why


@covers("V24-4.2")
def test_follow_the_colour_else_discard_or_trump():
    g = game()
    s = stacked(g, [["R5", "B3"], ["R7", "G4"], ["Y3", "G5"]], colours="YBG")    # one red each, Michael none
    start_round(s, "green")
    s.apply("R5")
    # Markus holds red: only red may be played
    assert all(a.card.text[0] == "R" for a in s.legal_actions())
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply("G4")
    assert e.value.rule == "V24-4.2" and "holds a red card: follow the led colour, red" in e.value.why
    assert s.snapshot() == before
    s.apply("R7")
    assert len(s.legal_actions()) == 6                                 # Michael has no red: any card
    s.apply("G5")                                                      # he trumps (green is trump)
    cards, note = last_trick(s)
    assert cards == ["R5", "R7", "G5"] and note == "won by Michael with the green 5: the highest trump [V24-4.3]"
    # or discards: no duty to trump
    s = stacked(g, [["R5"], ["R7"], ["Y3", "G5"]], colours="YBG")
    start_round(s, "green")
    play(s, "R5", "R7", "Y3")
    assert last_trick(s)[1].startswith("won by Markus with the red 7: the highest red")


@covers("V24-4.3")
def test_highest_of_the_led_colour_or_highest_trump_and_the_winner_leads():
    g = game()
    s = stacked(g, [["B4", "B9"], ["B11", "Y2"], ["B6", "R3"]])
    start_round(s, "red")
    play(s, "B4", "B11", "B6")
    assert last_trick(s) == (["B4", "B11", "B6"], "won by Markus with the blue 11: the highest blue [V24-4.3]")
    assert s.current_player == MARKUS
    # a discard of another colour never wins, however high; the led colour wins
    s = stacked(g, [["B4"], ["G11"], ["B3"]], colours="YRG")
    start_round(s, "red")
    play(s, "B4", "G11", "B3")
    assert last_trick(s)[1] == "won by Stefan with the blue 4: the highest blue [V24-4.3]"
    # a trump beats the led colour
    s = stacked(g, [["B4"], ["R3"], ["B11"]], colours="YRG")
    start_round(s, "red")
    play(s, "B4", "R3", "B11")
    assert last_trick(s)[1] == "won by Markus with the red 3: the highest trump [V24-4.3]"


@covers("V24-4.4")
def test_the_24_is_the_highest_trump_and_counts_as_the_trump_colour():
    g = game()
    # led, the 24 is a trump lead: Markus must follow with a trump (red), not blue
    s = stacked(g, [["24", "B2"], ["R3", "B5"], ["R11", "B6"]])
    start_round(s, "red")
    s.apply("24")
    assert all(a.card.text[0] == "R" for a in s.legal_actions())
    with pytest.raises(IllegalActionError) as e:
        s.apply("B5")
    assert e.value.rule == "V24-4.4" and "24 was led" in e.value.why
    play(s, "R3", "R11")
    assert last_trick(s)[1] == "won by Stefan with the white 24: the 24 is the highest trump [V24-4.4]"
    # to a trump lead the 24 must be played if it is one's only trump; and may be played anyway
    s = stacked(g, [["R5"], ["24", "B5"], ["R11", "R2"]], colours="YBG")
    start_round(s, "red")
    s.apply("R5")
    assert legal(s) == ["24"]                              # Markus's only trump
    s.apply("24")
    s.apply("R11")
    assert last_trick(s)[1].startswith("won by Markus with the white 24")
    s = stacked(g, [["R5"], ["24", "R3"], ["R11"]], colours="YBG")
    start_round(s, "red")
    s.apply("R5")
    assert sorted(legal(s)) == ["24", "R3"]                # may play it, or another trump
    play(s, "R3", "R11")
    assert last_trick(s)[1].startswith("won by Michael with the red 11")
    # not to another colour's lead while holding that colour: it is a trump, not blue
    s = stacked(g, [["B7"], ["24", "B5"], ["B6"]])
    start_round(s, "green")
    s.apply("B7")
    with pytest.raises(IllegalActionError) as e:
        s.apply("24")
    assert e.value.rule == "V24-4.4" and "counts as a trump (green), not blue" in e.value.why


# --- V24-5 scoring ---------------------------------------------------------------------------------------
@covers("V24-5", "V24-5.1", "V24-5.2")
def test_tricks_take_points_off_no_trick_adds_the_round_total():
    g = game()
    # red: 1 a trick; Michael, not the trump caller, takes none: + 6
    s = planned_match(g, [([0, 0, 0, 1, 1, 0], "red", False)])
    assert s.scores() == [24 - 4, 24 - 2, 24 + 6]
    # yellow: 2 a trick, + 12
    s = planned_match(g, [([0, 0, 0, 1, 1, 0], "yellow", False)])
    assert s.scores() == [24 - 8, 24 - 4, 24 + 12]
    # blind yellow: 4 a trick, + 24
    s = planned_match(g, [([0, 0, 1, 1, 0, 1], "yellow", True)])
    assert s.scores() == [24 - 12, 24 - 12, 24 + 24]
    table = g.rule_tables()["scoring"]
    assert table.rows == [["red, blue or green", "−1", "+6", "+12"], ["yellow", "−2", "+12", "+24"],
                          ["yellow, named blind", "−4", "+24", "+48 and the match is lost"]]
    assert "Round 1" in s.score_table().rows[0][0] and s.score_table().rows[0][2] == "4"


@covers("V24-5.3")
def test_own_trump_without_a_trick_doubles():
    rec = load_example("vierundzwanzig", "own-trump")
    assert rec.final_state().scores() == [24 + 12, 20, 22]
    assert rec.final_state(own_trump_penalty="always").scores() == [36, 20, 22]
    assert rec.final_state(own_trump_penalty="never").scores() == [24 + 6, 20, 22]
    # yellow: 24 for the caller
    s = planned_match(game(), [([1, 1, 2, 2, 1, 1], "yellow", False)])
    assert s.scores() == [24 + 24, 24 - 8, 24 - 4] and s.is_terminal()      # 48: the match ends too
    assert s.rounds[0]["why"][STEFAN] == "own trump"
    # variant a: the rules advise dropping it (the default), "always" keeps it
    s = planned_match(game(trump_twos=True), [([1, 1, 2, 2, 1, 1], "red", False)])
    assert s.scores()[STEFAN] == 30
    s = planned_match(game(trump_twos=True, own_trump_penalty="always"), [([1, 1, 2, 2, 1, 1], "red", False)])
    assert s.scores()[STEFAN] == 36


@covers("V24-5.4")
def test_the_worked_examples_stefan_and_markus():
    red = load_example("vierundzwanzig", "scores-red")
    yellow = load_example("vierundzwanzig", "scores-yellow")
    for rec, stefan, markus in ((red, 16, 20), (yellow, 14, 26)):
        s = rec.final_state()
        r = s.rounds[-1]
        assert r["before"][STEFAN] == 18 and r["tricks"][STEFAN] == 2 and r["after"][STEFAN] == stefan
        assert r["before"][MARKUS] == 14 and r["tricks"][MARKUS] == 0 and r["after"][MARKUS] == markus
        assert r["start"] == MICHAEL        # neither Stefan nor Markus named trump
    assert red.final_state().rounds[-1]["final"] == "R" and yellow.final_state().rounds[-1]["final"] == "Y"
    # the same cards both ways: only the trump (named at step 50) differs
    assert [a for i, a in enumerate(red.actions) if i != 50] == [a for i, a in enumerate(yellow.actions) if i != 50]
    assert "Stefan, 18 − 2 = 16" in red.meta["narration"]["71"]


# --- V24-6 the 1 --------------------------------------------------------------------------------------------
@covers("V24-6", "V24-6.1")
def test_a_played_1_asks_its_player_at_once_and_reverses_every_colour():
    g = game()
    s = stacked(g, [["B1", "G9", "G3"], ["B5", "G11", "G4"], ["B7", "G8", "G5"]])
    start_round(s, "red")
    s.apply("B1")
    assert s.current_player == STEFAN and legal(s) == ["reverse: yes", "reverse: no"]
    before = s.snapshot()
    for bad in ("G9", "G3"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "V24-6.1" and "first says whether his 1 reverses" in e.value.why
    with pytest.raises(IllegalActionError) as e:
        s.apply("keep")
    assert e.value.rule == "V24-3.4" and s.snapshot() == before
    s.apply("reverse: yes")
    assert fact(s, "Rank order") == ("11 high … 1 low; the 24 is the highest trump — turned round from the next "
                                     "trick")
    play(s, "B5", "B7")
    assert last_trick(s)[1].startswith("won by Michael with the blue 7")        # still 11 high in this trick
    assert fact(s, "Rank order") == "1 high … 11 low; the 24 is the lowest trump"
    play(s, "G8", "G3", "G4")                                                   # Michael leads: now 3 beats 4 and 8
    assert last_trick(s)[1].startswith("won by Stefan with the green 3: the highest green (1 high)")
    # a 1 added to a trick (not led) asks too, and a bot is asked as a person is
    s = stacked(g, [["B5"], ["B1"], ["B7"]])
    start_round(s, "red")
    s.apply("B5")
    s.apply("B1")
    assert legal(s) == ["reverse: yes", "reverse: no"]
    assert game_bots(g)["rule-based"](0).choose(s).text in ("reverse: yes", "reverse: no")


@covers("V24-6.2")
def test_the_first_reversal_example_holds_from_the_next_trick():
    rec = load_example("vierundzwanzig", "reversal-next-trick")
    states = rec.states()
    s = rec.final_state()
    assert rec.actions[9:13] == ["R8", "R11", "R1", "reverse: yes"]
    assert legal(states[12]) == ["reverse: yes", "reverse: no"] and states[12].current_player == MARKUS
    after = states[13]        # after "reverse: yes": the trick is over, Stefan takes it, and leads
    assert last_trick(after) == (["R8", "R11", "R1"], "won by Stefan with the red 11: the highest red [V24-4.3]")
    assert after.current_player == STEFAN and fact(after, "Rank order").startswith("1 high")
    trick = s.won[STEFAN][0]
    assert [(p, c.text) for p, c in trick] == [(MICHAEL, "R8"), (STEFAN, "R11"), (MARKUS, "R1")]
    assert last_trick(s) == (["G5", "G2", "G10"],
                             "won by Markus with the green 2: the highest green (1 high) [V24-4.3]")


@covers("V24-6.3")
def test_the_second_reversal_example_the_last_word_counts():
    rec = load_example("vierundzwanzig", "reversal-last-word")
    states = rec.states()
    assert fact(states[8], "Rank order").endswith("turned round from the next trick")     # after Stefan's yes
    assert fact(states[11], "Rank order") == "11 high … 1 low; the 24 is the highest trump"  # Michael's yes undoes it
    s = rec.final_state()
    assert [(p, c.text) for p, c in s.won[MARKUS][0]] == [(STEFAN, "B1"), (MARKUS, "B11"), (MICHAEL, "Y1")]
    assert last_trick(s) == (["R5", "R9", "R2"], "won by Michael with the red 9: the highest red [V24-4.3]")


@covers("V24-6.4")
def test_reversed_the_24_is_the_lowest_trump_but_still_a_trump():
    g = game()
    s = stacked(g, [["B1", "24", "G3"], ["B5", "R2", "G4"], ["B7", "R9", "G5"]])
    start_round(s, "red")
    play(s, "B1", "reverse: yes", "B5", "B7")          # Michael takes it and leads
    assert s.current_player == MICHAEL
    play(s, "R9")
    s.apply("24")                                      # Stefan has only the 24 as trump
    s.apply("R2")
    assert last_trick(s)[1] == "won by Markus with the red 2: the highest trump (1 high) [V24-4.3]"
    play(s, "G4", "G5", "G3")                          # Markus leads green, 1 high: the 3 wins
    assert last_trick(s)[1].startswith("won by Stefan with the green 3")
    # reversed, the 24 still beats every other colour
    s = stacked(g, [["B1", "24"], ["B5", "G6"], ["B7", "G4"]], colours="YB")
    start_round(s, "red")
    play(s, "B1", "reverse: yes", "B5", "B7")
    play(s, "G4", "24", "G6")                           # Stefan has no green: he trumps with the 24
    assert last_trick(s)[1] == "won by Stefan with the white 24: the 24 is the lowest trump, but the only one [V24-6.4]"
    assert game().rule_tables()["ranks"].rows[1][1] == "1, 2, … 10, 11, 24"


@covers("V24-6.5")
def test_each_round_starts_with_11_high():
    g = game()
    d1 = g.stack(fill([["B1", "B5"], ["B7"], ["B9"]]), dealer=2)
    d2 = g.stack(fill([[], [], []]), dealer=0)
    s = g.new_state(deal=[d1, d2])
    start_round(s, "red")
    play(s, "B1", "reverse: yes", "B7", "B9")
    assert fact(s, "Rank order").startswith("1 high")
    while s.round_no == 1:
        s.apply(s.legal_actions()[0])
    assert s.round_no == 2 and fact(s, "Rank order") == "11 high … 1 low; the 24 is the highest trump"


@covers("V24-6.6")
def test_no_question_for_a_1_in_the_last_trick():
    g = game()
    d, plays = planned_round(g, [0, 0, 0, 0, 0, 0], dealer=2)
    # Stefan's card for the last trick becomes the 1 of that colour
    s = g.new_state(deal=d)
    start_round(s, "red")
    play(s, *plays[:15])
    last = plays[15]
    colour = last[0]
    assert s.current_player == STEFAN
    # give the planned deal a 1 instead: replace Stefan's last card in a fresh deal
    cards = d.split()[1:]
    one = f"{colour}1"
    i, j = cards.index(last), cards.index(one)
    cards[i], cards[j] = cards[j], cards[i]
    s = g.new_state(deal="deal: " + " ".join(cards))
    start_round(s, "red")
    play(s, *plays[:15])
    s.apply(one)
    assert s.current_player == MARKUS and "reverse: yes" not in legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("reverse: yes")
    assert e.value.rule == "V24-6.6"


# --- V24-7 blind yellow -----------------------------------------------------------------------------------
@covers("V24-7")
def test_blind_yellow_counts_4_a_trick():
    s = planned_match(game(), [([0, 0, 0, 0, 1, 1], "yellow", True)])
    assert s.rounds[0]["blind"] and s.rounds[0]["value"] == 4
    assert s.scores() == [24 - 16, 24 - 8, 24 + 24]
    s = game().new_state(seed=8)
    s.apply("blind yellow")
    assert fact(s, "Trump").startswith("yellow, named blind by Stefan — each trick counts 4")


@covers("V24-7.1")
def test_blind_is_called_before_looking_and_a_take_back_deals_new_cards():
    g = game()
    s = g.new_state(seed=11)
    assert legal(s) == ["look", "blind yellow"]
    # Stefan's cards lie face down, for him too
    assert s.view(STEFAN).seats[STEFAN].hand == [] and pile(s, "Stefan's cards", STEFAN).count == 3
    assert pile(s, "Stefan's cards", STEFAN).cards == []
    s.apply("look")
    assert len(s.view(STEFAN).seats[STEFAN].hand) == 3
    with pytest.raises(IllegalActionError) as e:
        s.apply("blind yellow")
    assert e.value.rule == "V24-7.1" and "too late" in e.value.why
    # looking and taking back does not show the cards he would name blind: a resample deals him others
    s.undo()
    seen = {tuple(texts(s.resample(STEFAN, cardkit.Rng(k)).hands[STEFAN])) for k in range(20)}
    assert len(seen) > 10
    # only the start player, only now
    s.apply("blind yellow")
    assert len(s.view(STEFAN).seats[STEFAN].hand) == 6
    with pytest.raises(IllegalActionError) as e:
        s.apply("blind yellow")
    assert e.value.rule == "V24-7.1"


# --- V24-8 the end -----------------------------------------------------------------------------------------
@covers("V24-8", "V24-8.1")
def test_at_0_or_below_the_lowest_wins():
    g = game()
    # blind yellow, all six tricks: 24 − 24 = 0, the match is over at once
    s = planned_match(g, [([0] * 6, "yellow", True)])
    assert s.is_terminal() and s.scores()[STEFAN] == 0
    # Markus and Michael add 24 each: 48, the other end too (V24-8.3)
    assert s.winners() == [STEFAN]
    # several at 0 or below: the one further below wins
    s = planned_match(g, [([0, 0, 0, 1, 1, 2], "yellow", False), ([0, 0, 0, 1, 1, 1], "yellow", True),
                          ([0, 0, 0, 1, 1, 2], "yellow", True)])
    assert [r["after"] for r in s.rounds] == [[18, 20, 22], [6, 8, 46], [-6, 0, 42]]
    assert s.is_terminal() and s.winners() == [STEFAN]
    assert "Stefan wins after 3 rounds, lowest with -6 points" in s.view(None).result
    # equal: they share the win (2 players, both at 0)
    s = planned_match(game(players=2), [([0, 0, 0, 1, 1, 1], "yellow", True), ([0, 0, 0, 1, 1, 1], "yellow", True)])
    assert s.scores() == [0, 0] and s.winners() == [STEFAN, MARKUS] and "share the win" in s.view(None).result
    # not over while everyone is between 1 and 47
    s = planned_match(g, [([0, 1, 2, 0, 1, 2], "red", False)])
    assert s.current_player == CHANCE or not s.is_terminal()


@covers("V24-8.2")
def test_at_48_or_more_the_lowest_wins_ties_share():
    g = game()
    s = planned_match(g, [([0, 0, 0, 1, 1, 1], "yellow", True)])      # Michael: no trick, 24 + 24 = 48
    assert s.scores() == [12, 12, 48] and s.is_terminal() and s.winners() == [STEFAN, MARKUS]
    s = planned_match(g, [([0, 0, 0, 1, 1, 0], "yellow", True)])
    assert s.scores() == [8, 16, 48] and s.winners() == [STEFAN]


@covers("V24-8.3")
def test_both_ends_at_once():
    s = planned_match(game(), [([0] * 6, "yellow", True)])
    assert s.scores() == [0, 48, 48] and s.winners() == [STEFAN]


@covers("V24-8.4")
def test_blind_yellow_without_a_trick_loses_the_match():
    rec = load_example("vierundzwanzig", "blind-yellow-lost")
    s = rec.final_state()
    assert s.is_terminal() and s.scores() == [72, 8, 16] and s.winners() == [MARKUS]
    assert "Stefan named yellow blind and took no trick: he loses the match" in s.view(None).result
    # never without the double penalty
    s = rec.final_state(own_trump_penalty="never")
    assert s.scores() == [48, 8, 16] and s.winners() == [MARKUS] and s.loser is None


# --- V24-9 variants ------------------------------------------------------------------------------------------
@covers("V24-9")
def test_variants_are_options_off_by_default_and_combine():
    g = game()
    assert (g.options["trump_twos"], g.options["sitting_out"], g.options["score_limits"]) == (False, False, False)
    for n in (3, 4, 5):
        game(players=n, trump_twos=True, sitting_out=True, score_limits=True)
    with pytest.raises(OptionError) as e:
        load_game("vierundzwanzig", players=2, sitting_out=True)
    assert "3 players or more" in str(e.value) and "V24-9.2" in str(e.value)
    with pytest.raises(OptionError):
        game(trump_twos="yes")


@covers("V24-9.1")
def test_variant_a_a_2_names_a_new_trump_from_the_next_trick():
    rec = load_example("vierundzwanzig", "trump-twos")
    states = rec.states()
    assert rec.actions[6:8] == ["B2", "new trump: yellow"]
    assert legal(states[7]) == ["new trump: no", "new trump: yellow", "new trump: blue", "new trump: green"]
    assert fact(states[8], "Trump").startswith("red by Stefan; yellow from the next trick")
    assert fact(states[10], "Trump").startswith("yellow by Stefan")
    # the trick after: Michael trumps with the yellow 3
    assert [(p, c.text) for p, c in states[14].won[MICHAEL][0]] == [(MARKUS, "G9"), (MICHAEL, "Y3"), (STEFAN, "G2")]
    # without the variant a 2 is an ordinary card
    g = game()
    s = stacked(g, [["B2"], ["B5"], ["B7"]])
    start_round(s, "red")
    s.apply("B2")
    assert s.current_player == MARKUS
    with pytest.raises(IllegalActionError) as e:
        s.apply("new trump: blue")
    assert e.value.rule == "V24-9.1"
    # with it, the 24 counts as the new trump colour
    g = game(trump_twos=True)
    s = stacked(g, [["B2", "24"], ["B5", "G9"], ["B7", "G3"]], colours="YRB")
    start_round(s, "red")
    play(s, "B2", "new trump: green", "B5", "B7")
    assert s.current_player == MICHAEL
    s.apply("G3")
    assert legal(s) == ["24"]                          # green led: the 24 is Stefan's only green now
    play(s, "24", "G9")
    assert last_trick(s)[1].startswith("won by Stefan with the white 24: the 24 is the highest trump")


@covers("V24-9.1.1")
def test_no_new_trump_after_blind_yellow():
    g = game(trump_twos=True)
    s = stacked(g, [["B2"], ["B5"], ["B7"]])
    start_round(s, blind=True)
    s.apply("B2")
    assert s.current_player == MARKUS and not [t for t in legal(s) if t.startswith("new trump")]
    with pytest.raises(IllegalActionError) as e:
        s.apply("new trump: red")
    assert e.value.rule == "V24-9.1.1"


@covers("V24-9.1.2")
def test_the_last_trump_named_scores_even_from_the_last_trick():
    rec = load_example("vierundzwanzig", "trump-twos")
    r = rec.final_state().rounds[0]
    assert (r["trump"], r["final"], r["value"]) == ("R", "Y", 2) and r["after"] == [36, 22, 14]
    # a 2 in the last trick is asked about, and its trump scores
    g = game(trump_twos=True)
    d, plays = planned_round(g, [1, 1, 1, 1, 1, 1], dealer=2)
    cards = d.split()[1:]
    last = plays[15]                      # Markus leads the sixth trick
    two = f"{last[0]}2"
    i, j = cards.index(last), cards.index(two)
    cards[i], cards[j] = cards[j], cards[i]
    s = g.new_state(deal="deal: " + " ".join(cards))
    start_round(s, "red")
    play(s, *plays[:15])
    s.apply(two)
    assert legal(s)[0] == "new trump: no"
    s.apply("new trump: yellow")
    s.apply(plays[16])
    # the sixth trick: Markus's 2 is now the lowest card of its colour
    s.apply(plays[17])
    r = s.rounds[0]
    assert r["final"] == "Y" and r["value"] == 2


@covers("V24-9.1.3")
def test_the_advice_drop_own_trump_with_variant_a():
    g = game(trump_twos=True)
    assert g.options["own_trump_penalty"] == "advised" and not g.double_penalty
    assert game().double_penalty and game(trump_twos=True, own_trump_penalty="always").double_penalty
    assert g.rule_tables()["scoring"].rows[0][3] == "+6 (no double penalty)"


@covers("V24-9.1.4")
def test_with_variant_a_the_start_player_is_the_trump_caller():
    """V24-9.1.4: where own trump without a trick is kept with variant a, the start player who named the
    round's first trump is the one doubled — not the player whose 2 named the trump that scores."""
    g = game(trump_twos=True, own_trump_penalty="always")
    d, plays = planned_round(g, [MICHAEL] * 6, dealer=MICHAEL)      # Stefan starts; Michael takes every trick
    cards = d.split()[1:]
    last = plays[17]                                                  # Markus's card to the sixth trick
    two = f"{last[0]}2"
    i, j = cards.index(last), cards.index(two)
    cards[i], cards[j] = cards[j], cards[i]
    s = g.new_state(deal="deal: " + " ".join(cards))
    start_round(s, "red")
    play(s, *plays[:17])
    s.apply(two)
    assert s.current_player == MARKUS and "new trump: blue" in legal(s)
    s.apply("new trump: blue")                                       # Markus names the trump that scores
    r = s.rounds[0]
    assert r["final"] == "B" and r["tricks"] == [0, 0, 6]
    assert r["why"][STEFAN] == "own trump" and r["after"][STEFAN] == 24 + 12
    assert r["why"][MARKUS] == "no trick" and r["after"][MARKUS] == 24 + 6


@covers("V24-9.2")
def test_variant_b_sitting_out():
    rec = load_example("vierundzwanzig", "sitting-out")
    states = rec.states()
    assert "keep" in legal(states[3]) and "sit out" not in legal(states[3])     # Stefan, the start player
    assert "sit out" in legal(states[4])                                          # Markus may
    assert "sit out" not in legal(states[5])                                      # Michael: two must play
    with pytest.raises(IllegalActionError) as e:
        states[5].clone().apply("sit out")
    assert e.value.rule == "V24-9.2" and "at least two" in e.value.why
    s = rec.final_state()
    assert s.rounds[0]["after"] == [18, 24, 30] and s.rounds[0]["tricks"] == [6, 0, 0]
    assert all(len(t) == 2 for t in s.won[STEFAN])                               # tricks of the two who play
    # no sitting out once a card is given back; the start player never
    g = game(sitting_out=True, players=4)
    s = g.new_state(seed=3)
    s.apply("look")
    s.apply("trump: red")
    with pytest.raises(IllegalActionError) as e:
        s.apply("sit out")
    assert e.value.rule == "V24-9.2" and "start player" in e.value.why
    s.apply("keep")
    s.apply("give back card 1")
    with pytest.raises(IllegalActionError) as e:
        s.apply("sit out")
    assert e.value.rule == "V24-9.2" and "begun to exchange" in e.value.why


@covers("V24-9.3")
def test_variant_c_limits_by_score():
    g = game(score_limits=True, sitting_out=True)
    # at 24 Stefan may not name yellow blind (only from 25): he picks up his cards at once
    s = g.new_state(seed=1)
    assert legal(s) == ["trump: yellow", "trump: red", "trump: blue", "trump: green"]
    assert len(s.view(STEFAN).seats[STEFAN].hand) == 3
    with pytest.raises(IllegalActionError) as e:
        s.apply("blind yellow")
    assert e.value.rule == "V24-9.3" and "only from 25" in e.value.why
    # Stefan 14 → 6, Markus 22 → 20, Michael 36 → 34 (two yellow rounds)
    s = planned_match(g, [([0, 0, 0, 0, 0, 1], "yellow", False), ([0, 0, 0, 0, 1, 2], "yellow", False)], then=True)
    assert [r["after"] for r in s.rounds] == [[14, 22, 36], [6, 20, 34]]
    # round 3: Michael starts, with 34 he may name blind; then Stefan, at 6, may neither exchange nor sit
    # out: he is passed over; Markus, at 20, may sit out
    assert legal(s) == ["look", "blind yellow"]
    s.apply("look")
    s.apply("trump: red")
    assert s.current_player == MICHAEL and "sit out" not in legal(s)
    s.apply("keep")
    assert s.current_player == MARKUS and "sit out" in legal(s) and "give back card 1" in legal(s)
    # at 19 or fewer no sitting out: Michael 24 − 3·2 = 18 after round 1; round 2 Markus starts
    s = planned_match(g, [([0, 2, 2, 1, 1, 2], "yellow", False)], then=True)
    assert s.scores() == [22, 20, 18]
    assert legal(s)[0] == "trump: yellow"                                  # Markus, 20: no blind call
    s.apply("trump: blue")
    assert s.current_player == MARKUS
    s.apply("keep")
    assert s.current_player == MICHAEL and "sit out" not in legal(s) and "give back card 1" in legal(s)
    with pytest.raises(IllegalActionError) as e:
        s.apply("sit out")
    assert e.value.rule == "V24-9.3" and "19 or fewer" in e.value.why
    s.apply("keep")
    assert s.current_player == STEFAN and "sit out" in legal(s)            # 22: he may
    # without the limits the same players may do all of it
    s = planned_match(game(sitting_out=True), [([0, 0, 0, 0, 0, 1], "yellow", False),
                                              ([0, 0, 0, 0, 1, 2], "yellow", False)], then=True)
    s.apply("look")
    s.apply("trump: red")
    s.apply("keep")
    assert s.current_player == STEFAN and "sit out" in legal(s) and "give back card 1" in legal(s)


# --- the examples, bad input, the table's words ------------------------------------------------------------
def test_every_example_replays_and_names_its_rule():
    names = example_names("vierundzwanzig")
    assert set(names) >= {"scores-red", "scores-yellow", "reversal-next-trick", "reversal-last-word", "own-trump",
                          "blind-yellow-lost", "trump-twos", "sitting-out", "exchange"}
    book = game().rulebook
    for name in names:
        rec = load_example("vierundzwanzig", name)
        book.rule(rec.meta["rule"])
        again = Record.loads(rec.dumps())
        assert again.final_state() == rec.final_state()
        assert len(narration(rec)) == len(rec.actions)


def test_bad_options_stack_and_records():
    with pytest.raises(OptionError) as e:
        game(players=2, sitting_out=True)
    assert "variant b" in str(e.value)
    with pytest.raises(OptionError):
        game(own_trump_penalty="sometimes")
    g = game()
    for bad in ([["R1"] * 6, [], []], [["R1", "R2"]], "R1 R2"):
        with pytest.raises(CardkitError):
            g.stack(bad)
    with pytest.raises(IllegalActionError) as e:
        g.stack([["R1", "R2", "R3", "R4", "R5", "R6"], ["R1", "B2", "B3", "B4", "B5", "B6"],
                 ["G1", "G2", "G3", "G4", "G5", "G6"]])
    assert "listed twice" in e.value.why
    rec = load_example("vierundzwanzig", "own-trump")
    broken = Record(rec.game, rec.options, rec.actions[:7] + ["B11"] + rec.actions[8:], {})
    with pytest.raises(cardkit.RecordError) as e:
        broken.final_state()
    assert e.value.step == 7
    # the 45 cards and no other: a deal with a card twice
    good = g.new_state(seed=1).history[0].text.split()
    with pytest.raises(IllegalActionError) as e:
        g.new_state(deal=" ".join(good[:-1] + [good[1]]))
    assert e.value.rule == "deal"


def test_narration_never_names_a_card_given_back_or_set_aside():
    s = game(sitting_out=True).new_state(seed=21)
    s.apply("look")
    s.apply("trump: red")
    for a in s.legal_actions():
        line = s.describe(a)
        if a.data == "discard":
            assert line == "Stefan gives back a card [V24-3.4]." and a.card.name not in line
    s.apply("give back card 1")
    s.apply("give back card 2")
    line = s.describe(s.legal_actions()[0])
    assert line == "Stefan gives back a third card and draws 3 new ones from the stock [V24-3.4]."
    s.apply("give back card 3")
    assert s.describe(next(a for a in s.legal_actions() if a.text == "sit out")) == \
        "Markus sits this round out: his score does not change [V24-9.2]."
    s.apply("sit out")
    # what others see of Markus: no cards, a count of cards set aside
    assert s.view(STEFAN).seats[MARKUS].hand == [] and s.view(STEFAN).seats[MARKUS].info == "sits out this round"
    assert pile(s, "Set aside", STEFAN).count == 3 + 6 and pile(s, "Set aside", STEFAN).cards == []


def test_the_table_words_a_hint_and_the_facts():
    g = game()
    s = stacked(g, [["R5", "B3"], ["R7", "G4"], ["Y3", "G5"]], colours="YBG")
    assert fact(s, "Scores") == ("Stefan 24 · Markus 24 · Michael 24 — the match ends at 0 or below, or at 48 or "
                                 "more; the lowest wins")
    assert s.describe(s.legal_actions()[1]) == ("Stefan names yellow blind, without looking at his cards: each trick "
                                                "counts 4 this round [V24-7]. Everyone gets 3 more cards [V24-3.2].")
    start_round(s, "green")
    assert s.progress() == ("Round 1", "Trick 1")
    assert s.view(STEFAN).status == "Trick 1: Stefan leads."
    s.apply("R5")
    assert s.describe(next(a for a in s.legal_actions() if a.text == "R7")) == "Markus plays the red 7."
    s.apply("R7")
    line = s.describe(next(a for a in s.legal_actions() if a.text == "G5"))
    assert line == ("Michael cannot follow and trumps with the green 5 [V24-4.2]. Michael takes the trick with the "
                    "green 5: the highest trump [V24-4.3].")
    assert pile(s, "Trick").note == "led red · held by Markus"


def test_the_score_table_has_a_row_per_round():
    rec = load_example("vierundzwanzig", "scores-red")
    t = rec.final_state().score_table()
    assert [r[0] for r in t.rows] == ["Round 1", "Round 2", "Round 3", "Score"]
    assert t.rows[2] == ["Round 3", "red (Michael)", "1", "2 tricks · 16", "no trick · 20", "4 tricks · 12"]
    assert t.rows[-1] == ["Score", "", "", "16", "20", "12"]


def test_undo_and_replay_of_a_whole_match():
    s = bots_match(seed=3, bot="rule-based", players=4, trump_twos=True, sitting_out=True)
    assert s.is_terminal() and len(s.rounds) >= 2
    rec = Record.loads(s.to_record().dumps())
    assert rec.final_state() == s
    # undo back over the last round's deal: the state equals the replay of the same actions
    c = s.clone()
    for _ in range(30):
        c.undo()
        prefix = Record(rec.game, rec.options, rec.actions[:len(c.history)], {}).final_state()
        assert c == prefix and c.legal_actions() and [a.text for a in c.legal_actions()] == \
            [a.text for a in prefix.legal_actions()]


# --- bots --------------------------------------------------------------------------------------------------
def test_the_rule_based_bot_names_the_trump_it_holds_most_of():
    g = game()
    s = stacked(g, [["B9", "B3", "B11"], [], []], colours="YRG")
    s.apply("look")
    assert game_bots(g)["rule-based"](0).choose(s).text == "trump: blue"
    assert game_bots(g)["careful"](0).choose(s).text == "trump: blue"
    # and never names blind at an ordinary score; it does when far behind
    s = g.new_state(seed=2)
    assert game_bots(g)["rule-based"](0).choose(s).text == "look"


def test_the_rule_based_bot_reverses_when_its_hand_is_low():
    g = game()
    low = [["B1", "R2", "R3", "G2", "G3", "Y3"], ["B5"], ["B7"]]
    s = stacked(g, low, colours="YRBG")
    start_round(s, "yellow")
    s.apply("B1")
    assert game_bots(g)["rule-based"](0).choose(s).text == "reverse: yes"
    high = [["B1", "R11", "R10", "G11", "G10", "Y11"], ["B5"], ["B7"]]
    s = stacked(g, high)
    start_round(s, "yellow")
    s.apply("B1")
    assert game_bots(g)["rule-based"](0).choose(s).text == "reverse: no"


def test_the_rule_based_bot_beats_random_over_a_few_dozen_matches():
    from cardkit.tournament import match
    r = match("vierundzwanzig", {"players": 3}, "rule-based", "random", games=36, seed=7)
    assert r.win_rate > 0.5          # the fair share is 1/3; the 1,000-match figure is in docs/bots.md
    r = match("vierundzwanzig", {"players": 2}, "rule-based", "careful", games=30, seed=7)
    assert r.win_rate > 0.6


def test_a_random_match_ends_for_every_player_count():
    for n in (2, 3, 4, 5):
        s = bots_match(seed=n, players=n)
        assert s.is_terminal() and s.winners()
        assert min(s.scores()) <= 0 or max(s.scores()) >= 48


def test_the_rule_based_bot_names_yellow_blind_only_far_behind():
    g = game(players=2)
    s = planned_match(g, [([1] * 6, "red", False), ([1] * 6, "red", False)], then=True)
    assert s.scores() == [42, 12] and s.current_player == STEFAN and "blind yellow" in legal(s)
    assert game_bots(g)["rule-based"](0).choose(s).text == "blind yellow"
    assert game_bots(g)["careful"](0).choose(s).text == "look"
