import inspect
import os
import re

import numpy as np
import pytest

import pytfweb as tf


@pytest.fixture(autouse=True)
def fresh_engine():
    """Every test starts on a clean cpu engine in normal (non-debug) mode."""
    tf.engine().reset()
    tf.env().reset()
    tf.set_backend("cpu")
    yield
    tf.engine().reset()
    tf.env().reset()


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


# --- layers models' steps, traced and eager ---------------------------------------------------------
# fit, evaluate and predict run their per-batch step through tf.function by default (TRACE_STEPS).
# The tests of these files that run a step (directly or through a helper of their module) run twice:
# traced (the default) and eager; the others, which never reach a step, once.
STEP_FILES = re.compile(r"test_layers(?!_preprocessing).*\.py$|test_inference_fusion\.py$")
_STEP_CALLS = re.compile(r"\.(fit|fit_sync|evaluate|predict|train_on_batch|test_on_batch|predict_on_batch)\(")


@pytest.fixture(autouse=True)
def trace_steps(fresh_engine, request):
    """TRACE_STEPS for this test: the parameter where pytest_generate_tests gave one, else on."""
    tf.env().set("TRACE_STEPS", getattr(request, "param", True))


def _runs_steps(module):
    """Names of the module's functions that run a model step, directly or through one another."""
    sources = {name: inspect.getsource(f) for name, f in vars(module).items()
               if inspect.isfunction(f) and getattr(f, "__module__", None) == module.__name__}
    found = {name for name, src in sources.items() if _STEP_CALLS.search(src)}
    grew = True
    while grew:
        grew = False
        for name, src in sources.items():
            if name not in found and any(re.search(rf"\b{re.escape(n)}\(", src) for n in found):
                found.add(name)
                grew = True
    return found


_STEP_RUNNERS = {}


def pytest_generate_tests(metafunc):
    path = metafunc.module.__file__
    if not STEP_FILES.search(os.path.basename(path)) or metafunc.cls is not None:
        return
    runners = _STEP_RUNNERS.get(path)
    if runners is None:
        runners = _STEP_RUNNERS[path] = _runs_steps(metafunc.module)
    if metafunc.function.__name__ in runners:
        metafunc.parametrize("trace_steps", [True, False], ids=["traced", "eager"], indirect=True)
