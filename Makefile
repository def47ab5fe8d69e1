# The two set-up commands: `make run` serves the app, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# `make run` serves the whole table: it listens on every network address of this computer,
# so the other phones on the Wi-Fi open it (README; docs/DEPLOY.md says why this is the
# default); `make run HOST=127.0.0.1` keeps it to this computer.
HOST ?= 0.0.0.0
PORT ?= 5000

.PHONY: run serve test test-setup db bench load lock clean translations pyodide

# The phone's offline scoring runs the core under Pyodide (docs/OFFLINE_CORE.md): the npm
# registry's package, pinned by version and by the registry's sha512 integrity, fetched
# once by the set-up into PYODIDE_DIR (no Node needed); its standard library is cut to what
# the core imports (tools/core_stdlib.txt) and every served file compressed at brotli 10
# (about two minutes the first time, then only what changed). Without npm or network the
# app still runs; in CI (CI=1) the fetch must succeed.
PYODIDE_VERSION := 314.0.7
PYODIDE_INTEGRITY := sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==
PYODIDE_DIR := build/pyodide
export PYODIDE_VERSION PYODIDE_DIR

# Direct dependencies are pinned in pyproject.toml, every transitive one in constraints.txt
# (written by `make lock`), pip and pip-tools themselves here. The set-up speaks only to say what it does once, or when it fails.
PIP_VERSION := 26.3
PIP_TOOLS_VERSION := 7.6.2
PIP := $(BIN)/pip --quiet --quiet --disable-pip-version-check --no-input
# setuptools warns on every editable install; the warning is about other set-ups than this one
QUIET_BUILD := PYTHONWARNINGS="ignore:Editable installation"

# --no-compile: Python compiles a module when it is first imported, and only those imported
# (pip's compiling of every file was 7 of the install's 18 s, docs/TESTING.md)
$(STAMP): pyproject.toml constraints.txt
	@echo "Installing the pinned dependencies into $(VENV) (once)"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) install "pip==$(PIP_VERSION)"
	@$(QUIET_BUILD) $(PIP) install --no-compile -c constraints.txt -e ".[test]"
	@touch $(STAMP)

db: $(STAMP)
	@$(BIN)/flask --app wsgi db upgrade

# Translations (docs/TRANSLATING.md): the German catalog messages.po is the source.
# `make translations` extracts every string into messages.pot and merges it into the
# catalog: new strings come in empty, changed ones keep their German marked fuzzy. The
# compiled messages.mo is built from the catalog by the set-up, not kept in git.
# babel.cfg names the files and keywords; Babel skips folders beginning with "_"
# (templates/_partials) unless told which to skip. tests/test_i18n.py extracts with the
# same EXTRACT_OPTIONS and fails on a catalog out of date, untranslated or fuzzy.
TRANSLATIONS := tichu_scorer/translations
POT := $(TRANSLATIONS)/messages.pot
PO := $(TRANSLATIONS)/de/LC_MESSAGES/messages.po
MO := $(PO:.po=.mo)
EXTRACT_OPTIONS := -F babel.cfg --ignore-dirs='.*' --no-location --sort-output --omit-header

translations: $(STAMP)
	$(BIN)/pybabel -q extract $(EXTRACT_OPTIONS) -o $(POT) .
	$(BIN)/pybabel -q update -i $(POT) -d $(TRANSLATIONS) --ignore-pot-creation-date --ignore-obsolete

# A catalog with a broken placeholder fails here, and leaves no .mo to be taken as current.
$(MO): $(PO) | $(STAMP)
	@$(BIN)/pybabel -q compile -d $(TRANSLATIONS) || { rm -f $@; exit 1; }

pyodide: $(STAMP)
	@$(BIN)/python tools/fetch_pyodide.py $(PYODIDE_VERSION) $(PYODIDE_INTEGRITY) $(PYODIDE_DIR) $(if $(CI),--required)

# First PUBLIC_URL is checked and the address the other phones open printed, with its QR code.
run: $(STAMP) $(MO) pyodide
	@$(BIN)/python -m tichu_scorer.lan $(HOST) $(PORT)
	@$(BIN)/flask --app wsgi db upgrade
	@$(BIN)/flask --app wsgi run --host $(HOST) --port $(PORT)

# Production: gunicorn (set TICHU_ENV=production, SECRET_KEY and, for PostgreSQL, DATABASE_URL).
# The live process (live pages' streams, the proxy sends /live/s/ to it) runs beside it on
# LIVE_BIND; LIVE_BIND= (empty) leaves it out, and the pages ask gunicorn instead.
LIVE_BIND ?= 127.0.0.1:8001
serve: db $(MO) pyodide
	LIVE_BIND=$(LIVE_BIND) $(BIN)/gunicorn -c gunicorn.conf.py wsgi:app

# What the tests need, made once (CI makes it before its two runs start at once).
test-setup: $(STAMP) $(MO) pyodide

# Tests run on TEST_WORKERS parallel workers (pytest-xdist; 0 runs them in this process);
# PYTEST_ARGS adds options (CI adds coverage). Compiled modules are kept in __pycache__
# (ignored by git) even where the environment says not to write them: otherwise every
# worker and every server a test starts compiles the app and the tests again (about 3 s of
# CPU each).
TEST_WORKERS ?= 3
test: test-setup
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_referee.py 10000

load: $(STAMP) $(MO)
	$(BIN)/python benchmarks/load.py

# constraints.txt from pyproject.toml with pip-tools: `make lock` after changing a pin there,
# `make lock LOCK_ARGS=--upgrade` (or `LOCK_ARGS="--upgrade-package flask"`) to take newer
# releases of what is not pinned; the diff of constraints.txt is the review.
lock: $(STAMP)
	@$(PIP) install "pip-tools==$(PIP_TOOLS_VERSION)"
	$(BIN)/pip-compile --quiet --extra test --strip-extras --no-emit-index-url \
	  --no-emit-find-links --output-file constraints.txt $(LOCK_ARGS) pyproject.toml

clean:
	rm -rf $(VENV) *.egg-info build
