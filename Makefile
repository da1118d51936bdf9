# Two commands do all set-up on a fresh machine:
#   make site   - install the kit with the site extras into .venv and serve the site on 127.0.0.1:8866
#   make test   - install what the tests need (Debian's chromium included) and run every test
PY     ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8866

.PHONY: site test install-site install-test browser bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# byte-compiled once here: each visitor's kernel imports the kit, and where PYTHONDONTWRITEBYTECODE is set
# (containers, CI) it would otherwise compile it anew on every page visit (about 55 ms of CPU)
install-site: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[site]'
	$(BIN)/python -m compileall -q cardkit widgets

install-test: $(BIN)/python browser
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m compileall -q cardkit widgets

# Playwright's own browser download does not work here: the tests drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

site: install-site
	$(BIN)/cardkit serve --port $(PORT)

test: install-test
	$(BIN)/python -m pytest tests notebooks --nbval-lax -q

bench: install-test
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/cardkit bench
