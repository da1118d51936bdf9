"""The `cardkit` command as a user meets it: a setting the site cannot honour is one line and exit 2 before
anything starts, the address is printed only once the server answers on it, and Ctrl-C stops a command with
one line (exit 130), never a traceback."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from cardkit.cli import main

CARDKIT = [sys.executable, "-m", "cardkit.cli"]


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def _nothing_starts(monkeypatch) -> None:
    """Starting the server fails the test (instead of serving until it is stopped)."""
    import cardkit.site

    def popen(*args, **kwargs):
        raise AssertionError("the server was started")
    monkeypatch.setattr(cardkit.site.subprocess, "Popen", popen)


@pytest.mark.parametrize("args, words", [
    (["--port", "-1"], "--port must be a port number from 1 to 65535, not -1"),
    (["--port", "99999"], "--port must be a port number from 1 to 65535, not 99999"),
    (["--port", "0"], "--port must be a port number from 1 to 65535, not 0"),
    (["--max-kernels", "0"], "--max-kernels must be at least 1, not 0"),
    (["--max-kernels", "-3"], "--max-kernels must be at least 1, not -3"),
    (["--pool-size", "-1"], "--pool-size must be 0 (no preheated kernels) or more, not -1"),
], ids=["port -1", "port 99999", "port 0", "max-kernels 0", "max-kernels -3", "pool-size -1"])
def test_serve_refuses_what_it_cannot_do(args, words, capsys, monkeypatch):
    """--port -1 printed the address and then a traceback, --port 99999 listened on another port,
    --max-kernels 0 meant 24 and --pool-size -1 was taken: each is one line and exit 2, no address."""
    _nothing_starts(monkeypatch)
    assert main(["serve", *args]) == 2
    out, err = capsys.readouterr()
    assert _one_line(err) == f"cardkit: {words}" and out == ""


def test_serve_on_a_port_in_use_says_so_before_anything_starts(capsys, monkeypatch):
    """It printed the address as if the server had started, then Voilà's lines about another port."""
    _nothing_starts(monkeypatch)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "http://" not in err
    assert _one_line(err) == (f"cardkit: port {port} on 127.0.0.1 is in use (another server, or the site already "
                              "running?): stop it, or give --port N")


def test_serve_prints_the_address_once_the_server_answers_on_it():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([*CARDKIT, "serve", "--port", str(port)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith(f"cardkit site: http://127.0.0.1:{port}/voila/render/index.ipynb")
        # the moment it is printed, the address answers
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/voila/static/voila.js", timeout=5) as r:
            assert r.status == 200
    finally:
        os.killpg(proc.pid, signal.SIGINT)          # Ctrl-C in its terminal
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _as_a_terminal_starts_it():
    """A program started from a terminal's shell takes Ctrl-C: SIGINT neither ignored nor blocked. The test
    runner's worker process may have either (a library it ran ignores SIGINT, as Jupyter's kernels do), and a
    child inherits both."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _signal_state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/status") as f:
            return " ".join(line.strip() for line in f if line.startswith(("SigBlk", "SigIgn")))
    except OSError:
        return "(gone)"


def test_ctrl_c_stops_a_match_with_one_line():
    """It printed a KeyboardInterrupt traceback."""
    proc = subprocess.Popen([*CARDKIT, "match", "sieben", "--games", "1000000"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=_as_a_terminal_starts_it)
    time.sleep(3)                                    # well into the games
    os.killpg(proc.pid, signal.SIGINT)               # Ctrl-C in its terminal
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        state = _signal_state(proc.pid)
        os.killpg(proc.pid, signal.SIGKILL)          # not left playing a million games beside the other tests
        proc.communicate()
        raise AssertionError(f"cardkit match did not stop within 30 s of Ctrl-C ({state})") from None
    assert proc.returncode == 130
    assert _one_line(err) == "cardkit: stopped"


def test_ctrl_c_at_the_prompt_of_a_game_stops_with_one_line(monkeypatch, capsys):
    def ctrl_c(prompt=""):
        raise KeyboardInterrupt
    monkeypatch.setattr("builtins.input", ctrl_c)
    assert main(["play", "sieben", "--seed", "1"]) == 130
    out, err = capsys.readouterr()
    assert out.endswith("\n") and _one_line(err) == "cardkit: stopped"


def test_ctrl_c_in_a_measurement_keeps_its_chunks_and_says_so(tmp_path, monkeypatch, capsys):
    from cardkit.impact import measure
    monkeypatch.setattr(measure, "data_dir", lambda: tmp_path)
    monkeypatch.setattr(measure, "CHUNK", 2)
    real_add, seen = measure.OptionRun.add, []

    def add(self, seed, trace):
        if len(seen) == 3:                       # seeds 0-1 (a chunk) done, seed 2 under way
            raise KeyboardInterrupt
        seen.append(seed)
        real_add(self, seed, trace)
    monkeypatch.setattr(measure.OptionRun, "add", add)
    assert main(["impact", "faro", "--games", "4", "--option", "doublets", "--no-bar"]) == 130
    _, err = capsys.readouterr()
    assert _one_line(err) == ("cardkit: stopped (the chunks of seeds finished are kept: the same command goes on "
                              "from them)")
    assert (tmp_path / "faro.part").is_file() and not (tmp_path / "faro.json").exists()
