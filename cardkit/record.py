"""Game records: game + options + actions (deals included). Replaying a record reproduces the game.

The text format is JSON::

    {"format": "cardkit-record", "version": 1, "game": "magische7", "options": {"players": 2},
     "title": "…", "narration": {"3": "…"}, "actions": ["deal: 13 -6 Joker …", "13", "-6", …]}

Keys other than format, version, game, options and actions are free metadata (title, description,
player names, the rule the example illustrates, a narration line per step index).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources

from .errors import CardkitError, RecordError
from .games import load_game

FORMAT, VERSION = "cardkit-record", 1
_RESERVED = ("format", "version", "game", "options", "actions")
_TEXT_META = ("title", "description", "rule")     # metadata the kit shows or looks up: strings if present


def check_meta(meta, steps: int) -> None:
    """The metadata later code relies on, checked when a record is made (RecordError names what is wrong):
    title, description and rule are strings; narration maps step indices ("0" … steps − 1) to lines."""
    if not isinstance(meta, dict):
        raise RecordError("a record's metadata must be an object")
    for key in _TEXT_META:
        if key in meta and not isinstance(meta[key], str):
            raise RecordError(f"'{key}' must be a string, not {type(meta[key]).__name__}")
    if "narration" in meta:
        _check_narration(meta["narration"], steps, "narration")
    if "start" in meta:            # the step a replay opens on (where the example's story begins)
        start = meta["start"]
        if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= steps:
            raise RecordError(f"'start' must be a step from 0 to {steps}, not {start!r}")
    under = meta.get("narration_under", [])
    if not isinstance(under, list):
        raise RecordError("'narration_under' must be a list of {\"options\": …, \"narration\": …} objects")
    for i, entry in enumerate(under):
        if not (isinstance(entry, dict) and isinstance(entry.get("options"), dict) and entry["options"]
                and "narration" in entry):
            raise RecordError(f"'narration_under' entry {i} must be an object with \"options\" (not empty) "
                              "and \"narration\"")
        _check_narration(entry["narration"], steps, f"narration_under[{i}].narration")


def _check_narration(narration, steps: int, where: str) -> None:
    if not isinstance(narration, dict):
        raise RecordError(f"'{where}' must be an object mapping step indices to lines, not "
                          + type(narration).__name__)
    for k, line in narration.items():
        if not (isinstance(k, str) and k.isascii() and k.isdigit() and str(int(k)) == k and int(k) < steps):
            raise RecordError(f"'{where}' key {k!r} is not a step of this record (\"0\" … \"{steps - 1}\")"
                              if steps else f"'{where}' key {k!r}: this record has no steps")
        if not isinstance(line, str):
            raise RecordError(f"'{where}' line {k} must be a string, not {type(line).__name__}")


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
        except RecursionError:                 # brackets nested thousands deep: no record is
            raise RecordError("not a JSON record: nested too deeply") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path) -> "Record":
        with open(path, encoding="utf-8") as f:
            try:
                text = f.read()
            except UnicodeDecodeError as e:
                raise RecordError(f"not a record: the file is not UTF-8 text ({e.reason} at byte {e.start})") from None
        return cls.loads(text)

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
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise RecordError("'options' must be an object of option names")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("'actions' must be a list of action texts")
        return cls(game, options, actions, {k: v for k, v in data.items() if k not in _RESERVED})

    def __post_init__(self):
        check_meta(self.meta, len(self.actions))

    # replay ---------------------------------------------------------------------------------------
    def load_game(self, **override):
        try:
            return load_game(self.game, **{**self.options, **override})
        except CardkitError as e:
            raise RecordError(f"record's game/options are invalid: {e}") from None

    def replay(self, upto: int | None = None, **override):
        """Yield (step, action, state) after each action; `state` is one object, updated in place.
        `upto`: stop after that many actions (None: all)."""
        if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int)):
            raise RecordError(f"upto must be a number of actions (or None for all), not {upto!r}")
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
        out = [s0.clone()]
        for _, _, s in self.replay(**override):
            out.append(s.clone())
        return out

    def narration_for(self, **override) -> tuple[dict, dict | None, int | None]:
        """The record's own narration lines that hold under `override`: ``(step index -> line, the options
        they were written for, the step where they stop holding)``.

        A record's ``narration`` is written for the record's own options: replayed under another reading
        it may tell a false story ("the Spiegel takes the trick" where the Joker takes it). So:

        * no option differs from the record's: its ``narration``, every line (``until`` None);
        * an entry of ``narration_under`` (``{"options": {…}, "narration": {…}}``) whose options are in
          force and cover every option that differs: that entry's lines;
        * else the record's ``narration`` only for the steps before the first one whose outcome differs
          (the game's own narration of the two games first differs there, or the record stops): up to
          that step both games are the same. ``until`` is that step; from there the game narrates.
        """
        base = self.load_game().options
        now = self.load_game(**override).options
        changed = {k for k in now if now[k] != base.get(k)}
        own = self.meta.get("narration", {})
        if not changed:
            return dict(own), {}, None
        for entry in self.meta.get("narration_under", []):
            opts = entry["options"]
            if changed <= set(opts) and all(now.get(k) == v for k, v in opts.items()):
                return dict(entry["narration"]), dict(opts), None
        a, b = self._engine_lines(), self._engine_lines(**override)
        until = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        return {k: v for k, v in own.items() if int(k) < until}, dict(base), until

    def _engine_lines(self, **override) -> list[str]:
        """The game's own narration of each step, up to the first action that fails under `override`."""
        lines, state = [], self.load_game(**override).blank_state()
        for text in self.actions:
            try:
                action = state.parse_action(text)
                line = state.describe(action)
                state.apply(action)
            except CardkitError:
                break
            lines.append(line)
        return lines

    @property
    def title(self) -> str:
        return self.meta.get("title", f"{self.game} record")


def example_names(game: str) -> list[str]:
    if not isinstance(game, str) or not game or game.startswith(".") or "/" in game or "\\" in game:
        return []                                  # not a game name: no examples (never a path elsewhere)
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
