"""Recurrent layers on webgl against cpu (seeded initializers give the same weights on both)."""
import numpy as np

SEEDED = ("kernel_initializer=tf.initializers.glorot_normal(seed=1), "
          "recurrent_initializer=tf.initializers.glorot_normal(seed=2)")


def test_recurrent_layers_match_cpu(compare_with_cpu):
    x = np.random.default_rng(5).uniform(-1, 1, size=(2, 4, 3)).astype(np.float32)
    compare_with_cpu(
        f"lambda x: [tf.layers.simple_rnn(units=3, return_sequences=True, {SEEDED}).apply(x), "
        f"tf.layers.lstm(units=3, {SEEDED}).apply(x), "
        f"tf.layers.gru(units=2, return_sequences=True, go_backwards=True, {SEEDED}).apply(x), "
        f"tf.layers.bidirectional(layer=tf.layers.lstm(units=2, {SEEDED}), merge_mode='concat').apply(x), "
        f"tf.layers.time_distributed(layer=tf.layers.dense(units=2, kernel_initializer="
        f"tf.initializers.glorot_normal(seed=3))).apply(x)]",
        [x], rtol=1e-4, atol=1e-5)
