"""The game at the table as a pure-Python session (cardkit.table, issue 36): its moves, their events, what
each person is told, and the table's faults fixed on it — without a widget or a browser."""
import pytest

import cardkit
from cardkit import IllegalActionError
from cardkit.bots import RandomBot
from cardkit.events import narration, step
from cardkit.table import Refused, Table


def test_a_move_returns_what_happened_every_move_in_order():
    """`play` returns the events of the person's move and of every move the computer made after it: one per
    history entry, in order, the person's first, each narrated as the log tells it."""
    table = Table("sieben", seed=3)
    s = table.state
    n = len(s.history)
    first = s.legal_actions()[0]
    events = table.play(first.text)
    assert [e.index for e in events] == list(range(n, len(s.history)))
    assert events[0].seat == 0 and events[0].action.text == first.text
    assert all(e.seat != 0 for e in events[1:])
    told = [line for _, line in table.my_notes.since]
    assert told == [part for e in events for part in e.text(0).split("\n")]


def test_refused_and_illegal_moves_change_nothing():
    table = Table("sieben", players=3, seed=2, people=[0, 1])
    s = table.state
    before = list(s.history)
    assert table.covered
    with pytest.raises(Refused, match="show my cards"):
        table.play(s.legal_actions()[0])
    table.ready()
    me = table.human
    hand = s.view(me).seats[me].hand
    wrong = next((c for c in hand if c not in {a.card for a in s.legal_actions()}), None)
    if wrong is not None:
        with pytest.raises(IllegalActionError) as e:
            table.play(wrong.text)
        assert e.value.rule
    with pytest.raises(IllegalActionError):
        table.play("no such move")
    assert list(s.history) == before and not table.covered


def test_vingt_et_un_a_moment_withholds_the_next_coup_from_the_log_too():
    """Issue 36: "Coup 1 is over · See coup 2 ▸" was on screen while the game log already listed all of coup 2
    and the stakes of coup 3. While the end of a round waits to be looked at, the log shows nothing after
    the move that ended it; going on shows the rest."""
    table = Table("vingt_et_un", seed=3)
    bot, checked = RandomBot(4), 0
    while not table.state.is_terminal() and checked < 5:
        if table.moments():
            m = table.moments()[0]
            shown, full = table.log(), table.my_notes.log
            assert all(k <= m["index"] for k, *_ in shown)
            assert any(k > m["index"] for k, *_ in full), "the next round had begun in the full log"
            assert not any(m["coming"] in line for *_, line in shown if not line.startswith(m["ended"]))
            while table.moments():
                table.next_round()
            assert table.log() == table.my_notes.log
            checked += 1
        table.play(bot.choose(table.state))
    assert checked >= 3


def test_the_play_table_log_withholds_what_its_moment_withholds():
    """The same at the widget: the log's HTML under "Coup 1 is over" does not name coup 2."""
    import widgets
    table = widgets.PlayTable("vingt_et_un", seed=3)
    bot = RandomBot(4)
    while not table._moments:
        table.play(bot.choose(table.state))
    m = table._moments[0]
    assert f"{m['ended']} is over" in table._table.value
    assert m["coming"] not in table._log.value.replace(f"{m['ended']}:", "")
    table.next_round()
    while table._moments:
        table.next_round()
    assert m["coming"] in table._log.value


def test_a_resumed_table_deals_nothing_first(monkeypatch, tmp_path):
    """Issue 36: a resumed table first sent a throwaway random deal (133 of 147 frames) before the real game.
    `Play.resume` builds the table on the kept game: no new game is dealt on the way."""
    from widgets.play import Play
    monkeypatch.setenv("CARDKIT_TABLES", str(tmp_path))
    monkeypatch.setenv("HTTP_X_CARDKIT_VISITOR", "d" * 64)
    table = Play("ecarte", seed=5).start()
    bot = RandomBot(1)
    for _ in range(5):
        table.play(bot.choose(table.state))
    kept_state = table.state

    def no_deal(self, *a, **k):
        raise AssertionError("a resumed table dealt a new game")
    monkeypatch.setattr(Table, "new_game", no_deal)
    resumed = Play("ecarte").resume()
    assert resumed.state == kept_state and resumed._entries == table._entries


def test_load_narrates_as_the_table_told_it():
    """A table loaded from a state tells each person the game as a table that played it did: the same log,
    the same lines since his last move, and no end of a round where a table would show none (the first deal
    is no round's end)."""
    table = Table("whist", seed=5)
    bot = RandomBot(9)
    for i in range(40):
        other = Table("whist", deal=False)
        other.load(table.state)
        assert other.my_notes.log == table.my_notes.log, i
        assert other.since() == table.since(), i
        assert [m["index"] for m in other.moments()] == [m["index"] for m in table.moments()], i
        table.play(bot.choose(table.state))


def test_the_terminal_and_the_page_share_the_session(monkeypatch, capsys):
    """`cardkit play` is the same session: what it prints after a move is what the table tells that seat."""
    from cardkit.cli import main
    first = Table("sieben", seed=3).state.legal_actions()[0].text
    answers = iter([first, "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert main(["play", "sieben", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    table = Table("sieben", seed=3)
    table.play(first)
    for line in table.since():
        assert "  " + line in out


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_step_tells_each_move_once_as_the_record_does(game):
    """`cardkit.events.step` is the one loop that applies and narrates: a record's narration is its events'
    words, and the deals a move set off come as events of their own after it."""
    s = cardkit.load_game(game).new_state(seed=1)
    bot = RandomBot(2)
    start = len(s.history)                       # the first deal, made with the state
    words = []
    while not s.is_terminal() and len(s.history) < 80:
        n = len(s.history)
        events = step(s, bot.choose(s))
        assert [e.index for e in events] == list(range(n, len(s.history)))
        assert events[0].seat >= 0 and all(e.is_deal for e in events[1:])
        words += [e.text() for e in events]
    assert narration(s.to_record())[start:] == words


def test_the_review_is_read_out_when_it_is_ready():
    """Issue 35: the review was not read out. Its finding, in one sentence, sits in a part the page's live region
    reads (`ck-live`), hidden from the eye (the review below says it at length)."""
    import re

    import widgets
    table = widgets.PlayTable("ecarte", seed=6)
    bot = RandomBot(5)
    while not table.state.is_terminal():
        while table._moments:
            table.next_round()
        table.play(bot.choose(table.state))
    found = table.review(playouts=4)
    live = re.findall(r"<span class='ck-live'[^>]*>([^<]*)</span>", table._review_out.value)
    assert len(live) == 1 and live[0].startswith("The review is ready: the expert looked at your")
    assert (f"differently at {len(found)} move" in live[0]) if found else "agrees with every one" in live[0]


def test_a_finished_game_opens_as_a_worked_example():
    """Issue 37: "Make this an example" after a game — the end of the game offers a link to it as a worked
    example (the record in the page's address, `cardkit.share`); the link gives back the whole game. Not
    before the end: a game in progress holds cards the player has not seen."""
    import re

    import widgets
    from cardkit.share import from_link
    table = widgets.PlayTable("ecarte", seed=6)
    bot = RandomBot(5)
    while not table.state.is_terminal():
        assert "ck-example-link" not in table._log.value
        while table._moments:
            table.next_round()
        table.play(bot.choose(table.state))
    href = re.search(r"class='ck-example-link' href='#([^']+)'", table._log.value).group(1)
    record, _ = from_link(href)
    assert record.actions == table.state.to_record().actions


def test_the_hint_goes_with_the_move_before_the_computer_replies():
    """Found by comparing the table's frames before and after the move to the session (issue 36): the Hint (or
    any note) of the position before a move stayed on the page while the computer played its replies, and went
    only with the table after them; before the session it went with the move, as it does again."""
    import widgets
    table = widgets.PlayTable("sieben", seed=7)
    frames, refresh = [], table._refresh

    def shown(*a, **k):
        refresh(*a, **k)
        frames.append((k.get("thinking", False), table._msg.value))
    table._refresh = shown
    for _ in range(3):
        table.hint(playouts=4)
        assert "ck-hint" in table._msg.value
        frames.clear()
        table.play(table.state.legal_actions()[0])
        assert frames and frames[0][0], "the table was shown before the computer's replies"
        assert all(msg == "" for _, msg in frames)


def test_the_review_read_out_says_one_close_call_in_the_singular():
    """One close call among the moves the expert would have played differently is 'one of them a close call'
    in the sentence read out, not '1 of them close calls' (seen comparing the table's frames, issue 36)."""
    import re

    import widgets
    table = widgets.PlayTable("magische7", seed=5)
    bot = RandomBot(5)
    while not table.state.is_terminal():
        while table._moments:
            table.next_round()
        table.play(bot.choose(table.state))
    seen = []
    for playouts in (4, 6, 8, 12, 16):
        found = table.review(playouts=playouts)
        live = re.findall(r"<span class='ck-live'[^>]*>([^<]*)</span>", table._review_out.value)[0]
        assert "1 of them" not in live
        seen.append(sum(f["close"] for f in found))
        if 1 in seen:
            assert "one of them a close call." in live
            break
    assert 1 in seen, f"no review with one close call to check: {seen}"


def test_the_log_withholds_nothing_once_the_game_is_over():
    """Found comparing the table's frames before and after the move to the session (issue 36): in Vingt-et-un the
    last coup, which the person banks without a decision, was played out after 'Coup 9 is over'; the game ended
    with that moment unseen, the table showed the end (no moment is shown then) and the game log lacked all of
    coup 10. Once the game is over the log holds every move."""
    table = Table("vingt_et_un", seed=3)
    while not table.state.is_terminal():
        while table.moments() and not table.state.is_terminal():
            table.next_round()
        if not table.state.is_terminal():
            table.play(table.state.legal_actions()[0].text)
    assert table.moments(), "the game should end with a moment unseen (seed 3)"
    assert [e[0] for e in table.log()] == [e[0] for e in table.my_notes.log]
    assert any(r == "Coup 10" for _, r, _, _ in table.log())


@pytest.mark.parametrize("game", ["ecarte", "whist", "vingt_et_un", "vierundzwanzig"])
def test_the_hint_worked_out_in_steps_is_the_hint_at_the_fixed_playouts(game):
    """`Table.hint_work` (the expert's part of the static site's Hint, worked out while the visitor thinks)
    stops after each of the expert's samples, and ends with the estimates `hint` gives at the game's fixed
    playouts."""
    from cardkit.bots import fixed_playouts
    table = Table(game, seed=5)
    bot = RandomBot(2)
    while len(table.state.legal_actions()) < 2 or table.state.current_player != table.human:
        table.play(bot.choose(table.state).text)
    s = table.state
    expected = table.hint(s, fixed_playouts(game))
    work = table.hint_work(s)
    steps = 0
    while not work.step():
        steps += 1
    assert steps >= 2                                   # a sample at a time
    assert [(e.text, e.mean, e.samples, e.facts) for e in work.result] == \
        [(e.text, e.mean, e.samples, e.facts) for e in expected[0]]
    assert work.finish() is work.result
