"""The annotations hold: mypy checks cardkit/ and widgets/ (its settings: pyproject.toml's [tool.mypy]).

One cold run, as on CI's clean clone: the cache is not written (--cache-dir=/dev/null, mypy's documented way),
so nothing is left in the checkout. About 10 s of CPU (docs/benchmarks.md); in a child process, so mypy's
memory goes with it.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# an ignore names what it ignores and why: "# type: ignore[code]  # the reason"
IGNORE = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")


def ignores_without_reason(text: str) -> list[str]:
    bad = []
    for n, line in enumerate(text.splitlines(), 1):
        m = IGNORE.search(line)
        if m and (not m["codes"] or not re.match(r"\s*#\s*\S", m["rest"])):
            bad.append(f"line {n}: {line.strip()}")
    return bad


def test_the_ignore_checker():
    assert ignores_without_reason("x = f()  # type: ignore[assignment]  # f's stub is wrong") == []
    assert ignores_without_reason("x = f()  # type: ignore")
    assert ignores_without_reason("x = f()  # type: ignore[assignment]")
    assert ignores_without_reason("x = f()  # type: ignore  # no code")
    assert ignores_without_reason("x = 1  # a typed value") == []


def test_every_type_ignore_names_its_code_and_reason():
    bad = {str(p.relative_to(ROOT)): b for d in ("cardkit", "widgets") for p in sorted((ROOT / d).rglob("*.py"))
           if (b := ignores_without_reason(p.read_text(encoding="utf-8")))}
    assert not bad, bad


def test_mypy_finds_no_error():
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir=/dev/null"], cwd=ROOT, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Success: no issues found" in out.stdout
