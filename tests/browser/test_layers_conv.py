"""Convolutional layers on webgl: MobileNet v1 predicts through `pytfweb run`; a small conv
classifier trained here on cpu predicts the same in the page; a model made of every new layer
kind gives the same outputs on webgl as on cpu."""
import contextlib
import re
import subprocess

import numpy as np

import pytfweb as tf
from tests.browser.test_examples import REPO, _pytfweb_cmd
from tests.unit.test_layers_conv import bars, small_classifier


@contextlib.contextmanager
def _on_cpu(code):
    """The names the test's own code defines, used here on the cpu backend within the block."""
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        ns = {}
        exec(code, ns)  # noqa: S102 - the test's own code
        yield ns
    finally:
        tf.set_backend(previous)


def test_mobilenet_example_predicts_on_webgl():
    r = subprocess.run(_pytfweb_cmd() + ["run", str(REPO / "examples" / "mobilenet.py")],
                       capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    out = r.stdout
    assert out.startswith("backend: webgl\n"), out
    assert " Total params: 4,253,864 (16.23 MB)" in out and " Non-trainable params: 21,888 (85.50 KB)" in out, out
    assert "prediction shape: [1, 1000], sum of probabilities: 1.0000" in out, out
    assert re.search(r"^predict time: \d+\.\d+ s \(first run", out, re.M), out
    assert re.search(r"^FusedConv2D +15 +\d+\.\d$", out, re.M), out   # the profile: 15 convolutions
    assert out.rstrip().endswith("tensors left: 0"), out


# The page rebuilds the classifier with the weights trained here and predicts.
PREDICT = '''
model = tf.sequential(layers=[
    tf.layers.conv2d(filters=4, kernel_size=3, activation="relu", padding="same", input_shape=[8, 8, 1]),
    tf.layers.batch_normalization(),
    tf.layers.max_pooling2d(pool_size=2),
    tf.layers.depthwise_conv2d(kernel_size=3, padding="same", activation="relu"),
    tf.layers.global_average_pooling2d(),
    tf.layers.dense(units=2, activation="softmax")])
model.set_weights(weights)   # nested lists: converted and disposed by set_weights
xs = tf.tensor(x)
pred = model.predict(xs)
result = {"pred": await pred.array()}
tf.dispose([xs, pred])
model.dispose()
result["left"] = tf.memory().num_tensors
'''


def test_small_conv_classifier_trained_on_cpu_predicts_the_same_on_webgl(run_py):
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        start = tf.memory().num_tensors
        x, y = bars(64)
        model = small_classifier()
        opt = tf.train.adam(0.05)
        model.compile(optimizer=opt, loss="categoricalCrossentropy")
        xs, ys = tf.tensor(x), tf.tensor(y)
        model.fit_sync(xs, ys, epochs=20, batch_size=16, verbose=0, shuffle=False)
        xt, yt = bars(32, seed=2)
        xt_t = tf.tensor(xt)
        pred = model.predict(xt_t)
        here = pred.numpy()
        weights = [w.numpy().tolist() for w in model.weights]
        tf.dispose([xs, ys, xt_t, pred])
        model.dispose()
        opt.dispose()   # an optimizer passed in is the caller's to dispose (as in TF.js)
        left_here = tf.memory().num_tensors - start
    finally:
        tf.set_backend(previous)
    assert left_here == 0
    assert (here.argmax(1) == yt.argmax(1)).mean() >= 0.9
    page = run_py(PREDICT, x=xt.tolist(), weights=weights)
    assert page["left"] == 0
    np.testing.assert_allclose(page["pred"], here, rtol=1e-3, atol=1e-4)


# One functional model through every new layer kind (fixed seeds: the same weights on both backends).
ZOO = '''
def zoo(tf):
    tf.random_normal([1], seed=0).dispose()
    init = tf.initializers.random_normal(0, 0.3, seed=7)
    L = tf.layers
    inp = tf.input(shape=[9, 8, 3])
    a = L.conv2d(filters=4, kernel_size=3, padding="same", activation="relu6", kernel_initializer=init,
                 bias_initializer=init).apply(inp)
    a = L.conv2d(filters=4, kernel_size=[2, 3], strides=2, dilation_rate=1, activation="elu",
                 kernel_initializer=init, bias_initializer=init, data_format="channelsLast").apply(a)
    b = L.depthwise_conv2d(kernel_size=3, depth_multiplier=2, strides=2, activation="relu",
                           depthwise_initializer=init, bias_initializer=init).apply(inp)
    b = L.separable_conv2d(filters=4, kernel_size=2, padding="same", activation="sigmoid",
                           depthwise_initializer=init, pointwise_initializer=init, bias_initializer=init).apply(b)
    c = L.conv2d_transpose(filters=2, kernel_size=3, strides=2, padding="same", kernel_initializer=init,
                           bias_initializer=init).apply(inp)
    c = L.cropping2d(cropping=[[1, 2], [0, 1]]).apply(c)
    c = L.max_pooling2d(pool_size=3, strides=2, padding="same").apply(c)
    c = L.zero_padding2d(padding=[[0, 1], [1, 0]]).apply(c)
    c = L.average_pooling2d(pool_size=2).apply(c)
    c = L.up_sampling2d(size=[2, 1]).apply(c)
    d = L.batch_normalization(gamma_initializer=init, beta_initializer=init,
                              moving_mean_initializer=init).apply(inp)
    d = L.prelu(alpha_initializer=init).apply(d)
    d = L.leaky_re_lu().apply(d)
    d = L.global_max_pooling2d().apply(d)
    d = L.layer_normalization(gamma_initializer=init, beta_initializer=init).apply(d)
    d = L.softmax().apply(d)
    e = L.reshape(target_shape=[72, 3]).apply(inp)
    e = L.conv1d(filters=3, kernel_size=4, padding="causal", dilation_rate=2, kernel_initializer=init,
                 bias_initializer=init).apply(e)
    e = L.max_pooling1d(pool_size=3).apply(e)
    e = L.average_pooling1d(pool_size=2, strides=1).apply(e)
    e = L.thresholded_re_lu(theta=0.1).apply(e)
    e = L.global_average_pooling1d().apply(e)
    f = L.reshape(target_shape=[9, 8, 3, 1]).apply(inp)
    f = L.conv3d(filters=2, kernel_size=2, kernel_initializer=init, bias_initializer=init).apply(f)
    f = L.max_pooling3d(pool_size=2).apply(f)
    f = L.average_pooling3d(pool_size=[2, 1, 1], padding="same").apply(f)
    f = L.elu().apply(f)
    f = L.flatten().apply(f)
    g = L.rescaling(scale=0.5, offset=0.1).apply(inp)
    g = L.global_average_pooling2d().apply(L.re_lu(max_value=0.5).apply(g))
    outs = [L.flatten().apply(a), L.flatten().apply(b), L.flatten().apply(c), d, e, f, g]
    return tf.model(inputs=inp, outputs=outs)


async def run_zoo(tf, x):
    model = zoo(tf)
    xs = tf.tensor(x)
    outs = model.predict(xs)
    result = [await o.array() for o in outs]
    tf.dispose([xs] + outs)
    model.dispose()
    return result
'''


def test_every_layer_kind_matches_cpu(run_py):
    x = np.random.default_rng(5).normal(size=(2, 9, 8, 3)).astype(np.float32)
    page = run_py(ZOO + "result = await run_zoo(tf, x)", x=x.tolist())
    with _on_cpu(ZOO) as ns:
        model = ns["zoo"](tf)
        here = [o.numpy() for o in model.predict(tf.tensor(x))]
        model.dispose()
    assert len(page) == len(here)
    for i, (p, h) in enumerate(zip(page, here)):
        np.testing.assert_allclose(np.asarray(p), h, rtol=1e-3, atol=1e-4, err_msg=f"output {i}")


BN_TRAINING = '''
def bn_training_grads(tf, x, w, gamma, beta, axis):
    """dx, dgamma, dbeta of sum(BatchNormalization(x, training) * w), and the second-order
    d/dx sum(dx^2)."""
    n = len(gamma)
    layer = tf.layers.batch_normalization(axis=axis, weights=[gamma, beta, [0.0] * n, [1.0] * n])
    xt, wt = tf.tensor(x), tf.tensor(w)
    def loss(a):
        return tf.sum(layer.apply(a, training=True) * wt)
    dx = tf.grad(loss)(xt)
    _, params = tf.variable_grads(lambda: loss(xt), [layer.gamma, layer.beta])
    second = tf.grad(lambda a: tf.sum(tf.grad(loss)(a) ** 2))(xt)
    out = [t.array_sync() for t in [dx, params[layer.gamma.name], params[layer.beta.name], second]]
    tf.dispose([xt, wt, dx, second, *params.values()])
    layer.dispose()
    return out
'''


def test_batch_normalization_training_gradients_match_cpu(run_py):
    """BatchNormalization's closed-form training gradient (layers/normalization.py) on webgl
    against cpu: the input's, gamma's and beta's, channels last and on axis 1, and a second
    order gradient."""
    rng = np.random.default_rng(8)
    cases = [(rng.normal(size=(4, 5, 3, 6)) * 2 + 1, -1), (rng.normal(size=(3, 4, 5)), 1)]
    for x, axis in cases:
        x = x.astype(np.float32)
        w = rng.normal(size=x.shape).astype(np.float32)
        gamma, beta = rng.normal(size=x.shape[axis]).tolist(), rng.normal(size=x.shape[axis]).tolist()
        args = dict(x=x.tolist(), w=w.tolist(), gamma=gamma, beta=beta, axis=axis)
        page = run_py(BN_TRAINING + "result = bn_training_grads(tf, x, w, gamma, beta, axis)", **args)
        with _on_cpu(BN_TRAINING) as ns:
            here = ns["bn_training_grads"](tf, **args)
        for name, p, h in zip(("dx", "dgamma", "dbeta", "second order"), page, here):
            np.testing.assert_allclose(np.asarray(p), np.asarray(h), rtol=1e-3, atol=1e-3, err_msg=f"axis {axis}: {name}")


FUSED_CHAINS = '''
def fused_chain_model(tf):
    """conv -> batch normalization -> relu6 and zero padding -> depthwise -> batch normalization ->
    relu: two chains predict runs fused (layers/inference_fusion.py), the second padding the image
    itself."""
    L = tf.layers
    inp = tf.input(shape=[9, 8, 4])
    a = L.conv2d(filters=8, kernel_size=3, padding="same", use_bias=False).apply(inp)
    a = L.re_lu(max_value=6).apply(L.batch_normalization().apply(a))
    b = L.depthwise_conv2d(kernel_size=3, strides=2).apply(L.zero_padding2d(padding=[[0, 1], [0, 1]]).apply(a))
    b = L.activation(activation="relu").apply(L.batch_normalization().apply(b))
    return tf.model(inputs=inp, outputs=b)


def fused_chain_predict(tf, x, weights):
    model = fused_chain_model(tf)
    model.set_weights(weights)
    xt = tf.tensor(x)
    y = model.predict(xt)
    plan = model._inference_plan()
    out = [y.array_sync(), len(plan.heads), len(plan.skipped)]
    tf.dispose([xt, y])
    model.dispose()
    return out
'''


def test_predict_time_fusion_matches_cpu_run_layer_by_layer(run_py):
    """The fused chains on webgl (the normalization folded into the convolutions' weights, the
    activation in the same program, the padding the convolution's) against the layers run one by
    one on cpu."""
    from pytfweb.layers.inference_fusion import Plan
    rng = np.random.default_rng(12)
    x = rng.normal(size=(2, 9, 8, 4)).astype(np.float32)
    with _on_cpu(FUSED_CHAINS) as ns:
        model = ns["fused_chain_model"](tf)
        weights = []
        for w in model.weights:
            low, high = (0.3, 3.0) if "variance" in w.name or "gamma" in w.name else (-1.0, 1.0)
            weights.append(rng.uniform(low, high, size=w.shape).astype(np.float32))
        model.set_weights(weights)
        model._fusion_plan = Plan([], [])     # layer by layer
        xt = tf.tensor(x)
        y = model.predict(xt)
        want = y.numpy()
        tf.dispose([xt, y])
        model.dispose()
    got, chains, skipped = run_py(FUSED_CHAINS + "result = fused_chain_predict(tf, x, weights)", x=x.tolist(),
                                  weights=[w.tolist() for w in weights])
    assert chains == 2 and skipped == 5     # two normalizations, two activations, the padding
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)
