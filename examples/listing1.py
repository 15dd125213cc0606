"""The TensorFlow.js paper's Listing 1 in Python: a one-unit dense layer learns y = 2x - 1.

    pytfweb run examples/listing1.py                  # webgl, in headless Chromium
    pytfweb run --backend cpu examples/listing1.py    # numpy, here
"""
import pytfweb as tf

print("backend:", tf.get_backend())

# A linear model: one dense layer with one input and one output.
model = tf.sequential()
model.add(tf.layers.dense(units=1, input_shape=[1]))
model.compile(loss="meanSquaredError", optimizer="sgd")

# Training data: y = 2x - 1.
xs = tf.tensor2d([-1, 0, 1, 2, 3, 4], [6, 1])
ys = tf.tensor2d([-3, -1, 1, 3, 5, 7], [6, 1])

history = await model.fit(xs, ys, epochs=800, verbose=0)  # noqa: F704 - pytfweb run allows top-level await
print(f"loss after {len(history.epoch)} epochs: {history.history['loss'][-1]:.3e}")

# Predict y for x = 5: close to 9.
x = tf.tensor2d([5], [1, 1])
prediction = model.predict(x)
prediction.print()

tf.dispose([xs, ys, x, prediction])
model.dispose()
print("tensors left:", tf.memory().num_tensors)
