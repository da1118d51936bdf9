# Two commands do all set-up on a fresh machine:
#   make site   - install the kit with the site extras into .venv and serve the site on 127.0.0.1:8866
#   make test   - install what the tests need (Debian's chromium and nodejs included) and run every test
# and one publishes the site:
#   make static - build the whole site as static files in _site/ (Python runs in the visitor's browser):
#                 copy that folder to any web host (docs/publishing.md)
# The static build's tools (Voici, JupyterLite and its Pyodide kernel) live in a venv of their own,
# .venv-static: in .venv, Voilà would load JupyterLite's kernel extension into every page of `make site`,
# which then fails in the browser's console. `cardkit build-static` run from .venv finds that venv itself.
PY     ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SVENV  := .venv-static
SBIN   := $(SVENV)/bin
PORT   ?= 8866
STATIC ?= _site

.PHONY: site test static install-site install-test install-static browser node bench

# uv installs the packages (the versions pip would choose, from PyPI, and their bytecode compiled as pip does):
# `make install-test` on a clean clone takes about 22 s, 55 s with pip (docs/benchmarks.md).
# uv itself comes from PyPI into .venv, pinned, with the venv's own pip. --system-certs: the machine's certificate
# store, as pip uses it (where a proxy signs the registry's certificates, uv's own store refuses them)
UV_VERSION := 0.13.9
UV         := $(BIN)/uv
UVPIP      := $(UV) pip install --quiet --compile-bytecode --system-certs

$(BIN)/python:
	$(PY) -m venv $(VENV)

$(UV): $(BIN)/python
	$(BIN)/python -m pip install --quiet uv==$(UV_VERSION)

# (a plain venv, with its pip: the static build runs `pip download` and `pip wheel` there)
$(SBIN)/python:
	$(PY) -m venv $(SVENV)

# A .venv that an earlier `make static` filled with the static build's tools is cleared of them (Voilà would load
# their JupyterLite extension into every page); where they are not there, this costs half a second.
STATIC_TOOLS := voici-core jupyterlite-core jupyterlite-pyodide-kernel
define clear-static-tools
	@$(UV) pip uninstall --quiet --python $(BIN)/python $(STATIC_TOOLS) >/dev/null 2>&1 || true
endef

# byte-compiled once here: each visitor's kernel imports the kit, and where PYTHONDONTWRITEBYTECODE is set
# (containers, CI) it would otherwise compile it anew on every page visit (about 55 ms of CPU)
install-site: $(UV)
	$(clear-static-tools)
	$(UVPIP) --python $(BIN)/python -e '.[site]'
	$(BIN)/python -m compileall -q cardkit widgets

# the tests build the static site too: with the static venv's tools (tests/conftest.py), never in .venv
install-test: $(UV) browser install-static
	$(clear-static-tools)
	$(UVPIP) --python $(BIN)/python -e '.[test]'
	$(BIN)/python -m compileall -q cardkit widgets
	cd tests/axe && npm ci --ignore-scripts --no-audit --no-fund --silent   # axe-core, as its lock pins it

# the kit itself is installed there too (editable): the build runs every page once with it
install-static: $(SBIN)/python $(UV) node
	$(UVPIP) --python $(SBIN)/python -e '.[static]'

# Playwright's own browser download does not work here: the tests drive Debian's chromium, its old headless
# shell where they can (cheaper; cardkit/site.py says why) and the browser itself for an app window.
browser:
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium \
	    chromium-headless-shell >/dev/null; }

# The static build takes the Pyodide core from npm and compiles the browser's wheels with it in Node.js.
node:
	@command -v npm >/dev/null 2>&1 || { \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nodejs npm >/dev/null; }

site: install-site
	$(BIN)/cardkit serve --port $(PORT)

static: install-static
	$(SBIN)/cardkit build-static $(STATIC)

# three workers, each test file on one of them: a file's expensive set-ups (a Voilà server, the static site's
# build, a browser) are made once; the longest files go first (tests/conftest.py). Three on this machine's two
# cores, as the browser tests spend much of their time waiting for Chromium, the Voilà kernels and Pyodide
test: install-test
	$(BIN)/python -m pytest tests notebooks --nbval-lax -q -n 3 --dist loadfile

bench: install-test
	$(UVPIP) --python $(BIN)/python -e '.[bench]'
	$(BIN)/cardkit bench
