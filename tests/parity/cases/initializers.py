"""tf.initializers: each initializer applied to a shape (obj.apply(shape, dtype)). The seeded random
ones draw with TF.js's seeded ops, so their values are compared; unseeded ones draw from Math.random
in TF.js, so only shape, dtype, mean and standard deviation of a large draw are (spec.drawn, with a
tolerance seven standard errors wide)."""
from ..spec import applied, drawn, expect, gives, T

I = "tf.initializers."   # noqa: E741


def stats_tol(sigma):
    """(rtol, atol) for the mean and standard deviation of draws whose standard deviation is sigma."""
    return (0.0, 0.05 * sigma)


TRUNCATED = ("`tf.initializers.variance_scaling`: with distribution 'truncatedNormal' TF.js 4.22 draws from the "
             "uniform distribution (it tests only for 'normal'); pytfweb draws from the truncated normal, as the "
             "name says")

CASES = [
    applied(I + "zeros", to=([2, 3],)),
    applied(I + "zeros", to=([2, 2], "int32")),
    applied(I + "ones", to=([3], "float32")),
    applied(I + "ones", to=([2, 2], "int32")),
    applied(I + "constant", opts={"value": 2.5}, to=([2, 2],)),
    applied(I + "constant", opts={"value": -3}, to=([3], "int32")),
    applied(I + "identity", opts={"gain": 1.0}, to=([3, 3],)),
    applied(I + "identity", opts={"gain": 2.5}, to=([2, 2],)),
    applied(I + "identity", opts={"gain": 2}, to=([2, 2], "int32")),
    applied(I + "constant", opts={"value": 1}, to=([2], "bool")),
    applied(I + "identity", opts={"gain": 1.0}, to=([2, 3],), error=True),
    applied(I + "identity", opts={"gain": 1.0}, to=([2, 2, 2],), error=True),
    # seeded: values
    applied(I + "randomUniform", opts={"minval": -1, "maxval": 2, "seed": 7}, to=([3, 4],)),
    applied(I + "randomUniform", opts={"seed": 3}, to=([5],)),
    applied(I + "randomUniform", opts={"minval": 0, "maxval": 10, "seed": 5}, to=([2, 3], "int32")),
    applied(I + "randomNormal", opts={"mean": 1, "stddev": 2, "seed": 7}, to=([3, 4],)),
    applied(I + "randomNormal", opts={"seed": 11}, to=([6],)),
    applied(I + "randomNormal", opts={"seed": 11}, to=([2], "int32")),
    applied(I + "randomNormal", opts={"seed": 11}, to=([2], "bool"), error=True),
    applied(I + "truncatedNormal", opts={"mean": 0, "stddev": 1, "seed": 7}, to=([4, 3],)),
    applied(I + "truncatedNormal", opts={"seed": 2}, to=([8],)),
    applied(I + "varianceScaling", opts={"scale": 2, "mode": "fanIn", "distribution": "normal", "seed": 3},
            to=([4, 5],)),
    applied(I + "varianceScaling", opts={"scale": 1, "mode": "fanOut", "distribution": "uniform", "seed": 3},
            to=([3, 3, 2, 4],)),
    applied(I + "varianceScaling", opts={"scale": 0.5, "mode": "fanAvg", "distribution": "truncatedNormal",
                                         "seed": 4}, to=([6, 2],), deviation=TRUNCATED),
    applied(I + "varianceScaling", opts={"scale": 1, "mode": "fanIn", "distribution": "normal", "seed": 1},
            to=([7],)),
    applied(I + "varianceScaling", opts={"scale": 1, "mode": "fanIn", "distribution": "normal", "seed": 1},
            to=([2, 3, 4, 5, 6, 2],)),
    applied(I + "varianceScaling", opts={"scale": -1, "seed": 1}, to=([2, 2],), error=True),
    applied(I + "varianceScaling", opts={"mode": "fanMiddle", "seed": 1}, to=([2, 2],), error=True),
    applied(I + "glorotUniform", opts={"seed": 1}, to=([4, 6],)),
    applied(I + "glorotNormal", opts={"seed": 1}, to=([4, 6],)),
    applied(I + "heUniform", opts={"seed": 2}, to=([3, 3, 2, 2],)),
    applied(I + "heNormal", opts={"seed": 2}, to=([5, 3],)),
    applied(I + "leCunUniform", opts={"seed": 9}, to=([2, 5],)),
    applied(I + "leCunNormal", opts={"seed": 9}, to=([2, 5],)),
    applied(I + "orthogonal", opts={"gain": 1, "seed": 5}, to=([4, 4],)),
    applied(I + "orthogonal", opts={"gain": 2, "seed": 5}, to=([3, 5],)),
    applied(I + "orthogonal", opts={"seed": 6}, to=([6, 2],)),
    applied(I + "orthogonal", opts={"seed": 6}, to=([2, 2, 3],)),
    applied(I + "orthogonal", opts={"seed": 6}, to=([4],), error=True),
    # unseeded: statistics of a large draw (tolerance: 5% of the distribution's standard deviation, seven
    # standard errors of the difference of two means of 40000 draws)
    drawn(I + "randomUniform", opts={"minval": -1, "maxval": 1}, to=([200, 200],), tol=stats_tol(0.577)),
    drawn(I + "randomNormal", opts={"mean": 0.5, "stddev": 1}, to=([200, 200],), tol=stats_tol(1.0)),
    drawn(I + "truncatedNormal", opts={"stddev": 1}, to=([200, 200],), tol=stats_tol(0.88)),
    drawn(I + "glorotUniform", to=([200, 200],), tol=stats_tol(0.0707)),
    drawn(I + "heNormal", to=([200, 200],), tol=stats_tol(0.088)),
    drawn(I + "orthogonal", opts={"gain": 1}, to=([64, 64],), tol=(0.0, 0.02)),   # seeded cases check its values
]

# What pytfweb gives instead in its deviation cases (README's "Deviations from TF.js"), checked in place of
# TF.js's answer: runner.check.
expect(CASES, {
    "initializers.varianceScaling#3": gives(T([-0.261160463, -0.390270531, -0.0657218471, -0.110461093, -0.11555744,
        -0.373128384, -0.340013206, 0.0894080997, -0.133550763, -0.229212433, -0.0782889798, 0.693093538], [6, 2],
        "float32")),
})
