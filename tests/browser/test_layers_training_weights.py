"""A masked, sample-weighted train_on_batch on webgl against the same steps on cpu (seeded
initializers give the same weights on both)."""
import asyncio
import textwrap
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import pytfweb as tf

STEPS = '''
ids_t, y_t, sw_t = tf.tensor(ids, None, "int32"), tf.tensor(y), tf.tensor(sw)
model = tf.sequential(layers=[
    tf.layers.embedding(input_dim=6, output_dim=3, mask_zero=True, input_shape=[4],
                        embeddings_initializer=tf.initializers.random_uniform(-1, 1, seed=1)),
    tf.layers.lstm(units=3, return_sequences=True, kernel_initializer=tf.initializers.glorot_normal(seed=2),
                   recurrent_initializer=tf.initializers.glorot_normal(seed=3)),
    tf.layers.dense(units=2, kernel_initializer=tf.initializers.glorot_normal(seed=4))])
model.compile(optimizer=tf.train.sgd(0.5), loss="mse", metrics=["mae"])
first = await model.train_on_batch(ids_t, y_t, sample_weight=sw_t)
second = await model.train_on_batch(ids_t, y_t, sample_weight=sw_t)
result = [first, second, [tf.clone(w) for w in model.weights]]
'''


def _on_cpu(**variables):
    tf.set_backend("cpu")
    ns = {"tf": tf, **variables}
    exec("async def _steps():\n" + textwrap.indent(STEPS, "    ") + "    return result, model, ids_t, y_t, sw_t\n", ns)
    with ThreadPoolExecutor(1) as pool:   # (Playwright's event loop runs in this thread)
        result, model, *inputs = pool.submit(asyncio.run, ns["_steps"]()).result()
    first, second, weights = result
    out = [first, second, [w.numpy() for w in weights]]
    tf.dispose([weights, inputs])
    model.dispose()
    return out


def test_masked_weighted_train_on_batch_matches_cpu(run_py):
    rng = np.random.default_rng(11)
    ids = [[2, 5, 0, 0], [1, 0, 3, 4], [4, 4, 4, 0]]
    variables = dict(ids=ids, y=rng.normal(size=(3, 4, 2)).tolist(), sw=rng.uniform(0, 2, size=(3, 4)).tolist())
    want = _on_cpu(**variables)
    got = run_py(STEPS, **variables)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-4, atol=1e-5)   # [loss, mae] before each step
    np.testing.assert_allclose(got[1], want[1], rtol=1e-4, atol=1e-5)
    assert len(got[2]) == len(want[2])
    for g, w in zip(got[2], want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)
