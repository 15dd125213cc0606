"""A tiny softmax classifier: FEATURES inputs -> CLASSES scores, trained with SGD.
The model module of the example project; tests/test_model.py tests it on every backend."""
import pytfweb as tf

FEATURES, CLASSES = 2, 3


def logits(x, w, b):
    return tf.add(tf.mat_mul(x, w), b)


def predict_proba(x, w, b):
    """Class probabilities, one row per example."""
    return tf.tidy(lambda: tf.softmax(logits(x, w, b)))


def predict(x, w, b):
    """The most likely class of each example (int32)."""
    return tf.tidy(lambda: tf.arg_max(logits(x, w, b), 1))


def loss(x, labels, w, b):
    """Mean softmax cross-entropy against integer labels."""
    return tf.tidy(lambda: tf.losses.softmax_cross_entropy(tf.one_hot(labels, CLASSES), logits(x, w, b)))


def train(x, labels, steps=50, learning_rate=0.5):
    """Fits weights from zero; returns the variables (w, b), which the caller disposes."""
    # in a tidy: the zeros go, the variables (never disposed by a tidy) stay
    w, b = tf.tidy(lambda: (tf.variable(tf.zeros([FEATURES, CLASSES]), name="w"),
                            tf.variable(tf.zeros([CLASSES]), name="b")))
    optimizer = tf.train.sgd(learning_rate)
    for _ in range(steps):
        tf.dispose(optimizer.minimize(lambda: loss(x, labels, w, b)))
    optimizer.dispose()
    return w, b
