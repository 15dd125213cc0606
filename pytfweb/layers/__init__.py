"""tf.layers: layer factories by TF.js name in snake_case (tf.layers.dense(units=1, input_shape=[1])).

The package also holds the rest of TF.js's layers API, exposed at the top level of pytfweb:
tf.sequential, tf.model, tf.input (models.py, engine.py), tf.initializers, tf.regularizers,
tf.constraints, tf.metrics, tf.callbacks (modules of the same names). Layout:

    engine.py      Layer, SymbolicTensor, Node, InputLayer, input()
    core.py        Dense, Activation, Dropout, Flatten, Reshape, Permute, RepeatVector, Embedding
    merge.py       Add, Multiply, Average, Maximum, Minimum, Concatenate, Dot
    models.py      Model (functional), Sequential
    training.py    compile / fit / evaluate / predict (mixed into Model)
    summary.py     model.summary()'s table
    convolutional.py  Conv1D/2D/3D, Conv2D/3DTranspose, DepthwiseConv2D, SeparableConv2D, Cropping2D, UpSampling2D
    pooling.py     Max/AveragePooling1D/2D/3D, GlobalAverage/GlobalMaxPooling1D/2D
    normalization.py  BatchNormalization, LayerNormalization
    padding.py     ZeroPadding2D
    advanced_activations.py  ReLU, LeakyReLU, PReLU, ELU, ThresholdedReLU, Softmax
    noise.py       GaussianNoise, GaussianDropout, AlphaDropout, SpatialDropout1D
    masking.py     Masking, Rescaling
    recurrent.py   SimpleRNN, LSTM, GRU, their cells, RNN, StackedRNNCells
    convolutional_recurrent.py  ConvLSTM2D, ConvLSTM2DCell
    activations.py initializers.py regularizers.py constraints.py losses.py metrics.py callbacks.py
"""
from . import callbacks, constraints, initializers, metrics, regularizers  # noqa: F401
from .core import Activation, Dense, Dropout, Embedding, Flatten, Permute, RepeatVector, Reshape
from .engine import DisposeResult, InputLayer, InputSpec, Layer, Node, SymbolicTensor
from .engine import input as _input
from ._utils import takes_options
from .merge import Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply
from .models import Model, Sequential


@takes_options
def dense(units, **kwargs):
    return Dense(units, **kwargs)


@takes_options
def activation(activation, **kwargs):  # noqa: F811 - TF.js's argument name
    return Activation(activation, **kwargs)


@takes_options
def dropout(rate, **kwargs):
    return Dropout(rate, **kwargs)


@takes_options
def flatten(**kwargs):
    return Flatten(**kwargs)


@takes_options
def reshape(target_shape, **kwargs):
    return Reshape(target_shape, **kwargs)


@takes_options
def permute(dims=None, **kwargs):
    return Permute(dims, **kwargs)


@takes_options
def repeat_vector(n, **kwargs):
    return RepeatVector(n, **kwargs)


@takes_options
def embedding(input_dim, output_dim, **kwargs):
    return Embedding(input_dim, output_dim, **kwargs)


@takes_options
def add(**kwargs):
    return Add(**kwargs)


@takes_options
def multiply(**kwargs):
    return Multiply(**kwargs)


@takes_options
def average(**kwargs):
    return Average(**kwargs)


@takes_options
def maximum(**kwargs):
    return Maximum(**kwargs)


@takes_options
def minimum(**kwargs):
    return Minimum(**kwargs)


@takes_options
def concatenate(axis=-1, **kwargs):
    return Concatenate(axis, **kwargs)


@takes_options
def dot(axes, normalize=False, **kwargs):
    return Dot(axes, normalize, **kwargs)


@takes_options
def input_layer(input_shape=None, batch_size=None, batch_input_shape=None, dtype="float32", name=None, sparse=False):
    return InputLayer(input_shape, batch_size, batch_input_shape, dtype, sparse=sparse, name=name)


input = takes_options(_input)  # noqa: A001 - TF.js has tf.layers.input beside tf.input


# --- convolutional, pooling, normalization, padding, activation, noise layers -----------------
from .advanced_activations import ELU, LeakyReLU, PReLU, ReLU, Softmax, ThresholdedReLU  # noqa: E402
from .convolutional import (Conv1D, Conv2D, Conv2DTranspose, Conv3D, Conv3DTranspose, Cropping2D,  # noqa: E402
                            DepthwiseConv2D, SeparableConv2D, UpSampling2D)
from .masking import Masking, Rescaling  # noqa: E402
from .noise import AlphaDropout, GaussianDropout, GaussianNoise, SpatialDropout1D  # noqa: E402
from .normalization import BatchNormalization, LayerNormalization  # noqa: E402
from .padding import ZeroPadding2D  # noqa: E402
from .pooling import (AveragePooling1D, AveragePooling2D, AveragePooling3D, GlobalAveragePooling1D,  # noqa: E402
                      GlobalAveragePooling2D, GlobalMaxPooling1D, GlobalMaxPooling2D, MaxPooling1D, MaxPooling2D,
                      MaxPooling3D)


@takes_options
def conv1d(filters=None, kernel_size=None, **kwargs):
    return Conv1D(filters, kernel_size, **kwargs)


@takes_options
def conv2d(filters=None, kernel_size=None, **kwargs):
    return Conv2D(filters, kernel_size, **kwargs)


@takes_options
def conv2d_transpose(filters=None, kernel_size=None, **kwargs):
    return Conv2DTranspose(filters, kernel_size, **kwargs)


@takes_options
def conv3d(filters=None, kernel_size=None, **kwargs):
    return Conv3D(filters, kernel_size, **kwargs)


@takes_options
def conv3d_transpose(filters=None, kernel_size=None, **kwargs):
    return Conv3DTranspose(filters, kernel_size, **kwargs)


@takes_options
def depthwise_conv2d(kernel_size=None, **kwargs):
    return DepthwiseConv2D(kernel_size, **kwargs)


@takes_options
def separable_conv2d(filters=None, kernel_size=None, **kwargs):
    return SeparableConv2D(filters, kernel_size, **kwargs)


@takes_options
def cropping2d(cropping=None, **kwargs):
    return Cropping2D(cropping, **kwargs)


@takes_options
def up_sampling2d(**kwargs):
    return UpSampling2D(**kwargs)


@takes_options
def zero_padding2d(**kwargs):
    return ZeroPadding2D(**kwargs)


@takes_options
def max_pooling1d(**kwargs):
    return MaxPooling1D(**kwargs)


@takes_options
def max_pooling2d(**kwargs):
    return MaxPooling2D(**kwargs)


@takes_options
def max_pooling3d(**kwargs):
    return MaxPooling3D(**kwargs)


@takes_options
def average_pooling1d(**kwargs):
    return AveragePooling1D(**kwargs)


@takes_options
def average_pooling2d(**kwargs):
    return AveragePooling2D(**kwargs)


@takes_options
def average_pooling3d(**kwargs):
    return AveragePooling3D(**kwargs)


@takes_options
def global_average_pooling1d(**kwargs):
    return GlobalAveragePooling1D(**kwargs)


@takes_options
def global_average_pooling2d(**kwargs):
    return GlobalAveragePooling2D(**kwargs)


@takes_options
def global_max_pooling1d(**kwargs):
    return GlobalMaxPooling1D(**kwargs)


@takes_options
def global_max_pooling2d(**kwargs):
    return GlobalMaxPooling2D(**kwargs)


# TF.js's aliases
max_pool1d, max_pool2d = max_pooling1d, max_pooling2d
avg_pool1d, avg_pool2d, avg_pool3d = average_pooling1d, average_pooling2d, average_pooling3d
avg_pooling1d, avg_pooling2d, avg_pooling3d = average_pooling1d, average_pooling2d, average_pooling3d
global_max_pool1d, global_max_pool2d = global_max_pooling1d, global_max_pooling2d


@takes_options
def batch_normalization(**kwargs):
    return BatchNormalization(**kwargs)


@takes_options
def layer_normalization(**kwargs):
    return LayerNormalization(**kwargs)


@takes_options
def re_lu(**kwargs):
    return ReLU(**kwargs)


@takes_options
def leaky_re_lu(**kwargs):
    return LeakyReLU(**kwargs)


@takes_options
def prelu(**kwargs):
    return PReLU(**kwargs)


@takes_options
def elu(**kwargs):
    return ELU(**kwargs)


@takes_options
def softmax(**kwargs):
    return Softmax(**kwargs)


@takes_options
def thresholded_re_lu(**kwargs):
    return ThresholdedReLU(**kwargs)


@takes_options
def gaussian_noise(stddev=None, **kwargs):
    return GaussianNoise(stddev, **kwargs)


@takes_options
def gaussian_dropout(rate=None, **kwargs):
    return GaussianDropout(rate, **kwargs)


@takes_options
def alpha_dropout(rate=None, **kwargs):
    return AlphaDropout(rate, **kwargs)


@takes_options
def spatial_dropout1d(rate=None, **kwargs):
    return SpatialDropout1D(rate, **kwargs)


@takes_options
def masking(**kwargs):
    return Masking(**kwargs)


@takes_options
def rescaling(scale=None, **kwargs):
    return Rescaling(scale, **kwargs)


# --- recurrent layers (recurrent.py) -------------------------------------------------------------
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell  # noqa: E402


@takes_options
def simple_rnn_cell(units=None, **kwargs):
    return SimpleRNNCell(units, **kwargs)


@takes_options
def lstm_cell(units=None, **kwargs):
    return LSTMCell(units, **kwargs)


@takes_options
def gru_cell(units=None, **kwargs):
    return GRUCell(units, **kwargs)


@takes_options
def rnn(cell=None, **kwargs):
    return RNN(cell, **kwargs)


@takes_options
def simple_rnn(units=None, **kwargs):
    return SimpleRNN(units, **kwargs)


@takes_options
def lstm(units=None, **kwargs):
    return LSTM(units, **kwargs)


@takes_options
def gru(units=None, **kwargs):
    return GRU(units, **kwargs)


# --- wrappers (wrappers.py) ------------------------------------------------------------------------
from .wrappers import Bidirectional, TimeDistributed  # noqa: E402


@takes_options
def time_distributed(layer=None, **kwargs):
    return TimeDistributed(layer, **kwargs)


@takes_options
def bidirectional(layer=None, merge_mode="concat", **kwargs):
    return Bidirectional(layer, merge_mode, **kwargs)


# --- preprocessing layers (preprocessing.py) ---------------------------------------------------------
from .preprocessing import CategoryEncoding, CenterCrop, RandomWidth, Resizing  # noqa: E402


@takes_options
def center_crop(height=None, width=None, **kwargs):
    return CenterCrop(height, width, **kwargs)


@takes_options
def resizing(height=None, width=None, **kwargs):
    return Resizing(height, width, **kwargs)


@takes_options
def category_encoding(num_tokens=None, **kwargs):
    return CategoryEncoding(num_tokens, **kwargs)


@takes_options
def random_width(factor=None, **kwargs):
    return RandomWidth(factor, **kwargs)


from .recurrent import StackedRNNCells  # noqa: E402


@takes_options
def stacked_rnn_cells(cells=None, **kwargs):
    return StackedRNNCells(cells, **kwargs)


# --- convolutional recurrent layers (convolutional_recurrent.py) -----------------------------------
from .convolutional_recurrent import ConvLSTM2D, ConvLSTM2DCell  # noqa: E402


@takes_options
def conv_lstm2d(filters=None, kernel_size=None, **kwargs):
    return ConvLSTM2D(filters, kernel_size, **kwargs)


@takes_options
def conv_lstm2d_cell(filters=None, kernel_size=None, **kwargs):
    return ConvLSTM2DCell(filters, kernel_size, **kwargs)


from . import _docs  # noqa: E402

_docs.document(globals())
