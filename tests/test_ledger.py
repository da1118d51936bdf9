"""cardkit/ledger.py (the stakes and payments the banking games share) and the Odds the advisor shows."""
from fractions import Fraction

import re

import pytest

import cardkit
from cardkit import CardkitError
from cardkit.ledger import TABLE, Ledger
from cardkit.view import Odds


def test_transfers_balance_and_are_kept_as_entries():
    led = Ledger(["Bank", "Anna", "Bert"])
    led.transfer("Anna", TABLE, 3, "stakes 3", "VU-2", coup=1)
    led.transfer("Bert", TABLE, 1, "stakes 1", "VU-2", coup=1)
    assert led.balance(TABLE) == 4 and led.total() == 0
    led.transfer(TABLE, "Anna", 3, "stake back", "VU-4", coup=1)
    led.transfer("Bank", "Anna", 3, "wins", "VU-4", coup=1)
    led.transfer(TABLE, "Bank", 1, "loses", "VU-4", coup=1)
    assert (led.balance("Anna"), led.balance("Bert"), led.balance("Bank"), led.balance(TABLE)) == (3, -1, -2, 0)
    assert led.total() == 0 and len(led.rows(1)) == 5 and led.rows(2) == []
    t = led.table()
    assert t.headers[-4:] == ["Bank", "Anna", "Bert", TABLE] and t.rows[-1][-4:] == ["-2", "3", "-1", "0"]


@pytest.mark.parametrize("amount", [0, -2, 1.5, "2", True])
def test_an_amount_is_a_positive_whole_number(amount):
    led = Ledger(["Bank", "Anna"])
    with pytest.raises(CardkitError, match="positive whole number"):
        led.transfer("Anna", "Bank", amount)
    assert led.entries == [] and led.total() == 0


def test_unknown_accounts_and_self_payment_are_refused():
    led = Ledger(["Bank", "Anna"])
    with pytest.raises(CardkitError, match="no account 'Zoe'"):
        led.transfer("Zoe", "Bank", 1)
    with pytest.raises(CardkitError, match="cannot pay itself"):
        led.transfer("Bank", "Bank", 1)
    with pytest.raises(CardkitError, match="distinct"):
        Ledger(["Bank", "Bank"])
    copy = led.copy()
    copy.transfer("Anna", "Bank", 2)
    assert led.balance("Bank") == 0 and copy.balance("Bank") == 2


def test_odds_read_as_decimals_with_the_exact_fraction_beside():
    assert Odds("go dead", Fraction(7, 13)).text() == "53.8 %" and Odds("go dead", Fraction(7, 13)).exact() == "7/13"
    assert Odds("never", Fraction(0)).text() == "0.0 %"
    assert Odds("draw", Fraction(1, 3), kind="stake").text() == "+0.33 units"
    assert Odds("stand", Fraction(-1), kind="stake").text() == "−1.00 unit"
    odd = Odds("stake", Fraction(-34655558537, 513769756500), kind="stake")
    assert odd.text() == "−0.067 units" and odd.exact() == "−34655558537/513769756500"


def test_the_odds_panel_shows_a_games_advice(monkeypatch):
    """A game that computes odds gets an Odds button; the panel shows them at the human's turn, exactly."""
    import widgets
    from cardkit.games.sieben import SiebenState
    assert not hasattr(widgets.PlayTable("sieben", seed=1), "_odds")     # no odds, no button
    monkeypatch.setattr(SiebenState, "advice", lambda self, p: [Odds("a seven next", Fraction(4, 28),
                                                                      note="from 28 unseen cards")])
    table = widgets.PlayTable("sieben", seed=1)
    assert table.state.current_player == table.human
    assert "ck-odds" not in table._happened.value
    table._odds.click()
    assert "a seven next" in table._happened.value and "14.3 %" in table._happened.value
    # the exact fraction on request: folded under the decimal, not beside it
    assert "(1/7)" not in table._happened.value and re.search(r"<details[^>]*><summary><b>14.3 %</b></summary><small>exactly 1/7",
                                                            table._happened.value)
    table._odds.click()
    assert "ck-odds" not in table._happened.value
    with pytest.raises(CardkitError):
        cardkit.load_game("magische7").new_state(seed=1).advice(5)
