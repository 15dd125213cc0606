"""ConvLSTM2D on webgl against cpu (seeded initializers give the same weights on both); small shapes,
SwiftShader is slow."""
import numpy as np

SEEDED = ("kernel_initializer=tf.initializers.glorot_normal(seed=1), "
          "recurrent_initializer=tf.initializers.glorot_normal(seed=2), unit_forget_bias=True")


def test_conv_lstm2d_matches_cpu(compare_with_cpu):
    x = np.random.default_rng(5).uniform(-1, 1, size=(2, 3, 5, 4, 2)).astype(np.float32)
    compare_with_cpu(
        f"lambda x: [*tf.layers.conv_lstm2d(filters=2, kernel_size=3, padding='same', strides=[2, 1], "
        f"return_sequences=True, return_state=True, {SEEDED}).apply(x), "
        f"tf.layers.conv_lstm2d(filters=3, kernel_size=[2, 3], go_backwards=True, data_format='channelsFirst', "
        f"{SEEDED}).apply(tf.transpose(x, [0, 1, 4, 2, 3]))]",
        [x], rtol=1e-4, atol=1e-5)


def test_conv_lstm2d_gradients_match_cpu(compare_with_cpu):
    x = np.random.default_rng(6).uniform(-1, 1, size=(1, 3, 4, 4, 1)).astype(np.float32)
    layer = f"tf.layers.conv_lstm2d(filters=2, kernel_size=2, padding='same', recurrent_activation='sigmoid', {SEEDED})"
    compare_with_cpu(
        "lambda x: (lambda layer: (lambda loss: [tf.grad(lambda t: loss(t))(x), "
        "*(lambda g: [g[w.name] for w in layer.trainable_weights])(tf.variable_grads(lambda: loss(x), "
        "layer.trainable_weights)[1])])(lambda t: tf.sum(tf.square(layer.apply(t)))))"
        f"({layer})",
        [x], rtol=1e-3, atol=1e-4)
