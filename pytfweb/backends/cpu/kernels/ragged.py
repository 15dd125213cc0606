"""Ragged kernels on cpu (contract in ops/ragged.py): every output size depends on the values,
so they run the shared pure-Python implementations (backends/impl/ragged.py) on the values
read back, as TF.js's webgl backend runs its CPU ones."""
from ...impl import register_host_kernels
from ...impl.ragged import HOST_KERNELS

register_host_kernels(HOST_KERNELS, "cpu")
