"""Gradients of the convolutions, dilation2d and the fused ops on the cpu backend: numeric
checks (inputs and filters, strides, pads, dilations, NCHW, unbatched), second order through
the transposed convolution, and the fused ops' two paths (fused kernel with a linear
activation, separate ops for the others while a gradient is recorded)."""
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.testing import numeric_gradient_error

from .test_conv import conv_backprop_filter, conv_backprop_input

rng = np.random.default_rng(17)
TOL = 1e-2


def floats(*shape):
    return rng.uniform(-1, 1, size=shape).astype(np.float32)


def check(f, *xs, eps=1e-2):
    tensors = [tf.tensor(x) for x in xs]
    before = tf.memory().num_tensors
    err = numeric_gradient_error(f, tensors, eps)
    assert err < TOL, f"numeric gradient error {err}"
    assert tf.memory().num_tensors == before
    tf.dispose(tensors)


CONV2D = [  # (x shape, filter shape, strides, pad, dilations, data_format)
    ((1, 4, 5, 2), (2, 3, 2, 3), 1, "same", 1, "NHWC"),
    ((2, 5, 4, 3), (3, 2, 3, 2), 2, "valid", 1, "NHWC"),
    ((1, 5, 5, 2), (2, 2, 2, 2), 1, "valid", 2, "NHWC"),
    ((1, 4, 4, 1), (2, 2, 1, 2), (2, 1), [[0, 0], [1, 0], [0, 2], [0, 0]], 1, "NHWC"),
    ((1, 2, 4, 5), (3, 2, 2, 2), 2, "same", 1, "NCHW"),
    ((4, 5, 2), (2, 2, 2, 2), 1, 1, 1, "NHWC"),
]


@pytest.mark.parametrize("x_shape, w_shape, strides, pad, dilations, fmt", CONV2D, ids=str)
def test_conv2d(x_shape, w_shape, strides, pad, dilations, fmt):
    check(lambda x, w: tf.conv2d(x, w, strides, pad, fmt, dilations), floats(*x_shape), floats(*w_shape))


@pytest.mark.parametrize("x_shape, w_shape, strides, pad, dilations, fmt", CONV2D[:5], ids=str)
def test_depthwise_conv2d(x_shape, w_shape, strides, pad, dilations, fmt):
    check(lambda x, w: tf.depthwise_conv2d(x, w, strides, pad, fmt, dilations), floats(*x_shape), floats(*w_shape))


def test_conv1d_separable_and_conv3d():
    check(lambda x, w: tf.conv1d(x, w, 2, "same"), floats(2, 6, 2), floats(3, 2, 2))
    check(lambda x, w: tf.conv1d(x, w, 1, "valid", dilation=2), floats(6, 2), floats(2, 2, 1))
    check(lambda x, d, p: tf.separable_conv2d(x, d, p, 1, "same"), floats(1, 4, 4, 2), floats(2, 2, 2, 2),
          floats(1, 1, 4, 3))
    check(lambda x, w: tf.conv3d(x, w, [1, 2, 1], "same"), floats(1, 3, 4, 3, 2), floats(2, 2, 2, 2, 2))
    check(lambda x, w: tf.conv3d(x, w, 1, "valid", dilations=[1, 2, 1]), floats(1, 3, 5, 3, 1), floats(2, 2, 2, 1, 2))


def test_transposed_convolutions():
    check(lambda x, w: tf.conv2d_transpose(x, w, [1, 5, 4, 2], 2, "same"), floats(1, 3, 2, 3), floats(3, 2, 2, 3))
    check(lambda x, w: tf.conv2d_transpose(x, w, [4, 4, 1], 1, "valid"), floats(3, 3, 2), floats(2, 2, 1, 2))
    check(lambda x, w: tf.conv3d_transpose(x, w, [1, 3, 4, 3, 2], [1, 2, 1], "same"), floats(1, 3, 2, 3, 2),
          floats(2, 2, 2, 2, 2))


def test_dilation2d():
    # distinct, well separated values: the maximum of each window does not move under the step
    x = (rng.permutation(2 * 5 * 4 * 2).reshape(2, 5, 4, 2) * 0.25).astype(np.float32)
    w = (rng.permutation(2 * 3 * 2).reshape(2, 3, 2) * 0.1).astype(np.float32)
    check(lambda a, f: tf.dilation2d(a, f, 1, "same"), x, w)
    check(lambda a, f: tf.dilation2d(a, f, 2, "valid", [1, 1]), x, w)
    check(lambda a, f: tf.dilation2d(a, f, 1, "same", 2), x, w)


def test_exact_against_reference():
    x, w = floats(2, 5, 6, 3), floats(3, 3, 3, 4)
    dy = floats(2, 3, 3, 4)
    gx, gw = tf.grads(lambda a, f: tf.conv2d(a, f, 2, "same"))([x, w], dy)
    np.testing.assert_allclose(gx.numpy(), conv_backprop_input(x.shape, dy, w, (2, 2), "same", (1, 1)),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(gw.numpy(), conv_backprop_filter(x, dy, w.shape, (2, 2), "same", (1, 1)),
                               rtol=1e-4, atol=1e-4)


def test_second_order_through_transpose():
    """d/dx of sum(grad_x(conv2d)): the Conv2DBackpropInput gradient (a conv2d of ddx)."""
    x, w = tf.tensor(floats(1, 4, 4, 2)), tf.tensor(floats(2, 2, 2, 3))

    def dx_sum(f):
        return tf.sum(tf.square(tf.grad(lambda a: tf.sum(tf.square(tf.conv2d(a, f, 1, "same"))))(x)))
    err = numeric_gradient_error(dx_sum, [w])
    assert err < 5e-2, err
    check(lambda dy, f: tf.conv2d_transpose(dy, f, [1, 4, 4, 2], 2, "valid"), floats(1, 2, 2, 3), floats(2, 2, 2, 3))


@pytest.mark.parametrize("activation", ["linear", "relu", "elu", "sigmoid", "leakyrelu", "prelu"])
def test_fused(activation):
    kw = dict(activation=activation, leakyrelu_alpha=0.3)
    eps = 1e-3   # small: a pre-activation within eps of relu's kink would spoil the centred difference
    b3 = floats(3)
    check(lambda x, w, b: tf.fused.conv2d(x, w, 1, "same", bias=b, prelu_activation_weights=b3, **kw),
          floats(1, 4, 4, 2), floats(2, 2, 2, 3), b3, eps=eps)
    b4 = floats(4)
    check(lambda x, w, b: tf.fused.depthwise_conv2d(x, w, 2, "valid", bias=b, prelu_activation_weights=b4, **kw),
          floats(1, 5, 5, 2), floats(2, 2, 2, 2), b4, eps=eps)
    check(lambda a, b, c: tf.fused.mat_mul(a, b, False, True, bias=c, prelu_activation_weights=b3, **kw),
          floats(2, 2, 4), floats(3, 4), floats(2, 1, 3), eps=eps)


def test_fused_kernel_gradient_and_unfused_path():
    """Linear, relu, elu: the fused kernel is on the tape (its own gradient, from its output);
    relu6, sigmoid etc.: separate ops. Both ways give the unfused ops' gradients."""
    x, w, b = tf.tensor(floats(1, 3, 3, 2)), tf.tensor(floats(2, 2, 2, 2)), tf.tensor(floats(2))
    kernels = []
    tape_kernels = lambda: [n.kernel for n in tf.engine().active_tape]   # noqa: E731

    def f(activation):
        def run(a, c, d):
            y = tf.fused.conv2d(a, c, 1, "same", bias=d, activation=activation)
            kernels.append(tape_kernels())
            return y
        return run
    for activation in ("linear", "relu", "elu", "relu6"):
        fused = tf.grads(f(activation))([x, w, b])
        unfused = tf.grads(lambda a, c, d: tf.layers.activation(activation=activation).apply(
            tf.add(tf.conv2d(a, c, 1, "same"), d)))([x, w, b])
        for g, u in zip(fused, unfused):
            np.testing.assert_allclose(g.numpy(), u.numpy(), rtol=1e-5, atol=1e-6)
    assert "FusedConv2D" in kernels[0] and "Conv2D" not in kernels[0]
    assert "FusedConv2D" in kernels[1] and "Relu" not in kernels[1]
    assert "FusedConv2D" in kernels[2] and "Elu" not in kernels[2]
    assert "Conv2D" in kernels[3] and "Relu6" in kernels[3] and "FusedConv2D" not in kernels[3]
    # the fused gradient with a bias broadcast over everything but the channels
    dy = floats(1, 3, 3, 2)
    gb = tf.grad(lambda d: tf.fused.conv2d(x, w, 1, "same", bias=d))(b, tf.tensor(dy))
    np.testing.assert_allclose(gb.numpy(), dy.sum(axis=(0, 1, 2)), rtol=1e-5)
    gx = tf.grad(lambda a: tf.fused.conv2d(a, w, 1, "same", bias=b))(x, tf.tensor(dy))
    np.testing.assert_allclose(gx.numpy(), tf.grad(lambda a: tf.conv2d(a, w, 1, "same"))(x, tf.tensor(dy)).numpy(),
                               rtol=1e-5)
