"""Type aliases for the public API's annotations (a leaf helper: it imports nothing of pytfweb at
run time).

    TensorLike   what an op takes as a tensor argument: a Tensor, or a value converted to one (a
                 number, bool, str, nested list or tuple, array.array, memoryview or numpy array)
    Shape        a tensor shape: a list or tuple of ints
    DType        a dtype name
    Axis         an axis or axes argument: an int, a list of ints, or None (every axis)
"""
from typing import TYPE_CHECKING, Literal, Sequence, Union

if TYPE_CHECKING:   # for type checkers only: numpy is optional in the browser, and the engine's layer sits above
    import numpy

    from .tensor import Tensor

DType = Literal["float32", "int32", "bool", "complex64", "string"]
Shape = Sequence[int]
Axis = Union[int, Sequence[int], None]
TensorLike = Union["Tensor", int, float, bool, complex, str, Sequence, "numpy.ndarray"]

__all__ = ["Axis", "DType", "Shape", "TensorLike"]
