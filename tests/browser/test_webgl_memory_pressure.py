"""A GPU byte budget (flag WEBGL_MAX_GPU_BYTES): under a budget far below the working set,
least-recently-used data is paged out to the CPU and uploaded again on use, and a chain of
mat_muls, a convnet's predict and a few training steps give the values they give without a
budget; the textures' bytes stay within the budget plus what the current draw itself needs,
tf.memory() agrees, and nothing leaks. On a backend of its own, so the page's webgl backend is
untouched. Also: a tensor too large for a texture raises a ValueError naming its shape."""
import numpy as np

OWN_BACKEND = """
from pytfweb.backends.webgl.backend import WebGLBackend
tf.copy_registered_kernels("webgl", "webgl-budget")
tf.register_backend("webgl-budget", WebGLBackend)
tf.set_backend("webgl-budget")
be = tf.backend()
"""

UNDER_BUDGET = OWN_BACKEND + """
import math

BUDGET = 64 * 1024
watch = {"max_excess": None, "draws": 0}


def resident(datas):
    return {id(d): d for d in datas if d is not None and d.texture is not None}


def check_draw(inputs, outs):
    # after a draw: bytes of textures (in use + recycled) minus the budget, minus what this draw
    # needs resident (its inputs, its outputs, and the packed temporaries of the running kernel)
    if not tf.env().get("WEBGL_MAX_GPU_BYTES"):
        return
    t = be.textures
    own = resident([be.store.get(i.data_id) for i in list(inputs) + list(outs)])
    own.update(resident([d for d in be.store.values() if d.channels >= 4 and d not in be._lru]))
    excess = t.bytes_used + t.bytes_free - BUDGET - sum(t.nbytes(*d.tex_shape, d.channels) for d in own.values())
    watch["draws"] += 1
    if watch["max_excess"] is None or excess > watch["max_excess"]:
        watch["max_excess"] = excess
        watch["worst"] = [t.bytes_used, t.bytes_free, len(own), [(list(i.shape), i.dtype) for i in inputs],
                          [list(o.shape) for o in outs]]


run0, run_packed0 = be.run, be.run_packed
def run(program, inputs, *args, **kw):
    out = run0(program, inputs, *args, **kw)
    check_draw(inputs, [out])
    return out
def run_packed(program, inputs, *args, **kw):
    out = run_packed0(program, inputs, *args, **kw)
    check_draw(inputs, [out])
    return out
be.run, be.run_packed = run, run_packed


def det(shape, phase):
    n = 1
    for s in shape:
        n *= s
    return tf.tensor([0.5 * math.sin(0.7 * i + phase) for i in range(n)], shape)


async def work():
    out = {}
    # a chain of mat_muls: 10 weights of 64x64 (16 KB each) kept alive, 160 KB of weights alone
    ws = [det([64, 64], k) for k in range(10)]
    y = det([32, 64], 0.3)
    for w in ws:
        y2 = tf.tidy(lambda: tf.tanh(tf.mat_mul(y, w)))
        y.dispose()
        y = y2
    out["chain"] = list(await y.data())
    out["chain_memory"] = tf.memory().num_bytes
    tf.dispose(ws + [y])

    # a small convnet: predict, then training steps (sgd), then predict again
    model = tf.sequential(layers=[
        tf.layers.conv2d(input_shape=[12, 12, 2], kernel_size=3, filters=8, activation="relu"),
        tf.layers.max_pooling2d(pool_size=2),
        tf.layers.conv2d(kernel_size=3, filters=8, activation="relu"),
        tf.layers.flatten(),
        tf.layers.dense(units=16, activation="relu"),
        tf.layers.dense(units=4, activation="softmax"),
    ])
    weights = [det(w.shape, 0.1 * i) for i, w in enumerate(model.get_weights())]
    model.set_weights(weights)
    tf.dispose(weights)
    optimizer = tf.train.sgd(0.1)
    model.compile(optimizer=optimizer, loss="categoricalCrossentropy")
    x = det([16, 12, 12, 2], 1.0)
    labels = tf.tidy(lambda: tf.one_hot(tf.tensor1d([i % 4 for i in range(16)], "int32"), 4))
    p = model.predict(x)
    out["predict"] = list(await p.data())
    p.dispose()
    out["losses"] = []
    for _ in range(3):
        loss = await model.train_on_batch(x, labels)
        out["losses"].append(loss if isinstance(loss, float) else float((await loss.data())[0]))
        if not isinstance(loss, float):
            loss.dispose()
    p = model.predict(x)
    out["predict_after"] = list(await p.data())
    out["model_memory"] = [tf.memory().num_tensors, tf.memory().num_bytes]
    p.dispose()
    out["weights"] = [list(await w.data()) for w in model.get_weights()]
    tf.dispose([x, labels])
    model.dispose()
    optimizer.dispose()
    return out


try:
    before = tf.memory().num_tensors
    result = {"free": await work(), "free_in_use": be.memory()["num_bytes_in_gpu"],
              "free_left": tf.memory().num_tensors - before}
    paged_before = be.paged_out
    tf.env().set("WEBGL_MAX_GPU_BYTES", BUDGET)
    result["budget"] = await work()
    result["paged_out"] = be.paged_out - paged_before
    result["budget_left"] = tf.memory().num_tensors - before
    result["textures_in_use"] = be.memory()["num_textures_in_use"]
    result["bytes_allocated"] = be.memory()["num_bytes_in_gpu_allocated"]
    result["lru"] = len(be._lru)
    result["watch"] = watch
finally:
    tf.env().set("WEBGL_MAX_GPU_BYTES", 0)
    tf.set_backend("webgl")
    tf.remove_backend("webgl-budget")
"""


def test_budget_pages_to_cpu_and_gives_the_same_values(run_py):
    out = run_py(UNDER_BUDGET)
    free, budget = out["free"], out["budget"]
    assert out["paged_out"] > 20, out["paged_out"]          # the budget did bite
    # the same values: pages go out and back in as float32, exactly
    np.testing.assert_array_equal(budget["chain"], free["chain"])
    np.testing.assert_array_equal(budget["predict"], free["predict"])
    np.testing.assert_array_equal(budget["losses"], free["losses"])
    np.testing.assert_array_equal(budget["predict_after"], free["predict_after"])
    for a, b in zip(budget["weights"], free["weights"]):
        np.testing.assert_array_equal(a, b)
    # tf.memory() is the engine's count either way
    assert budget["chain_memory"] == free["chain_memory"]
    assert budget["model_memory"] == free["model_memory"]
    # bytes in use never went above the budget beyond what the draw itself held resident
    assert out["watch"]["draws"] > 50
    assert out["watch"]["max_excess"] <= 0, out["watch"]
    assert out["bytes_allocated"] <= 64 * 1024
    # nothing leaked: no tensor, no texture in use, no recency entry
    assert out["free_left"] == 0 and out["budget_left"] == 0
    assert out["textures_in_use"] == 0 and out["lru"] == 0


TOO_LARGE = """
from pytfweb.backends.webgl.backend import WebGLBackend
tf.env().set("WEBGL_MAX_TEXTURE_SIZE", 16)
tf.copy_registered_kernels("webgl", "webgl-small")
tf.register_backend("webgl-small", WebGLBackend)
tf.set_backend("webgl-small")
try:
    before = tf.memory().num_tensors
    errors = {}
    x = tf.tensor([1.0] * 400, [20, 20])   # CPU-side; 20x20 does not fit in 16x16, nor does 16x25
    for name, fn in (("upload", lambda: tf.sum(x, 0)),
                     ("output", lambda: tf.tidy(lambda: tf.tile(tf.ones([16, 16]), [2, 2]))),
                     ("fill", lambda: tf.ones([20, 20]))):
        try:
            fn()
            errors[name] = None
        except Exception as exc:
            errors[name] = [type(exc).__name__, str(exc)]
    fits = tf.tidy(lambda: float(tf.sum(tf.add(tf.ones([16, 16]), 1)).data_sync()[0]))
    x.dispose()
    result = {"errors": errors, "fits": fits, "left": tf.memory().num_tensors - before,
              "in_use": tf.backend().memory()["num_textures_in_use"]}
finally:
    tf.env().set("WEBGL_MAX_TEXTURE_SIZE", 0)
    tf.set_backend("webgl")
    tf.remove_backend("webgl-small")
"""


def test_too_large_for_a_texture_is_a_value_error_naming_the_shape(run_py):
    out = run_py(TOO_LARGE)
    for name, err in out["errors"].items():
        assert err is not None, name
        kind, message = err
        assert kind == "ValueError", (name, err)
        assert "does not fit" in message and "16x16" in message, (name, message)
    assert "[20, 20]" in out["errors"]["upload"][1]
    assert "[32, 32]" in out["errors"]["output"][1]
    assert "[20, 20]" in out["errors"]["fill"][1]
    assert out["fits"] == 512.0
    assert out["left"] == 0 and out["in_use"] == 0
