"""GPU programs by family; importing this package registers every webgl kernel."""
from .program import Program  # noqa: F401
from . import elementwise  # noqa: F401
from . import reduction, matmul, nn  # noqa: F401
from . import shape, slicing  # noqa: F401
from . import conv, image, indexing, linalg, losses, math, normalization, pool, random_ops, signal  # noqa: F401
from . import creation  # noqa: F401
from . import spectral  # noqa: F401
from . import string  # noqa: F401
from . import sparse, ragged, pixels  # noqa: F401
from . import optimizers  # noqa: F401
