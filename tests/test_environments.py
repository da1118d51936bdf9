"""The two ways of publishing the pages keep their tools apart (issue 35): the static build's tools (Voici,
JupyterLite and its Pyodide kernel) live in a venv of their own, `.venv-static`, and never where Voilà runs,
which would load JupyterLite's kernel extension into every page of `make site` and fail there in the browser's
console. `make test` makes both venvs; these tests run in the site's (the tests'), and cost a second."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

import cardkit.site as site
from cardkit.errors import CardkitError

ROOT = Path(__file__).resolve().parent.parent


def test_the_sites_environment_has_none_of_the_static_builds_tools():
    from jupyter_core.paths import jupyter_path
    here = {m: importlib.util.find_spec(m) is not None
            for m in ("voici_core", "jupyterlite_core", "jupyterlite_pyodide_kernel")}
    assert here == dict.fromkeys(here, False), (
        f"{sys.prefix} has the static build's tools, which break the Voilà pages: `make site` removes them")
    # what Voilà would load into a page: a JupyterLab extension of JupyterLite's, wherever Jupyter looks
    extensions = [str(p) for d in jupyter_path("labextensions") for p in Path(d).glob("@jupyterlite/*")]
    assert extensions == []


def test_the_static_build_runs_with_the_static_venv_of_this_checkout():
    assert site.STATIC_VENV == ROOT / ".venv-static"
    assert site.static_python() == str(ROOT / ".venv-static" / "bin" / "python")


def test_without_the_static_venv_the_build_says_so_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(site, "STATIC_VENV", tmp_path / ".venv-static")
    with pytest.raises(CardkitError) as refused:
        site.build_static(tmp_path / "site")
    message = str(refused.value)
    assert "\n" not in message and "make static" in message and ".venv-static" in message
    assert not (tmp_path / "site").exists()
