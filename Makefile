# Two commands do all the set-up on a fresh clone: `make run` and `make test`.
# The set-up itself lives in `manage.py serve`, so Windows runs it without make (README).
# `make check` is the quick loop while changing code: lint and every test but the browser.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
# Reinstall whenever pyproject.toml changes.
INSTALLED := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: run test check lint typecheck format install system-packages chromium poppler window wrk \
	screenshots bench crash-test bench-hosted \
	signin clean test-postgres postgresql messages gettext coverage package smoke-package \
	bundle smoke-bundle

# Tests run in parallel (pytest-xdist), one worker per core; each worker has its own test
# database, live server and browser. WORKERS=1 (or 0: no workers) runs them in one process.
# `make test` runs two workers a core: a browser test spends much of its time waiting for
# Chromium and the live server (with one a core, the run kept about one core of two busy),
# and another worker's test fills that time.
WORKERS ?= auto
CORES := $(shell nproc 2>/dev/null || echo 1)
TEST_WORKERS ?= $(if $(filter auto,$(WORKERS)),$(shell echo $$((2 * $(CORES)))),$(WORKERS))
PYTEST := $(BIN)/python -m pytest -n $(WORKERS)
# The test runs keep compiled modules (.pyc) even where PYTHONDONTWRITEBYTECODE is set (an
# empty value turns it off): pytest caches each test module with its asserts rewritten only
# where bytecode may be written, and without that cache each xdist worker compiled all the
# test modules again on every run, about 6 s of CPU each (9.6 s to collect instead of 3.5);
# the servers the tests start compiled the app's modules again too.
test check test-postgres coverage screenshots: export PYTHONDONTWRITEBYTECODE :=

run: $(INSTALLED)
	$(BIN)/python manage.py serve --port $(PORT)

# Everything: ruff, then the whole suite, real-browser tests included.
# --dist worksteal: a worker that runs out of tests takes half of another's queue, so one
# worker left with a long file does not end the run alone (the idle shares that the end of
# the run prints were 1 to 47 % with xdist's fixed shares; docs/PERFORMANCE.md).
test: $(INSTALLED) chromium poppler window gettext lint typecheck
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=30

# The quick loop while changing code (under 2 minutes on 2 idle cores): lint, types, and
# every test but the browser ones and the hosted bench's run (the `cluster` marker), each
# Hypothesis property with a few examples (the "check" profile in tests/conftest.py). `make test` runs all of it, with every example.
# CHECK_ARGS adds to pytest's, e.g. CHECK_ARGS=--randomly-seed=3 to repeat an order.
CHECK_ARGS ?=
check: $(INSTALLED) window gettext lint typecheck
	FIVETRICKS_HYPOTHESIS=check $(PYTEST) -m "not browser and not cluster" -q --durations=30 $(CHECK_ARGS)

# What can differ on PostgreSQL: the tests of the writes, reads and models that touch the
# database, the commands that copy whole events, the races between two connections, and
# one browser round (the `postgres` marker, tests/conftest.py), against
# a throwaway cluster that .ci/with-postgres starts, and stops afterwards. PYTEST_ARGS
# chooses other tests, e.g. PYTEST_ARGS="tests/tables -m 'postgres and not browser'".
PYTEST_ARGS ?= -m postgres
test-postgres: $(INSTALLED) chromium postgresql
	@$(BIN)/python -c 'import psycopg' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,postgres]"
	.ci/with-postgres $(PYTEST) $(PYTEST_ARGS)

# Which lines and branches of tournament/ and tables/ the whole suite runs
# ([tool.coverage.*] in pyproject.toml): a report per file, the total last.
coverage: $(INSTALLED) chromium poppler gettext
	$(PYTEST) -q --cov --cov-report=term-missing:skip-covered

# lint also checks the templates' style (djade, after Django's template style guide) and
# the spelling of code and docs (typos; its exceptions, each with its reason: _typos.toml).
lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	find templates -name '*.html' -exec $(BIN)/djade --check {} +
	$(BIN)/typos

# mypy with django-stubs ([tool.mypy] in pyproject.toml): strict on the rules, the default
# level elsewhere. Its cache in .mypy_cache makes a run after a small change a few seconds.
typecheck: $(INSTALLED)
	$(BIN)/mypy

format: $(INSTALLED)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	find templates -name '*.html' -exec $(BIN)/djade {} +

install: $(INSTALLED)

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (set PYTHON=...).")'
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test]"
	rm -f $(VENV)/.installed-*
	touch $@

# Debian packages the project needs beside Python, installed as root where apt is there;
# otherwise say how. $(call apt_install,COMMAND,PACKAGE,WHAT FOR,WITHOUT IT)
define apt_install
	@if ! command -v $(1) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's $(2) $(3)…"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
	  else \
	    echo "No $(2): $(4). Install it with: sudo apt-get install -y $(2)"; \
	  fi; \
	fi
endef

# The catalogues: find every marked message (new ones arrive untranslated, changed ones
# fuzzy; tests/test_catalogues.py fails until they are translated), then compile them.
# The compiled .mo files are committed, so `make run` needs no gettext (Windows, macOS).
TRANSLATED_LANGUAGES := fr es de
messages: $(INSTALLED) gettext
	$(BIN)/python manage.py makemessages $(addprefix -l ,$(TRANSLATED_LANGUAGES)) \
		--add-location=file --no-obsolete --ignore=build --ignore=dist
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=build --ignore=dist \
		$(addprefix -l ,$(TRANSLATED_LANGUAGES))

# Every Debian package below that is missing, in one apt-get run (one `apt-get update`
# instead of one a package: most of the installs' time on a fresh machine); the targets
# below then find them there. .ci/run times it as a stage of its own. Each entry is
# COMMAND:PACKAGE; Tk is looked for in the Python the venv is (or will be) made from.
INITDB := $(or $(lastword $(wildcard /usr/lib/postgresql/*/bin/initdb)),initdb)
SYSTEM_PACKAGES := $(CHROMIUM):chromium pdftotext:poppler-utils msgfmt:gettext Xvfb:xvfb \
	xwd:x11-apps xwininfo:x11-utils $(INITDB):postgresql
TK_PYTHON = $(if $(wildcard $(BIN)/python),$(BIN)/python,$(PYTHON))
system-packages:
	@missing=""; \
	for entry in $(SYSTEM_PACKAGES); do \
	  command -v "$${entry%%:*}" >/dev/null 2>&1 || missing="$$missing $${entry##*:}"; \
	done; \
	$(TK_PYTHON) -c 'import tkinter' 2>/dev/null || missing="$$missing python3-tk"; \
	if [ -z "$$missing" ]; then \
	  echo "Every Debian package the tests use is installed."; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing Debian's$$missing…"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	else \
	  echo "Missing Debian packages:$$missing. Install them with: sudo apt-get install -y$$missing"; \
	fi

# GNU gettext for `make messages` and the catalogue checks of `make test`.
gettext:
	$(call apt_install,msgfmt,gettext,for the translation catalogues,the catalogue checks fail)

# Browser tests drive Debian's Chromium; never `playwright install` (no downloads here).
chromium:
	$(call apt_install,$(CHROMIUM),chromium,for the browser tests,browser tests will be skipped)

# The app's window on a virtual display (tests/tournament/window/test_window.py): Xvfb, xwd
# (x11-apps) for its pictures, xwininfo (x11-utils) to find it, and Tk. Debian's python3-tk
# gives Tk to Debian's Python (a venv made from it included); another Python brings its own.
window:
	$(call apt_install,Xvfb,xvfb,for the window's test,that test will be skipped)
	$(call apt_install,xwd,x11-apps,for the window's pictures,the window's test will be skipped)
	$(call apt_install,xwininfo,x11-utils,to find the window,the window's test will be skipped)
	@if ! $(BIN)/python -c 'import tkinter' 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Debian's python3-tk for the app's window…"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-tk >/dev/null; \
	  fi; \
	  $(BIN)/python -c 'import tkinter' 2>/dev/null || echo "No Tk for $(BIN)/python: the window's \
	test will be skipped (Debian's Python: sudo apt-get install -y python3-tk)."; \
	fi

# pdftotext reads the words of the printed debrief report (tests/browser/test_debrief_report.py).
poppler:
	$(call apt_install,pdftotext,poppler-utils,for the printed report's test,that test will be skipped)

# The PostgreSQL server for make test-postgres (Debian's postgresql package).
postgresql:
	$(call apt_install,$(INITDB),postgresql,for the PostgreSQL tests,make test-postgres cannot run)

# Pictures of the screens for a person to look at, from the browser tests that take them
# (with SCREENSHOTS=1 only; without it they check the same screens and write nothing).
screenshots: $(INSTALLED) chromium poppler
	SCREENSHOTS=1 $(PYTEST) tests/browser -q
	@echo "Screenshots are in ./screenshots/"

# The benchmark drives the server with Debian's wrk where it can be had, else with its
# own Python client (bench/_client.py).
wrk:
	$(call apt_install,wrk,wrk,for the benchmark,the benchmark uses its own Python client)

# The real server on 127.0.0.1, screens against a bare view, then a 500-player live room;
# its last line is one JSON object (docs/PERFORMANCE.md).
bench: $(INSTALLED) wrk
	$(BIN)/python bench/compare.py

# The real server killed with SIGKILL at five moments under a load of reports, restarted each
# time; its last line is one JSON object, and "lost" must be 0 (bench/crash_test.py).
crash-test: $(INSTALLED)
	$(BIN)/python bench/crash_test.py

# A ramp of screen events (100, 250, 500, 1,000 players, 20 s each: the largest load whose
# card to table stays under 0.3 s at the 99th percentile), then 22 events at once (20 on
# screens, 2 in a room, 50 players each) on a throwaway PostgreSQL served by two app
# servers, one killed with SIGKILL at half time: what players lose or see doubled, and
# what the survivor holds. About 4 minutes; its last line is one JSON object, and
# "hosted_lost" and "hosted_doubled" must be 0 (bench/hosted_load.py).
bench-hosted: $(INSTALLED) postgresql
	@$(BIN)/python -c 'import psycopg' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,postgres]"
	.ci/with-postgres $(BIN)/python bench/hosted_load.py

# The wheel, dist/fivetricks-<version>-py3-none-any.whl: the apps, their migrations, the
# templates, the catalogues and the static files collected with hashed names (setup.py).
package: $(INSTALLED)
	rm -rf build dist/fivetricks-*.whl
	@$(BIN)/python -c 'import build.__main__' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,bundle]"
	$(BIN)/python -m build --wheel

# The wheel installed into a fresh, read-only venv and served from an empty folder.
smoke-package: package
	.ci/smoke-package

# The double-click app, dist/fivetricks/fivetricks (one folder, no Python needed), built by
# PyInstaller from the package in build/lib (.ci/bundle/fivetricks.spec). Skipped when
# nothing it bundles changed since the last build (.ci/bundle/stamp); without --clean,
# PyInstaller keeps what it learnt of the venv's libraries in its cache for the next build.
bundle: package
	@$(BIN)/python -c 'import PyInstaller' 2>/dev/null || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[test,bundle]"
	@stamp=$$($(BIN)/python .ci/bundle/stamp dist/fivetricks-*.whl); \
	if [ -x dist/fivetricks/fivetricks ] && [ "$$(cat dist/.fivetricks-bundled-from 2>/dev/null)" = "$$stamp" ]; then \
	  echo "dist/fivetricks is built from this wheel already: PyInstaller skipped"; \
	else \
	  rm -rf dist/fivetricks dist/.fivetricks-bundled-from && \
	  $(BIN)/python -m PyInstaller --noconfirm --log-level WARN --distpath dist \
		--workpath build/pyinstaller .ci/bundle/fivetricks.spec && \
	  echo "$$stamp" > dist/.fivetricks-bundled-from; \
	fi

# The app copied to a read-only folder and started with an empty environment.
smoke-bundle: bundle
	.ci/smoke-bundle

signin: $(INSTALLED)
	$(BIN)/python manage.py signin_link --port $(PORT)

clean:
	rm -rf $(VENV) staticfiles screenshots .pytest_cache .coverage build dist
