"""Worker mode, Python's side: pytfweb in a Web Worker (web/pytfweb.js is the worker's script).

The page sends code with variables (`pytfweb.worker().runPython(code, {x: ...})`); `run` executes
it in the worker's main namespace (where `tf` is imported) with top-level await and returns the
value of its last expression. Values cross as structured clones: numbers, strings, lists, dicts,
typed arrays (other Python objects as their repr), and tensors as {"__pytfweb_tensor__": true, "data": TypedArray, "shape", "dtype"}
(pytfweb.tensor(data, shape, dtype) on the page makes one). `post(kind, data)` sends a message to
the page's handlers (`w.on(kind, fn)`).

    from pytfweb.browser import worker
    worker.post("progress", {"epoch": 3, "loss": 0.2})
    worker.post("weights", model.layers[0].kernel.read())     # a tensor, as a Float32Array
"""
import array

from ..core.environment import IS_BROWSER
from ..core.tensor import Tensor
from ..ops.creation import tensor

__all__ = ["in_worker", "page_url", "post", "run", "to_message", "from_message"]

MARK = "__pytfweb_tensor__"
_TYPED = {"float32": ("Float32Array", "f"), "int32": ("Int32Array", "i"), "bool": ("Uint8Array", "B")}


def in_worker():
    """True inside a Web Worker (no document), False in the page and in CPython."""
    if not IS_BROWSER:
        return False
    import js
    return not hasattr(js, "document") and hasattr(js, "postMessage")


def page_url():
    """The address of the page (in its worker too, where js.location is the worker script's);
    None in CPython."""
    if not IS_BROWSER:
        return None
    import js
    return str(js.pytfweb.pageURL) if in_worker() else str(js.location.href)


def _typed_array(values, dtype):
    import js
    ctor, code = _TYPED.get(dtype, _TYPED["float32"])
    buf = values if isinstance(values, array.array) and values.typecode == code else array.array(code, values)
    out = getattr(js, ctor).new(len(buf))
    out.assign(buf)
    return out


def _plain(value, read):
    """value with tensors replaced by markers holding typed arrays (read(t) gives t's values)."""
    if isinstance(value, Tensor):
        if value.dtype not in _TYPED:
            raise TypeError(f"worker: a {value.dtype} tensor cannot be sent; send float32, int32 or bool")
        return {MARK: True, "data": _typed_array(read(value), value.dtype), "shape": list(value.shape),
                "dtype": value.dtype}
    if isinstance(value, dict):
        return {str(k): _plain(v, read) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, read) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _typed_array(array.array("B", bytes(value)), "bool")
    if isinstance(value, array.array):
        return _typed_array(value, {"f": "float32", "i": "int32"}.get(value.typecode, "float32"))
    if value is None or isinstance(value, (bool, int, float, str)) or _is_js(value):
        return value
    return repr(value)          # a model, a function...: its repr, as the REPL would show it


def _is_js(value):
    from pyodide.ffi import JsProxy
    return isinstance(value, JsProxy)


def _to_js(value):
    from pyodide.ffi import to_js
    import js
    return to_js(value, dict_converter=js.Object.fromEntries, create_pyproxies=False)


async def to_message(value):
    """A Python value as a JS value the worker can post (tensors read with await t.data())."""
    tensors = {}

    def collect(v):
        if isinstance(v, Tensor):
            tensors[id(v)] = v
        elif isinstance(v, dict):
            for x in v.values():
                collect(x)
        elif isinstance(v, (list, tuple)):
            for x in v:
                collect(x)

    collect(value)
    values = {k: await t.data() for k, t in tensors.items()}
    return _to_js(_plain(value, lambda t: values[id(t)]))


def from_message(value):
    """A JS value from the page as Python: markers become tensors, typed arrays memoryviews,
    objects dicts, arrays lists."""
    from pyodide.ffi import JsProxy
    if not isinstance(value, JsProxy):
        return value
    import js
    if js.Array.isArray(value):
        return [from_message(v) for v in value]
    if js.ArrayBuffer.isView(value):
        return value.to_py()
    if getattr(value, MARK, False):
        dtype = str(value.dtype)
        if dtype not in _TYPED:
            raise TypeError(f"worker: a tensor sent from the page must be float32, int32 or bool, got {dtype}")
        flat = value.data.to_py() if js.ArrayBuffer.isView(value.data) else list(value.data.to_py())
        if dtype == "bool" or getattr(flat, "format", None) != _TYPED[dtype][1]:
            flat = array.array(_TYPED[dtype][1], [int(bool(v)) if dtype == "bool" else v for v in flat])
        return tensor(flat, list(value.shape.to_py()), dtype)
    return {k: from_message(getattr(value, k)) for k in js.Object.keys(value)}


def post(kind, data=None):
    """Send data to the page's handlers for kind (w.on(kind, fn)); tensors are read synchronously.
    In the page itself (no worker) it dispatches a "pytfweb:post" event on the document."""
    import js
    payload = _to_js(_plain(data, lambda t: t.data_sync()))
    if in_worker():
        js.postMessage(_message("post", kind, payload))
    else:
        detail = _message("post", kind, payload)
        js.document.dispatchEvent(js.CustomEvent.new("pytfweb:post", _to_js({"detail": detail})))


def _message(type_, kind, payload):
    msg = _to_js({"type": type_, "kind": kind})
    msg.data = payload
    return msg


async def run(code, filename, variables):
    """What the worker's script calls for each run: variables into the namespace, the code with
    top-level await, the last expression's value as a JS value."""
    import __main__
    from pyodide.code import eval_code_async
    ns = __main__.__dict__
    if variables is not None:
        import js
        for k in js.Object.keys(variables):
            ns[k] = from_message(getattr(variables, k))
    value = await eval_code_async(code, ns, filename=filename)
    return await to_message(value)
