"""Every checked-in playthrough (tests/playthroughs/*.txt, made by cardkit/playthrough.py) is what the engines do
now: each is regenerated in memory — the same seeded deal, the same seeded choices, through the public protocol —
and compared line by line. A difference is a change of behaviour (a legal move, a view, a narration, a score):
the failure shows the start of the diff. If the change is deliberate, regenerate the files with
`python -m cardkit.playthrough --update` and commit them with the change, the diff read. (All 41 files:
3.7 s of CPU.)"""
from __future__ import annotations

import os

import pytest

from cardkit import playthrough as pt

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "playthroughs")   # this checkout's, installed or not


def _path(spec) -> str:
    return os.path.join(HERE, spec.name + ".txt")


@pytest.mark.parametrize("spec", pt.SPECS, ids=[s.name for s in pt.SPECS])
def test_playthrough_is_unchanged(spec):
    path = _path(spec)
    assert os.path.exists(path), f"no checked-in playthrough {os.path.relpath(path)}: make it with `{pt.REGENERATE}`"
    with open(path, encoding="utf-8") as f:
        expected = f.read()
    actual = pt.playthrough(spec)
    if actual != expected:
        pytest.fail(f"the game now plays otherwise than {os.path.relpath(path)} records:\n"
                    f"{pt.diff(expected, actual, spec.name)}\n\nIf this change of behaviour is deliberate, "
                    f"regenerate the playthroughs with `{pt.REGENERATE}` and commit them with it.", pytrace=False)


def test_every_file_is_a_listed_playthrough_and_every_game_has_one():
    import cardkit
    files = sorted(f for f in os.listdir(HERE) if f.endswith(".txt"))
    names = [s.name for s in pt.SPECS]
    assert len(set(names)) == len(names)                     # one file each
    assert files == sorted(n + ".txt" for n in names)
    assert {s.game for s in pt.SPECS} == set(cardkit.GAMES)


def test_a_playthrough_is_the_same_twice_and_shows_a_change():
    """The text depends on the seeds alone (made twice in one process, the same), and a change of the game
    shows in it: another seed gives another text, and the diff names the files."""
    spec = pt.Spec("magische7")
    text = pt.playthrough(spec)
    assert text == pt.playthrough(spec)
    other = pt.playthrough(pt.Spec("magische7", seed=2))
    assert other != text
    d = pt.diff(text, other, spec.name, lines=10)
    assert d.startswith("first difference at line 4, in the header:\n"
                        f"--- {spec.name} (checked in)\n+++ {spec.name} (engine now)") and "more diff lines" in d
    assert len(d.splitlines()) == 12
    at = text.index("  chosen: ", text.index("== decision 2 "))
    changed = text[:at] + "  chosen:  " + text[at + 10:]        # a change in the second decision
    assert pt.diff(text, changed, spec.name).splitlines()[0] == \
        f"first difference at line {text[:at].count(chr(10)) + 1}, in decision 2 · Trick 1 · Player 2 (seat 1) to move:"


def test_every_playthrough_takes_back_a_move_and_finds_the_table_as_it_was():
    for spec in pt.SPECS:
        with open(_path(spec), encoding="utf-8") as f:
            text = f.read()
        assert "  undo: the state, every view and the legal actions are back as before the move" in text, spec.name
        assert "NOT back as before" not in text and "NOT the same state" not in text, spec.name
        assert "— the same state as the first time" in text, spec.name
