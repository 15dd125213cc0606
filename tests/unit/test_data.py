"""tf.data beyond what the parity cases compare with TF.js (tests/parity/cases/data.py): the Python
ways to walk a dataset, replaying, reshuffling, async sources and tensor lifetimes."""
import asyncio

import pytest

import pytfweb as tf


def run(coro):
    return asyncio.run(coro)


def test_async_for_and_the_iterator_protocol():
    ds = tf.data.array([1, 2, 3]).map(lambda x: x * 2)

    async def walk():
        seen = [x async for x in ds]
        it = await ds.iterator()
        steps = [await it.next() for _ in range(4)]
        return seen, steps
    seen, steps = run(walk())
    assert seen == [2, 4, 6]
    assert steps == [{"value": 2, "done": False}, {"value": 4, "done": False}, {"value": 6, "done": False},
                     {"value": None, "done": True}]


def test_each_iteration_replays_and_reshuffles_unless_told_not_to():
    base = tf.data.array(list(range(30)))
    again = base.shuffle(30, 5)
    same = base.shuffle(30, 5, False)

    async def twice(ds):
        return await ds.to_array(), await ds.to_array()
    a1, a2 = run(twice(again))
    s1, s2 = run(twice(same))
    assert sorted(a1) == list(range(30)) and a1 != a2
    assert s1 == s2 and s1 != list(range(30))
    assert run(base.to_array()) == list(range(30))


def test_async_generators_and_functions():
    async def agen():
        for i in range(3):
            await asyncio.sleep(0)
            yield i

    async def later(v):
        await asyncio.sleep(0)
        return v + 1
    assert run(tf.data.generator(agen).map_async(later).to_array()) == [1, 2, 3]


def test_tensor_elements_do_not_leak():
    xs = [tf.tensor([float(i), i + 1.0]) for i in range(5)]
    before = tf.memory().num_tensors

    async def go():
        ds = tf.data.array(xs).map(lambda x: tf.mul(x, 2)).filter(lambda x: True).batch(2)
        out = await ds.to_array()
        shapes = [b.shape for b in out]
        tf.dispose(out)
        return shapes
    assert run(go()) == [(2, 2), (2, 2), (1, 2)]
    assert tf.memory().num_tensors == before


def test_bad_arguments():
    with pytest.raises(TypeError):
        tf.data.array(3)
    with pytest.raises(TypeError):
        tf.data.zip(3)
    with pytest.raises(ValueError):
        tf.data.array([1]).batch(0)


def test_microphone_and_webcam_need_a_browser():
    # they are tested in the page on Chromium's fake devices: tests/browser/test_data_devices.py
    with pytest.raises(RuntimeError, match="only supported in the browser"):
        run(tf.data.microphone())
    with pytest.raises(RuntimeError, match="only supported in the browser"):
        run(tf.data.webcam(None, {"resizeWidth": 8, "resizeHeight": 8}))


def test_device_options_are_checked_as_tfjs_checks_them():
    mic = tf.data.MicrophoneIterator({"fftSize": 256, "includeWaveform": True}, num_frames_per_spectrogram=5)
    assert (mic.fft_size, mic.num_frames, mic.column_truncate_length) == (256, 5, 256)
    assert mic.include_spectrogram and mic.include_waveform
    for bad in ({"fftSize": 100}, {"fftSize": 8}, {"fftSize": 2 ** 15}):
        with pytest.raises(ValueError, match="Invalid fftSize"):
            tf.data.MicrophoneIterator(bad)
    with pytest.raises(ValueError, match="At least one type"):
        tf.data.MicrophoneIterator(include_spectrogram=False)
    with pytest.raises(TypeError, match="unknown option"):
        tf.data.MicrophoneIterator(fft=256)

    class Element:   # the two attributes the constructor reads of an HTMLVideoElement
        width, height = 160, 120
    cam = tf.data.WebcamIterator(Element(), {"resizeWidth": 40, "resizeHeight": 30, "centerCrop": True})
    assert cam.resize and cam.crop_size == [30, 40]
    assert cam.crop_box == pytest.approx([0.375, 0.375, 0.625, 0.625])
    assert not tf.data.WebcamIterator(Element(), resize_width=160, resize_height=120).resize
    assert tf.data.WebcamIterator(Element(), resize_width=80, resize_height=120).crop_box == [0, 0, 1, 1]
