"""Gradients of the shape and slicing kernels on webgl: numeric checks in the page for a
representative set, and analytic gradients of every kernel (Reshape, Transpose, Concat, Pack,
Unpack, SplitV, Tile, PadV2, Reverse, Slice, StridedSlice, GatherV2) against the cpu backend.

Each gradient is taken with an explicit random dy, so that only the kernels under test (and
those their gradients use) run; many go into one compare_with_cpu call, since shader compiles
dominate on SwiftShader."""
import numpy as np

from .conftest import gradient_threshold

import pytfweb as tf

rng = np.random.default_rng(21)


def _cases_to_lambda(cases):
    """cases: (expression of x, x) -> (lambda source taking x0, dy0, x1, dy1, ..., inputs). dy_i
    is random of the shape the expression gives on the cpu backend."""
    tf.set_backend("cpu")
    params, grads, inputs = [], [], []
    for i, (expr, x) in enumerate(cases):
        f = eval(f"lambda x: {expr}", {"tf": tf})  # noqa: S307 - test source
        t = tf.tensor(x)
        y = f(t)
        dy = rng.uniform(-1, 1, size=y.shape).astype(np.float32)
        tf.dispose([t, y])
        params += [f"x{i}", f"dy{i}"]
        grads.append(f"tf.grad(lambda x: {expr})(x{i}, dy{i})")
        inputs += [x, dy]
    return f"lambda {', '.join(params)}: [{', '.join(grads)}]", inputs


def _floats(*shape):
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


def test_shape_gradients_match_cpu(compare_with_cpu):
    cases = [
        ("tf.reshape(x, [4, 6])", _floats(2, 3, 4)),
        ("tf.squeeze(tf.expand_dims(x, 1), [0])", _floats(1, 5)),
        ("tf.transpose(x, [2, 0, 1])", _floats(2, 3, 4)),
        ("tf.transpose(x, [3, 1, 0, 2])", _floats(2, 1, 3, 2)),
        ("tf.concat([x, x[:, :1], x], 1)", _floats(3, 2)),
        ("tf.concat([x, tf.ones([1, 2, 3])], 0)", _floats(2, 2, 3)),
        ("tf.stack([x, x, x * 1.0], 1)", _floats(2, 3)),
        ("tf.stack([tf.unstack(x, 1)[2], tf.unstack(x, 1)[0]], 0)", _floats(2, 3, 2)),   # [1] unused
        ("tf.unstack(x, 0)[0]", _floats(1, 4)),                                          # one output
        ("tf.concat(tf.split(x, [1, 2, 1], 1)[::-1][:2], 1)", _floats(2, 4)),           # [0] unused
        ("tf.tile(x, [3])", _floats(4)),
        ("tf.tile(x, [2, 1, 3])", _floats(2, 3, 2)),
        ("tf.tile(x, [2, 3, 2, 2])", _floats(2, 2, 1, 2)),                             # 7 axes: two passes
        ("tf.broadcast_to(x, [2, 3, 4])", _floats(3, 1)),
        ("tf.pad(x, [[1, 2], [0, 3]], 7.0)", _floats(2, 3)),
        ("tf.pad(x, [[0, 0], [2, 1], [1, 0], [0, 2]])", _floats(2, 2, 3, 1)),
        ("tf.reverse(x, [0, 2])", _floats(3, 2, 4)),
        ("tf.reverse(x)", _floats(5)),
    ]
    src, inputs = _cases_to_lambda(cases)
    compare_with_cpu(src, inputs)


def test_slicing_gradients_match_cpu(compare_with_cpu):
    x = _floats(4, 5, 6)
    cases = [
        ("tf.slice(x, [1, 0, 2], [2, -1, 3])", x),
        ("tf.slice(x, [3], [2])", _floats(7)),
        ("x[::2]", _floats(9)),
        ("x[::-1]", _floats(9)),
        ("x[-2:1:-3]", _floats(9)),
        ("x[0:5:3]", _floats(5)),
        ("x[1:, ::-2, 4:1:-1]", x),
        ("x[..., 1]", x),
        ("x[:, None, 2, ::3]", x),
        ("x[-1, -1:, ::-5]", x),
        ("tf.strided_slice(x, [0, 1, 5], [4, 5, 0], [2, 2, -2])", x),
        ("tf.strided_slice(x, [0, 2, 0, 0, 1], [2, -4, 2, 3, 2], [2, -1, 1, 2, 1])", _floats(2, 3, 2, 3, 2)),
        ("x[3:1]", _floats(4, 3)),
        ("tf.gather(x, [3, 0, 0, 2])", _floats(4, 3, 2)),
        ("tf.gather(x, [[1, 0], [2, 2]], 1)", _floats(4, 3, 2)),
        ("tf.gather(x, 1, 2)", _floats(4, 3, 2)),
        ("tf.gather(x, [[2, 0, 1, 1], [0, 0, 2, 1]], 1, batch_dims=1)", _floats(2, 3, 4)),
        ("tf.gather(x, [[1, 1, 3], [0, 3, 0]], 2, batch_dims=1)", _floats(2, 3, 4, 2)),
        ("tf.gather(x, [[[2, 0], [1, 1]], [[0, 0], [2, 1]]], 2, batch_dims=2)", _floats(2, 2, 3, 2)),
        ("tf.gather(x, tf.zeros([0], 'int32'), 1)", _floats(3, 2)),
    ]
    src, inputs = _cases_to_lambda(cases)
    compare_with_cpu(src, inputs)


def test_gather_gradient_of_int32_x_and_second_order(compare_with_cpu):
    ints = rng.integers(-9, 9, size=(3, 2)).astype(np.int32)
    compare_with_cpu("""lambda i, dy, x, w: [
        tf.grad(lambda t: tf.gather(t, [1, 1, 0], 1))(i, dy),
        tf.grad(lambda t: tf.sum(tf.grad(lambda u: tf.sum(tf.square(tf.gather(u[::-1], [2, 0, 2]))))(t) * w))(x)]""",
                     [ints, _floats(3, 3), _floats(4), _floats(4)])


def test_numeric_gradients_in_the_page(run_py):
    errors = run_py("""
from pytfweb.testing import numeric_gradient_error as err
idx = tf.tensor([[2, 0, 2], [1, 1, 0]], dtype="int32")
x = tf.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
before = tf.memory().num_tensors
result = {
    "transpose+reshape": err(lambda x: tf.reshape(tf.transpose(x), [3, 2]) * 1.0, [x]),
    "concat+split": err(lambda x: tf.concat(tf.split(x, [2, 1], 1)[::-1], 1), [x]),
    "stack+unstack": err(lambda x: tf.stack(tf.unstack(x, 1)[1:], 0), [x]),
    "tile": err(lambda x: tf.tile(x, [2, 3]), [x]),
    "pad+reverse": err(lambda x: tf.reverse(tf.pad(x, [[1, 0], [2, 1]], 3.0), [1]), [x]),
    "slice": err(lambda x: tf.slice(x, [1, 1], [1, 2]), [x]),
    "strided": err(lambda x: x[::-1, ::2], [x]),
    "gather": err(lambda x: tf.gather(x, idx, 1), [x]),
    "gather batch_dims": err(lambda x: tf.gather(x, idx, 1, batch_dims=1), [x]),
}
result["leaked"] = tf.memory().num_tensors - before
""")
    assert errors.pop("leaked") == 0
    bad = {k: v for k, v in errors.items() if not v < gradient_threshold(1e-3)}
    assert not bad, bad
