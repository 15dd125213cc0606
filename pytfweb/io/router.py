"""URL-scheme routing: a string such as 'file://m/model.json' or 'indexeddb://m' becomes a handler.

A router is a function router(url, **load_options) returning a handler or None; each handler module
registers its routers when pytfweb.io is imported, as TF.js's IORouterRegistry.
"""
import inspect
import sys
from typing import Any, Callable, List, Optional

from .artifacts import ModelArtifacts

_LOAD_ROUTERS = []
_SAVE_ROUTERS = []
_FALLBACK_LOAD = []   # in the browser: the handler for a URL no router takes (http.py registers it)

IN_BROWSER = sys.platform == "emscripten"


def register_load_router(router: Callable[..., Any]) -> None:
    """Add a router tried by get_load_handlers (and so by tf.load_layers_model and friends).

    Args:
        router: router(url, **load_options) returning a handler, or None for a URL it does not take.

    Example:
        >>> saved = {}
        >>> tf.io.register_load_router(lambda url, **options: tf.io.from_memory(saved["m"])
        ...                            if url == "docs://m" else None)
        >>> tf.io.register_save_router(lambda url: tf.io.with_save_handler_sync(lambda a: saved.update(m=a))
        ...                            if url == "docs://m" else None)
        >>> _ = tf.sequential([tf.layers.dense(units=1, input_shape=[1])]).save_sync("docs://m")
        >>> tf.load_layers_model_sync("docs://m").count_params()
        2
    """
    if router not in _LOAD_ROUTERS:
        _LOAD_ROUTERS.append(router)


def register_save_router(router: Callable[[str], Any]) -> None:
    """Add a router tried by get_save_handlers (and so by model.save).

    Args:
        router: router(url) returning a save handler, or None for a URL it does not take.

    Example:
        >>> tf.io.register_save_router(lambda url: None)   # takes no URL
    """
    if router not in _SAVE_ROUTERS:
        _SAVE_ROUTERS.append(router)


def register_fallback_load_handler(factory):
    """In the browser, factory(url, **load_options) makes the handler of a string no router takes
    (http.py's browser_http_request: fetched relative to the page, as TF.js)."""
    _FALLBACK_LOAD[:] = [factory]


def _route(routers, url, load_options):
    out = []
    for router in routers:
        handler = router(url, **load_options) if load_options else router(url)
        if handler is not None:
            out.append(handler)
    return out


def get_load_handlers(url: str, load_options: Optional[dict] = None) -> List[Any]:
    """Every handler whose router accepts a URL for loading.

    Args:
        url: the URL or path.
        load_options: options passed to the routers (request_init, weight_path_prefix, ...).

    Returns:
        A list of handlers (empty when no router takes the URL).

    Example:
        >>> tf.io.get_load_handlers("file:///tmp/model.json")
        [FileSystem('/tmp/model.json')]
    """
    return _route(_LOAD_ROUTERS, url, {k: v for k, v in (load_options or {}).items() if v is not None})


def get_save_handlers(url: str) -> List[Any]:
    """Every handler whose router accepts a URL for saving.

    Args:
        url: the URL or path.

    Returns:
        A list of handlers.

    Example:
        >>> tf.io.get_save_handlers("https://example.com/upload")
        [HTTPRequest('https://example.com/upload')]
    """
    return _route(_SAVE_ROUTERS, url, None)


def _one(handlers, url, api, what):
    if len(handlers) > 1:
        raise ValueError(f"{api}: found more than one ({len(handlers)}) {what} handlers for URL '{url}'")
    return handlers[0]


def resolve_load_handler(path_or_handler, api, **load_options):
    """The handler to load from: path_or_handler itself when it has load/load_sync, else the one
    handler routed for the string. In the browser a string no router takes is fetched over HTTP
    (relative to the page), as TF.js does; in CPython it is an error."""
    if not isinstance(path_or_handler, str):
        if hasattr(path_or_handler, "load") or hasattr(path_or_handler, "load_sync"):
            return path_or_handler
        raise TypeError(f"{api}: expected a URL string or an IO handler with a load method, got "
                        f"{type(path_or_handler).__name__}")
    handlers = get_load_handlers(path_or_handler, load_options)
    if not handlers:
        if IN_BROWSER and _FALLBACK_LOAD:
            return _FALLBACK_LOAD[0](path_or_handler, **{k: v for k, v in load_options.items() if v is not None})
        raise ValueError(f"{api}: cannot find a handler to load from '{path_or_handler}' (use a path, file://, "
                         f"http(s)://, or in the browser indexeddb:// or localstorage://)")
    return _one(handlers, path_or_handler, api, "load")


def resolve_save_handler(url_or_handler, api):
    """The handler to save with: url_or_handler itself when it has save/save_sync, else the one
    handler routed for the string."""
    if not isinstance(url_or_handler, str):
        if hasattr(url_or_handler, "save") or hasattr(url_or_handler, "save_sync"):
            return url_or_handler
        raise TypeError(f"{api}: expected a URL string or an IO handler with a save method, got "
                        f"{type(url_or_handler).__name__}")
    handlers = get_save_handlers(url_or_handler)
    if not handlers:
        raise ValueError(f"{api}: cannot find any save handlers for URL '{url_or_handler}'")
    return _one(handlers, url_or_handler, api, "save")


async def load_artifacts(handler, api):
    """await handler.load() (or its load_sync), checked to be ModelArtifacts."""
    fn = getattr(handler, "load", None)
    if fn is None:
        return load_artifacts_sync(handler, api)
    result = fn()
    if inspect.isawaitable(result):
        result = await result
    return _checked_artifacts(result, api)


def load_artifacts_sync(handler, api):
    """handler.load_sync() (or a load that needs no awaiting)."""
    fn = getattr(handler, "load_sync", None)
    if fn is not None:
        return _checked_artifacts(fn(), api)
    fn = getattr(handler, "load", None)
    if fn is None:
        raise ValueError(f"{api}: the IO handler {type(handler).__name__} has no load method")
    result = fn()
    if inspect.isawaitable(result):
        getattr(result, "close", lambda: None)()
        raise RuntimeError(f"{api}: the IO handler {type(handler).__name__} loads asynchronously; use the awaitable "
                           f"form (await {api.removesuffix('_sync')}(...)) instead")
    return _checked_artifacts(result, api)


async def save_artifacts(handler, artifacts, api):
    fn = getattr(handler, "save", None)
    if fn is None:
        return save_artifacts_sync(handler, artifacts, api)
    result = fn(artifacts)
    if inspect.isawaitable(result):
        result = await result
    return result


def save_artifacts_sync(handler, artifacts, api):
    fn = getattr(handler, "save_sync", None) or getattr(handler, "save", None)
    if fn is None:
        raise ValueError(f"{api}: the IO handler {type(handler).__name__} has no save method")
    result = fn(artifacts)
    if inspect.isawaitable(result):
        getattr(result, "close", lambda: None)()
        raise RuntimeError(f"{api}: the IO handler {type(handler).__name__} saves asynchronously; use the awaitable "
                           f"form (await {api.removesuffix('_sync')}(...)) instead")
    return result


def _checked_artifacts(result, api):
    if isinstance(result, dict):
        result = ModelArtifacts.from_dict(result, api)   # TF.js's camelCase artifacts object, or snake_case
    if not isinstance(result, ModelArtifacts):
        raise TypeError(f"{api}: the IO handler's load returned {type(result).__name__}, expected ModelArtifacts")
    return result
