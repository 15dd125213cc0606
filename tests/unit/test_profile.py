"""tf.profile and tf.time (TF.js semantics: awaitable)."""
import asyncio

import pytest

import pytfweb as tf


def test_profile_reports_kernels_tensors_and_bytes():
    x = tf.ones([8, 8])

    def f():
        return tf.tidy(lambda: tf.sum(tf.mat_mul(x, x) + 1.0))
    info = asyncio.run(tf.profile(f))
    assert info.new_tensors == 1 and info.new_bytes == 4            # only the scalar result survives
    assert info.peak_bytes >= tf.memory().num_bytes + 2 * 8 * 8 * 4 - 4   # the two 8x8 intermediates
    names = [k.name for k in info.kernels]
    assert names[0] == "BatchMatMul" and "Add" in names and names[-1] == "Sum"
    matmul = info.kernels[0]
    assert matmul.input_shapes == [[8, 8], [8, 8]] and matmul.output_shapes == [[8, 8]]
    assert matmul.kernel_ms >= 0 and matmul.bytes_added == 256 and matmul.tensors_added == 1
    assert info.kernel_names == sorted(set(names))
    assert info.result.array_sync() == 8 * 8 * 9.0
    info.result.dispose()


def test_profile_accepts_async_functions_and_does_not_nest():
    async def f():
        await asyncio.sleep(0)
        return tf.exp(tf.zeros([2]))
    info = asyncio.run(tf.profile(f))
    assert [k.name for k in info.kernels] == ["Fill", "Exp"]
    info.result.dispose()

    async def nested():
        return await tf.profile(lambda: None)
    with pytest.raises(tf.EngineError, match="profil"):
        asyncio.run(tf.profile(nested))
    assert tf.engine().profiling is None   # the failed profile left the engine as it was


def test_time_reports_kernel_and_wall_milliseconds():
    x = tf.ones([32, 32])
    t = asyncio.run(tf.time(lambda: tf.tidy(lambda: tf.mat_mul(x, x)).dispose()))
    assert t.wall_ms >= t.kernel_ms > 0
