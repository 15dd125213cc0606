"""Every public op, one module per family; tensor methods and Python operators are attached
here from the same functions."""
from . import creation, elementwise
from .creation import (clone, convert_to_tensor, eye, fill, from_dlpack, linspace, ones, ones_like, random_normal,
                       random_standard_normal, random_uniform, range, scalar, tensor, tensor1d, tensor2d,
                       tensor3d, tensor4d, tensor5d, tensor6d, truncated_normal, variable, zeros, zeros_like)
from .creation import cast
from .elementwise import clip_by_value, leaky_relu, true_div, where
from .elementwise import _ops as _elementwise_ops
from .reduction import *  # noqa: F401,F403
from .matmul import *  # noqa: F401,F403
from .nn import *  # noqa: F401,F403
from .shape import *  # noqa: F401,F403
from .slicing import *  # noqa: F401,F403
from .math import *  # noqa: F401,F403
from .conv import *  # noqa: F401,F403
from .pool import *  # noqa: F401,F403
from .normalization import *  # noqa: F401,F403
from .indexing import *  # noqa: F401,F403
from .random_ops import *  # noqa: F401,F403
from .einsum import *  # noqa: F401,F403
from .spectral import complex, fft, ifft, imag, irfft, real, rfft  # noqa: F401,A004  (top-level too, as TF.js)
from .sparse import *  # noqa: F401,F403  (sparse_to_dense; tf.sparse is the module)
from .ragged import *  # noqa: F401,F403
from .losses import Reduction  # noqa: F401  (tf.Reduction, as in TF.js)
from .misc import *  # noqa: F401,F403
from . import methods as _methods

globals().update(_elementwise_ops)

_methods.attach(globals())
