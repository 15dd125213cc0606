"""The docstrings of tf.layers' factories and layer classes, written as a table.

Each factory (tf.layers.dense, ...) gets: what its layer computes, its arguments (its own, then
the options it takes as keywords: its class's config keys, each described in OPTIONS), what it
returns and an example whose output shape was checked by running it (tests/unit/test_api_docs.py
runs every example). Each layer class gets the same summary and an example made with the class.
"""
import inspect

from .engine import Layer, _config_keys

#: What each option of a layer means; (class name, option) where a class reads it its own way.
OPTIONS = {
    "activation": "the activation applied to the output: a name ('relu', 'sigmoid', 'softmax', 'linear', ...) "
                  "or a function (None: linear)",
    "activity_regularizer": "a tf.regularizers object penalising the layer's output",
    "alpha": "the slope (or scale) for negative inputs",
    "alpha_constraint": "a tf.constraints object applied to alpha after each update",
    "alpha_initializer": "the initializer of alpha",
    "alpha_regularizer": "a tf.regularizers object penalising alpha",
    "axes": "the axis (or a pair, one per input) along which the dot product is taken",
    "axis": "the axis the layer works along",
    "beta_constraint": "a tf.constraints object applied to beta (the offset)",
    "beta_initializer": "the initializer of beta (the offset)",
    "beta_regularizer": "a tf.regularizers object penalising beta",
    "bias_constraint": "a tf.constraints object applied to the bias after each update",
    "bias_initializer": "the initializer of the bias (a name such as 'zeros' or a tf.initializers object)",
    "bias_regularizer": "a tf.regularizers object penalising the bias",
    "cell": "the RNN cell run at each timestep (a cell layer, or a list of them)",
    "cells": "the cells, run one after another at each timestep",
    "center": "add the offset beta",
    "crop_to_aspect_ratio": "crop to the target's aspect ratio before resizing",
    "cropping": "rows and columns to crop: n, [rows, cols] or [[top, bottom], [left, right]]",
    "data_format": "'channelsLast' (the default) or 'channelsFirst'",
    "depth_multiplier": "the number of filters per input channel",
    "depthwise_constraint": "a tf.constraints object applied to the depthwise kernel",
    "depthwise_initializer": "the initializer of the depthwise kernel",
    "depthwise_regularizer": "a tf.regularizers object penalising the depthwise kernel",
    "dilation_rate": "the kernel's dilation rate, an int or one per spatial axis",
    "dims": "the new order of the non-batch axes, 1-based",
    "dropout": "the fraction of the inputs dropped during training",
    "dropout_func": "the function making the dropout masks, f(ones, rate) (None: random dropout; for tests)",
    "embeddings_constraint": "a tf.constraints object applied to the embedding matrix",
    "embeddings_initializer": "the initializer of the embedding matrix",
    "embeddings_regularizer": "a tf.regularizers object penalising the embedding matrix",
    "epsilon": "added to the variance, for stability",
    "factor": "the range of the random width factor: f (from -f to f) or [lower, upper]",
    "filters": "the number of output channels",
    "gamma_constraint": "a tf.constraints object applied to gamma (the scale)",
    "gamma_initializer": "the initializer of gamma (the scale)",
    "gamma_regularizer": "a tf.regularizers object penalising gamma",
    "go_backwards": "run over the sequence backwards",
    "height": "the output height",
    "implementation": "accepted for TF.js's signature",
    "input_dim": "the size of the input's last axis (an alternative to input_shape)",
    "input_length": "the length of the input sequences",
    "interpolation": "'bilinear' or 'nearest'",
    "kernel_constraint": "a tf.constraints object applied to the kernel after each update",
    "kernel_initializer": "the initializer of the kernel (a name such as 'glorotUniform' or a tf.initializers object)",
    "kernel_regularizer": "a tf.regularizers object penalising the kernel",
    "kernel_size": "the size of the convolution window, an int or one per spatial axis",
    "layer": "the layer to wrap",
    "mask_value": "the value whose timesteps are masked",
    "mask_zero": "treat index 0 as padding: mask it",
    "max_value": "the largest output value (None: no limit)",
    "merge_mode": "how the two directions combine: 'concat', 'sum', 'mul', 'ave' or None (a list of both)",
    "momentum": "the momentum of the moving mean and variance",
    "moving_mean_initializer": "the initializer of the moving mean",
    "moving_variance_initializer": "the initializer of the moving variance",
    "n": "how many times to repeat the input",
    "noise_shape": "the shape of the dropout mask, broadcast to the input's",
    "normalize": "L2-normalize the inputs first (a cosine similarity)",
    "num_tokens": "the number of categories",
    "offset": "added after scaling",
    "output_dim": "the size of each embedding vector",
    "output_mode": "'multiHot', 'oneHot' or 'count'",
    "padding": "'valid' (no padding) or 'same' (the output keeps the input's size at stride 1)",
    "pointwise_constraint": "a tf.constraints object applied to the pointwise kernel",
    "pointwise_initializer": "the initializer of the pointwise kernel",
    "pointwise_regularizer": "a tf.regularizers object penalising the pointwise kernel",
    "pool_size": "the size of the pooling window, an int or one per spatial axis",
    "rate": "the fraction of the inputs dropped (or the noise's rate) during training",
    "recurrent_activation": "the activation of the gates",
    "recurrent_constraint": "a tf.constraints object applied to the recurrent kernel",
    "recurrent_dropout": "the fraction of the recurrent state dropped during training",
    "recurrent_initializer": "the initializer of the recurrent kernel",
    "recurrent_regularizer": "a tf.regularizers object penalising the recurrent kernel",
    "reset_after": "apply the reset gate after the matrix product (GRU)",
    "return_sequences": "return the output of every timestep (default: the last one)",
    "return_state": "also return the final states",
    "scale": "multiply by gamma (the scale)",
    "seed": "a seed for the random draws",
    "shared_axes": "the axes along which one alpha is shared",
    "size": "the upsampling factors for rows and columns",
    "stateful": "keep the states between batches",
    "stddev": "the standard deviation of the noise",
    "strides": "the step of the window, an int or one per spatial axis",
    "target_shape": "the shape of each sample after reshaping (one dimension may be -1)",
    "theta": "the threshold",
    "unit_forget_bias": "initialize the forget gate's bias to 1",
    "units": "the dimensionality of the output",
    "unroll": "accepted for TF.js's signature (the loop is not unrolled)",
    "use_bias": "add a bias",
    "width": "the output width",
    "input_shape": "the shape of one sample",
    "batch_size": "the batch size (None: any)",
    "batch_input_shape": "the shape with the batch size first (instead of input_shape)",
    "dtype": "the input's dtype",
    "name": "the layer's name (None: a unique one)",
    ("ZeroPadding2D", "padding"): "the zeros added: n, [rows, cols] or [[top, bottom], [left, right]]",
    ("Rescaling", "scale"): "the factor the inputs are multiplied by",
    ("Concatenate", "axis"): "the axis to join along",
    ("Softmax", "axis"): "the axis of the softmax (TF.js's default: 1)",
    ("UpSampling2D", "interpolation"): "'nearest' or 'bilinear'",
    ("Embedding", "input_dim"): "the number of distinct indices (the vocabulary size)",
    ("GaussianNoise", "stddev"): "the standard deviation of the noise",
}

#: factory: (its class's name, summary, example arguments, example input (a shape, "two" for a list of two
#: tensors, or an expression), the output shape, and "rnn" for a cell, run in the example by tf.layers.rnn).
FACTORIES = {
    "activation": ("Activation", "Applies an activation function to its input, elementwise.",
                   "activation='relu'", [2, 3], "(2, 3)"),
    "add": ("Add", "Adds its inputs (a list of tensors of one shape), elementwise.", "", "two", "(2, 3)"),
    "alpha_dropout": ("AlphaDropout",
                      "Dropout keeping the mean and variance of SELU-activated inputs (during training).",
                      "rate=0.2", [2, 3], "(2, 3)"),
    "average": ("Average", "Averages its inputs (a list of tensors of one shape), elementwise.", "", "two", "(2, 3)"),
    "average_pooling1d": ("AveragePooling1D", "Average pooling over the steps of [batch, steps, channels].",
                          "pool_size=2", [1, 4, 3], "(1, 2, 3)"),
    "average_pooling2d": ("AveragePooling2D",
                          "Average pooling over the rows and columns of [batch, rows, cols, channels].",
                          "pool_size=2", [1, 4, 4, 3], "(1, 2, 2, 3)"),
    "average_pooling3d": ("AveragePooling3D", "Average pooling over [batch, depth, rows, cols, channels].",
                          "pool_size=2", [1, 4, 4, 4, 1], "(1, 2, 2, 2, 1)"),
    "batch_normalization": ("BatchNormalization",
                            "Batch normalization: normalizes with the batch's statistics in training and moving "
                            "averages of them at inference, then scales and shifts.", "", [2, 3], "(2, 3)"),
    "bidirectional": ("Bidirectional", "Runs an RNN forward and backward over the sequence and merges the two outputs.",
                      "layer=tf.layers.lstm(units=2)", [1, 5, 3], "(1, 4)"),
    "category_encoding": ("CategoryEncoding",
                          "Integer category ids to multi-hot, one-hot or count vectors of length num_tokens.",
                          "num_tokens=4", "tf.tensor([[0, 1], [3, 3]], dtype='int32')", "(2, 4)"),
    "center_crop": ("CenterCrop", "Crops the center of images [batch, rows, cols, channels] to height x width.",
                    "height=2, width=2", [1, 4, 4, 3], "(1, 2, 2, 3)"),
    "concatenate": ("Concatenate", "Joins its inputs (a list of tensors) along an axis.",
                    "axis=-1", "[tf.ones([2, 3]), tf.ones([2, 1])]", "(2, 4)"),
    "conv1d": ("Conv1D", "1D convolution over [batch, steps, channels] (padding 'valid', 'same' or 'causal').",
               "filters=4, kernel_size=3", [1, 5, 2], "(1, 3, 4)"),
    "conv2d": ("Conv2D", "2D convolution over [batch, rows, cols, channels].",
               "filters=4, kernel_size=3", [1, 5, 5, 2], "(1, 3, 3, 4)"),
    "conv2d_transpose": ("Conv2DTranspose", "Transposed 2D convolution (a 'deconvolution').",
                         "filters=4, kernel_size=3", [1, 5, 5, 2], "(1, 7, 7, 4)"),
    "conv3d": ("Conv3D", "3D convolution over [batch, depth, rows, cols, channels].",
               "filters=2, kernel_size=2", [1, 3, 3, 3, 1], "(1, 2, 2, 2, 2)"),
    "conv3d_transpose": ("Conv3DTranspose", "Transposed 3D convolution.",
                         "filters=2, kernel_size=2", [1, 3, 3, 3, 1], "(1, 4, 4, 4, 2)"),
    "conv_lstm2d": ("ConvLSTM2D", "A convolutional LSTM over the time axis of [batch, time, rows, cols, channels].",
                    "filters=2, kernel_size=3", [1, 4, 5, 5, 1], "(1, 3, 3, 2)"),
    "conv_lstm2d_cell": ("ConvLSTM2DCell", "One step of a convolutional LSTM (the cell conv_lstm2d runs).",
                         "filters=2, kernel_size=3", None, None),
    "cropping2d": ("Cropping2D", "Crops rows and columns of [batch, rows, cols, channels].",
                   "cropping=1", [1, 4, 4, 3], "(1, 2, 2, 3)"),
    "dense": ("Dense", "A densely connected layer: activation(dot(input, kernel) + bias) over the input's last axis.",
              "units=3", [2, 4], "(2, 3)"),
    "depthwise_conv2d": ("DepthwiseConv2D",
                         "Depthwise 2D convolution: each input channel convolved with its own filters.",
                         "kernel_size=3", [1, 5, 5, 2], "(1, 3, 3, 2)"),
    "dot": ("Dot", "The dot product of two batches of vectors along axes.", "axes=1", "two", "(2, 1)"),
    "dropout": ("Dropout", "Zeroes a fraction rate of the inputs during training, scaling the rest by 1 / (1 - rate).",
                "rate=0.5", [2, 3], "(2, 3)"),
    "elu": ("ELU", "Exponential linear unit: x where x > 0, alpha * (exp(x) - 1) elsewhere.", "", [2, 3], "(2, 3)"),
    "embedding": ("Embedding", "Maps integer indices to rows of a trainable (input_dim, output_dim) matrix.",
                  "input_dim=10, output_dim=4", "tf.tensor([[1, 2, 3]])", "(1, 3, 4)"),
    "flatten": ("Flatten", "Flattens each sample to one axis.", "", [2, 3, 4], "(2, 12)"),
    "gaussian_dropout": ("GaussianDropout", "Multiplies by gaussian noise of mean 1 during training.",
                         "rate=0.2", [2, 3], "(2, 3)"),
    "gaussian_noise": ("GaussianNoise", "Adds zero-centred gaussian noise during training.",
                       "stddev=0.1", [2, 3], "(2, 3)"),
    "global_average_pooling1d": ("GlobalAveragePooling1D", "The mean over the steps of [batch, steps, channels].",
                                 "", [2, 5, 3], "(2, 3)"),
    "global_average_pooling2d": ("GlobalAveragePooling2D",
                                 "The mean over the rows and columns of [batch, rows, cols, channels].",
                                 "", [2, 4, 4, 3], "(2, 3)"),
    "global_max_pooling1d": ("GlobalMaxPooling1D", "The maximum over the steps of [batch, steps, channels].",
                             "", [2, 5, 3], "(2, 3)"),
    "global_max_pooling2d": ("GlobalMaxPooling2D",
                             "The maximum over the rows and columns of [batch, rows, cols, channels].",
                             "", [2, 4, 4, 3], "(2, 3)"),
    "gru": ("GRU", "A gated recurrent unit layer over [batch, time, features].", "units=4", [2, 5, 3], "(2, 4)"),
    "gru_cell": ("GRUCell", "One step of a GRU (a cell for tf.layers.rnn).", "units=4", [2, 5, 3], "(2, 4)", "rnn"),
    "input_layer": ("InputLayer", "The input layer of a model: the source of its SymbolicTensor.",
                    "input_shape=[3]", None, None),
    "layer_normalization": ("LayerNormalization", "Normalizes each sample over an axis, then scales and shifts.",
                            "", [2, 3], "(2, 3)"),
    "leaky_re_lu": ("LeakyReLU", "Leaky ReLU: x where x >= 0, alpha * x elsewhere.", "alpha=0.1", [2, 3], "(2, 3)"),
    "lstm": ("LSTM", "A long short-term memory layer over [batch, time, features].", "units=4", [2, 5, 3], "(2, 4)"),
    "lstm_cell": ("LSTMCell", "One step of an LSTM (a cell for tf.layers.rnn).", "units=4", [2, 5, 3], "(2, 4)", "rnn"),
    "masking": ("Masking", "Masks the timesteps whose features all equal mask_value.",
                "mask_value=0", [2, 5, 3], "(2, 5, 3)"),
    "max_pooling1d": ("MaxPooling1D", "Max pooling over the steps of [batch, steps, channels].",
                      "pool_size=2", [1, 4, 3], "(1, 2, 3)"),
    "max_pooling2d": ("MaxPooling2D", "Max pooling over the rows and columns of [batch, rows, cols, channels].",
                      "pool_size=2", [1, 4, 4, 3], "(1, 2, 2, 3)"),
    "max_pooling3d": ("MaxPooling3D", "Max pooling over [batch, depth, rows, cols, channels].",
                      "pool_size=2", [1, 4, 4, 4, 1], "(1, 2, 2, 2, 1)"),
    "maximum": ("Maximum", "The elementwise maximum of its inputs (a list of tensors of one shape).",
                "", "two", "(2, 3)"),
    "minimum": ("Minimum", "The elementwise minimum of its inputs (a list of tensors of one shape).",
                "", "two", "(2, 3)"),
    "multiply": ("Multiply", "Multiplies its inputs (a list of tensors of one shape), elementwise.",
                 "", "two", "(2, 3)"),
    "permute": ("Permute", "Permutes the non-batch axes (dims is 1-based: [2, 1] swaps them).",
                "dims=[2, 1]", [2, 3, 4], "(2, 4, 3)"),
    "prelu": ("PReLU", "Leaky ReLU with a learned slope alpha.", "", [2, 3], "(2, 3)"),
    "random_width": ("RandomWidth", "Resizes the width by a factor drawn from [1 - factor, 1 + factor] on every call.",
                     "factor=0.5", None, None),
    "re_lu": ("ReLU", "ReLU max(x, 0), clipped at max_value when one is given.", "max_value=6", [2, 3], "(2, 3)"),
    "repeat_vector": ("RepeatVector", "Repeats each sample n times: [batch, features] to [batch, n, features].",
                      "n=3", [2, 4], "(2, 3, 4)"),
    "rescaling": ("Rescaling", "inputs * scale + offset.", "scale=0.5", [2, 3], "(2, 3)"),
    "reshape": ("Reshape", "Reshapes each sample to target_shape.", "target_shape=[2, 3]", [4, 6], "(4, 2, 3)"),
    "resizing": ("Resizing", "Resizes images [batch, rows, cols, channels] to height x width.",
                 "height=2, width=3", [1, 4, 4, 3], "(1, 2, 3, 3)"),
    "rnn": ("RNN", "Runs a cell over the time axis of [batch, time, features].",
            "cell=tf.layers.simple_rnn_cell(units=4)", [2, 5, 3], "(2, 4)"),
    "separable_conv2d": ("SeparableConv2D",
                         "A depthwise convolution followed by a 1x1 convolution mixing the channels.",
                         "filters=4, kernel_size=3", [1, 5, 5, 2], "(1, 3, 3, 4)"),
    "simple_rnn": ("SimpleRNN",
                   "A fully connected RNN over [batch, time, features]: h_t = activation(x_t W + h_t-1 U + b).",
                   "units=4", [2, 5, 3], "(2, 4)"),
    "simple_rnn_cell": ("SimpleRNNCell", "One step of a simple RNN (a cell for tf.layers.rnn).",
                        "units=4", [2, 5, 3], "(2, 4)", "rnn"),
    "softmax": ("Softmax", "Softmax along an axis.", "", [2, 3], "(2, 3)"),
    "spatial_dropout1d": ("SpatialDropout1D", "Dropout of whole channels of [batch, steps, channels] during training.",
                          "rate=0.5", [2, 5, 3], "(2, 5, 3)"),
    "stacked_rnn_cells": ("StackedRNNCells", "Cells run one after another at each timestep, as one cell.",
                          "cells=[tf.layers.simple_rnn_cell(units=4), tf.layers.simple_rnn_cell(units=2)]", [2, 5, 3],
                          "(2, 2)", "rnn"),
    "thresholded_re_lu": ("ThresholdedReLU", "x where x > theta, 0 elsewhere.", "theta=0.5", [2, 3], "(2, 3)"),
    "time_distributed": ("TimeDistributed", "Applies a layer to every temporal slice of [batch, time, ...].",
                         "layer=tf.layers.dense(units=2)", [2, 5, 3], "(2, 5, 2)"),
    "up_sampling2d": ("UpSampling2D", "Repeats rows and columns (or resizes bilinearly).",
                      "size=[2, 2]", [1, 2, 2, 3], "(1, 4, 4, 3)"),
    "zero_padding2d": ("ZeroPadding2D", "Adds rows and columns of zeros around [batch, rows, cols, channels].",
                       "padding=1", [1, 2, 2, 3], "(1, 4, 4, 3)"),
}


#: Other names TF.js gives some factories.
ALIASES = {"avg_pool1d": "average_pooling1d", "avg_pooling1d": "average_pooling1d",
           "avg_pool2d": "average_pooling2d", "avg_pooling2d": "average_pooling2d",
           "avg_pool3d": "average_pooling3d", "avg_pooling3d": "average_pooling3d",
           "max_pool1d": "max_pooling1d", "max_pool2d": "max_pooling2d",
           "global_max_pool1d": "global_max_pooling1d", "global_max_pool2d": "global_max_pooling2d"}

_COMMON = ("name, trainable, input_shape, batch_input_shape, batch_size, dtype, weights: as tf.layers.Layer's "
           "(the first layer of a model needs input_shape or batch_input_shape)")


def _example(name, maker, spec):
    """The example lines of factory `name`, its layer made by the expression `maker`."""
    given, shape = spec[3], spec[4]
    if given is None:
        if name == "input_layer":
            return [f">>> {maker}.batch_input_shape", "(None, 3)"]
        if name == "random_width":
            return [f">>> layer = {maker}", ">>> 2 <= layer.apply(tf.ones([1, 4, 4, 3])).shape[2] <= 6",
                    "True"]
        return [f">>> cell = {maker}", ">>> cell.filters, cell.kernel_size", "(2, [3, 3])"]
    if len(spec) > 5:   # a cell: run it with tf.layers.rnn
        maker = f"tf.layers.rnn(cell={maker})"
    if given == "two":
        inputs = "[tf.ones([2, 3]), tf.ones([2, 3])]"
    elif isinstance(given, list):
        inputs = f"tf.ones({given})"
    else:
        inputs = given
    return [f">>> layer = {maker}", f">>> layer.apply({inputs}).shape", shape]


def _describe(cls, option):
    return OPTIONS.get((cls.__name__, option)) or OPTIONS[option]


def _params(fn):
    """(the named parameters of fn but self, whether it takes **kwargs), read from its code object:
    inspect.signature would cost ~15 ms at import for the ~70 factories."""
    code = getattr(fn, "__wrapped__", fn).__code__
    names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    return [n for n in names if n != "self"], bool(code.co_flags & inspect.CO_VARKEYWORDS)


def _factory_doc(name, fn, cls, spec):
    own, takes_kwargs = _params(fn)
    lines = [spec[1], "", "Takes TF.js's options object too: tf.layers." + name + "({'optionName': value, ...}).", "",
             "Args:"]
    for p in own:
        lines.append(f"    {p}: {_describe(cls, p) if p in OPTIONS or (cls.__name__, p) in OPTIONS else p}.")
    common = set(_params(Layer.__init__)[0])
    init = [p for p in _params(cls.__init__)[0] if p not in common]
    options = [k for k in dict.fromkeys([*_config_keys(cls), *init]) if k not in own]
    if takes_kwargs:
        lines.append("    **kwargs: the layer's other options:")
        lines += [f"        {k}: {_describe(cls, k)}." for k in options]
        lines.append(f"        {_COMMON}.")
    lines += ["", "Returns:", f"    The new {cls.__name__} layer.", "", "Example:"]
    lines += ["    " + line for line in _example(name, f"tf.layers.{name}({spec[2]})", spec)]
    return "\n".join(lines) + "\n"


def _class_doc(cls, factory, spec):
    own = (cls.__doc__ or "").strip()
    lines = [own or spec[1], "", f"Make it with tf.layers.{factory}(...), whose docstring lists the arguments "
                                 "(the class takes the same ones as keywords).", "", "Example:"]
    lines += ["    " + line for line in _example(factory, f"tf.layers.{cls.__name__}({spec[2]})", spec)]
    return "\n".join(lines) + "\n"


def document(namespace):
    """Give the factories in namespace (tf.layers' module dict) and their classes their docstrings."""
    classes = {}
    for name, spec in FACTORIES.items():
        fn, cls = namespace[name], namespace[spec[0]]
        fn.__doc__ = _factory_doc(name, fn, cls, spec)
        if cls not in classes:
            classes[cls] = name
            cls.__doc__ = _class_doc(cls, name, spec)
    for alias, name in ALIASES.items():
        namespace[alias].__doc__ = (f"The same as tf.layers.{name} (another TF.js name for it).\n\n"
                                    + namespace[name].__doc__.replace(f"tf.layers.{name}(", f"tf.layers.{alias}("))

