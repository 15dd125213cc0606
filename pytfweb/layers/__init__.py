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
    activations.py initializers.py regularizers.py constraints.py losses.py metrics.py callbacks.py
"""
from . import callbacks, constraints, initializers, metrics, regularizers  # noqa: F401
from .core import Activation, Dense, Dropout, Embedding, Flatten, Permute, RepeatVector, Reshape
from .engine import InputLayer, InputSpec, Layer, Node, SymbolicTensor
from .engine import input as _input
from .merge import Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply
from .models import Model, Sequential


def dense(units, **kwargs):
    return Dense(units, **kwargs)


def activation(activation, **kwargs):  # noqa: F811 - TF.js's argument name
    return Activation(activation, **kwargs)


def dropout(rate, **kwargs):
    return Dropout(rate, **kwargs)


def flatten(**kwargs):
    return Flatten(**kwargs)


def reshape(target_shape, **kwargs):
    return Reshape(target_shape, **kwargs)


def permute(dims, **kwargs):
    return Permute(dims, **kwargs)


def repeat_vector(n, **kwargs):
    return RepeatVector(n, **kwargs)


def embedding(input_dim, output_dim, **kwargs):
    return Embedding(input_dim, output_dim, **kwargs)


def add(**kwargs):
    return Add(**kwargs)


def multiply(**kwargs):
    return Multiply(**kwargs)


def average(**kwargs):
    return Average(**kwargs)


def maximum(**kwargs):
    return Maximum(**kwargs)


def minimum(**kwargs):
    return Minimum(**kwargs)


def concatenate(axis=-1, **kwargs):
    return Concatenate(axis, **kwargs)


def dot(axes, normalize=False, **kwargs):
    return Dot(axes, normalize, **kwargs)


def input_layer(input_shape=None, batch_size=None, batch_input_shape=None, dtype="float32", name=None):
    return InputLayer(input_shape, batch_size, batch_input_shape, dtype, name=name)


input = _input  # noqa: A001 - TF.js has tf.layers.input beside tf.input
