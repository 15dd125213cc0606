"""The core: the engine, tensors, the tape, api.py (tidy, keep, dispose, backends) and the leaf helpers
(dtypes, shapes, tensor values, errors, limits, prng, printing, the optional numpy import). Below the
kernel registry's users: it imports no op, autodiff, gradient or backend (.importlinter)."""
