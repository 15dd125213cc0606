"""http:// and https:// (tf.io.http, TF.js's HTTPRequest): load a model.json and the weight files
its weightsManifest names; save by POSTing a multipart form with a `model.json` part and a
`model.weights.bin` part, as TF.js does.

In the browser requests go through fetch (or the caller's fetch_func) and the weight files are
fetched in parallel; in CPython they go through urllib: load_sync/save_sync block, load/save run
the same requests in threads. on_progress(fraction) follows TF.js's weights loader: it is called
as each weight response arrives (0 to 0.5) and as each body has been read (0.5 to 1).
"""
import asyncio
import inspect
import json
import math
import secrets
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Optional

from ..core.environment import ENV
from ..core.limits import js_depth, load_json, max_depth
from ..core.package_data import beside
from .artifacts import (SaveResult, artifacts_from_model_json, artifacts_from_model_json_async, artifacts_info,
                        model_json_for)
from .router import IN_BROWSER, register_fallback_load_handler, register_load_router, register_save_router
from .weights import check_group_bytes, dequantize_fn, manifest_groups, stream_plan

OCTET_STREAM_MIME_TYPE = "application/octet-stream"
JSON_TYPE = "application/json"
MODEL_JSON_PART = "model.json"
WEIGHTS_PART = "model.weights.bin"
SCHEMES = ("http://", "https://")
API = "tf.io.http"

if IN_BROWSER:
    import js
    from pyodide.ffi import JsException, JsProxy, create_proxy, to_js
else:
    js = JsProxy = to_js = create_proxy = None

    class JsException(Exception):
        pass


class HTTPRequest:
    """An IO handler for a model served over HTTP(S) (see tf.io.http)."""

    DEFAULT_METHOD = "POST"

    def __init__(self, path, request_init=None, weight_path_prefix=None, on_progress=None, fetch_func=None,
                 weight_url_converter=None):
        if not isinstance(path, str) or not path:
            raise TypeError(f"{API}: argument 'path' must be a non-empty URL string, got {path!r}")
        if fetch_func is not None and not callable(fetch_func):
            raise TypeError(f"{API}: argument 'fetch_func' must be a function with the signature of fetch "
                            f"(url, request_init), got {type(fetch_func).__name__}")
        if request_init is not None and _init_get(request_init, "body") is not None:
            raise ValueError(f"{API}: argument 'request_init' is expected to have no pre-existing body, but has one")
        self.path = path
        self.request_init = request_init
        self.timeout = request_timeout(request_init, API)
        self.weight_path_prefix = weight_path_prefix
        self.on_progress = on_progress
        self.fetch_func = fetch_func
        self.weight_url_converter = weight_url_converter
        # In the page: a callable(model_json) that load() runs once the weight requests are sent and
        # before their bodies arrive, so work on the topology (tf.load_graph_model parses the graph)
        # overlaps the download. It must not raise.
        self.while_weights_load = None
        # In the page: when True (tf.load_graph_model sets it), a single weight file's quantized
        # weights are dequantized as its bytes arrive, left in self.dequantized (weights.StreamPlan)
        # for decode_weights to take.
        self.stream_dequantize = False
        self.dequantized = None

    def __repr__(self):
        return f"HTTPRequest({self.path!r})"

    # --- load ----------------------------------------------------------------------------------------
    async def load(self):
        """The ModelArtifacts at self.path: model.json, then its weight files in parallel."""
        if IN_BROWSER:
            return await self._load_js()
        reply = await self._fetch(self.path, self._init())
        self._check_model_reply(reply.status)
        return await self._load_from(await self._read(reply, _json_limit(), self.path))

    async def _load_from(self, body):
        """load()'s steps once model.json's bytes are in: parse them, then request the weights."""
        model_json = self._model_json(body)
        return await artifacts_from_model_json_async(model_json, lambda m: self._load_weights(m, model_json),
                                                     nesting_checked=True)

    async def _load_js(self):
        """The page's load with a JS fetch, in one JS call (http_reader.js fetchModel) where it can:
        the weights are on their way before Python reads model.json, Python's json.loads, its checks
        and the graph's parse (while_weights_load) run while they download (where TF.js's load waits
        on the same download after its own parse), and a single weight file is read into its arrays
        there too, with no await of Python's between the first request and the last byte."""
        prefix, suffix = parse_url(self.path)
        fetch = self.fetch_func if self.fetch_func is not None else js.fetch
        # a Python fetch_func is called after awaits inside the call: a proxy kept until it returns
        proxies = [] if isinstance(fetch, JsProxy) else [create_proxy(fetch)]
        fetch = proxies[0] if proxies else fetch
        timeout_ms = self.timeout * 1000
        weights = None if self.weight_url_converter is not None else to_js(
            [self.weight_path_prefix or prefix, suffix, fetch, self._init(), timeout_ms, max_depth(), js_depth()])
        early = _Early(self)
        proxies.append(create_proxy(early.on_json))
        try:
            got = await _js_helpers().fetchModel(fetch, self.path, self._init(), timeout_ms, _json_limit(), weights,
                                                 proxies[-1])
        finally:
            for p in proxies:
                p.destroy()
            early.release()
        if early.error is not None:   # a manifest Python's checks refuse (load()'s usual steps raise the same)
            raise early.error
        if hasattr(got, "failed"):   # a network or CORS failure, the timeout, a body beyond the limit
            raise ValueError(f"{API}: Request to {got.failed} failed: {_js_message(got.error)}") from None
        reply = _Reply(got.response)
        self._check_model_reply(reply.status)
        if not hasattr(got, "body"):   # (a fetch_func's response that is not a fetch Response)
            return await self._load_from(await self._read(reply, _json_limit(), self.path))
        if not hasattr(got.early, "promises"):   # nothing in flight (JS null arrives as pyodide's jsnull)
            return await self._load_from(got.body.to_bytes())
        groups, model_json = early.groups, early.model_json
        if early.plan is None:
            sent = list(zip(early.urls, [g.max_bytes for g in groups for _ in g.paths], list(got.early.promises)))
            weights = self._receive_weights(groups, sent, model_json, prepared=True)
            return await artifacts_from_model_json_async(model_json, lambda m: weights, nesting_checked=True)
        url, = early.urls
        reply = _Reply(got.reply)
        self._check_weight_reply(url, reply.status)
        if not hasattr(got, "total"):   # (a fetch_func's response that is not a fetch Response)
            weights = self._read_weights(groups, [url], [groups[0].max_bytes], [reply])
            return await artifacts_from_model_json_async(model_json, lambda m: weights, nesting_checked=True)
        weights = self._streamed(groups, early.plan, early.data, int(got.total))
        return artifacts_from_model_json(model_json, lambda m: weights, nesting_checked=True)

    def load_sync(self):
        """load() without awaiting (CPython: urllib or a blocking fetch_func)."""
        self._check_sync("load_sync", "load")
        reply = self._fetch_sync(self.path, self._init())
        self._check_model_reply(reply.status, reply)
        model_json = self._model_json(_read_sync(reply, _json_limit(), self.path))
        return artifacts_from_model_json(model_json, self._load_weights_sync, nesting_checked=True)

    def _check_model_reply(self, status, reply=None):
        if not 200 <= status < 300:
            if reply is not None:
                reply.close()
            raise ValueError(f"{API}: Request to {self.path} failed with status code {status}. Please verify this "
                             f"URL points to the model JSON of the model to load.")

    def _model_json(self, body, depth=None):
        try:
            model_json = load_json(body, f"{API}: {self.path}", depth)
        except ValueError as e:
            if "nested more than" in str(e):
                raise
            hint = (" Your path contains a .pb file extension: .pb models are not supported, convert them to the "
                    "TensorFlow.js JSON format." if self.path.endswith(".pb")
                    else " Please make sure the server is serving valid JSON for this request.")
            raise ValueError(f"{API}: Failed to parse model JSON of response from {self.path}.{hint}") from None
        if not isinstance(model_json, dict) or (model_json.get("modelTopology") is None
                                                and model_json.get("weightsManifest") is None):
            raise ValueError(f"{API}: The JSON from HTTP path {self.path} contains neither model topology or "
                             f"manifest for weights.")
        return model_json

    async def _send_weights(self, groups):
        """[(url, the byte cap of its body, the JS promise of its response)]: every weight request
        sent now (the page: a fetch starts when called)."""
        urls, caps = [], []
        for g in groups:
            for p in g.paths:
                url = self._weight_url(p)
                urls.append(await url if inspect.isawaitable(url) else url)
                caps.append(g.max_bytes)   # no shard may hold more than its whole group declares
        init = self._init()
        return [(u, cap, self._fetch_js(u, init)) for u, cap in zip(urls, caps)]

    async def _load_weights(self, manifest, model_json=None):
        groups = manifest_groups(manifest, self.path)
        if IN_BROWSER:
            return await self._receive_weights(groups, await self._send_weights(groups), model_json)
        urls, caps = [], []
        for g in groups:
            for p in g.paths:
                url = self._weight_url(p)
                urls.append(await url if inspect.isawaitable(url) else url)
                caps.append(g.max_bytes)
        init = self._init()
        replies = await self._monitor([self._fetch(u, init) for u in urls], 0.0, 0.5)
        return await self._read_weights(groups, urls, caps, replies)

    async def _receive_weights(self, groups, sent, model_json, prepared=False):
        """The page's weights from the requests _send_weights sent: the topology's work
        (while_weights_load) done first, while they download (prepared: done already)."""
        # As TF.js's loadWeightsAsArrayBuffer: progress 0-0.5 as the responses arrive and 0.5-1 as
        # their bodies have been read.
        waiting = [self._reply_js(promise, url) for url, _, promise in sent]
        if self.while_weights_load is not None and model_json is not None and not prepared:
            self.while_weights_load(model_json)
        plan = self._one_file_plan(groups, len(sent))
        replies = await self._monitor(waiting, 0.0, 0.5)
        if plan is not None and hasattr(replies[0].response, "arrayBuffer"):
            (url, cap, _), = sent
            self._check_weight_reply(url, replies[0].status)
            data = bytearray(plan.nbytes)
            total, = await self._monitor([self._read_into(replies[0], data, cap, url, plan)], 0.5, 1.0)
            return self._streamed(groups, plan, data, total)
        return await self._read_weights(groups, [u for u, _, _ in sent], [c for _, c, _ in sent], replies)

    def _one_file_plan(self, groups, files):
        """The StreamPlan that reads the weights' one file into their arrays as its bytes arrive, or
        None: several files or groups, offsets the manifest cannot give (string weights), a file
        whose size the specs do not fix, or stream_dequantize off."""
        if not (self.stream_dequantize and files == 1 and len(groups) == 1):
            return None
        plan = stream_plan(groups[0].specs, groups[0].checked)
        return plan if plan is not None and plan.nbytes == groups[0].max_bytes else None

    def _streamed(self, groups, plan, data, total):
        """(specs, data) of weights plan read into data (total bytes arrived), their size checked
        and plan's arrays handed to the loader (self.dequantized)."""
        self._check_groups(groups, [total])
        plan.done = True
        self.dequantized = plan
        return _specs(groups), data

    async def _read_into(self, reply, data, max_bytes, url, plan):
        """_read_js into data (a bytearray), dequantizing plan's weights as their bytes arrive."""
        proxies = [create_proxy(data), create_proxy(plan.meta), create_proxy(plan.ends)]
        try:
            return int(await _js_helpers().readInto(reply.response, proxies[0], max_bytes, self.timeout * 1000,
                                                    dequantize_fn(), proxies[1], proxies[2]))
        except JsException as e:
            raise ValueError(f"{API}: Request to {url} failed: {_js_message(e)}") from None
        finally:
            for p in proxies:
                p.destroy()

    async def _read_weights(self, groups, urls, caps, replies):
        for url, reply in zip(urls, replies):
            self._check_weight_reply(url, reply.status)
        if IN_BROWSER and all(hasattr(r.response, "arrayBuffer") for r in replies):
            buffers = await self._monitor([self._read_js(r, cap, url) for r, cap, url in zip(replies, caps, urls)],
                                          0.5, 1.0)
            self._check_groups(groups, [b.byteLength for b in buffers])
            return _specs(groups), _joined_js_buffers(buffers)
        buffers = await self._monitor([self._read(r, cap, url) for r, cap, url in zip(replies, caps, urls)], 0.5, 1.0)
        self._check_groups(groups, [len(b) for b in buffers])
        return _specs(groups), b"".join(buffers)

    def _check_groups(self, groups, sizes):
        i = 0
        for g in groups:
            check_group_bytes(g, sum(sizes[i:i + len(g.paths)]), self.path)
            i += len(g.paths)

    def _load_weights_sync(self, manifest):
        groups = manifest_groups(manifest, self.path)
        urls = [self._weight_url(p) for g in groups for p in g.paths]
        if any(inspect.isawaitable(u) for u in urls):
            for u in urls:
                getattr(u, "close", lambda: None)()
            raise RuntimeError(f"{API}: weight_url_converter returned an awaitable; use await handler.load()")
        init = self._init()
        replies = []
        try:
            for i, url in enumerate(urls):
                replies.append(self._fetch_sync(url, init))
                self._check_weight_reply(url, replies[-1].status)
                self._progress((i + 1) / len(urls) * 0.5)
            buffers, i = [], 0
            for g in groups:
                nbytes = 0
                for _ in g.paths:
                    buffers.append(_read_sync(replies[i], g.max_bytes - nbytes, urls[i]))
                    nbytes += len(buffers[-1])
                    i += 1
                    self._progress(0.5 + i / len(urls) * 0.5)
                check_group_bytes(g, nbytes, self.path)
        finally:
            for reply in replies:
                reply.close()
        return _specs(groups), b"".join(buffers)

    def _weight_url(self, path):
        if self.weight_url_converter is not None:
            return self.weight_url_converter(path)
        prefix, suffix = parse_url(self.path)
        # TF.js joins by concatenation: the prefix (the model.json's directory, or
        # weight_path_prefix) + the manifest's path + the model URL's query string.
        return (self.weight_path_prefix or prefix) + path + suffix

    def _check_weight_reply(self, url, status):
        if not 200 <= status < 300:
            raise ValueError(f"{API}: Request to {url} failed with status code {status}. It is a weight file "
                             f"listed in the weightsManifest of {self.path}.")

    async def _monitor(self, awaitables, start, end):
        if not awaitables:
            return []
        if len(awaitables) == 1 and self.on_progress is None:   # one shard: no tasks, no gather (~1 ms each in the page)
            return [await awaitables[0]]
        n, done = len(awaitables), 0

        async def one(aw):
            nonlocal done
            value = await aw
            done += 1
            if self.on_progress is not None:
                result = self.on_progress(start + done / n * (end - start))
                if inspect.isawaitable(result):
                    await result
            return value
        return await _gather([one(a) for a in awaitables])

    def _progress(self, fraction):
        if self.on_progress is not None:
            result = self.on_progress(fraction)
            if inspect.isawaitable(result):
                getattr(result, "close", lambda: None)()
                raise RuntimeError(f"{API}: on_progress returned an awaitable; use await handler.load()")

    # --- save ----------------------------------------------------------------------------------------
    async def save(self, artifacts):
        """POST (or request_init's method) a multipart form with model.json and model.weights.bin."""
        model_json = self._model_json_for_save(artifacts)
        if IN_BROWSER:
            init = self._init(method=self.DEFAULT_METHOD)
            init.body = _form_data(model_json, artifacts.weight_data)
        else:
            init = self._multipart_init(model_json, artifacts.weight_data)
        reply = await self._fetch(self.path, init)
        await self._read(reply, _json_limit(), self.path)
        return self._save_result(artifacts, reply)

    def save_sync(self, artifacts):
        """save() without awaiting (CPython)."""
        self._check_sync("save_sync", "save")
        model_json = self._model_json_for_save(artifacts)
        reply = self._fetch_sync(self.path, self._multipart_init(model_json, artifacts.weight_data))
        _read_sync(reply, _json_limit(), self.path)
        return self._save_result(artifacts, reply)

    def _model_json_for_save(self, artifacts):
        if isinstance(artifacts.model_topology, (bytes, bytearray, memoryview)):
            raise ValueError(f"{API}: save() does not support saving model topology in binary formats yet")
        manifest = [{"paths": ["./" + WEIGHTS_PART], "weights": artifacts.weight_specs}]
        return model_json_for(artifacts, manifest)

    def _multipart_init(self, model_json, weight_data):
        body, content_type = encode_multipart(model_json, weight_data)
        init = self._init(method=self.DEFAULT_METHOD)
        init["headers"] = {**_headers(init), "Content-Type": content_type}
        init["body"] = body
        return init

    def _save_result(self, artifacts, reply):
        if not 200 <= reply.status < 300:
            raise ValueError(f"{API}: save() to {self.path} failed due to HTTP response status {reply.status}.")
        return SaveResult(artifacts_info(artifacts), responses=[reply.response])

    # --- requests ------------------------------------------------------------------------------------
    def _check_sync(self, name, async_name):
        if IN_BROWSER:
            raise RuntimeError(f"{API}: {name}() is not available in the browser (fetch is asynchronous); use "
                               f"await handler.{async_name}()")

    def _init(self, method=None):
        """request_init for one request: a JS object in the browser, a dict in CPython."""
        if IN_BROWSER:
            init = js.Object.new()
            if method is not None:
                init.method = method
            if isinstance(self.request_init, JsProxy):
                return js.Object.assign(init, self.request_init)
            if self.request_init:
                js.Object.assign(init, to_js(self.request_init, dict_converter=js.Object.fromEntries,
                                             create_pyproxies=False))
            return init
        init = {} if method is None else {"method": method}
        init.update(self.request_init or {})
        return init

    def _fetch_js(self, url, init):
        """The page's request, sent now: the JS promise of its response."""
        fetch = self.fetch_func if self.fetch_func is not None else js.fetch
        return _js_helpers().fetch(fetch, url, init, self.timeout * 1000)

    async def _reply_js(self, promise, url):
        try:
            return _Reply(await promise)
        except JsException as e:   # a network or CORS failure, or the timeout: no status
            raise ValueError(f"{API}: Request to {url} failed: {_js_message(e)}") from None

    async def _fetch(self, url, init):
        if IN_BROWSER:
            return await self._reply_js(self._fetch_js(url, init), url)
        if self.fetch_func is not None and inspect.iscoroutinefunction(self.fetch_func):
            return _Reply(await self.fetch_func(url, init))
        return await asyncio.to_thread(self._fetch_sync, url, init)

    def _fetch_sync(self, url, init):
        if self.fetch_func is None:
            return _Reply(_urlopen(url, init, timeout=self.timeout))
        response = self.fetch_func(url, init)
        if inspect.isawaitable(response):
            getattr(response, "close", lambda: None)()
            raise RuntimeError(f"{API}: fetch_func returned an awaitable; use await handler.load() / save()")
        return _Reply(response)

    async def _read(self, reply, max_bytes, url):
        """The body's bytes, at most max_bytes of them (a ValueError naming url beyond)."""
        if hasattr(reply.response, "arrayBuffer"):   # a fetch Response (JS)
            return (await self._read_js(reply, max_bytes, url)).to_bytes()
        if IN_BROWSER:   # Pyodide has no threads; a Python response from fetch_func is read here
            return _read_sync(reply, max_bytes, url)
        return await asyncio.to_thread(_read_sync, reply, max_bytes, url)

    async def _read_js(self, reply, max_bytes, url):
        """A JS Response's body as an ArrayBuffer: chunks within the timeout, at most max_bytes."""
        try:
            return await _js_helpers().read(reply.response, max_bytes, self.timeout * 1000)
        except JsException as e:
            raise ValueError(f"{API}: Request to {url} failed: {_js_message(e)}") from None


class _Early:
    """Python's side of fetchModel: on_json, called by the page's JS once model.json's bytes are in
    and its weight requests sent, reads the manifest, runs the topology's work (while_weights_load)
    and plans the one weight file's reading into its arrays (weights.StreamPlan). What it leaves:
    model_json, groups, urls, plan and data, or error (a manifest Python's checks refuse)."""

    def __init__(self, handler):
        self.handler = handler
        self.model_json = self.groups = self.urls = self.plan = self.data = self.error = None
        self._proxies = []

    def on_json(self, body, depth, urls):
        try:
            return self._planned(body, depth, [str(u) for u in urls])
        except BaseException as exc:   # (raised by _load_js once fetchModel has abandoned the requests)
            self.error = exc
            return None

    def _planned(self, body, depth, urls):
        h = self.handler
        model_json = h._model_json(body.to_bytes(), int(depth))
        manifest = model_json.get("weightsManifest")
        if not isinstance(manifest, list):   # the browser's parser read it otherwise
            return None
        groups = manifest_groups(manifest, h.path)   # (load()'s usual steps raise the same error)
        if [h._weight_url(p) for g in groups for p in g.paths] != urls:
            return None
        self.model_json, self.groups, self.urls = model_json, groups, urls
        if h.while_weights_load is not None:
            h.while_weights_load(model_json)
        # (progress to report: Python reads the file, _receive_weights)
        plan = h._one_file_plan(groups, len(urls)) if h.on_progress is None else None
        if plan is None:
            return True
        self.plan, self.data = plan, bytearray(plan.nbytes)
        self._proxies = [create_proxy(self.data), create_proxy(plan.meta), create_proxy(plan.ends)]
        dst, meta, ends = self._proxies
        return to_js([dst, meta, ends, groups[0].max_bytes, dequantize_fn()])

    def release(self):
        for p in self._proxies:
            p.destroy()
        self._proxies = []


def _specs(groups):
    return [s for g in groups for s in g.specs]


def _json_limit():
    return int(ENV.get("MAX_JSON_BYTES"))


def request_timeout(request_init, api):
    """Seconds to wait for a response and between bytes of its body: request_init's 'timeout', or
    tf.env() flag HTTP_TIMEOUT_SECONDS."""
    value = _init_get(request_init, "timeout") if request_init is not None else None
    if value is None:
        value = ENV.get("HTTP_TIMEOUT_SECONDS")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (value > 0 and math.isfinite(value)):
        raise ValueError(f"{api}: request_init's 'timeout' must be a positive number of seconds, got {value!r}")
    return float(value)


_HELPERS = None


def _js_helpers():
    global _HELPERS
    if _HELPERS is None:
        _HELPERS = js.Function.new("return (" + beside(__file__, "http_reader.js") + "\n)")()
    return _HELPERS


def _js_message(e):
    text = str(e)
    return text.split(": ", 1)[1] if text.startswith("Error: ") else text


def _joined_js_buffers(array_buffers):
    """The JS ArrayBuffers' bytes, one after another, copied once, straight into Python memory
    (to_bytes then join would copy 16 MB of MobileNet twice)."""
    out = bytearray(sum(b.byteLength for b in array_buffers))
    view, offset = memoryview(out), 0
    for b in array_buffers:
        n = b.byteLength
        js.Uint8Array.new(b).assign_to(view[offset:offset + n])
        offset += n
    return out


class _Reply:
    """A response (urllib's, fetch's or fetch_func's) with its status read once."""

    def __init__(self, response):
        self.response = response
        self.status = _status(response)

    def close(self):
        getattr(self.response, "close", lambda: None)()


def _status(response):
    for name in ("status", "status_code", "code"):
        value = getattr(response, name, None)
        if isinstance(value, int):
            return value
    ok = getattr(response, "ok", None)
    if isinstance(ok, bool):
        return 200 if ok else 500
    url = getattr(response, "url", None)
    if isinstance(url, str) and url.startswith(("data:", "file:")):   # urllib gives these no status
        return 200
    raise TypeError(f"{API}: the response of fetch_func has no HTTP status (expected .status), got "
                    f"{type(response).__name__}")


def _read_sync(reply, max_bytes, url):
    """The body of a response, at most max_bytes (a ValueError naming url when it holds more)."""
    response = reply.response
    try:
        if hasattr(response, "read"):
            declared = _content_length(response)
            if declared is not None and declared > max_bytes:
                raise ValueError(f"{API}: the response from {url} declares {declared} bytes, more than the "
                                 f"{max_bytes} allowed: refused")
            try:
                data = response.read(max_bytes + 1)
            except TypeError:   # a fetch_func response whose read() takes no size
                data = response.read()
            except (OSError, ValueError) as e:   # the socket timed out, or the connection broke
                raise ValueError(f"{API}: reading the response from {url} failed: {e}") from None
        elif hasattr(response, "content"):
            data = response.content
        else:
            raise TypeError(f"{API}: cannot read the body of a {type(response).__name__} response (expected "
                            f".read() or .content)")
        if inspect.isawaitable(data):
            getattr(data, "close", lambda: None)()
            raise RuntimeError(f"{API}: the response's read() returned an awaitable; use await handler.load()")
        if len(data) > max_bytes:
            raise ValueError(f"{API}: the response from {url} holds more than the {max_bytes} bytes allowed: refused")
        return bytes(data)
    finally:
        reply.close()


def _content_length(response):
    headers = getattr(response, "headers", None)
    value = headers.get("Content-Length") if hasattr(headers, "get") else None
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def _init_get(init, key):
    value = init.get(key) if isinstance(init, dict) else getattr(init, key, None)
    return None if type(value).__name__ == "JsNull" else value


def _headers(init):
    headers = init.get("headers") or {}
    return dict(headers.items() if hasattr(headers, "items") else headers)


def _without_dot_segments(url):
    """url with '.' and '..' path segments resolved, as fetch's URL parser does (TF.js's weight
    URLs are often 'dir/' + './group1-shard1of1.bin')."""
    parts = urllib.parse.urlsplit(url)
    if "/." not in parts.path:
        return url
    return urllib.parse.urljoin(url, parts.path + (f"?{parts.query}" if parts.query else ""))


def _urlopen(url, init, api=API, timeout=None):
    """urllib's response to a request (an HTTPError is returned: it is a response too); other
    failures raise ValueError naming `api` (tf.data.csv reads URLs through this as well). timeout
    (seconds, for the connection and each read) defaults to request_init's, else the flag's."""
    data = init.get("body")
    if data is not None and not isinstance(data, (bytes, bytearray)):
        data = str(data).encode("utf-8")
    request = urllib.request.Request(_without_dot_segments(url), data=data, headers=_headers(init),
                                     method=init.get("method"))
    try:
        return urllib.request.urlopen(request, timeout=timeout if timeout is not None else request_timeout(init, api))
    except urllib.error.HTTPError as e:
        return e   # it is a response too: its status makes the error message
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        raise ValueError(f"{api}: Request to {url} failed: {reason}") from e


async def _gather(coros):
    """asyncio.gather that cancels the others when one fails."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return await asyncio.gather(*tasks)
    except BaseException:
        for t in tasks:
            t.cancel()
        raise


# --- the multipart body -------------------------------------------------------------------------------
def _model_json_text(model_json):
    if IN_BROWSER:
        # JSON.stringify's text, as TF.js posts (its number formatting differs from Python's).
        return js.JSON.stringify(js.JSON.parse(json.dumps(model_json)))
    return json.dumps(model_json, separators=(",", ":"), ensure_ascii=False)


def encode_multipart(model_json, weight_data, boundary=None):
    """(body, content type) of the multipart/form-data TF.js's http handler posts: a file part
    'model.json' (application/json) and, when there are weights, 'model.weights.bin'
    (application/octet-stream)."""
    boundary = boundary or "----pytfwebFormBoundary" + secrets.token_hex(8)
    parts = [(MODEL_JSON_PART, JSON_TYPE, _model_json_text(model_json).encode("utf-8"))]
    if weight_data is not None:
        parts.append((WEIGHTS_PART, OCTET_STREAM_MIME_TYPE, bytes(weight_data)))
    chunks = []
    for name, ctype, data in parts:
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{name}"\r\n'
                      f"Content-Type: {ctype}\r\n\r\n".encode("ascii"))
        chunks.append(data)
        chunks.append(b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(chunks), f"multipart/form-data; boundary={boundary}"


def _blob(data, ctype):
    u8 = js.Uint8Array.new(len(data))
    u8.assign(data)
    return js.Blob.new(js.Array.of(u8), js.JSON.parse(json.dumps({"type": ctype})))


def _form_data(model_json, weight_data):
    form = js.FormData.new()
    form.append(MODEL_JSON_PART, _blob(_model_json_text(model_json).encode("utf-8"), JSON_TYPE), MODEL_JSON_PART)
    if weight_data is not None:
        form.append(WEIGHTS_PART, _blob(bytes(weight_data), OCTET_STREAM_MIME_TYPE), WEIGHTS_PART)
    return form


# --- URLs and routing ---------------------------------------------------------------------------------
def parse_url(url):
    """TF.js's parseUrl: (the URL up to its last '/', with the '/'; its query string when that
    follows the last '/')."""
    last_slash = url.rfind("/")
    last_query = url.rfind("?")
    suffix = url[last_query:] if last_query > last_slash else ""
    return url[:last_slash] + "/", suffix


def is_http_scheme(url: Any) -> bool:
    """Whether a URL starts with http:// or https:// (TF.js's isHTTPScheme).

    Args:
        url: the URL.

    Returns:
        A bool.

    Example:
        >>> tf.io.is_http_scheme("https://example.com/model.json"), tf.io.is_http_scheme("file:///tmp/model.json")
        (True, False)
    """
    return isinstance(url, str) and url.startswith(SCHEMES)


def http(path: str, request_init: Optional[dict] = None, weight_path_prefix: Optional[str] = None,
         on_progress: Optional[Callable[[float], Any]] = None, fetch_func: Optional[Callable] = None,
         weight_url_converter: Optional[Callable[[str], str]] = None) -> "HTTPRequest":
    """An IO handler loading a model over HTTP(S) and saving by POSTing it.

    Args:
        path: the model.json URL (to load) or the URL to post to (to save).
        request_init: fetch's RequestInit (method, headers, credentials, ...; a dict, or a JS object
            in the browser) used for every request.
        weight_path_prefix: where the weight files are, instead of the model.json's directory.
        on_progress: on_progress(fraction), called as the weights arrive.
        fetch_func: fetch_func(url, request_init) used instead of fetch (a Python or JS function; in
            CPython it returns a response with .status and .read(), or is a coroutine function).
        weight_url_converter: weight_url_converter(path): the URL of each weight file of the manifest.

    Returns:
        An HTTPRequest handler.

    Example:
        >>> tf.io.http("https://example.com/model.json", request_init={"headers": {"Authorization": "token"}})
        HTTPRequest('https://example.com/model.json')
    """
    return HTTPRequest(path, request_init, weight_path_prefix, on_progress, fetch_func, weight_url_converter)


def browser_http_request(path: str, request_init: Optional[dict] = None, weight_path_prefix: Optional[str] = None,
                         on_progress: Optional[Callable[[float], Any]] = None, fetch_func: Optional[Callable] = None,
                         weight_url_converter: Optional[Callable[[str], str]] = None) -> "HTTPRequest":
    """TF.js's browserHTTPRequest (deprecated there): the same as tf.io.http.

    Args:
        path: the model.json URL (to load) or the URL to post to (to save).
        request_init: fetch's RequestInit used for every request.
        weight_path_prefix: where the weight files are, instead of the model.json's directory.
        on_progress: on_progress(fraction), called as the weights arrive.
        fetch_func: used instead of fetch.
        weight_url_converter: the URL of each weight file of the manifest.

    Returns:
        An HTTPRequest handler.

    Example:
        >>> tf.io.browser_http_request("https://example.com/model.json")
        HTTPRequest('https://example.com/model.json')
    """
    return http(path, request_init, weight_path_prefix, on_progress, fetch_func, weight_url_converter)


def _load_router(url, request_init=None, weight_path_prefix=None, on_progress=None, fetch_func=None,
                 weight_url_converter=None, **_):
    if not is_http_scheme(url):
        return None
    return HTTPRequest(url, request_init, weight_path_prefix, on_progress, fetch_func, weight_url_converter)


def _save_router(url):
    return HTTPRequest(url) if is_http_scheme(url) else None


register_load_router(_load_router)
register_save_router(_save_router)
register_fallback_load_handler(browser_http_request)


# --- tf.util.fetch ------------------------------------------------------------------------------------
class FetchResponse:
    """What tf.util.fetch gives: fetch's Response API in snake_case (ok, status, status_text, url,
    headers; awaited array_buffer() -> bytes, text(), json()) over the page's fetch Response or, in
    CPython, urllib's reply (its body read at once)."""

    def __init__(self, url, status, status_text, headers, body=None, js_response=None):
        self.url, self.status, self.status_text, self.headers = url, status, status_text, headers
        self.ok = 200 <= status < 300
        self._body, self._js = body, js_response

    def __repr__(self):
        return f"FetchResponse({self.url!r}, status={self.status})"

    async def array_buffer(self):
        if self._js is not None:
            return (await self._js.arrayBuffer()).to_bytes()
        return self._body

    async def text(self):
        return (await self.array_buffer()).decode("utf-8", errors="replace")

    async def json(self):
        return load_json(await self.text(), f"util.fetch: {self.url}")


async def fetch(path, request_init=None):
    """TF.js's util.fetch (its platform's fetch): the page's fetch, or urllib in CPython (in a thread);
    a FetchResponse. An HTTP error status is a response (ok False), as fetch's; a request that gets no
    response raises ValueError."""
    if not isinstance(path, str):
        raise TypeError(f"util.fetch: argument 'path' must be a URL string, got {type(path).__name__}")
    init = dict(request_init or {})
    if IN_BROWSER:
        args = [path] if not init else [path, to_js(init, dict_converter=js.Object.fromEntries,
                                                    create_pyproxies=False)]
        try:
            r = await js.fetch(*args)
        except JsException as e:
            raise ValueError(f"util.fetch: Request to {path} failed: {e}") from None
        headers = {k: v for k, v in r.headers.entries()} if hasattr(r.headers, "entries") else {}
        return FetchResponse(r.url or path, r.status, r.statusText, headers, js_response=r)

    def blocking():
        response = _urlopen(path, init, api="util.fetch")
        try:
            status = getattr(response, "status", None) or 200   # data: and file: URLs have no status
            reason = getattr(response, "reason", None) or ("OK" if status == 200 else "")
            headers = dict(response.headers.items()) if getattr(response, "headers", None) is not None else {}
            return FetchResponse(path, status, reason, headers, body=response.read())
        finally:
            response.close()
    return await asyncio.to_thread(blocking)
