# Two commands do all set-up on a fresh machine:
#   make site   - install the kit with the site extras into .venv and serve the site on 127.0.0.1:8866
#   make test   - install what the tests need (Debian's chromium and nodejs included) and run every test
# and one publishes the site:
#   make static - build the whole site as static files in _site/ (Python runs in the visitor's browser):
#                 copy that folder to any web host (docs/publishing.md)
PY     ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8866
STATIC ?= _site

.PHONY: site test static install-site install-test install-static browser node bench

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# byte-compiled once here: each visitor's kernel imports the kit, and where PYTHONDONTWRITEBYTECODE is set
# (containers, CI) it would otherwise compile it anew on every page visit (about 55 ms of CPU)
install-site: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[site]'
	$(BIN)/python -m compileall -q cardkit widgets

install-test: $(BIN)/python browser node
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m compileall -q cardkit widgets

install-static: $(BIN)/python node
	$(BIN)/python -m pip install --quiet -e '.[static]'

# Playwright's own browser download does not work here: the tests drive Debian's chromium.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# The static build takes the Pyodide core from npm and compiles the browser's wheels with it in Node.js.
node:
	@command -v npm >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nodejs npm >/dev/null; }

site: install-site
	$(BIN)/cardkit serve --port $(PORT)

static: install-static
	$(BIN)/cardkit build-static $(STATIC)

# three workers, each test file on one of them: a file's expensive set-ups (a Voilà server, the static site's
# build, a browser) are made once; the longest files go first (tests/conftest.py). Three on this machine's two
# cores, as the browser tests spend much of their time waiting for Chromium, the Voilà kernels and Pyodide
test: install-test
	$(BIN)/python -m pytest tests notebooks --nbval-lax -q -n 3 --dist loadfile

bench: install-test
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/cardkit bench
