"""The optimizers' fused update kernels on webgl (ApplyAdam): the same steps as the composed ops
(which run where a backend has no such kernel) and as the cpu backend, edge values included."""
import sys

import numpy as np

import pytfweb as tf

from .conftest import as_stored, lost_infinities, tolerance

SHAPES = {"kernel": (2, 3), "bias": (3,), "scale": ()}

_ADAM_PAGE = '''
import sys
adam_module = sys.modules["pytfweb.train.adam"]

def adam_run(fused, start, grads, tag):
    real = adam_module.has_kernel
    adam_module.has_kernel = lambda name: fused and real(name)
    try:
        before = tf.memory().num_tensors
        variables = {k: tf.tidy(lambda k=k: tf.variable(tf.tensor(v), name=f"{k}_{tag}")) for k, v in start.items()}
        opt = tf.train.adam(0.05, 0.8, 0.95)
        for g in grads:
            tf.tidy(lambda: opt.apply_gradients({f"{k}_{tag}": tf.tensor(v) for k, v in g.items()}))
        weights = opt.get_weights()
        out = [v.array_sync() for v in variables.values()] + [w["tensor"].array_sync() for w in weights[1:]]
        weights[0]["tensor"].dispose()
        opt.dispose()
        tf.dispose(list(variables.values()))
        return out, tf.memory().num_tensors - before
    finally:
        adam_module.has_kernel = real
'''


def _adam_here(start, grads):
    """Adam's composed ops on the cpu backend, from the values the page's textures hold."""
    adam_module = sys.modules["pytfweb.train.adam"]
    real, previous = adam_module.has_kernel, tf.get_backend()
    adam_module.has_kernel = lambda name: False
    tf.set_backend("cpu")
    try:
        variables = {k: tf.tidy(lambda k=k: tf.variable(tf.tensor(as_stored(v)), name=f"{k}_here"))
                     for k, v in start.items()}
        opt = tf.train.adam(0.05, 0.8, 0.95)
        for g in grads:
            tf.tidy(lambda: opt.apply_gradients({f"{k}_here": tf.tensor(as_stored(v)) for k, v in g.items()}))
        weights = opt.get_weights()
        out = [v.numpy() for v in variables.values()] + [w["tensor"].numpy() for w in weights[1:]]
        weights[0]["tensor"].dispose()
        opt.dispose()
        tf.dispose(list(variables.values()))
        return out
    finally:
        adam_module.has_kernel = real
        tf.set_backend(previous)


def test_adam_fused_update_matches_composed_ops_and_cpu(run_py):
    rng = np.random.default_rng(5)
    start = {k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()}
    grads = [{k: rng.normal(size=s).astype(np.float32) for k, s in SHAPES.items()} for _ in range(4)]
    grads[2]["kernel"][1, 2], grads[3]["bias"][0] = np.nan, np.inf
    plain = {"start": {k: v.tolist() for k, v in start.items()},
             "grads": [{k: v.tolist() for k, v in g.items()} for g in grads]}
    out = run_py(_ADAM_PAGE + '''
fused = adam_run(True, start, grads, "fused")
drawn = any("optimizers:adam_value" in str(key[0]) for key in tf.backend().programs)
composed = adam_run(False, start, grads, "composed")
result = [fused, composed, drawn]
''', **plain)
    (fused, fused_left), (composed, composed_left), drawn = out
    assert drawn and fused_left == 0 and composed_left == 0
    here = _adam_here(start, grads)
    rtol, atol = tolerance(1e-5, 1e-6)
    for f, c, h in zip(fused, composed, here):
        f, c = np.asarray(f, np.float32), np.asarray(c, np.float32)
        np.testing.assert_allclose(f, c, rtol, atol, equal_nan=True)
        np.testing.assert_allclose(lost_infinities(f, h), h, rtol, atol, equal_nan=True)
    assert np.isnan(np.asarray(fused[0])).any()   # the NaN gradient reached its variable
