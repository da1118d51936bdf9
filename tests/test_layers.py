"""The layer direction: notebooks -> widgets -> cardkit's public API, never the other way.

* cardkit/ (the engine) imports nothing of Jupyter and nothing of the UI: it runs anywhere, Pyodide too;
* widgets/ use cardkit only through its public modules and names, never a game module or a private name;
* notebooks/ stay thin: their code cells call widgets, they do not reach into cardkit.games.

widgets/ and notebooks/ may still be partial: a missing or empty directory passes, a file breaking the
rule fails.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE, WIDGETS, NOTEBOOKS = ROOT / "cardkit", ROOT / "widgets", ROOT / "notebooks"

# top-level modules the engine must never import (plus anything named jupyter*)
FORBIDDEN = {"ipywidgets", "IPython", "ipykernel", "voila", "nbformat", "traitlets", "widgets", "notebooks",
             "nbclient", "nbconvert"}
# cardkit modules the widgets may use
PUBLIC = {"cardkit", "cardkit.view", "cardkit.cards", "cardkit.rules", "cardkit.record", "cardkit.errors",
          "cardkit.documents",
          "cardkit.svg", "cardkit.bots", "cardkit.exercises", "cardkit.rulecard", "cardkit.table", "cardkit.events",
          "cardkit.share"}


def forbidden(module: str) -> bool:
    top = module.split(".")[0]
    return top in FORBIDDEN or top.lower().startswith("jupyter")


def imports(tree: ast.AST):
    """(module, names, level, lineno) for every import anywhere in the tree (functions included), and for
    importlib.import_module("…") / __import__("…") with a constant name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, [], 0, node.lineno
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", [a.name for a in node.names], node.level, node.lineno
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__"):
                yield node.args[0].value, [], 0, node.lineno


def py_files(d: Path) -> list[Path]:
    return sorted(p for p in d.rglob("*.py") if "__pycache__" not in p.parts) if d.is_dir() else []


def parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


# --- the engine --------------------------------------------------------------------------------------
def test_the_checker_catches_forbidden_imports():
    bad = "import ipywidgets\nfrom IPython.display import HTML\ndef f():\n    import jupyter_client\n" \
          "    importlib.import_module('voila.app')\nimport traitlets as t\nfrom widgets import PlayTable\n"
    found = [m for m, _, _, _ in imports(ast.parse(bad)) if forbidden(m)]
    assert sorted(found) == sorted(["ipywidgets", "IPython.display", "jupyter_client", "voila.app", "traitlets",
                                    "widgets"])
    assert not [m for m, _, _, _ in imports(ast.parse("import json, html\nfrom .cards import Card")) if forbidden(m)]


def test_engine_files_exist():
    assert (ENGINE / "__init__.py").is_file() and (ENGINE / "game.py").is_file()


# cardkit/voila_template/ is a Jupyter data directory for the site's server (Voilà's config file and its
# launcher, site_app.py), and cardkit/static_site/ holds the static site's build script: both run as child
# processes, never imported by cardkit: they are not engine code.
SITE_TOOLS = {"voila_template", "static_site"}


@pytest.mark.parametrize("path", [p for p in py_files(ENGINE) if not SITE_TOOLS & set(p.relative_to(ENGINE).parts)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_imports_no_jupyter_and_no_ui(path):
    bad = [f"line {ln}: {m}" for m, _, level, ln in imports(parse(path)) if level == 0 and forbidden(m)]
    assert not bad, f"{path.relative_to(ROOT)} imports UI/Jupyter modules: {bad}"


def test_importing_cardkit_and_playing_imports_no_jupyter_module():
    """In a clean interpreter, import cardkit and play a game; record every import *attempt* too (a guarded
    `try: import ipywidgets` would pass unnoticed where Jupyter is not installed)."""
    code = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
attempts = []
class Spy:
    def find_spec(self, name, path=None, target=None):
        attempts.append(name)
        return None
sys.meta_path.insert(0, Spy())
import cardkit, cardkit.view, cardkit.record, cardkit.bots
from cardkit.bots import game_bots
for players in (2, 4):
    for name in cardkit.GAMES:
        game = cardkit.load_game(name, **({{"players": players}} if name == "magische7" else {{}}))
        state = game.new_state(seed=1)
        bot = game_bots(game)["random"](1)
        while not state.is_terminal():
            state.apply(bot.choose(state))
        state.view(0); state.view(None); state.scores(); state.to_record().dumps()
        cardkit.Record.loads(state.to_record().dumps()).final_state()
print("\\n".join(sorted(set(attempts) | set(sys.modules))))
"""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, env=env, cwd="/",
                         timeout=120)
    assert out.returncode == 0, out.stderr
    seen = out.stdout.split()
    assert "cardkit.games.magische7" in seen
    bad = sorted(m for m in seen if forbidden(m))
    assert not bad, f"importing/playing cardkit imported {bad}"


# --- the widgets -------------------------------------------------------------------------------------
def widget_violations(tree: ast.AST) -> list[str]:
    bad = []
    for module, names, level, ln in imports(tree):
        where = f"line {ln}"
        if level >= 2:
            bad.append(f"{where}: relative import out of widgets/ ({'.' * level}{module})")
            continue
        if level == 1:
            continue                                  # widgets' own modules
        top = module.split(".")[0]
        if top == "notebooks":
            bad.append(f"{where}: imports from notebooks ({module})")
        if top != "cardkit":
            continue
        if module not in PUBLIC:
            bad.append(f"{where}: imports {module} (only {', '.join(sorted(PUBLIC))} are public)")
        for n in names:
            if n.startswith("_") or (module == "cardkit" and n == "games"):
                bad.append(f"{where}: imports {n} from {module}")
    for node in ast.walk(tree):                       # cardkit.games.x / cardkit._x reached by attribute
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "cardkit" \
                and (node.attr == "games" or node.attr.startswith("_")):
            bad.append(f"line {node.lineno}: uses cardkit.{node.attr}")
    return bad


def test_the_widget_checker_catches_violations():
    for src in ("from cardkit.games.magische7 import trick_outcome", "import cardkit.games.magische7",
                "from cardkit import games", "from cardkit.game import _deal_cards", "from cardkit.rng import Rng",
                "from notebooks import x", "from .. import cardkit", "import cardkit\ncardkit.games.magische7.GAME",
                "import importlib\nimportlib.import_module('cardkit.games.magische7')"):
        assert widget_violations(ast.parse(src)), src
    ok = "import cardkit\nfrom cardkit import CardkitError, Record\nfrom cardkit.svg import card_svg\n" \
         "from cardkit.view import View\nfrom .render import CSS\nimport ipywidgets as w\ncardkit.load_game('x')"
    assert widget_violations(ast.parse(ok)) == []


@pytest.mark.parametrize("path", py_files(WIDGETS) or [None],
                         ids=lambda p: str(p.relative_to(ROOT)) if p else "no-widgets-yet")
def test_widgets_use_only_the_public_api(path):
    if path is None:
        return                                        # widgets/ does not exist or is empty yet
    bad = widget_violations(parse(path))
    assert not bad, f"{path.relative_to(ROOT)}: {bad}"


# --- the notebooks -----------------------------------------------------------------------------------
MAX_CELL_LINES = 6


def notebooks() -> list[Path]:
    return sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts) \
        if NOTEBOOKS.is_dir() else []


def code_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            src = cell.get("source", "")
            out.append("".join(src) if isinstance(src, list) else src)
    return out


def notebook_cell_violations(src: str) -> list[str]:
    bad = []
    lines = [ln for ln in src.splitlines() if ln.strip()]
    if len(lines) > MAX_CELL_LINES:
        bad.append(f"{len(lines)} non-empty lines (at most {MAX_CELL_LINES}: put the code in widgets/)")
    python = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in src.splitlines())
    try:
        tree = ast.parse(python)
    except SyntaxError as e:
        return bad + [f"does not parse: {e}"]
    for module, names, _, ln in imports(tree):
        if module.split(".")[:2] == ["cardkit", "games"] or (module == "cardkit" and "games" in names):
            bad.append(f"line {ln}: imports {module} directly (use widgets / cardkit.load_game)")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "cardkit" \
                and node.attr == "games":
            bad.append(f"line {node.lineno}: uses cardkit.games")
    return bad


def test_the_notebook_checker_catches_violations():
    assert notebook_cell_violations("from cardkit.games.magische7 import GAME")
    assert notebook_cell_violations("import cardkit.games.magische7 as m")
    assert notebook_cell_violations("from cardkit import games")
    assert notebook_cell_violations("\n".join(f"x{i} = {i}" for i in range(7)))
    assert notebook_cell_violations("x = (")
    assert notebook_cell_violations("%matplotlib inline\nfrom widgets import PlayTable\n\nPlayTable('magische7')") == []


@pytest.mark.parametrize("path", notebooks() or [None],
                         ids=lambda p: str(p.relative_to(ROOT)) if p else "no-notebooks-yet")
def test_notebook_cells_are_thin(path):
    if path is None:
        return                                        # notebooks/ does not exist or is empty yet
    bad = {i: v for i, src in enumerate(code_cells(path)) if (v := notebook_cell_violations(src))}
    assert not bad, f"{path.relative_to(ROOT)}: code cells {bad}"
