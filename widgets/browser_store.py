"""A folder that outlives the page, in the visitor's own browser (the static site only).

On the static site Python runs in the browser: a reload starts it anew, and a play table under way would be
lost. The table keeps its game in this folder instead (``widgets.play.kept_game``), as `cardkit serve` keeps it
in the server's: Pyodide's file system mounts the browser's IndexedDB there (Emscripten's IDBFS), filled from
the browser's storage when Python starts and written back after every change. It holds the whole record, the
computer's cards included — on the static site they are in the browser anyway (docs/publishing.md, "A practice
table"); the page still shows only the table's view.

Reading the browser's storage takes a moment, so `when_ready(f)` calls `f` once the folder is filled (at once if
it is); `folder()` is None until then, and everywhere but in a browser.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

MOUNT = Path("/cardkit-kept")
_state: dict[str, Any] = {"ready": False, "started": False, "waiting": [], "writing": False, "again": False}


def in_browser() -> bool:
    return sys.platform == "emscripten"


def _fs():
    import pyodide_js
    return pyodide_js.FS


def start() -> None:
    """Mount the folder and fill it from the browser's storage (once; nothing outside a browser)."""
    if _state["started"] or not in_browser():
        return
    _state["started"] = True
    try:
        from pyodide.ffi import create_once_callable
        fs = _fs()
        fs.mkdirTree(str(MOUNT))
        fs.mount(fs.filesystems.IDBFS, {}, str(MOUNT))
    except Exception:          # no IndexedDB (a private window of some browsers): nothing is kept
        return

    def filled(err=None):
        if err:
            return
        _state["ready"] = True
        waiting, _state["waiting"] = _state["waiting"], []
        for f in waiting:
            try:
                f()
            except Exception:
                pass
    fs.syncfs(True, create_once_callable(filled))


def folder() -> Path | None:
    """The folder, once filled from the browser's storage; None before and outside a browser."""
    return MOUNT if _state["ready"] else None


def when_ready(f) -> None:
    """Call `f` once the folder is filled (at once if it is already)."""
    if _state["ready"]:
        f()
    elif _state["started"]:
        _state["waiting"].append(f)


def persist() -> None:
    """Write the folder back to the browser's storage (one write at a time; a change meanwhile writes again)."""
    if not _state["ready"]:
        return
    if _state["writing"]:
        _state["again"] = True
        return
    from pyodide.ffi import create_once_callable
    _state["writing"] = True

    def done(err=None):
        _state["writing"] = False
        if _state["again"]:
            _state["again"] = False
            persist()
    _fs().syncfs(False, create_once_callable(done))
