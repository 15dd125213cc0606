"""Models of every layer family, built the same way in CPython and in the page (this file's source
is run there too, so it needs only pytfweb): tests save and load them through TF.js's layers
format. FAMILIES: name -> (layers(tf.layers), input shapes without the batch, input dtype);
"functional" is a graph with two inputs, shared and merge layers and a nested model."""

FAMILIES = {
    "dense": (lambda L: [L.dense(units=3, activation="relu", kernel_regularizer="l1l2", kernel_constraint="maxNorm",
            bias_initializer="ones", input_shape=[4]),
            L.dense(units=2, use_bias=False, activation="softmax")],
             [[4]], "float32"),
    "core": (lambda L: [L.reshape(target_shape=[3, 4], input_shape=[12]), L.permute(dims=[2, 1]), L.flatten(),
            L.repeat_vector(n=2), L.activation(activation="tanh"), L.dropout(rate=0.3),
            L.spatial_dropout1d(rate=0.2), L.gaussian_noise(stddev=0.1), L.gaussian_dropout(rate=0.1),
            L.alpha_dropout(rate=0.1), L.masking(mask_value=0), L.rescaling(scale=2, offset=1)],
             [[12]], "float32"),
    "activations": (lambda L: [L.re_lu(max_value=0.5, input_shape=[6]), L.leaky_re_lu(alpha=0.2), L.prelu(),
            L.elu(), L.thresholded_re_lu(theta=0.1), L.softmax(axis=-1)],
             [[6]], "float32"),
    "conv2d": (lambda L: [L.conv2d(filters=3, kernel_size=3, strides=2, padding="same", activation="relu",
            input_shape=[9, 9, 2]),
            L.depthwise_conv2d(kernel_size=2, depth_multiplier=2, use_bias=False),
            L.separable_conv2d(filters=2, kernel_size=2, dilation_rate=1, padding="same"),
            L.conv2d_transpose(filters=2, kernel_size=3, strides=2),
            L.cropping2d(cropping=[[1, 0], [0, 1]]), L.zero_padding2d(padding=[[1, 2], [0, 1]]),
            L.up_sampling2d(size=[2, 1]), L.max_pooling2d(pool_size=2),
            L.average_pooling2d(pool_size=[2, 1], strides=1),
            L.batch_normalization(momentum=0.9, epsilon=0.01), L.global_max_pooling2d()],
             [[9, 9, 2]], "float32"),
    "conv1d3d": (lambda L: [L.conv1d(filters=4, kernel_size=2, padding="same", dilation_rate=2, input_shape=[8, 3]),
            L.max_pooling1d(pool_size=2), L.average_pooling1d(pool_size=2, padding="same"),
            L.global_average_pooling1d(), L.reshape(target_shape=[2, 2, 1, 1]),
            L.conv3d(filters=2, kernel_size=1), L.conv3d_transpose(filters=1, kernel_size=2),
            L.max_pooling3d(pool_size=1), L.average_pooling3d(pool_size=1), L.flatten(),
            L.layer_normalization(epsilon=0.01)],
             [[8, 3]], "float32"),
    "recurrent": (lambda L: [L.masking(mask_value=0, input_shape=[5, 3]),
            L.simple_rnn(units=3, return_sequences=True),
            L.lstm(units=2, return_sequences=True, recurrent_activation="sigmoid",
            unit_forget_bias=True),
            L.gru(units=2, return_sequences=True, go_backwards=True),
            L.rnn(cell=[L.lstm_cell(units=3), L.gru_cell(units=2)], return_sequences=True),
            L.rnn(cell=L.simple_rnn_cell(units=2), return_sequences=True),
            L.bidirectional(layer=L.lstm(units=2, return_sequences=True, name="bi_lstm"), merge_mode="ave"),
            L.time_distributed(layer=L.dense(units=3)), L.global_max_pooling1d()],
             [[5, 3]], "float32"),
    "conv_lstm": (lambda L: [L.conv_lstm2d(filters=2, kernel_size=2, padding="same", return_sequences=False,
            input_shape=[3, 4, 4, 1]), L.global_average_pooling2d()],
             [[3, 4, 4, 1]], "float32"),
    "embedding": (lambda L: [L.embedding(input_dim=10, output_dim=3, input_length=4, mask_zero=True),
            L.lstm(units=2)],
             [[4]], "int32"),
    "preprocessing": (lambda L: [L.resizing(height=6, width=4, input_shape=[8, 8, 2]),
            L.center_crop(height=4, width=4), L.flatten()],
             [[8, 8, 2]], "float32"),
    "category_encoding": (lambda L: [L.category_encoding(num_tokens=6, output_mode="count", input_shape=[4])],
             [[4]], "int32"),
}


def functional(tf):
    L = tf.layers
    a, b = tf.input(shape=[4], name="a"), tf.input(shape=[4], name="b")
    shared = L.dense(units=4, name="shared")
    sa, sb = shared.apply(a), shared.apply(b)
    merged = [layer.apply([sa, sb]) for layer in (L.add(name="add"), L.multiply(name="mul"), L.average(name="avg"),
                                                   L.maximum(name="max"), L.minimum(name="min"))]
    cat = L.concatenate(axis=-1, name="cat").apply(merged)
    dot = L.dot(axes=1, normalize=True, name="dot").apply([sa, sb])
    inner = tf.sequential([L.dense(units=2, input_shape=[20], name="inner_dense")], name="inner")
    return tf.model(inputs=[a, b], outputs=[inner.apply(cat), dot], name="functional")


NAMES = list(FAMILIES) + ["functional"]


def build(tf, name):
    """The model of family `name`, its layers named '<name>_<i>' (as the TF.js side names them)."""
    if name == "functional":
        return functional(tf)
    layers = FAMILIES[name][0](tf.layers)
    for i, layer in enumerate(layers):
        layer.name = f"{name}_{i}"
    return tf.sequential(layers, name=name)


def input_spec(name):
    """(input shapes without the batch, dtype) of family `name`."""
    return ([[4], [4]], "float32") if name == "functional" else (FAMILIES[name][1], FAMILIES[name][2])


def inputs(name, batch=2):
    """Deterministic inputs as nested lists: sin(i + 1) (ints: 7i mod 6), in each input's shape."""
    import math
    shapes, dtype = input_spec(name)
    out = []
    for shape in shapes:
        full = [batch] + list(shape)
        n = 1
        for d in full:
            n *= d
        flat = [(i * 7) % 6 if dtype == "int32" else math.sin(i + 1) for i in range(n)]
        out.append(_nest(flat, full))
    return out, dtype


def _nest(flat, shape):
    if len(shape) == 1:
        return flat
    step = len(flat) // shape[0]
    return [_nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]
