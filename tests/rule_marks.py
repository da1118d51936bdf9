"""`covers("S7-2", …)`: marks a test with the rule IDs it checks, so a game's test file can assert that
every rule ID of its rulebook is covered (and tests/test_rulebooks.py that each ID appears in it)."""


def rule_marker():
    """A fresh (covered-set, decorator) pair for one test module."""
    covered: set[str] = set()

    def covers(*rule_ids):
        covered.update(rule_ids)

        def mark(fn):
            fn.rules = rule_ids
            return fn
        return mark
    return covered, covers
