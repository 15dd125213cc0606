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
