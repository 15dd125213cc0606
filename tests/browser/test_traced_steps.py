"""Layers models' traced steps on the session's GPU backend: fit, evaluate and predict give what
the eager steps give on the same backend (the same programs run; fusion applies in both), and
the traced step holds no GPU memory across steps. One page run."""

_PAGE = r'''
import random

async def run(jit):
    random.seed(11)
    model = tf.sequential(layers=[
        tf.layers.conv2d(filters=3, kernel_size=3, input_shape=[5, 5, 2], padding="same"),
        tf.layers.batch_normalization(), tf.layers.activation(activation="relu"), tf.layers.dropout(rate=0.25),
        tf.layers.flatten(), tf.layers.dense(units=6, activation="tanh"), tf.layers.dense(units=3)])
    model.compile("adam", "sparseCategoricalCrossentropy", ["accuracy"], jit_compile=jit)
    x = tf.random_normal([10, 5, 5, 2], 0, 1, "float32", 5)
    y = tf.tensor([i % 3 for i in range(10)], [10, 1], "float32")
    history = model.fit_sync(x, y, batch_size=4, epochs=3, verbose=0)
    ev = model.evaluate(x, y, batch_size=4)
    p = model.predict(x, batch_size=4)
    out = {"history": history.history, "evaluate": [t.data_sync().tolist() for t in ev],
           "predict": p.data_sync().tolist(), "weights": [w.data_sync().tolist() for w in model.weights],
           "iterations": model.optimizer.iterations,
           "traces": None if model.train_function is None else
           [f.trace_count for f in (model.train_function, model.test_function, model.predict_function)]}
    tf.dispose([ev, p])
    if jit:   # batches of 4 were traced by fit: these replay
        xb, yb = tf.slice(x, [0], [4]), tf.slice(y, [0], [4])
        before = (tf.memory()["num_tensors"], tf.memory()["num_bytes"], in_use())
        for _ in range(20):
            await model.train_on_batch(xb, yb)
        out["flat"] = [before, (tf.memory()["num_tensors"], tf.memory()["num_bytes"], in_use())]
        tf.dispose([xb, yb])
    tf.dispose([x, y])
    model.dispose()
    return out

eager = await run(False)
traced = await run(True)
result = {"eager": eager, "traced": traced, "left": tf.memory()["num_tensors"]}
'''


def test_traced_fit_evaluate_predict_equal_eager_on_the_gpu(run_py):
    r = run_py(_PAGE)
    eager, traced = r["eager"], r["traced"]
    assert eager["traces"] is None
    assert traced["traces"] == [2, 2, 2]   # batches of 4 and the last of 2
    for key in ("history", "evaluate", "predict", "weights", "iterations"):
        assert traced[key] == eager[key], key
    before, after = traced["flat"]
    assert before == after, traced["flat"]
    assert r["left"] == 0
