"""Fused products (bias and activation epilogue), prelu, add_n, batch_norm, range, linspace on
webgpu against cpu; layers that use them."""
import numpy as np
import pytest

from .test_webgpu_backend import compare_webgpu, webgpu  # noqa: F401  (fixtures)

RNG = np.random.default_rng(81)
TOLERANCE = dict(rtol=1e-4, atol=1e-4)


def _r(*shape):
    return RNG.uniform(-1, 1, size=shape).astype(np.float32)


@pytest.mark.parametrize("activation", ["linear", "relu", "relu6", "elu", "sigmoid", "leakyrelu", "prelu"])
def test_fused_mat_mul_and_conv(compare_webgpu, activation):
    extra = ", prelu_activation_weights=w" if activation == "prelu" else ""
    extra += ", leakyrelu_alpha=0.3" if activation == "leakyrelu" else ""
    compare_webgpu(f"lambda a, b, bias, x, f, cb, w: [tf.fused.mat_mul(a, b, bias=bias, activation={activation!r}{extra}), "
                   f"tf.fused.mat_mul(a, b, activation={activation!r}{extra}), "
                   f"tf.fused.conv2d(x, f, 1, 'same', bias=cb, activation={activation!r}"
                   f"{extra.replace('=w', '=cb')}), "
                   f"tf.fused.depthwise_conv2d(x, f[:, :, :, :1], 1, 'valid', bias=cb[:3], activation={activation!r}"
                   f"{extra.replace('=w', '=cb[:3]')})]",
                   [_r(3, 4) * 3, _r(4, 5), _r(5), _r(1, 4, 4, 3) * 3, _r(2, 2, 3, 4), _r(4), _r(5)], **TOLERANCE)


def test_prelu_add_n_batch_norm(compare_webgpu):
    many = [_r(2, 3) for _ in range(17)]
    ints = [RNG.integers(-2 ** 31, 2 ** 31 - 1, size=(4,)).astype(np.int32) for _ in range(3)]
    x = _r(2, 3, 3, 4)
    x[0, 0, 0, 0] = np.nan
    names = ", ".join(f"m{i}" for i in range(17))
    compare_webgpu(f"lambda x, alpha, i0, i1, i2, mean, var, off, sc, {names}: [tf.prelu(x, alpha), "
                   f"tf.add_n([i0, i1, i2]), tf.add_n([{names}]), tf.add_n([m0]), "
                   "tf.batch_norm(x, mean, var, off, sc, 1e-3), tf.batch_norm(x, mean, var), "
                   "tf.batch_norm(x, mean, var - 2.0)]",
                   [x, _r(4), *ints, _r(4), np.abs(_r(4)), _r(4), _r(4), *many], **TOLERANCE)


def test_range_linspace(compare_webgpu):
    compare_webgpu("lambda x: [tf.range(0, 10), tf.range(1, -7, -2.5), tf.range(0.1, 1.0, 0.3), tf.linspace(0, 1, 7), "
                   "tf.linspace(-3, 5, 1), tf.range(0, 5) + tf.cast(x, 'int32')]", [np.float32([1.5])])


def test_dense_and_conv_layers_predict_and_train(webgpu):
    out = webgpu("""
import random
m = tf.sequential()
m.add(tf.layers.conv2d(filters=4, kernel_size=3, input_shape=[6, 6, 2], activation="relu", padding="same"))
m.add(tf.layers.max_pooling2d(pool_size=2))
m.add(tf.layers.flatten())
m.add(tf.layers.dense(units=3, activation="softmax"))
m.compile(optimizer=tf.train.adam(0.01), loss="categoricalCrossentropy")
rng = random.Random(1)
x = tf.tensor([rng.uniform(-1, 1) for _ in range(8 * 6 * 6 * 2)], [8, 6, 6, 2])
y = tf.one_hot(tf.tensor([i % 3 for i in range(8)], dtype="int32"), 3, 1.0, 0.0, "float32")
p = m.predict(x)
probs = await p.array()
losses = []
for step in range(5):
    loss = m.optimizer.minimize(lambda: tf.losses.softmax_cross_entropy(y, m.apply(x)), True)
    losses.append((await loss.data())[0])
    loss.dispose()
result = [[round(sum(r), 4) for r in probs], losses]
""")
    sums, losses = out
    assert sums == [1.0] * 8
    assert losses[-1] < losses[0]
