"""Spectral: FFT, IFFT, RFFT, IRFFT along the innermost dimension."""
from ... import ops as tfo
from ._table import ints, table


def rfft(x, a):
    n = ints(x[1])[-1] if len(x) > 1 else None
    return tfo.rfft(x[0], n if x[0].rank == 0 or n != x[0].shape[-1] else None)


OPS = table("spectral", {
    "FFT": (1, lambda x, a: tfo.fft(x[0])),
    "IFFT": (1, lambda x, a: tfo.ifft(x[0])),
    "RFFT": (1, rfft),
    "IRFFT": (1, lambda x, a: tfo.irfft(x[0])),
})
