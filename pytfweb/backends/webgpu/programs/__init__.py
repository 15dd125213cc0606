"""WGSL programs by family; importing this package registers every webgpu kernel."""
from . import elementwise  # noqa: F401
from . import reduction  # noqa: F401
from . import matmul  # noqa: F401
from . import shape  # noqa: F401
from . import nn  # noqa: F401
from . import conv  # noqa: F401
from . import fused  # noqa: F401
from . import indexing  # noqa: F401
from . import image  # noqa: F401
from . import math  # noqa: F401
from . import linalg  # noqa: F401
from . import optimizers  # noqa: F401
from . import spectral  # noqa: F401  (after the kernels it gives complex paths)
from . import host  # noqa: F401  (last: it wraps the kernels that move strings)
