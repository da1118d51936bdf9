"""The site's kernel: ipykernel with one guard around every widget message from the browser.

A visitor's script can send any comm message: a wrong-typed value for any synced trait, a click on
any button, thousands of new widget models. ipykernel, ipywidgets and comm would answer a failure
with a traceback on iopub (``showtraceback`` in ipywidgets' CallbackDispatcher and ``_handle_msg``,
the comm manager's ``logger.error(..., exc_info=True)``, which reaches the kernel's stderr, which
ipykernel forwards to the browser). The guard replaces the kernel's ``comm_open``/``comm_msg``/
``comm_close`` shell handlers with copies of comm's own that

- catch every exception (and every ``showtraceback`` call and warning) while the message is handled,
- log it, with its traceback, on the *server*: to the kernel's original stderr (ipykernel keeps a
  copy of fd 2 as ``sys.stderr._original_stdstream_copy`` before it points fd 2 at the pipe it
  forwards to the browser), which is the Voilà server's log,
- re-send the widget's true state (``send_state``), so the page's copy of a forged value is
  corrected, and
- show one short line (``NOTICE``) through ``_ck_notice(text)`` of the nearest kit widget that
  contains the model (``PlayTable``, ``Replay``, ``RuleCard``, ``RuleTable``, ``RuleFinder``);
- and refuse comm_opens from the browser beyond ``MAX_BROWSER_COMMS`` per kernel (the kit's pages
  need one: ipywidgets' ``jupyter.widget.control`` comm, opened by each widget manager).

What one kernel writes to the server's log is bounded: the first ``MAX_LOGGED`` failures (and refusals,
warnings, stray stderr lines) one by one, with their tracebacks; after that one line a minute
(``SUMMARY_INTERVAL``) saying how many more there were. A browser that sends nothing but messages that
fail (``GARBAGE_LIMIT`` in a row, none handled without a failure in between) has its kernel closed: it
ends itself, the server does not restart it (``KernelRestarter.restart_limit=0``), and the page says the
table was closed.

This file is the kernel's launcher (``kernels/python3/kernel.json`` in the site's Jupyter data
directory runs it in place of ``ipykernel_launcher``), so every kernel the site starts has the guard
whatever its notebook holds. It is run as a script, not imported as ``widgets.guard``: importing the
``widgets`` package would load the whole UI (and its style sheet) into every kernel.
"""
from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import sys
import time
import warnings

NOTICE = "That did not work, so nothing changed."
MAX_BROWSER_COMMS = 16      # comm_opens a browser may make in one kernel (a page makes 1)
MAX_LOGGED = 20             # failures logged one by one (with tracebacks) per kernel; then SUMMARY_INTERVAL
SUMMARY_INTERVAL = 60.0     # seconds: at most one line this often about the failures not logged one by one
GARBAGE_LIMIT = 5000        # messages in a row that fail or are refused: the kernel closes itself (a page
                            # that a script sends a wrong value of every trait of every widget: about 1,000)
KERNEL_NICE = 5             # the kernels' scheduling priority below the server's (main())

log = logging.getLogger("cardkit.guard")


def server_stream():
    """A text stream to the server's log that the browser never receives: the kernel's original
    stderr, which ipykernel duplicated before redirecting fd 2 into its forwarding pipe."""
    fd = getattr(sys.stderr, "_original_stdstream_copy", None)
    if fd is None:   # fd 2 is not captured (capture_fd_output off): the real stderr is the server's
        err = sys.__stderr__                     # (None only in an interpreter started without one)
        assert err is not None
        fd = err.fileno()
    return open(os.dup(fd), "w", buffering=1, encoding="utf-8", errors="replace")


class Guard:
    def __init__(self, kernel):
        self.kernel = kernel
        self.browser_comms = 0
        self.failures = 0           # browser messages that failed or were refused, in all
        self.logged = 0             # lines logged one by one
        self.unlogged = 0           # lines not logged since the last summary
        self.summed = time.monotonic()
        self.streak = 0             # failed or refused messages since the last one handled without failure

    # what one kernel writes to the server's log ------------------------------------------------
    def note(self, level, text, *args, exc_info=None) -> None:
        """Log a line about a browser message: the first MAX_LOGGED one by one, then a count a minute."""
        if self.logged < MAX_LOGGED:
            self.logged += 1
            log.log(level, text, *args, exc_info=exc_info)
            if self.logged == MAX_LOGGED:
                log.warning("%d messages from the browser logged; from now on they are counted, one line "
                            "every %g s", MAX_LOGGED, SUMMARY_INTERVAL)
            return
        self.unlogged += 1
        self.summary()

    def summary(self, now: bool = False) -> None:
        """The line about the messages not logged one by one, if there are any and a minute has passed."""
        t = time.monotonic()
        if self.unlogged and (now or t - self.summed >= SUMMARY_INTERVAL):
            log.warning("%d more lines about messages from the browser in the last %.0f s, not logged one by "
                        "one (%d failed or refused in all)", self.unlogged, t - self.summed, self.failures)
            self.unlogged, self.summed = 0, t

    def _garbage(self) -> None:
        """A message that failed or was refused: a kernel sent nothing else GARBAGE_LIMIT times in a row
        closes itself (the page then says the table was closed)."""
        self.streak += 1
        if self.streak >= GARBAGE_LIMIT:
            self.summary(now=True)
            log.warning("closing this kernel: %d messages from the browser in a row failed or were refused",
                        self.streak)
            for h in logging.getLogger().handlers:
                with contextlib.suppress(Exception):
                    h.flush()
            os.kill(os.getpid(), signal.SIGTERM)

    # the three shell handlers ------------------------------------------------------------------
    def comm_open(self, stream, ident, msg):
        from comm import create_comm
        content = msg["content"]
        comm_id, target = content.get("comm_id"), content.get("target_name")
        manager = self.kernel.comm_manager
        self.browser_comms += 1
        comm = create_comm(comm_id=comm_id, primary=False, target_name=target)
        manager.register_comm(comm)
        if self.browser_comms > MAX_BROWSER_COMMS or target not in manager.targets:
            self.failures += 1
            self.note(logging.WARNING, "refused comm_open %d from the browser (target %r)", self.browser_comms,
                      target)
            with contextlib.suppress(Exception):
                comm.close()
            self._garbage()
            return
        if not self._handle(lambda: manager.targets[target](comm, msg), comm_id, "comm_open"):
            with contextlib.suppress(Exception):
                comm.close()

    def comm_msg(self, stream, ident, msg):
        comm_id = msg["content"].get("comm_id")
        comm = self.kernel.comm_manager.comms.get(comm_id)
        if comm is not None:
            self._handle(lambda: comm.handle_msg(msg), comm_id, "comm_msg")
        else:
            self._garbage()         # for no model: nothing to log, but nothing a page sends either

    def comm_close(self, stream, ident, msg):
        comm_id = msg["content"].get("comm_id")
        comm = self.kernel.comm_manager.comms.pop(comm_id, None)
        if comm is not None:
            comm._closed = True
            self._handle(lambda: comm.handle_close(msg), comm_id, "comm_close")
        else:
            self._garbage()

    # ------------------------------------------------------------------------------------------
    def _handle(self, run, comm_id, kind) -> bool:
        """Run the handler; True if nothing failed. Failures are logged server-side, the model's
        state is sent again and the visitor gets NOTICE."""
        shell = self.kernel.shell
        failed: list = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            shell.showtraceback = lambda *a, **k: failed.append(sys.exc_info())
            try:
                with contextlib.redirect_stderr(_LogWriter(self)):
                    run()
            except Exception:
                failed.append(sys.exc_info())
            finally:
                del shell.showtraceback   # the class's own method again
        for w in caught:
            self.note(logging.INFO, "warning in %s for %s: %s", kind, comm_id, warnings.formatwarning(
                w.message, w.category, w.filename, w.lineno).strip())
        if not failed:
            self.streak = 0
            return True
        for info in failed:
            self.failures += 1
            self.note(logging.ERROR, "%s for %s from the browser failed: %s: %s", kind, comm_id,
                      getattr(info[0], "__name__", info[0]), info[1], exc_info=info)
        self._repair(comm_id)
        self._garbage()
        return False

    def _repair(self, comm_id) -> None:
        widgets = _widget_instances()
        widget = widgets.get(comm_id)
        if widget is None:
            return
        try:
            widget.send_state()   # the page's copy of a forged value is corrected
        except Exception:
            log.error("could not re-send the state of %s", comm_id, exc_info=True)
        owner = _nearest_kit_widget(widget, widgets)
        if owner is not None:
            try:
                owner._ck_notice(NOTICE)
            except Exception:
                log.error("could not show the notice for %s", comm_id, exc_info=True)


class _LogWriter:
    """sys.stderr while a browser message is handled: lines go to the server log (within the guard's
    bound)."""
    def __init__(self, guard: Guard):
        self.guard = guard

    def write(self, text):
        if text.strip():
            self.guard.note(logging.WARNING, "stderr: %s", text.rstrip())
        return len(text)

    def flush(self):
        pass


def _widget_instances() -> dict:
    mod = sys.modules.get("ipywidgets.widgets.widget")
    return getattr(mod, "_instances", {}) if mod is not None else {}


def _nearest_kit_widget(widget, widgets: dict):
    """The widget itself or the closest box holding it (through `children`) with `_ck_notice`."""
    parent: dict = {}
    for w in list(widgets.values()):
        for child in getattr(w, "children", ()) or ():
            parent.setdefault(getattr(child, "model_id", None), w)
    seen = set()
    while widget is not None and id(widget) not in seen:
        if callable(getattr(widget, "_ck_notice", None)):
            return widget
        seen.add(id(widget))
        widget = parent.get(widget.model_id)
    return None


def install(kernel) -> Guard:
    """Route the kernel's logging to the server and put the guard in front of its comm handlers."""
    handler = logging.StreamHandler(server_stream())
    handler.setFormatter(logging.Formatter(f"[cardkit kernel {os.getpid()}] %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(handler)   # comm's "Comm" logger and others propagate here,
    log.setLevel(logging.INFO)                # never to sys.stderr (the browser)
    guard = Guard(kernel)
    for kind in ("comm_open", "comm_msg", "comm_close"):
        kernel.shell_handlers[kind] = getattr(guard, kind)
    atexit.register(guard.summary, now=True)   # the count not yet said, when the kernel ends
    return guard


def main() -> None:
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]   # run as a script: this folder's modules must not shadow top-level names
    # ipywidgets echoes every state a browser sends to every front end *before* validating it, so a
    # forged value would reach the page's views; each kernel here has one page, which needs no echo.
    os.environ["JUPYTER_WIDGETS_ECHO"] = "0"
    # The Voilà server is one process serving every visitor (pages, websockets); a kernel serves one.
    # Under a burst of visitors the kernels must not starve it.
    with contextlib.suppress(OSError):
        os.nice(KERNEL_NICE)
    from ipykernel.kernelapp import IPKernelApp

    class GuardedKernelApp(IPKernelApp):
        def init_kernel(self):
            super().init_kernel()
            install(self.kernel)

    GuardedKernelApp.launch_instance()


if __name__ == "__main__":
    main()
