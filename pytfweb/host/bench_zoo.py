"""The zoo's input for `pytfweb bench --only zoo`, made in the pytfweb page (Pyodide) from the
catalog's photo (host/zoo.py) as its JS twin zooInput in web/bench_models.js makes it in the TF.js page:
change the two together. The browser decodes the photo (an <img>), `tf.browser.from_pixels` reads
its RGB, and the catalog's recipe follows: a bilinear resize to size x size, grayscale by the luma
weights where the model takes one channel, then `pixels * scale + offset` (float32) or the raw
0..255 values (int32). Runs in Pyodide only."""
import pytfweb as tf

LUMA = (0.299, 0.587, 0.114)


async def zoo_input(photo_url, size, channels, dtype, scale, offset):
    """A [1, size, size, channels] tensor of the photo at photo_url."""
    import js   # the page's globals: Pyodide only
    img = js.Image.new()
    img.src = photo_url
    await img.decode()

    def prepare():
        x = tf.image.resize_bilinear(tf.browser.from_pixels(img, 3), [size, size])
        if channels == 1:
            x = tf.sum(tf.mul(x, tf.tensor1d(LUMA)), -1, True)
        x = tf.cast(x, "int32") if dtype == "int32" else tf.add(tf.mul(x, scale), offset)
        return tf.expand_dims(x, 0)
    return tf.tidy(prepare)
