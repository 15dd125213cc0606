"""The model zoo: real pre-trained TF.js graph models and real photos from the npm package
`@vladmandic/human` (a pinned dev dependency: `npm ci` installs it; nothing of it is committed).
The zoo tests (tests/unit/test_zoo.py, tests/browser/test_zoo.py), `pytfweb bench --only zoo`
and the demo page read the models from here.

Each entry says how a photo becomes the model's input, as the library that ships the model
prepares it: resized (bilinear) to `size` x `size`, `channels` kept (1: grayscale by the usual
luma weights), then `pixels * scale + offset` in `dtype` (int32 inputs take the raw 0..255
values, as MoveNet and the hand tracker expect).
"""
from typing import NamedTuple

import pytfweb as tf

from .paths import npm_package_dir

PACKAGE = "@vladmandic/human"


class ZooModel(NamedTuple):
    name: str          # the file stem under models/: <name>.json and its shards
    size: int          # input height and width
    channels: int      # 3 (RGB) or 1 (grayscale)
    dtype: str         # input dtype: float32 or int32
    scale: float       # input = pixels * scale + offset (float32 inputs)
    offset: float
    photo: str         # file under assets/


MODELS = (
    ZooModel("antispoof", 128, 3, "float32", 1 / 255, 0.0, "screenshot-faceid.jpg"),
    ZooModel("blazeface", 256, 3, "float32", 2 / 255, -1.0, "screenshot-faceid.jpg"),
    ZooModel("centernet", 512, 3, "float32", 1 / 255, 0.0, "samples.jpg"),
    ZooModel("emotion", 64, 1, "float32", 2 / 255, -1.0, "screenshot-faceid.jpg"),
    ZooModel("facemesh", 192, 3, "float32", 1 / 255, 0.0, "screenshot-faceid.jpg"),
    ZooModel("faceres", 224, 3, "float32", 1 / 255, 0.0, "screenshot-faceid.jpg"),
    ZooModel("handlandmark-lite", 224, 3, "float32", 1 / 255, 0.0, "samples.jpg"),
    ZooModel("handtrack", 320, 3, "int32", 1.0, 0.0, "samples.jpg"),
    ZooModel("iris", 64, 3, "float32", 1 / 255, 0.0, "screenshot-faceid.jpg"),
    ZooModel("liveness", 32, 3, "float32", 1 / 255, 0.0, "screenshot-faceid.jpg"),
    ZooModel("movenet-lightning", 192, 3, "int32", 1.0, 0.0, "samples.jpg"),
)

BY_NAME = {m.name: m for m in MODELS}


def package_dir():
    """The installed @vladmandic/human package, or None (PYTFWEB_ZOO_DIR overrides)."""
    return npm_package_dir(PACKAGE, "PYTFWEB_ZOO_DIR")


def models_dir():
    d = package_dir()
    return None if d is None else d / "models"


def assets_dir():
    d = package_dir()
    return None if d is None else d / "assets"


def model_json(name):
    """The path of a zoo model's model.json (FileNotFoundError naming the fix when absent)."""
    d = models_dir()
    if d is None or not (d / f"{name}.json").is_file():
        raise FileNotFoundError(f"zoo model {name!r} not found: run `npm ci` in the checkout (make does it), "
                                f"which installs {PACKAGE}")
    return d / f"{name}.json"


def prepare(pixels, model):
    """A zoo model's input from a photo's pixels (int32 [height, width, 3], as
    tf.browser.from_pixels gives them): [1, size, size, channels] in model.dtype, prepared as the
    module docstring says. The same code runs in CPython and in the page, so both build the input
    alike; the caller owns the result (nothing else is left)."""
    def build():
        x = tf.image.resize_bilinear(tf.expand_dims(pixels, 0), [model.size, model.size])
        if model.channels == 1:
            x = tf.image.rgb_to_grayscale(x)
        if model.dtype == "int32":
            return tf.cast(x, "int32")
        return tf.add(tf.mul(x, model.scale), model.offset)
    return tf.tidy(build)


async def photo_input(model, base="/zoo/assets/"):
    """In the page: the model's catalog photo as the browser decodes it (an <img> from the server's
    /zoo/ route, read by tf.browser.from_pixels), prepared. Its JS twin for TF.js is zooInput in
    web/bench_models.js: change the two together."""
    import js   # the page's globals: Pyodide only
    img = js.Image.new()
    img.src = base + model.photo
    await img.decode()
    pixels = tf.browser.from_pixels(img)
    try:
        return prepare(pixels, model)
    finally:
        pixels.dispose()
