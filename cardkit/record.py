"""Game records: game + options + actions (deals included). Replaying a record reproduces the game.

The text format is JSON::

    {"format": "cardkit-record", "version": 1, "game": "magische7", "options": {"players": 2},
     "title": "…", "narration": {"3": "…"}, "actions": ["deal: 13 -6 Joker …", "13", "-6", …]}

Keys other than format, version, game, options and actions are free metadata (title, description,
player names, the rule the example illustrates, a narration line per step index).
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from importlib import resources

from .errors import CardkitError, RecordError

FORMAT, VERSION = "cardkit-record", 1
_RESERVED = ("format", "version", "game", "options", "actions")


@dataclass
class Record:
    game: str
    options: dict
    actions: list[str]
    meta: dict = field(default_factory=dict)

    # text format ----------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": FORMAT, "version": VERSION, "game": self.game, "options": dict(self.options),
                **self.meta, "actions": list(self.actions)}

    def dumps(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1) + "\n"

    def save(self, path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.dumps())

    @classmethod
    def loads(cls, text: str) -> "Record":
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, TypeError) as e:
            raise RecordError(f"not a JSON record: {e}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path) -> "Record":
        with open(path, encoding="utf-8") as f:
            return cls.loads(f.read())

    @classmethod
    def from_dict(cls, data) -> "Record":
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"'format' must be {FORMAT!r}, not {data.get('format')!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported record version {data.get('version')!r} (this kit reads {VERSION})")
        game, options, actions = data.get("game"), data.get("options", {}), data.get("actions")
        if not isinstance(game, str):
            raise RecordError("'game' must be a game name")
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("'actions' must be a list of action texts")
        return cls(game, options, actions, {k: v for k, v in data.items() if k not in _RESERVED})

    # replay ---------------------------------------------------------------------------------------
    def load_game(self, **override):
        from . import load_game
        try:
            return load_game(self.game, **{**self.options, **override})
        except CardkitError as e:
            raise RecordError(f"record's game/options are invalid: {e}") from None

    def replay(self, upto: int | None = None, **override):
        """Yield (step, action, state) after each action; `state` is one object, updated in place."""
        state = self.load_game(**override).blank_state()
        for i, text in enumerate(self.actions[:upto]):
            try:
                action = state.parse_action(text)
                state.apply(action)
            except CardkitError as e:
                raise RecordError(f"action {text[:40]!r} failed: {e}", step=i) from None
            yield i, action, state

    def final_state(self, **override):
        state = self.load_game(**override).blank_state()
        for _, _, state in self.replay(**override):
            pass
        return state

    def states(self, **override) -> list:
        """The state before the first action and after each action (copies), for stepping through."""
        s0 = self.load_game(**override).blank_state()
        out = [copy.deepcopy(s0)]
        for _, _, s in self.replay(**override):
            out.append(copy.deepcopy(s))
        return out

    def narration(self, **override) -> list[str]:
        """One line per step: the record's own narration where it has one, else the game's."""
        own = self.meta.get("narration", {})
        lines, state = [], self.load_game(**override).blank_state()
        for i, text in enumerate(self.actions):
            try:
                action = state.parse_action(text)
                before = copy.deepcopy(state)
                state.apply(action)
            except CardkitError as e:
                raise RecordError(f"action {text[:40]!r} failed: {e}", step=i) from None
            lines.append(own.get(str(i)) or before.describe(action, state))
        return lines

    @property
    def title(self) -> str:
        return self.meta.get("title", f"{self.game} record")


def example_names(game: str) -> list[str]:
    d = resources.files("cardkit") / "examples" / game
    if not d.is_dir():
        return []
    return sorted(p.name[:-5] for p in d.iterdir() if p.name.endswith(".json"))


def load_example(game: str, name: str) -> Record:
    names = example_names(game)
    if name not in names:
        raise CardkitError(f"no example {name!r} for {game}; examples: {', '.join(names) or 'none'}")
    path = resources.files("cardkit") / "examples" / game / f"{name}.json"
    return Record.loads(path.read_text(encoding="utf-8"))


def examples(game: str) -> list[Record]:
    return [load_example(game, n) for n in example_names(game)]
