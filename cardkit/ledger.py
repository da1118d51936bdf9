"""Stakes and payments as a ledger that always balances: what the banking games (Vingt-et-un, Faro,
Bakkarat) share, written once.

Every movement of money is one entry — who pays, who receives, how much, why, under which rule — between
named accounts: the bank, each player, a partner, and ``TABLE`` (stakes lying on the table, not yet won or
lost). Amounts are positive integers (units of the table's minimum stake): no floats. Accounts start at 0
and may go negative (a player who has lost 5 units stands at -5), so the sum of all balances is 0 after
every entry — the property the games' tests check.

    >>> led = Ledger(["Bank", "Anna"])
    >>> led.transfer("Anna", TABLE, 2, "stakes 2 on her hand", "VU-2")
    >>> led.transfer(TABLE, "Anna", 2, "stake back", "VU-4"); led.transfer("Bank", "Anna", 2, "wins", "VU-4")
    >>> led.balance("Anna"), led.balance("Bank"), led.total()
    (2, -2, 0)
"""
from __future__ import annotations

from .errors import CardkitError

TABLE = "table"   # the stakes lying on the table


class Ledger:
    """Balances by account and the entries that made them. Copy with ``copy()`` (games copy states)."""
    __slots__ = ("accounts", "balances", "entries")

    def __init__(self, accounts, with_table: bool = True):
        names = list(accounts) + ([TABLE] if with_table and TABLE not in accounts else [])
        if len(set(names)) != len(names):
            raise CardkitError(f"ledger accounts must be distinct: {names}")
        self.accounts = tuple(names)
        self.balances = dict.fromkeys(names, 0)
        # (coup, payer, payee, amount, why, rule)
        self.entries: list = []

    def transfer(self, payer: str, payee: str, amount: int, why: str = "", rule: str = "", coup: int = 0) -> None:
        """Move `amount` units from `payer` to `payee` (both accounts of this ledger; a positive int)."""
        b = self.balances
        if payer not in b or payee not in b:
            bad = payer if payer not in b else payee
            raise CardkitError(f"no account {bad!r} in the ledger; accounts: {', '.join(self.accounts)}")
        if amount.__class__ is not int or amount <= 0:
            raise CardkitError(f"an amount is a positive whole number of units, not {amount!r}")
        if payer == payee:
            raise CardkitError(f"{payer} cannot pay itself")
        self.post(payer, payee, amount, why, rule, coup)

    def post(self, payer: str, payee: str, amount: int, why: str = "", rule: str = "", coup: int = 0) -> None:
        """`transfer` without its checks, for a game's own payments on its hot path, whose accounts are the
        table's and whose amounts are positive by the rules: the same entry, the same balances."""
        b = self.balances
        b[payer] -= amount
        b[payee] += amount
        self.entries.append((coup, payer, payee, amount, why, rule))

    def balance(self, account: str) -> int:
        try:
            return self.balances[account]
        except KeyError:
            raise CardkitError(f"no account {account!r} in the ledger; accounts: {', '.join(self.accounts)}") from None

    def total(self) -> int:
        """The sum of all balances: 0, always (a test checks it after every action)."""
        return sum(self.balances.values())

    def copy(self) -> "Ledger":
        new = Ledger.__new__(Ledger)
        new.accounts, new.balances, new.entries = self.accounts, dict(self.balances), list(self.entries)
        return new

    def snapshot(self) -> tuple:
        return tuple(self.balances[a] for a in self.accounts), len(self.entries)

    def rows(self, coup: int | None = None) -> list:
        """The entries (of one coup, or all) as readable rows: (coup, payer, payee, amount, why, rule)."""
        return [e for e in self.entries if coup is None or e[0] == coup]

    def table(self, title: str = "Ledger"):
        """The entries as a `rules.Table`, with the balances after each (for the review at the end)."""
        from .rules import Table
        running = dict.fromkeys(self.accounts, 0)
        rows = []
        for coup, payer, payee, amount, why, rule in self.entries:
            running[payer] -= amount
            running[payee] += amount
            rows.append([str(coup), f"{payer} → {payee}", str(amount), why + (f" [{rule}]" if rule else ""),
                         *(str(running[a]) for a in self.accounts)])
        return Table(["coup", "who pays whom", "units", "why", *self.accounts], rows, title)
