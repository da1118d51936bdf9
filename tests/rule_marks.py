"""`covers("S7-2", …)`: marks a test with the rule IDs it checks; tests/test_rulebooks.py checks, for
every game whose test module uses it, that the marked tests cover exactly the rulebook's IDs."""


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
