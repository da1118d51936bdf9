"""cardkit/tricks.py: the follow-suit, trump and trick-winner logic Whist, Écarté and 24 share."""
from cardkit import tricks
from cardkit.cards import FRENCH52, PIQUET32

P = FRENCH52.parse_many
SUIT = {c: c.suit for c in FRENCH52.cards}
POWER = {c: c.value for c in FRENCH52.cards}


def texts(cards):
    return [c.text for c in cards]


def test_lead_is_free_and_follow_suit_binds():
    hand = P("2H KH 3S AC")
    assert texts(tricks.playable(hand, None, SUIT)) == texts(hand)
    assert texts(tricks.playable(hand, "H", SUIT, trump="S")) == ["2H", "KH"]
    # void in the led suit: anything, unless trumping is a duty
    assert texts(tricks.playable(hand, "D", SUIT, trump="S")) == texts(hand)
    assert texts(tricks.playable(hand, "D", SUIT, trump="S", must_trump=True)) == ["3S"]
    assert texts(tricks.playable(P("2H AC"), "D", SUIT, trump="S", must_trump=True)) == ["2H", "AC"]


def test_overtake_when_following_or_trumping():
    hand = P("2H KH 3S 9S")
    assert texts(tricks.playable(hand, "H", SUIT, "S", overtake=FRENCH52.parse("QH"), power=POWER)) == ["KH"]
    # cannot beat the queen: any heart
    assert texts(tricks.playable(P("2H 5H"), "H", SUIT, "S", overtake=FRENCH52.parse("QH"), power=POWER)) == ["2H", "5H"]
    # void, must trump over a trump already in the trick
    assert texts(tricks.playable(hand, "D", SUIT, "S", True, overtake=FRENCH52.parse("5S"), power=POWER)) == ["9S"]


def test_winner_highest_trump_else_highest_of_led_suit():
    assert tricks.winner(P("QH 3S AH"), SUIT, POWER, "S") == 1
    assert tricks.winner(P("QH 3S AH 4S"), SUIT, POWER, "S") == 3
    assert tricks.winner(P("QH 3D AH 2C"), SUIT, POWER, "S") == 2
    assert tricks.winner(P("QH AD KC"), SUIT, POWER, None) == 0   # off-suit cards never win


def test_own_rank_order_and_suit_mapping():
    # Écarté's source order: Ace between Ten and Jack; a game passes its own power
    order = ["7", "8", "9", "10", "A", "J", "Q", "K"]
    power = {c: order.index(c.rank) for c in PIQUET32.cards}
    suit = {c: c.suit for c in PIQUET32.cards}
    assert tricks.winner(PIQUET32.parse_many("AH JH"), suit, power, "S") == 1
    # a card counting as another suit (24's white card counts as the trump colour)
    suit2 = dict(SUIT)
    joker = FRENCH52.parse("2C")
    suit2[joker] = "S"
    assert tricks.winner([FRENCH52.parse("AH"), joker], suit2, POWER, "S") == 1
    assert texts(tricks.playable([joker, FRENCH52.parse("3D")], "S", suit2)) == ["2C"]


def test_why_not_names_the_duty():
    hand = P("2H KH 3S AC")
    kw = dict(suit_of=SUIT, trump="S", power=POWER)
    assert tricks.why_not(FRENCH52.parse("AC"), hand, "H", **kw) == tricks.FOLLOW
    assert tricks.why_not(FRENCH52.parse("2H"), hand, "H", **kw) is None
    assert tricks.why_not(FRENCH52.parse("2H"), hand, "H", overtake=FRENCH52.parse("QH"), **kw) == tricks.OVERTAKE
    assert tricks.why_not(FRENCH52.parse("AC"), P("3S AC"), "D", must_trump=True, **kw) == tricks.TRUMP
    assert tricks.why_not(FRENCH52.parse("AC"), P("3S AC"), "D", **kw) is None


def test_playable_grouped_agrees_with_playable_for_a_hand_kept_by_suit():
    """Whist keeps each hand as suit -> its cards (or the actions that play them): the led suit's group if
    the hand holds one, else everything; always a fresh list, never the group itself."""
    import random
    rnd = random.Random(3)
    deck = list(FRENCH52.cards)
    for _ in range(300):
        hand = rnd.sample(deck, rnd.randint(1, 13))
        groups = {s: [c for c in hand if c.suit == s] for s in "CSHD"}
        for led in (None, "C", "S", "H", "D"):
            got = tricks.playable_grouped(groups, led)
            assert sorted(texts(got)) == sorted(texts(tricks.playable(hand, led, SUIT)))
    g = {"H": P("2H KH"), "S": P("3S")}
    out = tricks.playable_grouped(g, "H")
    assert texts(out) == ["2H", "KH"] and out is not g["H"]
    out.pop()
    assert len(g["H"]) == 2                                   # the group itself is untouched
    assert texts(tricks.playable_grouped(g, "D")) == ["2H", "KH", "3S"]
    assert texts(tricks.playable_grouped(g, None)) == ["2H", "KH", "3S"]
