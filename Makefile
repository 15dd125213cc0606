# Set-up is part of every target that needs it, and idempotent: a fresh machine needs only
# `make demo` or `make test`.
#   chromium      Debian's /usr/bin/chromium and glslang-tools (apt), only when one is missing
#   node_modules  npm ci from package-lock.json (Pyodide, TensorFlow.js), again when the lock changes
#   .venv         python3 -m venv + pip install -c constraints.txt -e '.[test]' (the Python dependencies at the
#                 versions constraints.txt pins), again when pyproject.toml/constraints.txt change

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
VPY := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
PYTEST_ARGS ?=
CHROMIUM ?= /usr/bin/chromium

.PHONY: all setup chromium test test-unit test-browser test-f16 test-webgpu demo serve site api-docs startup clean parity-refs specs

all: test

setup: chromium node_modules/.pytfweb-stamp $(VENV)/.pytfweb-stamp

# Debian packages: chromium (the browser tests) and glslang-tools (glslangValidator compiles the
# rendered elementwise GLSL in the unit tests).
chromium:
	@if [ ! -x $(CHROMIUM) ] || ! command -v glslangValidator >/dev/null; then \
	  echo "Installing Debian chromium and glslang-tools"; \
	  $(SUDO) apt-get update && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium glslang-tools; \
	fi

node_modules/.pytfweb-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@test -f node_modules/pyodide/pyodide.js
	touch $@

$(VENV)/.pytfweb-stamp: pyproject.toml constraints.txt
	@test -x $(VPY) || $(PYTHON) -m venv $(VENV)
	$(VPY) -m pip install --quiet --upgrade pip
	$(VPY) -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $@

F16_TESTS := PYTFWEB_TEST_WEBGL_F16=1 $(VPY) -m pytest tests/browser/test_webgl_*.py -m 'not fuzz_heavy'
WEBGPU_TESTS := PYTFWEB_TEST_BACKEND=webgpu $(VPY) -m pytest tests/browser/test_webgl_*.py \
	tests/browser/test_layers*.py tests/browser/test_parity.py tests/browser/test_function.py \
	tests/browser/test_traced_steps.py tests/browser/test_plan_runner_gpu.py tests/browser/test_graph_model.py \
	tests/browser/test_zoo.py tests/browser/test_tfjs_specs.py tests/browser/test_tfjs_layers_specs.py \
	tests/browser/test_tfjs_converter_specs.py tests/browser/test_cpu_forward_runner.py tests/browser/test_warmup.py \
	-m 'not fuzz_heavy' -rs

test: setup specs
	$(VPY) -m pytest tests/unit $(PYTEST_ARGS)
	$(VPY) -m pytest tests/browser $(PYTEST_ARGS)
	$(F16_TESTS) $(PYTEST_ARGS)
	$(WEBGPU_TESTS) $(PYTEST_ARGS)

test-unit: specs
	$(VPY) -m pytest tests/unit $(PYTEST_ARGS)

test-browser: setup specs
	$(VPY) -m pytest tests/browser $(PYTEST_ARGS)

# The webgl op and gradient tests again on half-float textures (WEBGL_FORCE_F16_TEXTURES), the
# path of devices that cannot render to float32 (the last step of `make test`).
test-f16: setup
	$(F16_TESTS) $(PYTEST_ARGS)

# The webgl op, gradient and layers modules, the TF.js parity cases and the model zoo run on the
# webgpu backend, against cpu and TF.js (PYTFWEB_TEST_BACKEND=webgpu). Tests of webgl itself are
# skipped, each with its reason; all are skipped, saying why, where the browser gives no WebGPU adapter
# (failed instead with PYTFWEB_REQUIRE_WEBGPU=1, which .ci/run sets).
# The last step of `make test`.
test-webgpu: setup specs
	$(WEBGPU_TESTS) $(PYTEST_ARGS)

# TF.js's own tfjs-core specs (from the npm package), translated into pytfweb cases in build/specs
# (cached by the hash of the specs and the translator; the spec tests regenerate it when stale too);
# tfjs-converter's and tfjs-layers' (on npm without specs) from the tag fetched from GitHub into
# build/tfjs-src.git where GitHub answers (or TFJS_SRC): without either those spec modules say they did not run
specs: node_modules/.pytfweb-stamp $(VENV)/.pytfweb-stamp
	$(VPY) -m tests.tfjs_specs.translate
	$(VPY) -m tests.tfjs_specs.source --fetch

# TF.js 4.22's answers to tests/parity/cases (build/parity/references.json; the parity tests also
# make it when it is missing or stale)
parity-refs: node_modules/.pytfweb-stamp $(VENV)/.pytfweb-stamp
	$(VPY) -m tests.parity.generate

demo: setup
	$(VENV)/bin/pytfweb run examples/demo.py

serve: setup
	$(VENV)/bin/pytfweb serve

# A static site (the demo page, the REPL, examples/train.html) that any static server can host:
#   python3 -m http.server --directory build/site 8000
site: node_modules/.pytfweb-stamp $(VENV)/.pytfweb-stamp
	$(VENV)/bin/pytfweb build-web build/site

# The API reference: HTML from the docstrings (pdoc, host/apidocs.py) in build/api, not committed;
# every `pytfweb build-web` site also holds it at api/. tests/unit/test_api_docs.py checks that every
# public name is documented and runs the docstrings' examples.
api-docs: $(VENV)/.pytfweb-stamp
	$(VPY) -m pytfweb.host.apidocs build/api

startup: setup
	$(VENV)/bin/pytfweb startup

clean:
	rm -rf $(VENV) node_modules build *.egg-info
