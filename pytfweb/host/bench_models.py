"""Models the bench (and examples/mobilenet.py) build from tf.layers with random weights. Runs in
CPython and in Pyodide. Each has a JavaScript twin in web/bench_models.js, built from TF.js's
tf.layers, that `pytfweb bench` runs in the same browser: change the two together.

    mobilenet_v1()         MobileNet v1 1.0, 224x224x3 in, 1000 classes out: 4,253,864 parameters
    mobilenet_v1(0.25, 128)  MobileNet v1 0.25 at 128x128x3 (the training bench): 475,544 parameters
    small_convnet()        TF.js's MNIST tutorial convnet, 28x28x1 in, 10 classes out
    mlp()                  784 -> dense 128 relu -> dense 64 relu -> dense 10 softmax
    mlp(0.2)               the same with a dropout layer (rate 0.2) after each relu layer
"""
import pytfweb as tf


def _conv_block(x, filters, strides):
    x = tf.layers.conv2d(filters=filters, kernel_size=3, padding="same", use_bias=False, strides=strides,
                         name="conv1").apply(x)
    x = tf.layers.batch_normalization(axis=-1, name="conv1_bn").apply(x)
    return tf.layers.re_lu(max_value=6, name="conv1_relu").apply(x)


def _depthwise_conv_block(x, pointwise_filters, strides, block_id):
    if strides != 1:
        x = tf.layers.zero_padding2d(padding=[[0, 1], [0, 1]], name=f"conv_pad_{block_id}").apply(x)
    x = tf.layers.depthwise_conv2d(kernel_size=3, padding="same" if strides == 1 else "valid", strides=strides,
                                   use_bias=False, name=f"conv_dw_{block_id}").apply(x)
    x = tf.layers.batch_normalization(name=f"conv_dw_{block_id}_bn").apply(x)
    x = tf.layers.re_lu(max_value=6, name=f"conv_dw_{block_id}_relu").apply(x)
    x = tf.layers.conv2d(filters=pointwise_filters, kernel_size=1, padding="same", use_bias=False,
                         name=f"conv_pw_{block_id}").apply(x)
    x = tf.layers.batch_normalization(name=f"conv_pw_{block_id}_bn").apply(x)
    return tf.layers.re_lu(max_value=6, name=f"conv_pw_{block_id}_relu").apply(x)


# (pointwise filters, strides) of the 13 depthwise-separable blocks
MOBILENET_V1_BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1), (512, 1), (512, 1),
                       (512, 1), (512, 1), (1024, 2), (1024, 1)]


def mobilenet_v1(alpha=1.0, size=224, classes=1000, dropout=1e-3):
    """MobileNet v1 (width alpha, size x size x 3 in), the Keras / TF.js architecture with random
    weights: a 3x3 convolution, 13 depthwise-separable blocks (depthwise 3x3 -> batch_normalization ->
    relu6 -> pointwise 1x1 -> batch_normalization -> relu6), global average pooling, dropout, a 1x1
    convolution to the classes and a softmax. Alpha 1.0: 4,253,864 parameters, as Keras's
    MobileNet(alpha=1.0)."""
    inputs = tf.input(shape=[size, size, 3], name="input_1")
    x = _conv_block(inputs, int(32 * alpha), strides=2)
    for block_id, (filters, strides) in enumerate(MOBILENET_V1_BLOCKS, start=1):
        x = _depthwise_conv_block(x, int(filters * alpha), strides, block_id)
    x = tf.layers.global_average_pooling2d(name="global_average_pooling2d").apply(x)
    x = tf.layers.reshape(target_shape=[1, 1, int(1024 * alpha)], name="reshape_1").apply(x)
    x = tf.layers.dropout(rate=dropout, name="dropout").apply(x)
    x = tf.layers.conv2d(filters=classes, kernel_size=1, padding="same", name="conv_preds").apply(x)
    x = tf.layers.reshape(target_shape=[classes], name="reshape_2").apply(x)
    outputs = tf.layers.activation(activation="softmax", name="predictions").apply(x)
    return tf.model(inputs=inputs, outputs=outputs, name=f"mobilenet_{alpha:.2f}_{size}")


def small_convnet():
    """The convnet of TF.js's MNIST tutorial: conv 5x5 (8) -> max pool -> conv 5x5 (16) -> max pool
    -> flatten -> dense softmax (10), on 28x28x1 images."""
    return tf.sequential(layers=[
        tf.layers.conv2d(input_shape=[28, 28, 1], kernel_size=5, filters=8, activation="relu",
                         kernel_initializer="varianceScaling"),
        tf.layers.max_pooling2d(pool_size=2, strides=2),
        tf.layers.conv2d(kernel_size=5, filters=16, activation="relu", kernel_initializer="varianceScaling"),
        tf.layers.max_pooling2d(pool_size=2, strides=2),
        tf.layers.flatten(),
        tf.layers.dense(units=10, activation="softmax", kernel_initializer="varianceScaling"),
    ])


def mlp(dropout=0):
    """A 3-layer perceptron on flattened 28x28 images: dense 128 relu, dense 64 relu, dense 10
    softmax; with dropout > 0, a dropout layer of that rate after each relu layer (its masks are
    new draws in every training step)."""
    def drop():
        return [tf.layers.dropout(rate=dropout)] if dropout else []
    return tf.sequential(layers=[
        tf.layers.dense(input_shape=[784], units=128, activation="relu"), *drop(),
        tf.layers.dense(units=64, activation="relu"), *drop(),
        tf.layers.dense(units=10, activation="softmax"),
    ])
