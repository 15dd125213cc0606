"""Train a small convnet on synthetic 12x12 images (a horizontal, a vertical or a diagonal line
in noise), with live loss/accuracy curves, then draw predictions.

In web/examples/train.html it runs in a Web Worker (the page stays responsive): the curves go to
the page's #charts, the model summary, weight histograms and confusion matrix to the visor, the
predictions (tf.browser.to_pixels) to the page's canvas. ?seconds=N (default 20) bounds the fit,
?min_epochs=N (default 1) the epochs it runs at least.

In CPython the same tf.vis calls write SVG files:
    pytfweb run --backend cpu web/examples/train.py [SECONDS]      # -> build/train/*.svg
"""
import random
import sys
import time
from urllib.parse import parse_qs, urlsplit

import pytfweb as tf
from pytfweb.browser import worker

IN_BROWSER = tf.env().get("IS_BROWSER")
SIZE, CLASSES = 12, ["horizontal", "vertical", "diagonal"]

if IN_BROWSER:
    QUERY = parse_qs(urlsplit(worker.page_url()).query)
    SECONDS = float(QUERY.get("seconds", ["20"])[0])
    MIN_EPOCHS = int(QUERY.get("min_epochs", ["1"])[0])
    CHARTS = "charts"
    visor = tf.vis.visor()
    SUMMARY, WEIGHTS, CONFUSION = (visor.surface(n, tab="Model") for n in ("Summary", "conv2d weights", "Confusion"))
else:
    SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    MIN_EPOCHS = 1
    tf.vis.set_output_dir("build/train")
    CHARTS = "build/train/charts.svg"
    SUMMARY, WEIGHTS, CONFUSION = ("build/train/" + n for n in ("summary.svg", "weights.svg", "confusion.svg"))


def make_images(n, seed):
    """n images [SIZE, SIZE] in [0, 1] and their labels (0, 1, 2 in turn)."""
    rng = random.Random(seed)
    images, labels = [], []
    for i in range(n):
        label = i % 3
        img = [[rng.random() * 0.6 for _ in range(SIZE)] for _ in range(SIZE)]
        k = rng.randrange(1, SIZE - 1)
        for j in range(SIZE):
            r, c = ((k, j), (j, k), (j, (j + k) % SIZE))[label]
            img[r][c] = 0.45 + rng.random() * 0.55
        images.append(img)
        labels.append(label)
    return tf.tensor4d(images, [n, SIZE, SIZE, 1]), labels


class StopAfter(tf.callbacks.Callback):
    """Ends fit after `seconds` (checked after each batch), once `min_epochs` epochs are done."""

    def __init__(self, seconds, min_epochs):
        self.seconds, self.min_epochs = seconds, min_epochs
        self.start = time.perf_counter()
        self.epochs = 0

    def on_epoch_end(self, epoch, logs=None):
        self.epochs = epoch + 1

    def on_batch_end(self, batch, logs=None):
        if self.epochs >= self.min_epochs and time.perf_counter() - self.start > self.seconds:
            self.model.stop_training = True


xs, labels = make_images(360, seed=1)
ys = tf.one_hot(tf.tensor1d(labels, "int32"), 3)
test_x, test_labels = make_images(12, seed=2)

model = tf.sequential(layers=[
    tf.layers.conv2d(filters=8, kernel_size=3, activation="relu", input_shape=[SIZE, SIZE, 1]),
    tf.layers.max_pooling2d(pool_size=2),
    tf.layers.conv2d(filters=16, kernel_size=3, activation="relu"),
    tf.layers.flatten(),
    tf.layers.dense(units=3, activation="softmax"),
])
model.compile(optimizer=tf.train.adam(0.005), loss="categoricalCrossentropy", metrics=["accuracy"])
tf.vis.show.model_summary(SUMMARY, model)

charts = tf.vis.show.fit_callbacks(CHARTS, ["loss", "val_loss", "acc", "val_acc"], {"width": 460, "height": 200})
print(f"training for up to {SECONDS:g} s on {tf.get_backend()}")
if IN_BROWSER:
    worker.post("fit-start")
start = time.perf_counter()
history = await model.fit(xs, ys, epochs=200, batch_size=36, validation_split=0.2, shuffle=True,  # noqa: F704
                          callbacks=[charts, StopAfter(SECONDS, MIN_EPOCHS)], verbose=0)
seconds = time.perf_counter() - start
if IN_BROWSER:
    worker.post("fit-end", {"epochs": len(history.epoch), "seconds": seconds})
last = {k: v[-1] for k, v in history.history.items()}
print(f"{len(history.epoch)} epochs in {seconds:.1f} s: " + " ".join(f"{k}={v:.3f}" for k, v in last.items()))

tf.vis.show.layer(WEIGHTS, model.layers[0])
probs = model.predict(test_x)
predicted = tf.arg_max(probs, 1)
tf.vis.render.confusion_matrix(CONFUSION, {"values": tf.math.confusion_matrix(tf.tensor1d(test_labels, "int32"),
                                                                              predicted, 3),
                                           "tickLabels": CLASSES})
guesses = predicted.array_sync()
confidence = tf.max(probs, 1).array_sync()
for i in range(len(test_labels)):
    big = tf.tidy(lambda: tf.image.resize_nearest_neighbor(test_x[i], [48, 48]))
    rgba = await tf.browser.to_pixels(big)                                                       # noqa: F704
    big.dispose()
    line = f"image {i}: {CLASSES[test_labels[i]]:10s} -> {CLASSES[guesses[i]]} ({confidence[i]:.2f})"
    print(line)
    if IN_BROWSER:
        worker.post("prediction", {"index": i, "rgba": rgba, "width": 48, "height": 48, "label": CLASSES[test_labels[i]],
                                   "predicted": CLASSES[guesses[i]], "confidence": confidence[i]})
correct = sum(int(g == t) for g, t in zip(guesses, test_labels))
print(f"test: {correct} of {len(test_labels)} right")
tf.dispose([xs, ys, test_x, probs, predicted])
