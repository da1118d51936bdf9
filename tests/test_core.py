"""The core: seeded RNG, card notation, the game registry and options, the game protocol (through
Die Magische 7, the one game so far) and game records."""
from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter

import pytest

import cardkit
from cardkit import (CHANCE, TERMINAL, Action, CardError, CardkitError, Deal, IllegalActionError, OptionError,
                     Record, RecordError, Rng, UnknownGameError, example_names, load_example)
from cardkit.cards import DECKS, FRENCH52, MAGISCHE7, PIQUET32, Deck
from cardkit.events import narration

# ================================================================================================
# RNG
# ================================================================================================
M64 = 2 ** 64


def ref_splitmix64(seed: int):
    """SplitMix64 as published (Steele, Lea & Flood 2014; Vigna's splitmix64.c), written independently of
    cardkit.rng: x += 0x9e3779b97f4a7c15; z = x; z = (z ^ z>>30) * 0xbf58476d1ce4e5b9;
    z = (z ^ z>>27) * 0x94d049bb133111eb; return z ^ z>>31  (all modulo 2**64)."""
    x = seed % M64
    while True:
        x = (x + 0x9E3779B97F4A7C15) % M64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M64
        yield z ^ (z >> 31)


def ref_below(gen, n: int) -> int:
    """Uniform in [0, n) by rejection: accept x only below the largest multiple of n that fits in 64 bits."""
    bound = M64 - M64 % n
    while True:
        x = next(gen)
        if x < bound:
            return x % n


def ref_shuffle(seed: int, items) -> list:
    """Fisher-Yates (Durstenfeld): for i from the end down to 1, swap item i with item below(i + 1)."""
    gen, items = ref_splitmix64(seed), list(items)
    for i in range(len(items) - 1, 0, -1):
        j = ref_below(gen, i + 1)
        items[i], items[j] = items[j], items[i]
    return items


# One Magische 7 pack as a deal shuffles it (the Jokers are handed out before the deal), canonical order.
M7_PACK = [str(v) for v in range(-6, 14)] + ["Spiegel", "Kreuz"]

# Golden values. Deals use only integer arithmetic (SplitMix64 + Fisher-Yates with rejection sampling),
# never `random.Random`, whose seeding/shuffle may change between Python versions: so a seed gives the
# same deal on every Python and in Pyodide. If one of these changes, every stored seed changes meaning.
GOLDEN_SEED0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]  # the published SplitMix64 vector
GOLDEN_SEED12345 = [0x22118258A9D111A0, 0x346EDCE5F713F8ED, 0x1E9A57BC80E6721D]
GOLDEN_DEAL_2P_SEED1 = "deal: 0 13 Spiegel -4 12 8 5 10 -5 -2 6 Kreuz 9 2 11 -1 -6 -3 7 4 1 3"
GOLDEN_DEAL_4P_SEED2024 = ("deal: 9 -4 11 8 -2 Spiegel 9 7 -6 6 -2 -1 1 6 -4 0 -6 10 -5 5 13 8 7 10 13 2 12 3 2 "
                           "Kreuz -1 5 1 3 4 0 11 Kreuz -5 12 4 Spiegel -3 -3")


@pytest.mark.parametrize("seed,golden", [(0, GOLDEN_SEED0), (12345, GOLDEN_SEED12345)])
def test_rng_golden_first_outputs(seed, golden):
    ref = ref_splitmix64(seed)
    assert [next(ref) for _ in range(3)] == golden          # the reference reproduces the golden values
    rng, ref = Rng(seed), ref_splitmix64(seed)
    assert [rng.next64() for _ in range(1000)] == [next(ref) for _ in range(1000)]


def test_rng_seeds_are_64_bit_and_typed():
    assert Rng(-1).next64() == next(ref_splitmix64(M64 - 1))
    assert Rng(M64 + 5).next64() == Rng(5).next64()
    for bad in (1.0, "1", True, None):
        with pytest.raises(TypeError):
            Rng(bad)


def test_rng_state_round_trip():
    a = Rng(99)
    a.next64()
    s = a.getstate()
    first = [a.next64() for _ in range(5)]
    a.setstate(s)
    assert [a.next64() for _ in range(5)] == first


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 22, 44, 1000, 2 ** 63 + 1, 2 ** 64 - 1, 2 ** 64])
def test_rng_below_bounds_and_reference(n):
    rng, gen = Rng(n), ref_splitmix64(n)
    for _ in range(300):
        x = rng.below(n)
        assert 0 <= x < n
        assert x == ref_below(gen, n)


def test_rng_below_rejects_non_positive():
    for n in (0, -1):
        with pytest.raises(ValueError):
            Rng(0).below(n)


def test_rng_below_roughly_uniform():
    rng, n, draws = Rng(2024), 6, 60_000
    counts = Counter(rng.below(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    # sd is about 91 per bin: 6% (600) is more than 6 sd
    assert all(abs(c - expected) < 0.06 * expected for c in counts.values()), counts
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 25  # 5 degrees of freedom: p < 0.0002


def test_rng_shuffle_is_a_uniform_in_place_permutation():
    rng = Rng(3)
    items = list(range(50)) + list(range(10))
    out = rng.shuffle(items)
    assert out is items and sorted(out) == sorted(list(range(50)) + list(range(10)))
    assert out != sorted(out)
    counts = Counter(tuple(Rng(s).shuffle(["a", "b", "c"])) for s in range(6000))
    assert len(counts) == 6 and all(800 < c < 1200 for c in counts.values()), counts
    assert Rng(8).shuffle([]) == [] and Rng(8).shuffle([1]) == [1]


def test_rng_choice():
    seq = ["x", "y", "z"]
    assert {Rng(s).choice(seq) for s in range(100)} == set(seq)


def test_seed_gives_the_golden_deal():
    assert "deal: " + " ".join(ref_shuffle(1, M7_PACK)) == GOLDEN_DEAL_2P_SEED1
    assert "deal: " + " ".join(ref_shuffle(2024, M7_PACK * 2)) == GOLDEN_DEAL_4P_SEED2024
    g2, g4 = cardkit.load_game("magische7", players=2), cardkit.load_game("magische7", players=4)
    assert [c.text for c in g2.full_deck()] == M7_PACK
    assert [c.text for c in g4.full_deck()] == M7_PACK * 2
    assert g2.new_state(seed=1).history[0].text == GOLDEN_DEAL_2P_SEED1
    assert g4.new_state(seed=2024).history[0].text == GOLDEN_DEAL_4P_SEED2024
    assert g2.new_state(seed=1).to_record().actions[0] == GOLDEN_DEAL_2P_SEED1


# ================================================================================================
# Cards
# ================================================================================================
def test_decks_registered():
    assert {"magische7", "french52", "piquet32"} <= set(DECKS)
    assert (len(MAGISCHE7), len(FRENCH52), len(PIQUET32)) == (23, 52, 32)
    assert DECKS["magische7"] is MAGISCHE7


@pytest.mark.parametrize("deck_name", sorted(DECKS))
def test_every_card_round_trips(deck_name):
    deck = DECKS[deck_name]
    assert len({c.text for c in deck}) == len(deck)          # notations are unambiguous
    assert len({c.name.lower() for c in deck}) == len(deck)
    for c in deck:
        assert c.deck == deck_name
        assert c.text.isascii() and " " not in c.text       # records are ASCII, one token per card
        assert str(c) == c.label
        for form in (c.text, c.label, c.name, c.text.lower(), c.name.upper(), f"  {c.label} "):
            assert deck.parse(form) is c, (form, c)
        assert deck.parse(c) is c
    every = list(deck)
    assert deck.parse_many(Deck.format(every)) == every
    assert deck.parse_many(", ".join(c.label for c in every)) == every
    assert deck.parse_many([c.name for c in every]) == every


def test_magische7_aliases():
    p = MAGISCHE7.parse
    assert p("+3") is p("3") is p("plus 3")
    assert p("+13") is p("13")
    assert p("-6") is p("minus 6") and p("-6").value == -6
    assert p("0") is p("zero")
    assert p("Zauberer") is p("Joker") is p("J")
    assert p("Drache") is p("Spiegel") is p("mirror") is p("S")
    assert p("Ratte") is p("Kreuz") is p("cross") is p("K")
    assert [c.value for c in MAGISCHE7 if c.kind == "point"] == list(range(-6, 14))


def test_french_aliases():
    p = FRENCH52.parse
    ten_h = p("10H")
    assert ten_h.name == "Ten of Hearts" and ten_h.label == "10♥"
    for form in ("10♥", "TH", "th", "H10", "♥10", "Herz 10", "10 Herz", "herz10"):
        assert p(form) is ten_h, form
    ace_h = p("AH")
    for form in ("A♥", "AsH", "As♥", "Herz As", "1H"):   # German "As" = ace
        assert p(form) is ace_h, form
    assert p("As") is p("AS") is p("Ace of Spades")    # alone, "AS" is the ace of spades
    assert p("QH") is p("DH")                           # Dame
    assert p("JD") is p("UD") and p("JS") is p("BS")    # Unter, Bube
    assert PIQUET32.parse("7C").name == "Seven of Clubs"
    for form in ("6C", "2H"):
        with pytest.raises(CardError):
            PIQUET32.parse(form)


def test_two_packs_keep_duplicates_and_cards_are_interned():
    cards = MAGISCHE7.parse_many("13 13, joker Zauberer -6")
    assert [c.text for c in cards] == ["13", "13", "Joker", "Joker", "-6"]
    assert cards[0] is cards[1] and cards[2] is cards[3]
    assert MAGISCHE7.packs(2).count(cards[0]) == 2 and len(MAGISCHE7.packs(2)) == 46
    for c in (cards[0], cards[2], FRENCH52.parse("10H"), PIQUET32.parse("AS")):
        assert copy.deepcopy(c) is c
        assert copy.copy(c) is c
        assert pickle.loads(pickle.dumps(c)) is c
    dup = copy.deepcopy(cards)
    assert dup == cards and all(a is b for a, b in zip(dup, cards))
    assert FRENCH52.parse("10H") is not PIQUET32.parse("10H")  # two decks, two sets of cards


@pytest.mark.parametrize("deck,bad,hint", [
    (MAGISCHE7, "14", "-6"), (MAGISCHE7, "-7", "-6"), (MAGISCHE7, "+0", "Joker"), (MAGISCHE7, "", "Spiegel"),
    (FRENCH52, "11H", "rank then suit"), (FRENCH52, "10X", "10H"), (PIQUET32, "5S", "rank then suit"),
])
def test_bad_notation_raises_card_error_with_a_hint(deck, bad, hint):
    with pytest.raises(CardError) as e:
        deck.parse(bad)
    assert hint in str(e.value)
    assert isinstance(e.value, CardkitError) and isinstance(e.value, ValueError)


def test_bad_notation_in_a_list_and_cards_of_another_deck():
    with pytest.raises(CardError):
        MAGISCHE7.parse_many("13 -6 fourteen")
    with pytest.raises(CardError):
        MAGISCHE7.parse(FRENCH52.parse("AS"))
    with pytest.raises(CardError):
        PIQUET32.parse(FRENCH52.parse("AS"))


# ================================================================================================
# Registry and options
# ================================================================================================
def test_list_games():
    games = cardkit.list_games()
    names = [g["name"] for g in games]
    assert "magische7" in names and len(names) == len(set(names)) == len(cardkit.GAMES)
    m7 = games[names.index("magische7")]
    assert m7["players"] == [2, 4]
    assert m7["title"] and m7["summary"]
    for g in games:
        game = cardkit.load_game(g["name"])
        assert game.name == g["name"] and game.title == g["title"]


@pytest.mark.parametrize("name", ["nope", "Magische7", "", 7, None])
def test_unknown_game(name):
    with pytest.raises(UnknownGameError) as e:
        cardkit.load_game(name)
    assert isinstance(e.value, CardkitError)
    msg = str(e.value)
    assert "unknown game" in msg
    for g in cardkit.GAMES:
        assert g in msg


@pytest.mark.parametrize("options,valid", [
    ({"colour": "red"}, ["players", "joker_vs_spiegel", "no_repeat"]),
    ({"player": 2}, ["players"]),
    ({"players": 3}, ["2, 4"]),
    ({"players": "2"}, ["2, 4"]),             # wrong type
    ({"players": 2.0}, ["2, 4"]),             # wrong type that compares equal
    ({"players": True}, ["2, 4"]),            # a bool is not a player count
    ({"joker_completes_seven": 1}, ["False, True"]),
    ({"joker_completes_seven": "yes"}, ["False, True"]),
    ({"review_tricks": "False"}, ["False, True"]),
    ({"spiegel_scoring": True}, ["'copy', 'zero'"]),   # bool vs str
    ({"spiegel_scoring": "Copy"}, ["'copy', 'zero'"]),
    ({"no_repeat": None}, ["'off', 'consecutive', 'own_leads'"]),
])
def test_bad_options(options, valid):
    with pytest.raises(OptionError) as e:
        cardkit.load_game("magische7", **options)
    assert isinstance(e.value, CardkitError)
    for v in valid:
        assert v in str(e.value)


def test_options_defaults_and_repr():
    game = cardkit.load_game("magische7", players=4, spiegel_scoring="zero")
    assert game.num_players == 4
    assert game.options["spiegel_scoring"] == "zero"
    assert set(game.options) == {o.name for o in game.option_specs}
    assert all(game.options[o.name] == o.default for o in game.option_specs
               if o.name not in ("players", "spiegel_scoring"))
    assert repr(game) == "load_game('magische7', players=4, spiegel_scoring='zero')"
    for o in game.option_specs:                   # every default is itself a valid value
        assert o.check(o.default) == o.default
        assert o.rule


# ================================================================================================
# The game protocol, through Die Magische 7
# ================================================================================================
PLAYERS = [2, 4]


def m7(players=2, **options):
    return cardkit.load_game("magische7", players=players, **options)


def play(state, rnd: random.Random, steps: int | None = None, until=None):
    """Random legal actions: `steps` of them, or until `until(state)` or the end."""
    n = 0
    while not state.is_terminal() and (steps is None or n < steps) and not (until and until(state)):
        state.apply(rnd.choice(state.legal_actions()))
        n += 1
    return state


def all_cards(state) -> Counter:
    return (Counter(c for h in state.hands for c in h) + Counter(state.stock) + Counter(state.trick)
            + Counter(c for w in state.won for t in w for c in t[:2]))


@pytest.mark.parametrize("players", PLAYERS)
def test_new_state_from_seed_is_deterministic(players):
    game = m7(players)
    a, b, c = game.new_state(seed=5), game.new_state(seed=5), game.new_state(seed=6)
    assert a == b and a.snapshot() == b.snapshot()
    assert a.history[0] != c.history[0]
    assert isinstance(a.history[0], Deal) and a.seed == 5
    assert a.current_player == 0 and not a.is_chance() and not a.is_terminal()
    assert a.legal_actions()
    # dealt: every player holds a Joker and six cards
    assert all(len(h) == 7 and h.count(MAGISCHE7.parse("Joker")) >= 1 for h in a.hands)
    assert all_cards(a) == Counter(game.full_deck() + [MAGISCHE7.parse("Joker")] * players)
    r1, r2 = random.Random(1), random.Random(1)
    assert play(a, r1) == play(b, r2)
    assert game.new_state().seed is not None    # no seed and no deal: a seed is drawn and kept


@pytest.mark.parametrize("players", PLAYERS)
def test_new_state_from_stacked_deal(players):
    game = m7(players)
    if players == 2:
        hands = [["1", "2", "3", "4", "5", "Spiegel"], ["-1", "-2", "-3", "-4", "-5", "Kreuz"]]
        stock = "13 12"
    else:
        hands = [["1", "2", "3", "4", "5", "6"], ["-1", "-2", "-3", "-4", "-5", "-6"],
                 ["7", "8", "9", "10", "11", "12"], ["Spiegel", "Kreuz", "0", "13", "Spiegel", "Kreuz"]]
        stock = "13 12 0 1"
    text = game.stack(hands, stock)
    assert text.startswith("deal: ")
    joker = MAGISCHE7.parse("Joker")
    for deal in (text, text[6:], [text], MAGISCHE7.parse_many(text[6:]), Deal(MAGISCHE7.parse_many(text[6:]))):
        s = game.new_state(deal=deal)
        assert s.seed is None and s.history[0].text == text
        for p in range(players):
            assert Counter(s.hands[p]) == Counter(MAGISCHE7.parse_many(hands[p]) + [joker])
    s = game.new_state(deal=text)
    # the stock is drawn top first: the first trick's two players draw the first two stock cards
    before = Counter(c for h in s.hands for c in h)
    play(s, random.Random(0), until=lambda st: sum(map(len, st.won)) == 1)
    drawn = Counter(c for h in s.hands for c in h) - before
    assert drawn == Counter(MAGISCHE7.parse_many(stock)[:2])
    assert s.to_record().actions[0] == text


def test_seed_and_deal_together_is_an_error():
    game = m7()
    with pytest.raises(CardkitError):
        game.new_state(seed=1, deal=GOLDEN_DEAL_2P_SEED1)


@pytest.mark.parametrize("players", PLAYERS)
def test_deal_must_be_a_permutation(players):
    game = m7(players)
    good = [c.text for c in game.full_deck()]
    bad_deals = {
        "one short": good[:-1],
        "one extra": good + ["13"],
        "a duplicate instead of a card": good[:-1] + [good[0]],
        "a Joker (dealt separately)": good[:-1] + ["Joker"],
        "the wrong number of packs": good * 2 if players == 2 else good[: len(good) // 2],
    }
    for why, cards in bad_deals.items():
        with pytest.raises(IllegalActionError) as e:
            game.new_state(deal=MAGISCHE7.parse_many(cards))
        assert e.value.rule == "deal", why
        blank = game.blank_state()
        before = blank.snapshot()
        with pytest.raises(IllegalActionError):
            game.new_state(deal=" ".join(cards))
        for attempt in (lambda: blank.deal(cards), lambda: blank.apply(Deal(MAGISCHE7.parse_many(cards))),
                        lambda: blank.apply("deal: " + " ".join(cards))):
            with pytest.raises(IllegalActionError):
                attempt()
            assert blank.snapshot() == before and blank.history == [] and blank.is_chance(), why
    with pytest.raises(CardkitError):
        game.new_state(deal="13 not-a-card")
    blank = game.blank_state()
    blank.deal(good)                               # the blank state still takes a good deal
    assert blank.current_player == 0


@pytest.mark.parametrize("players", PLAYERS)
def test_apply_by_object_and_by_text(players):
    game = m7(players)
    a, b, c = game.new_state(seed=11), game.new_state(seed=11), game.new_state(seed=11)
    rnd = random.Random(4)
    while not a.is_terminal():
        act = rnd.choice(a.legal_actions())
        assert isinstance(act, Action)
        a.apply(act)
        b.apply(act.text.upper())
        c.apply(f"  {act.label.lower()} ")
        assert a == b == c
    assert a.is_terminal() and a.current_player == TERMINAL


def test_apply_by_label_when_it_differs_from_the_text():
    s = m7(4).new_state(seed=1)
    legal = s.legal_actions()
    choose = [a for a in legal if a.label != a.text]
    assert choose, "4 players: the leader first chooses an opponent"
    t = s.clone()
    s.apply(choose[0].label.upper())
    t.apply(choose[0])
    assert s == t


@pytest.mark.parametrize("players", PLAYERS)
def test_illegal_action_changes_nothing(players):
    game = m7(players)
    s = play(game.new_state(seed=3), random.Random(3), steps=5)
    other = [c.text for c in MAGISCHE7 if c not in s.hands[s.current_player]]
    for bad in other + ["14", "nonsense", "", "deal: " + GOLDEN_DEAL_2P_SEED1[6:], "vs Nobody"]:
        before, n, legal = s.snapshot(), len(s.history), [a.text for a in s.legal_actions()]
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert isinstance(e.value.rule, str) and e.value.rule
        assert f"[rule {e.value.rule}]" in str(e.value)
        assert s.snapshot() == before and len(s.history) == n
        assert [a.text for a in s.legal_actions()] == legal


@pytest.mark.parametrize("game", list(cardkit.GAMES))
@pytest.mark.parametrize("bad", [None, 13, 3.5, ["13"], {"card": "13"}, object(), b"13"])
def test_non_action_input_is_an_error(game, bad):
    s = cardkit.load_game(game).new_state(seed=1)
    before = s.snapshot()
    with pytest.raises(IllegalActionError) as e:
        s.apply(bad)
    assert e.value.rule == "protocol"
    assert s.snapshot() == before


def test_playing_before_the_deal_is_an_error():
    blank = m7().blank_state()
    assert blank.current_player == CHANCE and blank.is_chance() and blank.legal_actions() == []
    with pytest.raises(IllegalActionError) as e:
        blank.apply("13")
    assert e.value.rule == "protocol" and blank.history == []


@pytest.mark.parametrize("players", PLAYERS)
def test_apply_after_the_end(players):
    s = play(m7(players).new_state(seed=8), random.Random(8))
    assert s.is_terminal() and s.legal_actions() == []
    before = s.snapshot()
    for bad in ("13", "Joker", "vs East"):
        with pytest.raises(IllegalActionError) as e:
            s.apply(bad)
        assert e.value.rule == "end"
    assert s.snapshot() == before
    with pytest.raises(IllegalActionError):
        s.deal(seed=1)
    assert s.winners() and set(s.winners()) <= set(range(players))


@pytest.mark.parametrize("players", PLAYERS)
def test_undo_step_by_step_back_to_the_deal(players):
    s = m7(players).new_state(seed=21)
    rnd, snaps = random.Random(21), []
    crossed_stock_end = False
    while not s.is_terminal():
        snaps.append(s.snapshot())
        had_stock = bool(s.stock)
        s.apply(rnd.choice(s.legal_actions()))
        if had_stock and not s.stock:
            crossed_stock_end = True
            # undo right across the point where the stock runs out, then redo
            after, last = s.snapshot(), s.history[-1].text
            s.undo()
            assert s.snapshot() == snaps[-1] and s.stock
            s.apply(last)
            assert s.snapshot() == after
    assert crossed_stock_end
    for before in reversed(snaps):
        s.undo()
        assert s.snapshot() == before
    # back at the first move: the deal is not undone
    assert len(s.history) == 1 and isinstance(s.history[0], Deal)
    with pytest.raises(CardkitError):
        s.undo()
    assert s.snapshot() == snaps[0]
    assert s == m7(players).new_state(seed=21)


def test_undo_first_move_and_without_player_action():
    game = m7()
    s = game.new_state(seed=4)
    before = s.snapshot()
    s.apply(s.legal_actions()[0])
    s.undo()
    assert s.snapshot() == before
    assert s.legal_actions() and s.current_player == 0
    for fresh in (game.new_state(seed=4), game.blank_state(), game.blank_state().deal(seed=4)):
        snap = fresh.snapshot()
        with pytest.raises(CardkitError):
            fresh.undo()
        assert fresh.snapshot() == snap


@pytest.mark.parametrize("players", PLAYERS)
def test_clone_is_equal_and_independent(players):
    s = play(m7(players).new_state(seed=9), random.Random(9), steps=9)
    c = s.clone()
    assert c == s and c.snapshot() == s.snapshot() and c is not s
    s_snap = s.snapshot()
    play(c, random.Random(1), steps=6)
    assert s.snapshot() == s_snap and c != s
    c2 = s.clone()
    c2_snap = c2.snapshot()
    play(s, random.Random(2), steps=6)
    assert c2.snapshot() == c2_snap
    d = copy.deepcopy(c2)
    assert d == c2 and d.snapshot() == c2.snapshot()
    play(d, random.Random(3))
    assert c2.snapshot() == c2_snap


def _states_along_a_game(game, seed):
    s = game.new_state(seed=seed)
    rnd = random.Random(seed)
    while True:
        yield s
        if s.is_terminal():
            return
        s.apply(rnd.choice(s.legal_actions()))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("review", [False, True])
def test_views_hide_other_hands(players, review):
    game = m7(players, review_tricks=review)
    full = Counter(game.full_deck() + [MAGISCHE7.parse("Joker")] * players)
    for s in _states_along_a_game(game, 30 + players):
        for p in range(players):
            v = s.view(p)
            assert v.viewer == p and len(v.seats) == players
            for q, seat in enumerate(v.seats):
                assert len(seat.hand) == len(s.hands[q])
                if q == p:
                    assert seat.hand == s.hands[q]
                else:
                    assert all(c is None for c in seat.hand)
            # no visible card can come from a hidden hand: each pile (and the viewer's hand) fits beside the
            # hidden hands (piles may overlap: the last trick is also among the won tricks)
            hidden = Counter(c for q in range(players) if q != p for c in s.hands[q])
            for shown in [v.seats[p].hand] + [[c for _, c in pile.cards] for pile in v.piles]:
                assert not Counter(c for c in shown if c is not None) - (full - hidden)
            assert set(v.cards_visible()) <= set(full)
            if s.current_player == p:
                assert [a.text for a in v.legal] == [a.text for a in s.legal_actions()]
            else:
                assert v.legal == []
        t = s.view(None)
        assert t.viewer is None
        assert [seat.hand for seat in t.seats] == [list(h) for h in s.hands]
        assert t.terminal == s.is_terminal()


def test_view_with_review_off_does_not_show_won_tricks_mid_game():
    s = play(m7(2, review_tricks=False).new_state(seed=5), random.Random(5), steps=6)
    assert sum(map(len, s.won)) == 3
    shown = Counter(s.view(0).cards_visible())
    in_view_anyway = Counter(s.hands[0]) + Counter(s.trick)
    if s.last_trick:
        in_view_anyway += Counter(s.last_trick[:2])
    assert shown == in_view_anyway


def test_deal_on_a_blank_state():
    game = m7()
    blank = game.blank_state()
    assert blank.is_chance() and blank.history == [] and blank.seed is None
    out = blank.deal(seed=77)
    assert out is blank and not blank.is_chance()
    assert blank.history[0] == game.new_state(seed=77).history[0]
    assert blank.history[0].text == "deal: " + " ".join(ref_shuffle(77, M7_PACK))
    with pytest.raises(IllegalActionError) as e:
        blank.deal(seed=1)
    assert e.value.rule == "protocol"
    stacked = game.blank_state().deal(GOLDEN_DEAL_2P_SEED1)
    assert stacked == game.new_state(seed=1)
    by_text = game.blank_state().apply(GOLDEN_DEAL_2P_SEED1)
    assert by_text == game.new_state(seed=1)
    # a blank state has no dealer: after an explicit deal, play goes on without auto-dealing
    play(stacked, random.Random(0))
    assert stacked.is_terminal()


# ================================================================================================
# Records
# ================================================================================================
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("upto", [0, 7, None])
def test_record_round_trip(players, upto, tmp_path):
    s = play(m7(players, spiegel_scoring="zero").new_state(seed=40), random.Random(40), steps=upto)
    rec = s.to_record(title="A test game")
    text = rec.dumps()
    data = json.loads(text)
    assert data["format"] == "cardkit-record" and data["version"] == 1 and data["game"] == "magische7"
    assert data["options"] == s.game.options and data["title"] == "A test game"
    assert data["actions"] == [a.text for a in s.history]
    back = Record.loads(text)
    assert back == rec and back.title == "A test game"
    final = back.final_state()
    assert final == s
    assert [a.text for a in final.history] == [a.text for a in s.history] and final.scores() == s.scores()
    rec.save(tmp_path / "g.json")
    assert Record.load(tmp_path / "g.json").final_state() == s

    steps = list(back.replay())
    assert [i for i, _, _ in steps] == list(range(len(back.actions)))
    assert [a.text for _, a, _ in steps] == back.actions
    states = back.states()
    assert len(states) == len(back.actions) + 1
    assert states[0].is_chance() and states[-1] == s
    for k, st in enumerate(states):
        assert len(st.history) == k
    lines = narration(back)
    assert len(lines) == len(back.actions)
    assert all(isinstance(x, str) and x and "\n" not in x for x in lines)


def test_replay_upto_and_own_narration():
    s = play(m7().new_state(seed=2), random.Random(2), steps=6)
    rec = s.to_record(narration={"2": "Look at this trick."})
    lines = narration(Record.loads(rec.dumps()))
    assert lines[2] == "Look at this trick." and lines[1] != "Look at this trick."
    states = [copy.deepcopy(st) for _, _, st in rec.replay(upto=3)]
    assert len(states) == 3 and len(states[-1].history) == 3


def _good_record() -> dict:
    s = play(m7().new_state(seed=6), random.Random(6), steps=10)
    return s.to_record().to_dict()


@pytest.mark.parametrize("text", ["", "not json", "{", "[1, 2]", "42", '"a string"', "null", None,
                                  "[" * 100_000 + "]" * 100_000, '{"a": ' * 5_000 + "1" + "}" * 5_000])
def test_malformed_record_text(text):
    with pytest.raises(RecordError):
        Record.loads(text)


@pytest.mark.parametrize("change", [
    {"format": "other"}, {"format": None}, {"version": 2}, {"version": "1"},
    {"game": None}, {"options": []}, {"actions": "13 -6"}, {"actions": [1, 2]}, {"actions": None},
    {"actions": ["13", None]},
])
def test_malformed_record_fields(change):
    data = {**_good_record(), **change}
    with pytest.raises(RecordError):
        Record.loads(json.dumps(data))


def test_missing_keys():
    for key in ("format", "version", "game", "actions"):
        data = _good_record()
        del data[key]
        with pytest.raises(RecordError):
            Record.from_dict(data)


@pytest.mark.parametrize("change,words", [
    ({"game": "nope"}, ["nope", "magische7"]),
    ({"options": {"players": 3}}, ["players", "2, 4"]),
    ({"options": {"colour": "red"}}, ["colour"]),
])
def test_record_with_bad_game_or_option(change, words):
    rec = Record.loads(json.dumps({**_good_record(), **change}))
    for replay in (rec.final_state, rec.states, lambda: narration(rec), lambda: list(rec.replay())):
        with pytest.raises(RecordError) as e:
            replay()
        for w in words:
            assert w in str(e.value)


@pytest.mark.parametrize("k", [1, 2, 5, 9])
def test_record_with_an_illegal_action_at_step_k(k):
    data = _good_record()
    rec = Record.from_dict(data)
    before_k = rec.states()[k]               # the state in which action k is taken
    not_held = next(c.text for c in MAGISCHE7 if c not in before_k.hands[before_k.current_player])
    data["actions"][k] = not_held
    bad = Record.from_dict(data)
    for replay in (bad.final_state, bad.states, lambda: narration(bad), lambda: list(bad.replay())):
        with pytest.raises(RecordError) as e:
            replay()
        assert e.value.step == k
        assert f"step {k}" in str(e.value) and repr(not_held) in str(e.value)


@pytest.mark.parametrize("corrupt", [
    lambda d: d.replace(" 13", " 12", 1),             # one card twice, another missing
    lambda d: d + " 5",                               # one card too many
    lambda d: d.rsplit(" ", 1)[0],                    # one card too few
    lambda d: d.replace(" 13", " fourteen", 1),       # not a card
])
def test_record_with_a_corrupted_deal(corrupt):
    data = _good_record()
    deal = data["actions"][0]
    assert deal.startswith("deal: ") and " 13" in deal and " 12" in deal
    data["actions"][0] = corrupt(deal)
    rec = Record.from_dict(data)
    with pytest.raises(RecordError) as e:
        rec.final_state()
    assert e.value.step == 0


def test_record_with_a_deal_in_the_middle():
    data = _good_record()
    data["actions"].insert(3, data["actions"][0])
    with pytest.raises(RecordError) as e:
        Record.from_dict(data).final_state()
    assert e.value.step == 3


def test_records_with_and_without_examples():
    assert example_names("no-such-game") == []
    for name in cardkit.GAMES:
        names = example_names(name)
        assert names == sorted(names)
        for ex in names:                            # there may be none yet
            rec = load_example(name, ex)
            assert rec.game == name
            final = rec.final_state()
            assert len(final.history) == len(rec.actions)
            assert len(narration(rec)) == len(rec.actions)
        assert len(cardkit.load_game(name).examples()) == len(names)
        with pytest.raises(CardkitError) as e:
            load_example(name, "no-such-example")
        assert "no-such-example" in str(e.value)
        for ex in names:
            assert ex in str(e.value)


# ================================================================================================
# Bad input to the protocol, for every registered game: a CardkitError naming what is wrong
# ================================================================================================
def _player_counts(name):
    """(options, number of players) for each player count the game offers."""
    spec = next((o for o in cardkit.game_class(name).option_specs if o.name == "players"), None)
    return [({"players": n}, n) for n in spec.choices] if spec else [({}, cardkit.load_game(name).num_players)]


@pytest.mark.parametrize("name", list(cardkit.GAMES))
@pytest.mark.parametrize("bad", ["abc", "7", 1.5, 2.0, True, False, b"1", [1], object()])
def test_a_seed_must_be_an_integer(name, bad):
    game = cardkit.load_game(name)
    with pytest.raises(CardkitError) as e:
        game.new_state(seed=bad)
    assert "seed" in str(e.value) and repr(bad) in str(e.value)
    blank = game.blank_state()
    with pytest.raises(CardkitError) as e:
        blank.deal(seed=bad)
    assert "seed" in str(e.value) and blank.history == [] and blank.is_chance()


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_any_integer_seed_is_taken_modulo_2_64(name):
    """The RNG takes any int (SplitMix64 state is 64 bits): a negative or huge seed is a seed like any other."""
    game = cardkit.load_game(name)
    assert game.new_state(seed=-1) == game.new_state(seed=2 ** 64 - 1)
    assert game.new_state(seed=2 ** 64 + 5) == game.new_state(seed=5)


@pytest.mark.parametrize("name", list(cardkit.GAMES))
@pytest.mark.parametrize("bad", [12345, 1.5, [], (), {}, {"a": 1}, [1, 2], [None], b"13",
                                 {"13", "-6"}, [["13"], 5]])
def test_a_deal_that_is_not_a_deal(name, bad):
    game = cardkit.load_game(name)
    with pytest.raises(CardkitError) as e:
        game.new_state(deal=bad)
    assert "deal" in str(e.value)


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_every_stacked_deal_is_checked_when_the_state_is_made(name):
    """A bad deal for a later round fails at once, not in the middle of the game (leaving a broken state)."""
    game = cardkit.load_game(name)
    good = game.new_state(seed=1).history[0].text
    for bad in ("deal: " + good.split()[1], good + " " + good.split()[1], good.rsplit(" ", 1)[0]):
        with pytest.raises(IllegalActionError) as e:
            game.new_state(deal=[good, bad])
        assert e.value.rule == "deal"
    assert game.new_state(deal=[good, good]).history[0].text == good


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_the_standing_is_a_score_per_seat_and_the_scores_once_the_game_is_over(name):
    """``State.standing`` (the scores with the progress toward them the scores do not show yet, by which
    the expert values its playouts): one number a seat at every point of the game, partners alike, and at
    the end the final scores themselves."""
    for options, n in _player_counts(name):
        game = cardkit.load_game(name, **options)
        rng = Rng(5)
        s = game.new_state(seed=5)
        while not s.is_terminal():
            st = s.standing()
            assert len(st) == n and all(isinstance(x, (int, float)) for x in st)
            assert all(st[p] == st[side[0]] for side in game.sides() for p in side)
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
        assert s.standing() == s.scores()


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_view_only_from_a_seat_or_as_the_teacher(name):
    for options, n in _player_counts(name):
        game = cardkit.load_game(name, **options)
        names = game.player_names()
        s = game.new_state(seed=3)
        assert s.view(None).viewer is None
        for p in range(n):
            assert s.view(p).viewer == p
        for bad in (n, n + 1, 5, -1, -n, True, False, "x", "0", 1.0, 0.0, [0]):
            with pytest.raises(CardkitError) as e:
                s.view(bad)
            msg = str(e.value)
            assert repr(bad) in msg and "None" in msg, msg
            for p in range(n):
                assert f"{p} ({names[p]})" in msg, msg


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_an_unknown_option_name(name):
    game = cardkit.load_game(name)
    for o in game.option_specs:
        assert game.option(o.name) is o
    for bad in ("nope", "", None, 3):
        with pytest.raises(OptionError) as e:
            game.option(bad)
        assert repr(bad) in str(e.value)
        for o in game.option_specs:
            assert o.name in str(e.value)


@pytest.mark.parametrize("name", list(cardkit.GAMES))
@pytest.mark.parametrize("bad", [5, None, 1.5, {"a": 1}])
def test_stack_needs_a_list_of_hands(name, bad):
    with pytest.raises(CardkitError):
        cardkit.load_game(name).stack(bad)


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_cards_must_be_a_text_or_a_list(name):
    deck = cardkit.load_game(name).deck
    for bad in (5, None, 1.5, {"a": 1}, b"13"):
        with pytest.raises(CardError):
            deck.parse_many(bad)
    blank = cardkit.load_game(name).blank_state()
    with pytest.raises(CardkitError):
        blank.deal(12345)
    assert blank.history == [] and blank.is_chance()


@pytest.mark.parametrize("bad", [123, None, "", "..", "../rules", "magische7/../sieben"])
def test_examples_of_something_that_is_not_a_game(bad):
    assert example_names(bad) == []
    with pytest.raises(CardkitError):
        load_example(bad, "pair-beats")


@pytest.mark.parametrize("change,word", [
    ({"narration": [1]}, "narration"), ({"narration": "x"}, "narration"), ({"narration": None}, "narration"),
    ({"narration": {"1": 5}}, "string"), ({"narration": {"1": None}}, "string"), ({"narration": {"x": "a"}}, "'x'"),
    ({"narration": {"-1": "a"}}, "'-1'"), ({"narration": {"01": "a"}}, "'01'"), ({"narration": {"999": "a"}}, "'999'"),
    ({"narration": {" 1": "a"}}, "' 1'"),
    ({"title": 5}, "title"), ({"title": None}, "title"), ({"description": ["a"]}, "description"),
    ({"rule": 4}, "rule"),
])
def test_record_metadata_that_later_code_relies_on(change, word):
    data = {**_good_record(), **change}
    for load in (lambda: Record.loads(json.dumps(data)), lambda: Record.from_dict(data)):
        with pytest.raises(RecordError) as e:
            load()
        assert word in str(e.value)
    state = play(m7().new_state(seed=6), random.Random(6), steps=10)
    with pytest.raises(RecordError):
        state.to_record(**change)


def test_record_metadata_that_is_fine():
    data = {**_good_record(), "narration": {"0": "dealt", "3": ""}, "title": "", "players": [1, 2], "extra": None}
    rec = Record.from_dict(data)
    assert narration(rec)[0] == "dealt" and rec.meta["extra"] is None


def test_record_option_names_must_be_strings():
    with pytest.raises(RecordError) as e:
        Record.from_dict({**_good_record(), "options": {1: 2}})
    assert "options" in str(e.value)


# ================================================================================================
# The `cardkit` command: bad arguments exit with status 2 and one line on stderr
# ================================================================================================
def _cli(capsys, *argv):
    from cardkit.cli import main
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_cli_play_from_a_seat_that_does_not_exist(name, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("no game should start"))
    for options, n in _player_counts(name):
        game = cardkit.load_game(name, **options)
        opts = [x for k, v in options.items() for x in ("-o", f"{k}={v}")]
        for seat in (n, n + 3, -1):
            code, out, err = _cli(capsys, "play", name, *opts, "--seat", str(seat))
            assert code == 2 and out == ""
            assert err.count("\n") == 1 and err.startswith("cardkit: "), err
            assert str(seat) in err
            for p, who in enumerate(game.player_names()):
                assert f"{p} ({who})" in err


@pytest.mark.parametrize("argv,words", [
    (["rules", "nosuchgame"], ["nosuchgame", *cardkit.GAMES]),
    (["play", "nosuchgame"], ["nosuchgame", *cardkit.GAMES]),
    (["play", "magische7", "-o", "players=9"], ["players", "2, 4"]),
    (["play", "sieben", "-o", "players=9"], ["players", "2, 3, 4"]),
    (["play", "sieben", "-o", "nope=1"], ["nope", "players"]),
    (["play", "sieben", "-o", "players"], ["NAME=VALUE"]),
    (["play", "sieben", "--bot", "nope"], ["nope", "random"]),
])
def test_cli_bad_arguments(argv, words, capsys):
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardkit: "), err
    for w in words:
        assert w in err


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_cli_play_from_the_last_seat_then_quit(name, capsys, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    for options, n in _player_counts(name):
        opts = [x for k, v in options.items() for x in ("-o", f"{k}={v}")]
        code, out, err = _cli(capsys, "play", name, *opts, "--seat", str(n - 1), "--seed", "4")
        assert code == 0 and err == "" and cardkit.load_game(name, **options).player_names()[n - 1] in out


def test_a_record_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "g.json"
    path.write_bytes(b'{"format": "cardkit-record", "title": "\xff\xfe"}')
    with pytest.raises(RecordError) as e:
        Record.load(path)
    assert "UTF-8" in str(e.value)


@pytest.mark.parametrize("upto", ["x", 1.5, True])
def test_replay_upto_must_be_a_number_of_actions(upto):
    rec = Record.from_dict(_good_record())
    with pytest.raises(RecordError, match="upto must be a number of actions"):
        list(rec.replay(upto=upto))
    assert [i for i, _, _ in rec.replay(upto=2)] == [0, 1]


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_an_unreadable_move_is_refused_with_a_rule_of_the_game(name):
    """A text that is no move of the game at all ("garbage") is refused, at every kind of decision a random
    game meets, with an error naming one of the game's own rules (its rulebook's IDs), not the protocol's,
    and nothing changes."""
    ids = set(cardkit.load_game(name).rulebook.ids())
    for options, _ in _player_counts(name):
        game = cardkit.load_game(name, **options)
        rng = Rng(11)
        s = game.new_state(seed=11)
        checked = set()
        while not s.is_terminal():
            legal = s.legal_actions()
            kind = (s.current_player, tuple(sorted({a.text.split()[0] for a in legal})))
            if kind not in checked:
                checked.add(kind)
                before = s.snapshot()
                for bad in ("garbage", "zz 9", "!"):
                    with pytest.raises(IllegalActionError) as e:
                        s.apply(bad)
                    assert e.value.rule in ids, (name, options, bad, e.value.rule, str(e.value))
                    assert s.snapshot() == before
            s.apply(legal[rng.below(len(legal))])
        assert len(checked) >= 2


@pytest.mark.parametrize("game", ["magische7", "sieben", "whist", "ecarte", "vierundzwanzig"])
def test_a_finished_trick_names_its_taker_in_the_public_view(game):
    """`Pile.taker`: the seat that took the last trick, as its note says ("won by …"); the expert's Hint reads
    it to say who takes a trick in its deals."""
    from cardkit.rng import Rng
    g = cardkit.load_game(game)
    rng, seen = Rng(11), 0
    for seed in range(5, 9):
        st = g.new_state(seed=seed)
        while not st.is_terminal() and seen < 30:
            legal = st.legal_actions()
            st.apply(legal[rng.below(len(legal))])
            last = [p for p in st.view(None).piles if p.kind == "last-trick"]
            for p in last:
                assert p.taker is not None and p.note.startswith(f"won by {g.player_names()[p.taker]}"), p.note
                seen += 1
    assert seen >= 30
