"""TF.js's weights loader (io/weights_loader.ts): load_weights fetches the shards of a weights manifest
(all of them, or the groups holding the named weights) and decodes them; weights_loader_factory makes
such a loader over any function that fetches a list of URLs; decode_weights_stream decodes weights
arriving as a stream of byte chunks."""
import asyncio
import inspect
import urllib.parse
from typing import Any, Callable, Dict, List, Optional

from ..core.api import dispose
from ..core.shapes import size_of
from ..core.tensor import Tensor
from .files import read_regular_file
from .http import HTTPRequest
from .weights import _BYTES, check_group_bytes, decode_weights, manifest_groups


def _as_bytes(buffer):
    """bytes of a buffer: bytes-like, or (in the page) a JS ArrayBuffer / typed array."""
    if hasattr(buffer, "to_bytes"):
        return buffer.to_bytes()
    return bytes(buffer)


def weights_loader_factory(fetch_weights_function: Callable[[List[str]], Any]) -> Callable[..., Any]:
    """A weights loader that gets the shards' bytes from a function of their URLs.

    A shard's URL is file_path_prefix + '/' (unless it ends with one) + its path, as TF.js joins them.

    Args:
        fetch_weights_function: fetch_weights_function(urls) -> a list of buffers (or an awaitable of
            one).

    Returns:
        An async loader(manifest, file_path_prefix='', weight_names=None) -> {name: Tensor}.

    Example:
        >>> import asyncio
        >>> encoded = tf.io.encode_weights({"w": tf.tensor([1, 2])})
        >>> manifest = [{"paths": ["w.bin"], "weights": encoded.specs}]
        >>> loader = tf.io.weights_loader_factory(lambda urls: [encoded.data])
        >>> asyncio.run(loader(manifest, "https://example.com/model"))["w"].print()
        Tensor
            [1, 2]
    """
    if not callable(fetch_weights_function):
        raise TypeError(f"io.weights_loader_factory: argument 'fetch_weights_function' must be a function, got "
                        f"{type(fetch_weights_function).__name__}")

    async def load(manifest, file_path_prefix="", weight_names=None):
        checked = manifest_groups(manifest, "io.load_weights")   # paths, specs and sizes, before any request
        wanted = {}   # group index -> [(spec, offset in the group, bytes)]
        found = [False] * len(weight_names or [])
        all_names = []
        for g, group in enumerate(manifest):
            offset = 0
            for spec in group["weights"]:
                raw = spec["quantization"]["dtype"] if "quantization" in spec else spec["dtype"]
                if raw not in _BYTES:
                    raise ValueError(f"io.load_weights: weight '{spec['name']}' has dtype {raw}, which has no fixed "
                                     f"size (string weights cannot be loaded by name from shards)")
                nbytes = _BYTES[raw] * size_of(spec["shape"])
                if weight_names is None:
                    wanted.setdefault(g, []).append((spec, offset, nbytes))
                else:
                    for i, name in enumerate(weight_names):
                        if name == spec["name"]:
                            wanted.setdefault(g, []).append((spec, offset, nbytes))
                            found[i] = True
                all_names.append(spec["name"])
                offset += nbytes
        if not all(found):
            missing = [n for n, f in zip(weight_names, found) if not f]
            raise ValueError(f"Could not find weights in manifest with names: {', '.join(missing)}. \n"
                             f"Manifest JSON has weights with names: {', '.join(all_names)}.")
        groups = sorted(wanted)
        sep = "" if file_path_prefix.endswith("/") else "/"
        urls = [file_path_prefix + sep + path for g in groups for path in checked[g].paths]
        buffers = fetch_weights_function(urls)
        if inspect.isawaitable(buffers):
            buffers = await buffers
        buffers = list(buffers)
        out, start = {}, 0
        try:
            for g in groups:
                n = len(checked[g].paths)
                data = b"".join(_as_bytes(b) for b in buffers[start:start + n])
                start += n
                check_group_bytes(checked[g], len(data), "io.load_weights")
                for spec, offset, nbytes in wanted[g]:
                    out.update(decode_weights(data[offset:offset + nbytes], [spec]))
        except BaseException:
            dispose(list(out.values()))
            raise
        return out
    return load


async def load_weights(manifest: List[dict], file_path_prefix: str = "", weight_names: Optional[List[str]] = None,
                       request_init: Optional[dict] = None) -> Dict[str, Tensor]:
    """Load the weights of a manifest's shards, fetched from file_path_prefix (tf.util.fetch: the
    page's fetch, urllib in CPython; all requests at once; awaited).

    Args:
        manifest: a weightsManifest.
        file_path_prefix: the URL (or file:// path) of the shards' folder.
        weight_names: the weights to return (their groups are fetched whole; None: all).
        request_init: options of the requests.

    Returns:
        {name: Tensor}.

    Example:
        >>> import asyncio, json, os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> _ = tf.sequential([tf.layers.dense(units=3, input_shape=[2])]).save_sync(folder)
        >>> manifest = json.load(open(os.path.join(folder, "model.json")))["weightsManifest"]
        >>> weights = asyncio.run(tf.io.load_weights(manifest, "file://" + folder))
        >>> sorted(w.shape for w in weights.values())
        [(2, 3), (3,)]
    """
    cap = max((g.max_bytes for g in manifest_groups(manifest, "io.load_weights")), default=0)

    async def fetch_weights(urls):
        # tf.io.http's requests: its timeouts, and no shard read past the largest group's declared bytes
        async def one(url):
            if url.startswith("file://"):   # a FIFO or device here would hang or fill memory: regular files only
                return read_regular_file(urllib.parse.unquote(url[len("file://"):]), cap, "io.load_weights",
                                         "weight file")
            handler = HTTPRequest(url, request_init)
            reply = await handler._fetch(url, handler._init())
            handler._check_weight_reply(url, reply.status)
            return await handler._read(reply, cap, url)
        return await asyncio.gather(*[one(u) for u in urls])
    return await weights_loader_factory(fetch_weights)(manifest, file_path_prefix, weight_names)


async def decode_weights_stream(weight_stream: Any, specs: List[dict]) -> Dict[str, Tensor]:
    """decode_weights of the bytes a stream gives (awaited).

    Args:
        weight_stream: an async or plain iterable of byte chunks, or (in the page) a JS ReadableStream.
        specs: the weight specs, in the order of the bytes.

    Returns:
        {name: Tensor}.

    Example:
        >>> import asyncio
        >>> encoded = tf.io.encode_weights({"w": tf.tensor([1, 2])})
        >>> chunks = [encoded.data[:3], encoded.data[3:]]
        >>> asyncio.run(tf.io.decode_weights_stream(chunks, encoded.specs))["w"].print()
        Tensor
            [1, 2]
    """
    chunks = []
    if hasattr(weight_stream, "getReader"):   # a JS ReadableStream
        reader = weight_stream.getReader()
        while True:
            step = await reader.read()
            if step.done:
                break
            chunks.append(_as_bytes(step.value))
    elif hasattr(weight_stream, "__aiter__"):
        async for chunk in weight_stream:
            chunks.append(_as_bytes(chunk))
    elif isinstance(weight_stream, (bytes, bytearray, memoryview)):
        chunks.append(bytes(weight_stream))
    else:
        for chunk in weight_stream:
            chunks.append(_as_bytes(chunk))
    return decode_weights(b"".join(chunks), specs)
