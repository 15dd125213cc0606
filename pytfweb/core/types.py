"""Type aliases for the public API's annotations. At run time this module imports nothing of
pytfweb; for type checkers it names Tensor, which is why it sits beside the engine (above
tensor.py) in the core-layers contract.

    TensorLike   what an op takes as a tensor argument: a Tensor, or a value converted to one (a
                 number, bool, str, nested list or tuple, array.array, memoryview or numpy array)
    ArrayLike    what numpy converts: any object with __array__ (numpy is optional in the browser,
                 so it is not named here)
    Shape        a tensor shape: a list or tuple of ints
    DType        a dtype name
    Axis         an axis or axes argument: an int, a list of ints, or None (every axis)
"""
from typing import TYPE_CHECKING, Any, Literal, Protocol, Sequence, Union

if TYPE_CHECKING:
    from .tensor import Tensor


class ArrayLike(Protocol):
    """An object numpy can convert (a numpy array, ...): it has __array__."""

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        ...


DType = Literal["float32", "int32", "bool", "complex64", "string"]
Shape = Sequence[int]
Axis = Union[int, Sequence[int], None]
TensorLike = Union["Tensor", int, float, bool, complex, str, Sequence, ArrayLike]

__all__ = ["ArrayLike", "Axis", "DType", "Shape", "TensorLike"]
