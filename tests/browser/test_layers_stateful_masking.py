"""Masked and stateful recurrent layers on webgl against cpu (seeded initializers give the same
weights on both)."""
import numpy as np

SEEDED = ("kernel_initializer=tf.initializers.glorot_normal(seed=1), "
          "recurrent_initializer=tf.initializers.glorot_normal(seed=2)")


def test_masked_lstm_matches_cpu(compare_with_cpu):
    rng = np.random.default_rng(7)
    x = rng.uniform(-1, 1, size=(2, 4, 3)).astype(np.float32)
    mask = np.array([[1, 0, 1, 1], [0, 1, 1, 0]], bool)
    ids = np.array([[2, 1, 0, 0], [0, 3, 3, 1]], np.int32)
    compare_with_cpu(
        f"lambda x, m, ids: tf.layers.lstm(units=3, return_sequences=True, return_state=True, {SEEDED})"
        f".apply(x, mask=m) + [tf.sequential(layers=["
        f"tf.layers.embedding(input_dim=4, output_dim=2, mask_zero=True, input_shape=[4], "
        f"embeddings_initializer=tf.initializers.random_uniform(-1, 1, seed=3)), "
        f"tf.layers.lstm(units=2, {SEEDED})]).predict(ids)]",
        [x, mask, ids], rtol=1e-4, atol=1e-5)


def test_stateful_gru_over_two_calls_matches_cpu(compare_with_cpu):
    x = np.random.default_rng(8).uniform(-1, 1, size=(2, 4, 2)).astype(np.float32)
    compare_with_cpu(
        f"lambda x: [(g := tf.layers.gru(units=3, stateful=True, return_sequences=True, {SEEDED}))"
        f".apply(tf.slice(x, [0, 0, 0], [-1, 2, -1])), g.apply(tf.slice(x, [0, 2, 0], [-1, 2, -1])), "
        f"tf.clone(g.states[0])]",
        [x], rtol=1e-4, atol=1e-5)
