"""ops/optimizer_updates.py: each apply_* runs the backend's fused update kernel and gives what the
composed ops give, to the bit (NaN and infinite gradients included); fused_update declines where
the kernel does not apply."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.ops import optimizer_updates as up

RNG = np.random.default_rng(11)
SHAPE = (3, 4)


def _t(values):
    return tf.tensor(np.asarray(values, np.float32))


def _case():
    g = RNG.normal(size=SHAPE).astype(np.float32)
    g[0, 1], g[2, 3] = np.nan, np.inf
    value = RNG.normal(size=SHAPE).astype(np.float32)
    slots = [np.abs(RNG.normal(size=SHAPE)).astype(np.float32) for _ in range(3)]
    return _t(value), _t(g), [_t(s) for s in slots]


def _pairs():
    return [
        ("ApplyGradientDescent", lambda v, g, s: up.apply_gradient_descent(v, g, 0.1),
         lambda v, g, s: up.gradient_descent(v, g, tf.scalar(-0.1))),
        ("ApplyMomentum", lambda v, g, s: up.apply_momentum(v, g, s[0], 0.05, 0.8, True),
         lambda v, g, s: up.momentum(v, g, s[0], tf.scalar(-0.05), tf.scalar(0.8), True)),
        ("ApplyRMSProp", lambda v, g, s: up.apply_rms_prop(v, g, s[0], s[1], s[2], 0.01, 0.9, 0.5, 1e-7, True),
         lambda v, g, s: up.rms_prop(v, g, s[0], s[1], s[2], 0.01, 0.9, 0.5, 1e-7, True)),
        ("ApplyRMSProp", lambda v, g, s: up.apply_rms_prop(v, g, s[0], s[1], None, 0.01, 0.9, 0.5, 1e-7, False),
         lambda v, g, s: up.rms_prop(v, g, s[0], s[1], None, 0.01, 0.9, 0.5, 1e-7, False)),
        ("ApplyAdagrad", lambda v, g, s: up.apply_adagrad(v, g, s[0], 0.2, 1e-7),
         lambda v, g, s: up.adagrad(v, g, s[0], 0.2, 1e-7)),
        ("ApplyAdadelta", lambda v, g, s: up.apply_adadelta(v, g, s[0], s[1], 1.0, 0.9, 1e-6),
         lambda v, g, s: up.adadelta(v, g, s[0], s[1], 1.0, 0.9, 1e-6)),
        ("ApplyAdaMax", lambda v, g, s: up.apply_ada_max(v, g, s[0], s[1], tf.scalar(0.2), tf.scalar(-0.02), 0.8, 0.99,
                                                         1e-3),
         lambda v, g, s: up.ada_max(v, g, s[0], s[1], tf.scalar(0.2), tf.scalar(-0.02), 0.8, 0.99, 1e-3)),
        ("ApplyAdam", lambda v, g, s: up.apply_adam(v, g, s[0], s[1], tf.scalar(0.2), tf.scalar(0.05), 0.05, 0.8, 0.95,
                                                    1e-7),
         lambda v, g, s: up.adam(v, g, s[0], s[1], tf.scalar(0.2), tf.scalar(0.05), 0.05, 0.8, 0.95, 1e-7)),
    ]


@pytest.mark.parametrize("kernel, fused, composed", _pairs(), ids=[p[0] for p in _pairs()])
def test_apply_runs_the_fused_kernel_and_equals_the_composed_ops(monkeypatch, kernel, fused, composed):
    assert up.has_fused_update(kernel)   # cpu has every one
    ran = []
    real = tf.engine().run_kernel
    monkeypatch.setattr(tf.engine(), "run_kernel", lambda name, *rest: ran.append(name) or real(name, *rest))
    before = tf.memory().num_tensors
    value, g, slots = _case()
    a = tf.tidy(lambda: fused(value, g, slots))
    assert kernel in ran
    ran.clear()
    b = tf.tidy(lambda: composed(value, g, slots))
    assert kernel not in ran and ran
    assert len(a) == len(b)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x.numpy(), y.numpy())
    tf.dispose([a, b, value, g, slots])
    assert tf.memory().num_tensors == before


def test_fused_update_declines_where_the_kernel_does_not_apply():
    value, g, slots = _case()
    other_shape = tf.ones([4, 3])
    int_gradient = tf.ones(SHAPE, "int32")
    try:
        assert up.fused_update("ApplyGradientDescent", value, other_shape, attrs={"learning_rate": 0.1}) is None
        assert up.fused_update("ApplyGradientDescent", value, int_gradient, attrs={"learning_rate": 0.1}) is None
        with pytest.raises(ValueError, match="fused_update: argument 'kernel'"):
            up.fused_update("ApplyNothing", value, g)
    finally:
        tf.dispose([value, g, slots, other_shape, int_gradient])
