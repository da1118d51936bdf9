"""The static build's checks of other projects' internals (cardkit/static_site/upstream.py), without a build: each
check given a changed input fails in one line naming the package and the version in use, the checks pass on the
real tools in .venv-static, the fallbacks are taken where the table has one, the build's scripts carry each of
their slots once, and docs/publishing.md prints the table as it is. About 3 s of CPU, most of it the one run of
the checks in .venv-static."""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from cardkit.static_site import build, upstream

ROOT = Path(__file__).resolve().parent.parent
STATIC_PYTHON = ROOT / ".venv-static" / "bin" / "python"
TOOLS = ("jupyterlite-pyodide-kernel", "voici-core", "jupyterlite-core", "voila")


@pytest.fixture(scope="module")
def versions() -> dict:
    """The version of each upstream package in use, read independently of upstream.version_of: the tools as
    .venv-static has them, Pyodide as package.json pins it, the browser's wheels as browser-requirements.txt does."""
    code = f"import importlib.metadata as m, json; print(json.dumps({{p: m.version(p) for p in {TOOLS!r}}}))"
    found = json.loads(subprocess.run([STATIC_PYTHON, "-c", code], capture_output=True, text=True, check=True).stdout)
    found["pyodide"] = json.loads((build.HERE / "package.json").read_text())["dependencies"]["pyodide"]
    pins = (build.HERE / "browser-requirements.txt").read_text()
    for name in ("ipython", "pygments"):
        found[name] = re.search(rf"^{name}==(\S+)", pins, re.M).group(1)
    return found


def _fails(key: str, fn, *args, versions: dict) -> str:
    """The one line of assumption `key` whose check `fn(*args)` fails; checked to name the package and version."""
    with pytest.raises(upstream.UpstreamChanged) as caught:
        upstream.check(key, fn, *args, fallback_ok=False)
    text = str(caught.value)
    package = upstream.ASSUMPTIONS[key].package
    assert "\n" not in text
    assert text.startswith(f"{package} {versions[package]}: "), text
    assert "; the static build expects " in text
    return text


WORKER = ('initRuntime(e){let t,{pyodideUrl:n,indexUrl:s}=e;n.endsWith(".mjs")?t=(await r(476)(n)).loadPyodide:'
          '(importScripts(n),t=self.loadPyodide),this._pyodide=await t({indexURL:s,...e.loadPyodideOptions})}'
          'i.includes("micropip")||await this._pyodide.loadPackage(["micropip"]),i.includes("piplite")||x,'
          'piplite.piplite._PIPLITE_DISABLE_PYPI = 1;piplite.piplite._PIPLITE_URLS = 2;'
          'initKernel(e){let t=(e.loadPyodideOptions||{}).packages||[],n=["sqlite3","ipykernel","comm",'
          '"pyodide_kernel","jedi","ipython"],s=[];for(let e of n)t.includes(e)||s.push(`await piplite.install(')
MAIN = ('import * as Comlink; const w=self.crossOriginIsolated?new Worker(new URL(n.p+n.u(620),n.b),{type:void 0}):'
        'new Worker(new URL(n.p+n.u(352),n.b),{type:void 0}); "@jupyterlite/pyodide-kernel-extension:kernel" '
        'pyodideUrl disablePyPIFallback loadPyodideOptions pipliteUrls')
EXTENSION = {"872.abc.js": MAIN, "352.def.js": WORKER, "620.aaa.js": ""}


def test_the_kernel_checks_pass_on_an_extension_as_built_and_fail_on_a_changed_one(versions):
    assert upstream.kernel_worker_chunk(EXTENSION) == "352.def.js"
    upstream.worker_loads_pyodide(WORKER)
    upstream.worker_packages(WORKER, build.PRELOAD)
    upstream.kernel_settings(EXTENSION)
    upstream.kernel_messages(MAIN)
    upstream.piplite_names([WORKER, "import piplite.cli\nawait piplite.cli.get_transformed_code(x)"],
                           build.STAND_INS["piplite"])
    v = dict(versions=versions)
    assert "none" in _fails("kernel-worker-chunk", upstream.kernel_worker_chunk,
                            {**EXTENSION, "872.abc.js": MAIN.replace("crossOriginIsolated?", "isolated?")}, **v)
    _fails("worker-loads-pyodide", upstream.worker_loads_pyodide,
           WORKER.replace("importScripts(n),t=self.loadPyodide", "t=(await import(n)).loadPyodide"), **v)
    assert "tomli" in _fails("worker-packages", upstream.worker_packages, WORKER.replace('"jedi"', '"tomli"'),
                             build.PRELOAD, **v)
    assert "piplite.cli.main" in _fails("piplite-names", upstream.piplite_names, [WORKER, "piplite.cli.main(argv)"],
                                        build.STAND_INS["piplite"], **v)
    assert "pipliteUrls" in _fails("kernel-settings", upstream.kernel_settings,
                                   {"a.js": MAIN.replace("pipliteUrls", "indexUrls")}, **v)
    _fails("kernel-messages", upstream.kernel_messages, MAIN.replace("Comlink", "Channel"), **v)
    assert "0.30.0" in _fails("pyodide-version", upstream.pyodide_version, 'PYODIDE_VERSION = "0.30.0"\n',
                              versions["pyodide"], **v)


def test_the_kernel_wheels_are_checked_against_its_index(tmp_path, versions):
    (tmp_path / "pyodide_kernel-0.7.0-py3-none-any.whl").write_bytes(b"a wheel")
    index = {"pyodide-kernel": {"releases": {"0.7.0": [{"filename": "pyodide_kernel-0.7.0-py3-none-any.whl",
                                                         "digests": {"sha256": "0" * 64}}]}}}
    (tmp_path / "all.json").write_text(json.dumps(index))
    assert "does not match the hash" in _fails("kernel-wheels", upstream.kernel_wheels, tmp_path,
                                               ("pyodide_kernel-*.whl",), versions=versions)
    assert "0 files ipykernel-*.whl" in _fails("kernel-wheels", upstream.kernel_wheels, tmp_path,
                                               ("ipykernel-*.whl",), versions=versions)


def test_the_pyodide_checks_fail_on_a_changed_core(tmp_path, versions):
    for name in build.PYODIDE_FILES:
        (tmp_path / name).write_text("globalThis.loadPyodide = 1; _loadSnapshot" if name == "pyodide.js" else "x")
    upstream.pyodide_core(tmp_path, build.PYODIDE_FILES)
    (tmp_path / "python_stdlib.zip").unlink()
    assert "python_stdlib.zip" in _fails("pyodide-core", upstream.pyodide_core, tmp_path, build.PYODIDE_FILES,
                                         versions=versions)
    upstream.pyodide_snapshot("_loadSnapshot", "_makeSnapshot makeMemorySnapshot")
    assert "makeMemorySnapshot" in _fails("pyodide-snapshot", upstream.pyodide_snapshot, "_loadSnapshot",
                                          "_makeSnapshot", versions=versions)


BUNDLE = ('const A=document.querySelector(`[cell-index="${e+1}"]`);window.update_loading_text(e+1,s,null);'
          'window.display_cells();p.fromString(i.PageConfig.getOption("notebookSrc"));'
          'i.PageConfig.getOption("include_output");const b=s.p+"service-worker.js";i.searchParams.set("enableCache",n);'
          'const t=`${e}-version`;P=a.PageConfig.getOption("appVersion");const a=s.URLExt.join(s.PageConfig'
          '.getBaseUrl(),"api/contents",e,"all.json");const e=await fetch(a),i=JSON.parse(await e.text());'
          'for(const e of i.content)t.set(e.name,e)')
EXPORTER = ("    def __init__(self, *args, **kwargs):\n        self.files_url_prefix = kwargs.pop('files_url_prefix', '')\n"
            "        self.voici_configuration = kwargs.pop('voici_config')\n"
            "        self.page_config = kwargs.pop('page_config', {})\n"
            "            frontend='voici',\n    def cell_generator(self, nb, kernel_id):\n"
            "    def update_page_config(self, nb, resources, page_config):\n"
            "        page_config_copy['notebookSrc'] = nb\n")


def test_the_voici_and_jupyterlite_checks_fail_on_a_changed_bundle(versions):
    for fn in (upstream.voici_cell_index, upstream.voici_progress, upstream.jl_service_worker,
               upstream.jl_service_worker_key, upstream.jl_drive_listing):
        fn(BUNDLE)
    upstream.voici_page_config(BUNDLE, EXPORTER)
    upstream.voici_exporter(EXPORTER)
    v = dict(versions=versions)
    _fails("voici-cell-index", upstream.voici_cell_index, BUNDLE.replace("cell-index", "data-cell"), **v)
    assert "display_cells" in _fails("voici-progress", upstream.voici_progress,
                                     BUNDLE.replace("window.display_cells()", "app.ready()"), **v)
    assert "notebookSrc" in _fails("voici-page-config", upstream.voici_page_config,
                                   BUNDLE.replace('"notebookSrc"', '"notebook"'), EXPORTER, **v)
    assert "cell_generator" in _fails("voici-exporter", upstream.voici_exporter,
                                      EXPORTER.replace("cell_generator(self, nb, kernel_id)", "cells(self, nb)"), **v)
    _fails("jl-service-worker", upstream.jl_service_worker, BUNDLE.replace('"service-worker.js"', '"sw.js"'), **v)
    _fails("jl-service-worker-key", upstream.jl_service_worker_key, BUNDLE.replace("-version`", "-v`"), **v)
    _fails("jl-drive-listing", upstream.jl_drive_listing, BUNDLE.replace('"all.json"', '"index.json"'), **v)


def test_the_built_app_checks_fail_on_a_changed_app(tmp_path, versions):
    v = dict(versions=versions)
    upstream.jl_worker_script("const CACHE='precache';self.addEventListener('fetch', f);")
    assert "module" in _fails("jl-worker-script", upstream.jl_worker_script, "import { x } from './y.js';\n", **v)
    worker = ('const broadcast=new BroadcastChannel("/sw-api.v1");e.pathname.includes("/api/drive");'
              'if(c.browsingContextId!==a.browsingContextId||c.requestId!==a.requestId)return;')
    upstream.jl_worker_broadcast(worker)
    assert "requestId" in _fails("jl-worker-broadcast", upstream.jl_worker_broadcast,
                                 worker.replace("c.requestId!==a.requestId", "c.id!==a.id"), **v)
    assert "/sw-api.v1" in _fails("jl-worker-broadcast", upstream.jl_worker_broadcast,
                                  worker.replace("/sw-api.v1", "/sw-api.v2"), **v)
    config = {"jupyter-config-data": {"appVersion": "0.7.6", "federated_extensions": [{"name": build.KERNEL_EXTENSION}]}}
    upstream.lite_config(config)
    assert "appVersion" in _fails("lite-config", upstream.lite_config,
                                  {"jupyter-config-data": {"federated_extensions": []}}, **v)
    for rel in ("voici/build", f"extensions/{build.KERNEL_EXTENSION}/static", "api", "static"):
        (tmp_path / rel).mkdir(parents=True)
    (tmp_path / "service-worker.js").write_text("")
    upstream.lite_layout(tmp_path, build.KEEP, build.NEEDED)
    (tmp_path / "extensions" / "@jupyterlite" / "terminal-extension").mkdir()
    assert "extensions/@jupyterlite/terminal-extension" in _fails("lite-layout", upstream.lite_layout, tmp_path,
                                                                   build.KEEP, build.NEEDED, **v)


def test_the_template_ipython_and_pygments_checks_fail_on_changed_sources(versions):
    v = dict(versions=versions)
    blocks = "".join(f"{{%- block {b} -%}}{{% endblock %}}" for b in upstream.VOILA_BLOCKS)
    macros = "{% macro voila_setup_helper_functions() %}{% endmacro %}"
    upstream.voila_template([blocks], macros)
    assert "any_cell" in _fails("voila-template", upstream.voila_template, [blocks.replace("any_cell", "cell")],
                                macros, **v)
    upstream.ipython_terminal({"IPython/terminal/ptutils.py": "from prompt_toolkit import x\n"})
    assert "IPython/core/display.py" in _fails("ipython-terminal", upstream.ipython_terminal,
                                               {"IPython/core/display.py": "import prompt_toolkit\n"}, **v)
    mapping = "LEXERS = {\n    'PythonLexer': ('pygments.lexers.python', 'Python', ()),\n}\n"
    upstream.pygments_mapping(mapping, ("python",))
    _fails("pygments-mapping", upstream.pygments_mapping, mapping.replace("'PythonLexer': (", "PythonLexer = ("),
           ("python",), **v)


def test_every_check_passes_on_the_installed_tools():
    """The checks that need no built site, run in .venv-static on its tools (and the wheels and Pyodide core of
    the build's cache, where a build fetched them; every build runs all of them, those of the built app too)."""
    done = subprocess.run([STATIC_PYTHON, "-m", "cardkit.static_site.upstream"], capture_output=True, text=True,
                          cwd=ROOT)
    results = dict(ln.split(": ", 1) for ln in done.stdout.splitlines())
    assert done.returncode == 0 and set(results.values()) == {"ok"}, done.stdout + done.stderr
    built_app = {"jl-worker-script", "jl-worker-broadcast", "lite-config", "lite-layout"}
    fetched = {"pyodide-core", "pyodide-snapshot", "ipython-terminal", "pygments-mapping"}
    assert set(upstream.ASSUMPTIONS) - built_app - fetched <= set(results)
    if (build.DEFAULT_CACHE / "npm" / "node_modules" / "pyodide" / "pyodide.js").is_file():
        assert {"pyodide-core", "pyodide-snapshot"} <= set(results)


def test_a_check_with_a_fallback_warns_and_is_recorded_one_without_stops_the_build(capsys, monkeypatch):
    monkeypatch.setattr(upstream, "TAKEN", [])

    def changed():
        raise upstream.Changed("something else")
    assert build.assume("pyodide-snapshot", changed) is None
    (taken,) = upstream.TAKEN
    assert taken.startswith("pyodide ") and "falling back: no snapshot" in taken
    assert capsys.readouterr().err == f"cardkit build-static: warning: {taken}\n"
    with pytest.raises(build.BuildError, match=r"^voici-core \S+: something else; the static build expects Voici"):
        build.assume("voici-progress", changed)


def test_without_the_kernel_chunk_the_page_has_no_early_worker(tmp_path, monkeypatch):
    """The kernel's code changed: the page creates no early worker (the template's head leaves it out for an empty
    chunk name), and where the worker no longer loads Pyodide as the preload expects, it loads Pyodide's own."""
    monkeypatch.setattr(upstream, "TAKEN", [])
    monkeypatch.setattr(build, "PYODIDE_URL", build.PYODIDE_URL)
    static = tmp_path / "extensions" / build.KERNEL_EXTENSION / "static"
    static.mkdir(parents=True)
    (tmp_path / "static" / "pyodide").mkdir(parents=True)
    for name, text in EXTENSION.items():
        (static / name).write_text(text.replace("crossOriginIsolated?", "isolated?"))
    assert build.kernel_worker(tmp_path) == "" and not (tmp_path / "static" / "pyodide" / "kernel-worker.js").exists()
    assert build.PYODIDE_URL.endswith("pyodide-preload.js") and len(upstream.TAKEN) == 1
    (static / "352.def.js").write_text(WORKER.replace("importScripts(n),t=self.loadPyodide", "t=(await import(n))"))
    (static / "872.abc.js").write_text(MAIN)
    assert build.kernel_worker(tmp_path) == "" and build.PYODIDE_URL == "./static/pyodide/pyodide.js"
    assert "{%- if resources.ck_kernel_chunk %}" in build.PAGE_TEMPLATE.read_text()
    assert build.page_config({"federated_extensions": []}, "x.ipynb")["litePluginSettings"][build.KERNEL_PLUGIN][
        "pyodideUrl"] == "./static/pyodide/pyodide.js"


def test_a_pyodide_without_its_snapshot_api_gives_a_site_without_a_snapshot(tmp_path, monkeypatch):
    monkeypatch.setattr(upstream, "TAKEN", [])
    (tmp_path / "pyodide.js").write_text("loadPyodide")
    (tmp_path / "pyodide.asm.js").write_text("makeMemorySnapshot")
    assert build.memory_snapshot(tmp_path) is None and "_loadSnapshot" in upstream.TAKEN[0]
    lock = {"packages": {n: {"depends": [], "file_name": f"{n}.whl"} for n in
                         (re.sub(r"[-_.]+", "-", p).lower() for p in build.PRELOAD)}}
    for name in ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", *(p["file_name"] for p in lock["packages"].values())]:
        (tmp_path / name).write_bytes(b"12")
    assert "pyodide-memory.gz" not in build.start_downloads(tmp_path, lock, None)


def test_the_build_s_scripts_carry_each_slot_once_and_a_missing_one_is_refused():
    for name, slots in build.SLOTS.items():
        text = (build.HERE / name).read_text()
        assert all(text.count(slot) == 1 for slot in slots.values()), name
        filled = build.fill(name, {what: "FILLED" for what in slots})
        assert not re.search(r"/\*[A-Z]+\*/", filled) and filled.count("FILLED") == len(slots)
    with pytest.raises(build.BuildError, match=r"^kernel-worker.js lacks its slot /\*CHUNK\*/"):
        build.fill("kernel-worker.js", {"packages": "[]", "chunk": '""'}, text="/*PACKAGES*/[]")
    assert build.PAGE_TEMPLATE.is_file() and build.PAGE_SCRIPT.is_file()
    assert 'frontend == "voici"' in build.PAGE_TEMPLATE.read_text()


def test_docs_print_the_table_of_assumptions_as_it_is():
    assert upstream.markdown_table() in (ROOT / "docs" / "publishing.md").read_text()
    assert len(upstream.TABLE) == len(upstream.ASSUMPTIONS) >= 18
