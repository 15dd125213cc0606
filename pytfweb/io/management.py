"""tf.io.list_models, copy_model, move_model, remove_model: TF.js's model management across the
browser's stores (localstorage:// and indexeddb://, listed in that order as TF.js registers them).

Each returns TF.js's ModelArtifactsInfo as a dict with its JSON keys (dateSaved an ISO string).
In CPython there are no stores: list_models() gives {} (as TF.js under node) and a browser scheme
raises a clear error.
"""
from . import browser_storage as _bs
from typing import Dict

from .router import IN_BROWSER, get_load_handlers, get_save_handlers, load_artifacts, save_artifacts

URL_SCHEME_SUFFIX = "://"
_BROWSER_SCHEMES = {"localstorage": (_bs.local_storage_list_models, _bs.local_storage_remove_model),
                    "indexeddb": (_bs.indexeddb_list_models, _bs.indexeddb_remove_model)}


def _managers():
    return _BROWSER_SCHEMES if IN_BROWSER else {}


def _parse_url(url, api):
    if not isinstance(url, str):
        raise TypeError(f"{api}: expected a URL string such as 'indexeddb://my-model', got {type(url).__name__}")
    if URL_SCHEME_SUFFIX not in url:
        raise ValueError(f"{api}: The url string provided does not contain a scheme. Supported schemes are: "
                         f"{','.join(_managers())}")
    scheme, path = url.split(URL_SCHEME_SUFFIX, 1)
    return scheme, path


def _manager(scheme, api):
    if not IN_BROWSER and scheme in _BROWSER_SCHEMES:
        raise _bs.browser_only(scheme + URL_SCHEME_SUFFIX)
    manager = _managers().get(scheme)
    if manager is None:
        raise ValueError(f"{api}: Cannot find model manager for scheme '{scheme}'")
    return manager


async def list_models() -> Dict[str, dict]:
    """Every model saved in the browser's stores (IndexedDB, local storage; awaited).

    Returns:
        {URL: info}, e.g. {'indexeddb://my-model': {'dateSaved': '2024-...Z', 'modelTopologyType':
        'JSON', ...}}; empty in CPython.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.io.list_models())   # CPython has no browser stores
        {}
    """
    out = {}
    for scheme, (list_fn, _) in _managers().items():
        for path, info in (await list_fn()).items():
            out[scheme + URL_SCHEME_SUFFIX + path] = info
    return out


async def remove_model(url: str) -> dict:
    """Remove a model saved in a browser store (awaited).

    Args:
        url: indexeddb://NAME or localstorage://NAME.

    Returns:
        The removed model's info.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.io.remove_model("file:///tmp/model.json"))   # only the browser's stores
        Traceback (most recent call last):
        ...
        ValueError: remove_model: Cannot find model manager for scheme 'file'
    """
    scheme, path = _parse_url(url, "remove_model")
    _, remove_fn = _manager(scheme, "remove_model")
    return await remove_fn(path)


async def copy_model(source_url: str, dest_url: str) -> dict:
    """Copy a model, within one store or between stores, or between any load and save handlers
    (indexeddb:// to http://, a folder to another; awaited).

    Args:
        source_url: where the model is.
        dest_url: where to copy it.

    Returns:
        The info of the copy ({'dateSaved', 'modelTopologyType', ...}).

    Example:
        >>> import asyncio, os, tempfile
        >>> a, b = tempfile.mkdtemp(), tempfile.mkdtemp()
        >>> _ = tf.sequential([tf.layers.dense(units=1, input_shape=[2])]).save_sync(a)
        >>> info = asyncio.run(tf.io.copy_model("file://" + os.path.join(a, "model.json"), "file://" + b))
        >>> info["modelTopologyType"], sorted(os.listdir(b))
        ('JSON', ['group1-shard1of1.bin', 'model.json'])
    """
    return await _clone(source_url, dest_url, False, "copy_model")


async def move_model(source_url: str, dest_url: str) -> dict:
    """Move a model between the browser's stores: copy, then remove the source (awaited).

    Args:
        source_url: where the model is (indexeddb://NAME or localstorage://NAME).
        dest_url: where to move it.

    Returns:
        The info of the moved model.

    Example:
        >>> import asyncio
        >>> asyncio.run(tf.io.move_model("file:///tmp/a/model.json", "file:///tmp/b"))   # only the browser's stores
        Traceback (most recent call last):
        ...
        ValueError: move_model: Cannot find model manager for scheme 'file'
    """
    return await _clone(source_url, dest_url, True, "move_model")


def _one_handler(handlers, what, url, api):
    if not handlers:
        raise ValueError(f"{api}: Copying failed because no {what} handler is found for "
                         f"{'source' if what == 'load' else 'destination'} URL {url}.")
    if len(handlers) > 1:
        raise ValueError(f"{api}: Copying failed because more than one ({len(handlers)}) {what} handlers for "
                         f"{'source' if what == 'load' else 'destination'} URL {url}.")
    return handlers[0]


async def _clone(source_url, dest_url, delete_source, api):
    if source_url == dest_url:
        raise ValueError(f"{api}: Old path and new path are the same: '{source_url}'")
    load_handler = _one_handler(get_load_handlers(source_url), "load", source_url, api)
    save_handler = _one_handler(get_save_handlers(dest_url), "save", dest_url, api)
    source_scheme, source_path = _parse_url(source_url, api)
    remove_source = _manager(source_scheme, api)[1] if delete_source else None
    # TF.js means to compare the two schemes here (its code compares the source with itself, so it
    # always removes first): within one store the source goes before the save, so that both
    # copies need not fit at once; across stores only after the save has succeeded.
    same_medium = isinstance(dest_url, str) and dest_url.split(URL_SCHEME_SUFFIX, 1)[0] == source_scheme
    artifacts = await load_artifacts(load_handler, api)
    if remove_source is not None and same_medium:
        await remove_source(source_path)
    result = await save_artifacts(save_handler, artifacts, api)
    if remove_source is not None and not same_medium:
        await remove_source(source_path)
    info = result.get("modelArtifactsInfo") if isinstance(result, dict) else getattr(result, "model_artifacts_info",
                                                                                      None)
    return None if info is None else _bs.info_to_json(info)
