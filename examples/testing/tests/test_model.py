"""The classifier's tests, each run on cpu (here), webgl and webgpu (in headless Chromium)."""
import pytest

import classifier
import pytfweb as tf
from pytfweb.testing import assert_close, assert_equal, check_gradients, no_leaks

W = [[1.0, -1.0, 0.5], [0.5, 2.0, -1.0]]
B = [0.1, 0.0, -0.1]
X = [[1.0, 2.0], [-1.0, 0.5], [0.0, -2.0]]
LABELS = [1, 0, 2]


def params():
    return tf.tensor(W), tf.tensor(B)


@pytest.mark.pytfweb
def test_probabilities_are_a_distribution(tf_backend):
    def check():   # in a tidy: the tensors made here are disposed when it returns
        p = classifier.predict_proba(tf.tensor(X), *params())
        assert p.shape == (3, 3)
        assert_close(tf.sum(p, 1), [1.0, 1.0, 1.0])
        # x @ W + b for the first row: [2.1, 3.0, -1.6]; softmax of it
        assert_close(tf.slice(p, [0, 0], [1, 3]), [[0.28700, 0.70590, 0.00710]])
    tf.tidy(check)


@pytest.mark.pytfweb(backends=["cpu", "webgl", "webgpu"])
def test_predict_gives_the_class_of_the_largest_score(tf_backend):
    w, b = params()
    x = tf.tensor(X)
    with no_leaks():
        classes = classifier.predict(x, w, b)
        assert_equal(classes, [1, 1, 2])
        classes.dispose()
    tf.dispose([w, b, x])


@pytest.mark.pytfweb
def test_gradients_of_the_loss(tf_backend):
    x, labels = tf.tensor(X), tf.tensor(LABELS, dtype="int32")
    w, b = params()
    check_gradients(lambda w, b: classifier.loss(x, labels, w, b), [w, b])
    tf.dispose([x, labels, w, b])


def _wrong_gradient():
    """x * x with the gradient of x (off by a factor 2x): what a hand-written gradient gets wrong."""
    return tf.custom_grad(lambda x, save: {"value": tf.mul(x, x), "grad_func": lambda dy, saved: dy})


@pytest.mark.pytfweb
def test_a_wrong_gradient_is_caught(tf_backend):
    x = tf.tensor([1.0, 2.0, 3.0])
    with pytest.raises(AssertionError, match="relative error"):
        check_gradients(_wrong_gradient(), [x])
    x.dispose()


@pytest.mark.pytfweb
async def test_training_lowers_the_loss(tf_backend):
    x, labels = tf.tensor(X), tf.tensor(LABELS, dtype="int32")
    w, b = classifier.train(x, labels, steps=30)
    before = tf.tidy(lambda: classifier.loss(x, labels, tf.zeros([2, 3]), tf.zeros([3])))
    after = classifier.loss(x, labels, w, b)
    first, last = (await before.data())[0], (await after.data())[0]
    assert last < first / 2, f"the loss went from {first} to {last}"
    predicted = classifier.predict(x, w, b)
    assert_equal(predicted, LABELS)
    tf.dispose([x, labels, w, b, before, after, predicted])
