"""The numpy dtype of each tensor dtype on the cpu backend (its data are numpy arrays)."""
import numpy as np

NP_DTYPES = {"float32": np.float32, "int32": np.int32, "bool": np.bool_, "complex64": np.complex64,
             "string": object}  # str values in an object array: the numpy shape kernels move them as they are
