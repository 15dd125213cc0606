"""`make demo`: a small Keras-style model trains on the GPU in headless Chromium, with progress.

    pytfweb run examples/demo.py                  # webgl: Python in Pyodide, kernels as WebGL2 shaders
    pytfweb run --backend cpu examples/demo.py    # numpy, here

The task: tell whether a point of the plane lies inside the unit circle.
"""
import pytfweb as tf

print("backend:", tf.get_backend())
print("renderer:", getattr(tf.backend(), "renderer", "n/a"))

xs = tf.random_uniform([600, 2], -1.5, 1.5, seed=1)
ys = tf.tidy(lambda: tf.cast(tf.less(tf.sum(tf.square(xs), axis=1, keep_dims=True), 1.0), "float32"))


def dense(units, activation, seed, **kwargs):
    return tf.layers.dense(units=units, activation=activation,
                           kernel_initializer=tf.initializers.glorot_uniform(seed=seed), **kwargs)


model = tf.sequential(layers=[dense(16, "relu", 1, input_shape=[2]), dense(16, "relu", 2), dense(1, "sigmoid", 3)])
model.summary()
optimizer = tf.train.adam(0.03)
model.compile(optimizer=optimizer, loss="binaryCrossentropy", metrics=["accuracy"])
history = await model.fit(xs, ys, epochs=20, batch_size=50, validation_split=0.2, shuffle=False)  # noqa: F704

points = tf.tensor2d([[0.0, 0.0], [0.6, -0.5], [1.3, 1.2], [-1.4, 0.2]])
inside = model.predict(points)
for (x, y), p in zip(points.array_sync(), inside.array_sync()):
    print(f"P(inside | ({x:+.1f}, {y:+.1f})) = {p[0]:.3f}")
print(f"final accuracy: train {history.history['acc'][-1]:.3f}, validation {history.history['val_acc'][-1]:.3f}")
tf.dispose([xs, ys, points, inside])
model.dispose()
optimizer.dispose()   # an optimizer passed to compile stays the caller's (as in TF.js)
print("tensors left:", tf.memory().num_tensors)
