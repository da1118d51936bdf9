"""Checks shared by the games' property tests."""


def apply_checking_undo(s, action, undo_here: bool, snaps: list) -> None:
    """Apply `action`, remembering the snapshot before it; if `undo_here`, undo it (the snapshot must
    come back exactly) and apply it again by its text (the same state must result)."""
    snaps.append(s.snapshot())
    s.apply(action)
    if undo_here:
        after = s.snapshot()
        s.undo()
        assert s.snapshot() == snaps[-1], "undo did not restore the snapshot"
        s.apply(action.text)
        assert s.snapshot() == after, "redoing the undone action gave another state"
