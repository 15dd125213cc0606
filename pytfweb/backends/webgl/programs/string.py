"""The string kernels on webgl: as in TF.js's webgl backend they run on the CPU, in pure Python
(backends/strings.py, shared with cpu): string tensors are never uploaded, their values stay
in TexData.values as a list of str. An int32 input (StringNGrams' splits) is read back.

The kernels that only move values are shaders here; given string tensors they move the values'
positions instead (strings.on_positions), so strings go where TF.js's webgl backend takes them."""
from ... import strings

strings.register("webgl")
strings.register_moving("webgl")
