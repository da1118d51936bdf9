"""The money of the banking games kept as the rules make it: the play records each coup (its cards and stakes)
and the ledger's entries are worked out from those records, by the game's rules, when the ledger is read."""
from __future__ import annotations


def post(ledger, posted: tuple, coups: list, entries, current=None) -> tuple:
    """Post to `ledger` the entries of the `coups` played and of the coup in play (`current`, or None).

    `posted` is how far the ledger has got: (coups posted, entries of the next coup posted already); the new
    one is returned. `entries(coup, settled)` gives a coup's entries in the order they were made; those of a
    coup still in play are the first of its final ones, so a later reading posts only the rest. Each entry is
    checked by ``Ledger.transfer`` as it is posted."""
    done, part = posted
    transfer = ledger.transfer
    while done < len(coups):
        made = entries(coups[done], True)
        for e in made[part:] if part else made:
            transfer(*e)
        done, part = done + 1, 0
    if current is not None:
        made = entries(current, False)
        for e in made[part:] if part else made:
            transfer(*e)
        part = len(made)
    return done, part
