"""Narrow error classes. Every error the kit raises on bad input is a CardkitError."""
from __future__ import annotations


class CardkitError(Exception):
    """Base class of every error cardkit raises on bad input."""


class UnknownGameError(CardkitError, KeyError):
    def __init__(self, name: str, choices):
        self.name, self.choices = name, tuple(choices)
        super().__init__(f"unknown game {name!r}; valid games: {', '.join(self.choices)}")

    def __str__(self) -> str:  # KeyError would quote the message
        return self.args[0]


class OptionError(CardkitError, ValueError):
    """An unknown option, or an option value out of range. The message lists the valid choices."""


class CardError(CardkitError, ValueError):
    """Card notation that does not parse."""


class IllegalActionError(CardkitError, ValueError):
    """An action the rules do not allow here. `rule` is the rule ID it breaks; the state is unchanged."""

    def __init__(self, rule: str, why: str, action: str | None = None):
        self.rule, self.why, self.action = rule, why, action
        what = f"{action!r} is illegal: " if action is not None else ""
        super().__init__(f"{what}{why} [rule {rule}]")


class RecordError(CardkitError, ValueError):
    """A malformed or inconsistent game record. `step` is the index of the failing action (or None)."""

    def __init__(self, message: str, step: int | None = None):
        self.step = step
        super().__init__(message if step is None else f"step {step}: {message}")
