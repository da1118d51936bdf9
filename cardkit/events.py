"""What a move did, told once: `step` applies one action to a state and returns its events — the move, and
every deal the protocol made by itself after it — each narrated for the viewers asked for.

This is the one place where a move is applied and narrated: the play table (`cardkit.table`), a record's
narration (`narration` below) and the replay of a worked example all go through it. A move is narrated from
the position before it and the one right after it (`State.describe(action, after)`, per viewer
`State.narrate`), so the narration may name what the move showed everyone (a card drawn face up) and, told to
the player who made it, what only he saw; a deal is narrated from the position before it alone."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import CardkitError, RecordError
from .game import CHANCE, Deal, State
from .record import Record


@dataclass
class Event:
    """One history entry as it happened. `lines`: the narration for each viewer asked for (a text of one line
    or several separated by newlines; the key None: the narration as everyone sees it). `ended`: the round
    (hand, coup, deal — the game's `moment_level`) this move finished, with `result` its result in words and
    `coming` the round that follows ("" where none ended, or where the game ended with it). `after`: the
    position right after the move, before any deal it set off (a copy where one followed, else the state
    itself: read it at once)."""
    index: int
    seat: int
    action: object
    round: str
    trick: str
    lines: dict = field(default_factory=dict)
    ended: str = ""
    coming: str = ""
    result: str = ""
    after: State | None = None

    def text(self, viewer: int | None = None) -> str:
        """The narration told to `viewer` (None: as everyone sees it, or the only one there is)."""
        if viewer in self.lines:
            return self.lines[viewer]
        return next(iter(self.lines.values()), "")

    @property
    def is_deal(self) -> bool:
        return self.action.__class__ is Deal


def _told(before: State, action, after: State, viewers) -> dict:
    """The narration of a move for each viewer (one text for all where the game tells everyone the same)."""
    if viewers is None or type(before).narrate is State.narrate:
        text = before.describe(action, after)
        return {None: text} if viewers is None else {v: text for v in viewers}
    return {v: before.narrate(action, after, v) for v in viewers}


def step(state: State, action, viewers=None) -> list[Event]:
    """Apply `action` (object or text) to `state`, in place, and return what happened: the move's event and
    one for each deal the protocol made by itself after it. `viewers`: the seats to narrate for (None: the
    narration as everyone sees it). An illegal action raises the game's error and changes nothing."""
    rnd, trick = state.progress()
    n0 = len(state.history)
    seat = state.current_player
    if not (action.__class__ is Deal or any(action is a for a in state.legal_actions())):
        action = state.parse_action(action)
    if action.__class__ is Deal:
        text = state.describe(action)
        before = None
    else:
        before = state.clone()                   # (a light copy of the position: `State.clone`)
    state.apply(action)
    dealt = len(state.history) > n0 + 1          # the protocol dealt a new round by itself
    after = state
    if before is not None and dealt:            # the position between the move and the deal (a copy's actions
        after = before.clone()                   # are its own objects: the move found by its text)
        after.advance(after.parse_action(action.text))
    if before is None:
        lines = {None: text} if viewers is None else {v: text for v in viewers}
    else:
        lines = _told(before, action, after, viewers)
    event = Event(n0, seat, action, rnd, trick, lines, after=after)
    level = state.game.moment_level
    ended, now = (rnd, trick)[level], state.progress()[level]
    if ended and now != ended and not state.is_terminal():
        event.ended, event.coming, event.result = ended, now, after.round_result()
    events = [event]
    if dealt:
        pre = after.clone() if after is not state else after
        for k in range(n0 + 1, len(state.history)):
            r, t = pre.progress()
            deal = state.history[k]
            text = pre.describe(deal)
            events.append(Event(k, CHANCE, deal, r, t, {None: text} if viewers is None else
                                {v: text for v in viewers}, after=None))
            pre.advance(deal)
    return events


def narration(record: Record, **override) -> list[str]:
    """One line per step of `record`: the record's own narration where it holds (`Record.narration_for`), else
    the game's. (Here, not a method of Record: a record is data a state writes (`State.to_record`), and the
    narration of a move is this module's, above the protocol.)"""
    own = record.narration_for(**override)[0]
    lines, state = [], record.load_game(**override).blank_state()
    for i, text in enumerate(record.actions):
        try:
            told = own.get(str(i)) or step(state, text)[0].text()
            if own.get(str(i)):
                state.apply(text)
        except CardkitError as e:
            raise RecordError(f"action {text[:40]!r} failed: {e}", step=i) from None
        lines.append(told)
    return lines
