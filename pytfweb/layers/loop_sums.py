"""Running sums of a training or evaluation loop's losses and metrics, kept as scalar tensors on
the device and read back in one call (shared by fit / evaluate and fit_dataset / evaluate_dataset)."""
from .. import ops
from ..core.api import dispose, tidy
from ..core.tensor import Tensor


def accumulate(sums, values, weights):
    """[sums of value * weight, sums of weight] (scalar tensors on the device) plus a batch's
    values and their averaging weights (scalar tensors or numbers); sums is None at first."""
    totals, norms = sums if sums is not None else ([0.0] * len(values), [0.0] * len(values))
    new = tidy(lambda: [[ops.add(s, ops.mul(v, w)) for s, v, w in zip(totals, values, weights)],
                               [ops.add(s, w) for s, w in zip(norms, weights)]])
    dispose(sums)
    return new


def safe_div(a, b):
    """a / b, 0 where b is 0 (everything weighted 0 or masked)."""
    b = b if isinstance(b, Tensor) else ops.scalar(float(b))
    return ops.div(a, ops.where(ops.equal(b, 0), ops.ones_like(b), b))


def mean_logs(names, totals):
    """{name: mean} from [*sums, *weights] (the averaging weights after the sums, in names' order)."""
    return {k: v / w if w else 0.0 for k, v, w in zip(names, totals[:len(names)], totals[len(names):])}


async def read_floats(scalars, sync):
    """Python floats from a list of scalar tensors, in one readback."""
    if not scalars:
        return []
    stacked = tidy(lambda: ops.stack(scalars) if len(scalars) > 1 else ops.reshape(scalars[0], [1]))
    try:
        data = stacked.data_sync() if sync else await stacked.data()
    finally:
        stacked.dispose()
    return [float(v) for v in data]
