"""axe-core on a page in the browser tests (a helper module, not a test file): the WCAG 2.1 A and AA rules.

axe-core comes from npm, pinned by tests/axe/package-lock.json (`make install-test` runs `npm ci` there), and is
put into the page by Playwright's `evaluate` (the DevTools protocol: the page's Content-Security-Policy, which
allows only the site's own scripts, is left as it is). Each page of both sites is checked once per width, in a
test that has the page open anyway (docs/site.md, "For every reader").
"""
from __future__ import annotations

from pathlib import Path

AXE_JS = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

# Exceptions, each argued in docs/site.md ("For every reader"): (rule id, CSS selector of the element) -> why.
# Only the named elements are left out, and only from the named rule.
EXCEPTIONS: dict[tuple[str, str], str] = {}

_source: str | None = None


def _axe_source() -> str:
    global _source
    if _source is None:
        if not AXE_JS.exists():
            raise AssertionError(f"axe-core is missing ({AXE_JS}): run `make install-test` (npm ci in tests/axe)")
        _source = AXE_JS.read_text(encoding="utf-8")
    return _source


_RUN = """async ([tags, exclude]) => {
    const r = await axe.run({include: [document], exclude: exclude.map((s) => [s])},
                            {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
    return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => ({target: n.target.join(' '), html: n.html.slice(0, 160),
                                    summary: (n.failureSummary || '').slice(0, 300)}))}));
}"""


def axe_violations(page) -> list[dict]:
    """The WCAG 2.1 A/AA violations axe-core finds on the page as it is now (the exceptions above left out)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_source() + "\n;undefined")
    by_rule: dict[str, list[str]] = {}
    for rule, selector in EXCEPTIONS:
        by_rule.setdefault(rule, []).append(selector)
    found = page.evaluate(_RUN, [TAGS, []])
    out = []
    for v in found:
        excused = by_rule.get(v["id"], [])
        if excused:
            nodes = [n for n in v["nodes"]
                     if not page.evaluate("([t, sels]) => { const e = document.querySelector(t);"
                                          " return !!e && sels.some((s) => e.closest(s)); }",
                                          [n["target"], excused])]
            if not nodes:
                continue
            v = {**v, "nodes": nodes}
        out.append(v)
    return out


def describe(violations: list[dict]) -> str:
    """The violations in a few readable lines (rule, impact, how many elements, the first ones)."""
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} element(s)")
        for n in v["nodes"][:4]:
            lines.append(f"    {n['target']}: {n['html']}")
            if n["summary"]:
                lines.append("      " + n["summary"].replace("\n", " | "))
    return "\n".join(lines)


def assert_accessible(page, where: str = "") -> None:
    """No WCAG 2.1 A/AA violation on the page as it is now (`where`: the page and width, for the message)."""
    found = axe_violations(page)
    assert not found, f"axe-core on {where or page.url}:\n{describe(found)}"
