"""A layers model's training step, eager against traced: model.train_on_batch on an MLP (adam,
categorical cross-entropy, accuracy), compiled with jit_compile=False and with the default
(the step through tf.function: traced once, then replayed).

    pytfweb run examples/bench_train_step.py                        # webgl, headless Chromium
    pytfweb run --backend cpu examples/bench_train_step.py          # numpy
    pytfweb run --backend cpu examples/bench_train_step.py large    # 784-128-64-10, batch 64

Prints the median ms per step of five rounds of 50 steps (after five warm-up steps, which trace),
for each way twice, interleaved.
"""
import statistics
import sys
import time

import pytfweb as tf

LARGE = "large" in sys.argv[1:]
IN, H1, H2, BATCH = (784, 128, 64, 64) if LARGE else (16, 32, 32, 32)
x = tf.random_normal([BATCH, IN], 0, 1, "float32", 1)
y = tf.tidy(lambda: tf.one_hot(tf.cast(tf.random_uniform([BATCH], 0, 10, "float32", 2), "int32"), 10).cast("float32"))


async def bench(jit_compile, steps=50, rounds=5):
    model = tf.sequential(layers=[tf.layers.dense(units=H1, input_shape=[IN], activation="relu"),
                                  tf.layers.dense(units=H2, activation="relu"),
                                  tf.layers.dense(units=10, activation="softmax")])
    model.compile("adam", "categoricalCrossentropy", ["accuracy"], jit_compile=jit_compile)
    for _ in range(5):
        await model.train_on_batch(x, y)
    per_step = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(steps):
            await model.train_on_batch(x, y)
        per_step.append((time.perf_counter() - start) / steps * 1e3)
    model.dispose()
    return statistics.median(per_step)


print(f"train_on_batch, MLP {IN}-{H1}-{H2}-10, batch {BATCH}, adam, on {tf.get_backend()}")
for jit_compile in (False, True, False, True):
    ms = await bench(jit_compile)  # noqa: F704
    print(f"  {'traced' if jit_compile else 'eager '}  {ms:8.3f} ms per step")
tf.dispose([x, y])
