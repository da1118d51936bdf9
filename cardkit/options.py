"""Game options: each option has a default, its valid values and the rule ID whose reading it switches."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import OptionError


@dataclass(frozen=True)
class Option:
    name: str
    default: object
    choices: tuple = ()                 # the valid values, if a fixed set
    range: tuple[int, int] | None = None  # inclusive integer range, if numeric
    rule: str = ""                      # the rule ID whose reading this option switches
    help: str = ""
    labels: dict = field(default_factory=dict)  # value -> readable label

    def valid(self) -> str:
        if self.choices:
            return ", ".join(repr(c) for c in self.choices)
        assert self.range is not None                  # (an option has choices or a range)
        lo, hi = self.range
        return f"an integer from {lo} to {hi}"

    def check(self, value):
        if self.choices:
            # the value must be one of the choices *and of its type*: True is not 1, 2.0 is not 2
            if not any(type(value) is type(c) and value == c for c in self.choices):
                raise OptionError(f"option {self.name!r} cannot be {value!r}; valid values: {self.valid()}")
            return value
        if self.range is not None:
            lo, hi = self.range
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise OptionError(f"option {self.name!r} cannot be {value!r}; valid values: {self.valid()}")
            return value
        return value

    def label(self, value) -> str:
        return self.labels.get(value, str(value))


def resolve(specs: tuple[Option, ...], given: dict, game: str) -> dict:
    """Validate `given` against `specs`; return the full option dict (defaults filled in)."""
    by = {o.name: o for o in specs}
    unknown = [k for k in given if k not in by]
    if unknown:
        raise OptionError(f"unknown option {unknown[0]!r} for {game}; valid options: "
                          + ", ".join(f"{o.name} ({o.valid()})" for o in specs))
    return {o.name: o.check(given[o.name]) if o.name in given else o.default for o in specs}
