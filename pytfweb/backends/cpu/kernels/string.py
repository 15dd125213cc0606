"""The string kernels on cpu: the pure-Python ones every backend shares (backends/strings.py).
String tensors are numpy object arrays of str here, so the generic shape kernels (Slice,
GatherV2, Concat, Pack, Tile, Transpose, Reverse, ...) move them unchanged."""
from ... import strings

strings.register("cpu")
