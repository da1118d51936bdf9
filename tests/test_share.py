"""A reader's own example (issue 37): a hand laid out by the reader, and a record packed into a link
(cardkit/share.py) — round trips, the length of a link for each game, refusals in one line."""
import pytest
from hypothesis import given, settings, strategies as st

import cardkit
from cardkit.bots import RandomBot
from cardkit.share import ShareError, deal_from_hands, from_link, to_link


def played(game, steps=None, seed=2, **options):
    s = cardkit.load_game(game, **options).new_state(seed=seed)
    bot = RandomBot(seed)
    while not s.is_terminal() and (steps is None or len(s.history) < steps):
        s.apply(bot.choose(s))
    return s


def option_cases():
    for name in cardkit.GAMES:
        yield name, {}
        for o in cardkit.game_class(name).option_specs:
            for v in (o.choices or ())[:4]:
                if v != o.default:
                    yield name, {o.name: v}


@pytest.mark.parametrize("game,options", list(option_cases()), ids=lambda x: str(x))
def test_a_link_gives_back_the_record_under_every_option(game, options):
    s = played(game, steps=120, **options)
    record = s.to_record()
    again, step = from_link(to_link(record, step=7))
    assert (again.game, again.options, again.actions, step) == (record.game, record.options, record.actions, 7)
    assert again.final_state() == s


# the length of a link to a whole game, a round of it where a game is long (a chat message: ~500 characters)
LONGEST = {"magische7": 80, "sieben": 120, "whist": 200, "ecarte": 200, "vierundzwanzig": 200,
           "vingt_et_un": 120, "bakkarat": 120, "faro": 300}


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_a_hand_fits_a_chat_message(game):
    """The first round of a game (to the first end of a round, or the game's end) in a link: its length in
    characters stays under the figure for each game in LONGEST."""
    s = cardkit.load_game(game).new_state(seed=5)
    bot = RandomBot(5)
    level = s.game.moment_level
    first = s.progress()[level]
    while not s.is_terminal() and s.progress()[level] == first:
        s.apply(bot.choose(s))
    link = to_link(s.to_record())
    assert len(link) <= LONGEST[game], (game, len(link))


@pytest.mark.parametrize("text,words", [
    ("example=v1~sieben~~~!!", "damaged"),
    ("example=v2~sieben~~~", "another version"),
    ("hello", "not a link"),
    ("example=v1~nosuch~~~", "no game"),
    ("example=v1~sieben~players=9~~", "options"),
    ("example=v1~sieben~x=1;rm~~", "damaged"),
    ("example=v1~sieben~~3~AA", "step 3"),                 # no moves, opened at step 3
    ("example=v1~sieben~~~", "damaged"),
    ("example=v1~sieben~~~" + "_" * 7000, "too long"),
    ("example=v1~sieben~~~AAE", "damaged"),          # more written than the moves use
])
def test_a_bad_link_is_one_plain_line(text, words):
    with pytest.raises(ShareError) as e:
        from_link(text)
    assert words in str(e.value) and "\n" not in str(e.value)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_damaged_link_is_refused_or_replays_never_crashes(data):
    link = to_link(played("ecarte", steps=40).to_record())
    i = data.draw(st.integers(0, len(link) - 1))
    junk = data.draw(st.text(alphabet="AZaz09-_~=,.#%x", min_size=0, max_size=4))
    text = link[:i] + junk + link[i + data.draw(st.integers(0, 3)):]
    try:
        record, _ = from_link(text)
    except ShareError as e:
        assert "\n" not in str(e)
    else:
        record.final_state()                         # what it decodes to is a legal game


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_the_cards_laid_out_are_in_the_hands(game):
    """Each seat's cards (as many as the deal gives it, fewer placed) end up in its hand, the rest at random."""
    g = cardkit.load_game(game)
    probe = deal_from_hands(game, {}, seed=1).final_state()
    owners = probe.deal_owners()
    deck = [c for c in g.full_deck()]
    hands, used = {}, set()
    for p in range(g.num_players):
        room = sum(1 for o in owners if o == p)
        take = [c for c in deck if c.text not in used][:min(room, 3)]
        used |= {c.text for c in take}
        if take:
            hands[p] = " ".join(c.text for c in take)
    record = deal_from_hands(game, hands, seed=3)
    s = record.final_state()
    deal = s.history[-1]
    got = {p: [c.text for c, o in zip(deal.cards, s.deal_owners()) if o == p] for p in hands}
    for p, text in hands.items():
        assert got[p][:len(text.split())] == text.split()
    assert from_link(to_link(record))[0].actions == record.actions


@pytest.mark.parametrize("hands,words", [
    ({0: "7H 7H"}, "placed 2 times"),
    ({0: "7H 8H 9H 10H JH"}, "5 cards"),
    ({0: "2C"}, "not a card of the pack of Sieben"),
    ({7: "7H"}, "no seat 7"),
    ({0: "7H", 1: "7H"}, "placed 2 times"),
])
def test_an_impossible_deal_names_the_rule(hands, words):
    with pytest.raises(ShareError) as e:
        deal_from_hands("sieben", hands, seed=1)
    text = str(e.value)
    assert words in text and "\n" not in text and ("rule S7-" in text or "seat" in text or "pack" in text)


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_a_puzzle_shows_only_what_its_player_has_seen(game):
    """A shared example opened as a question ("You are Berta. What do you play?"): the scene holds only cards
    the player to move has seen; the expert's choice is a right answer; marking it works as in Test yourself;
    the link says it is a puzzle and comes back as one."""
    from cardkit.exercises import mark
    from cardkit.share import puzzle_question, read_link
    s = played(game, steps=60, seed=4)
    record = s.to_record()
    state = record.load_game().blank_state()
    step = None
    for k, text in enumerate(record.actions):
        if state.current_player >= 0 and len(state.legal_actions()) > 1 and k > 5:
            step = k
            break
        state.apply(text)
    assert step is not None
    again, at, puzzle = read_link(to_link(record, step, puzzle=True))
    assert puzzle and at == step and again.actions == record.actions
    q = puzzle_question(again, at, playouts=24)
    seat = state.current_player
    seen = {c.text for c in state.view(seat).cards_visible()}
    assert {c.text for c in q.scene.cards()} <= seen
    assert q.viewer == seat and q.prompt.startswith(f"You are {state.game.player_names()[seat]}.")
    assert mark(q, next(iter(q.answer))).right
    wrong = [c.key for c in q.choices if c.key not in q.answer]
    if wrong:
        assert not mark(q, wrong[0]).right


def test_a_puzzle_where_nobody_chooses_is_refused():
    record = played("sieben", steps=10).to_record()
    with pytest.raises(ShareError, match="nobody chooses"):
        from_link(to_link(record, 0, puzzle=True))          # the deal: nobody chooses
