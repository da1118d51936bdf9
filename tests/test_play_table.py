"""The play table as a player and a teacher expect it (in the kernel; tests/test_play_page.py drives the
same in the browser): what happened since your move, the log by round and trick, the review with the
record to download, questions before a game is thrown away, options in plain words, hints, marks."""
from __future__ import annotations

import base64
import re

import pytest

import cardkit
import widgets
from cardkit.bots import RandomBot
from test_hidden import CONFIGS
from test_widgets import synced_text


def finish(table, seed=1):
    bot = RandomBot(seed)
    while not table.state.is_terminal():
        assert table.play(bot.choose(table.state))


def test_every_trick_the_bots_played_since_your_move_is_on_the_table():
    """With four players one click sets off several bot moves (in Magische 7 whole tricks): each trick
    completed since the human's move is shown with who played what and who took it, with the rule."""
    table = widgets.PlayTable("magische7", players=4, seed=3)
    bot = RandomBot(2)
    seen_several = False
    for _ in range(12):
        if table.state.is_terminal():
            break
        before = table.state.tricks_played
        table.play(bot.choose(table.state))
        done = table.state.tricks_played - before
        assert len(table._recent) == done
        for title, pile in table._recent:
            assert title.startswith("Trick ") and pile.note.startswith("won by ") and re.search(r"\[M7-[\d.]+\]", pile.note)
        if done >= 2:
            seen_several = True
            assert table._table.value.count("won by ") >= done and "Since your last move" in table._table.value
    assert seen_several


def test_what_happened_lists_every_move_since_yours_in_a_live_region():
    table = widgets.PlayTable("sieben", players=4, seed=2)
    bot = RandomBot(5)
    length = len(table.state.history)
    table.play(bot.choose(table.state))
    moves = len(table.state.history) - length
    html = table._table.value
    live = html[html.index("ck-live"):]
    assert "aria-live='polite'" in html and live.count("<li>") >= moves


def test_the_log_keeps_the_whole_game_by_round_and_trick():
    table = widgets.PlayTable("sieben", seed=4, match="game")
    finish(table)
    log = table._log.value
    rounds = len(table.state.rounds)
    assert rounds >= 2
    for r in range(1, rounds + 1):
        assert f"<h4>Round {r}</h4>" in log
    actions = [a for a in table.state.history]
    assert log.count("<li>") == len(actions)           # every move and every deal, none dropped
    assert "Trick 1" in log and "<ol class='ck-log'>" in log


def test_the_review_gives_the_score_table_and_a_record_that_replays():
    table = widgets.PlayTable("sieben", seed=6)
    finish(table)
    now = table._log.value
    assert "ck-review" in now and "Round 1" in now and "game points" in now
    data = re.search(r"href='data:application/json;base64,([^']+)'", now).group(1)
    record = cardkit.Record.loads(base64.b64decode(data).decode())
    assert record.final_state() == table.state
    replay = widgets.Replay(record)                      # the replay widget reads it as it is
    replay.go(replay._slider.max)
    assert replay.state == table.state


def test_no_record_is_offered_before_the_end():
    table = widgets.PlayTable("sieben", seed=6)
    table.play(RandomBot(1).choose(table.state))
    assert "data:application/json" not in synced_text(table)


@pytest.mark.parametrize("game,opts", CONFIGS)
def test_the_result_says_won_or_lost_in_its_colour(game, opts):
    table = widgets.PlayTable(game, seed=3, **opts)
    finish(table)
    outcome = table.outcome()
    winners = table.state.winners()
    assert outcome == ("draw" if len(winners) == table.game.num_players else "won" if 0 in winners else "lost")
    assert f"ck-result ck-{outcome}" in table._table.value


def test_new_game_asks_first_while_a_game_is_under_way():
    table = widgets.PlayTable("magische7", seed=1)
    table.ask_new_game()                     # nothing played yet: no question
    assert table._confirm is None and len(table.state.history) >= 1     # built only when a question comes
    table.play(RandomBot(1).choose(table.state))
    before = table.state.snapshot()
    table.ask_new_game()
    assert "will be lost" in table._question.value
    table._no.click()                        # Keep playing
    assert table.state.snapshot() == before and table._confirm.children == ()
    table.ask_new_game()
    table._yes.click()
    assert table.state.snapshot() != before and not table.in_progress()


def test_changing_the_player_count_asks_first_and_can_be_taken_back():
    table = widgets.PlayTable("sieben", seed=1)
    table.play(RandomBot(1).choose(table.state))
    before = table.state.snapshot()
    table._players.value = 4
    assert "4 players" in table._question.value and table.game.num_players == 2
    table._no.click()
    assert table._players.value == 2 and table.state.snapshot() == before
    table._players.value = 3
    table._yes.click()
    assert table.game.num_players == 3 and "A new game with 3 players." in table._table.value


def test_options_read_in_plain_words_link_their_rules_and_apply_to_the_next_game():
    table = widgets.PlayTable("magische7", seed=1)
    table.show_options()
    text = synced_text(table._settings)
    for o in cardkit.game_class("magische7").option_specs:
        if o.name == "players":
            continue
        assert o.name not in text                     # no code name reaches the page
        assert f"href='#{o.rule}'" in text
    assert "True" not in text and "False" not in text
    assert "apply from the next game" in text
    table.play(RandomBot(1).choose(table.state))
    table._controls["spiegel_scoring"].value = "zero"
    assert "next game" in table._msg.value and table.game.options["spiegel_scoring"] == "copy"
    table.new_game()
    assert table.game.options["spiegel_scoring"] == "zero"


def test_errors_use_the_words_of_the_buttons():
    table = widgets.PlayTable("magische7", players=4, seed=5)
    assert table.state.current_player == 0 and table.state.choosing
    table._click_card(0)
    assert "play against East" in table._msg.value and "'vs " not in table._msg.value


def test_a_hint_names_what_each_card_would_do_and_the_rule_against_the_others():
    table = widgets.PlayTable("sieben", seed=2)
    bot = RandomBot(7)
    for _ in range(40):                       # until the human may continue a trick: a choice with rules
        if table.state.is_terminal():
            pytest.fail("no position to continue a trick came up")
        if table.state.deciding and table.state.current_player == 0 and \
                len(table.state.legal_actions()) - 1 < len(table.state.hands[0]):
            break
        table.play(bot.choose(table.state))
    table.hint()
    hint = table._msg.value
    for a in table.state.legal_actions():
        assert a.label in hint
    assert "may not be played now" in hint and "(rule <a class='ck-rule-link' href='#S7-" in hint


def test_playable_cards_are_marked():
    table = widgets.PlayTable("sieben", seed=2)
    legal = {a.card for a in table.state.legal_actions() if a.card}
    for b, c in zip(table._hand.children, table.state.view(0).seats[0].hand):
        assert ("ck-playable" in b._dom_classes) == (c in legal)


@pytest.mark.parametrize("game,opts", CONFIGS)
def test_no_one_in_the_plural(game, opts):
    """'1 tricks', '1 points' no more: every count on the table agrees with its noun."""
    table = widgets.PlayTable(game, seed=9, **opts)
    bot = RandomBot(3)
    while not table.state.is_terminal():
        text = synced_text(table)
        bad = re.search(r".{0,40}(?<![\d.])1 (tricks|points|cards|counters)\b", text)
        assert not bad, bad.group(0)
        table.play(bot.choose(table.state))


def test_rule_ids_in_the_tables_words_are_links_to_the_rules():
    table = widgets.PlayTable("magische7", players=4, seed=5)
    table._click_card(0)                     # refused: North first chooses the opponent (M7-8.2)
    assert "<a class='ck-rule-link' href='#M7-8.2'>M7-8.2</a>" in table._msg.value
    table.play(RandomBot(1).choose(table.state))
    table.play(RandomBot(1).choose(table.state))
    assert "href='#M7-" in table._log.value and "href='#M7-" in table._table.value
