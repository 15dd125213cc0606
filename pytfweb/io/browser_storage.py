"""The browser's own stores, in TensorFlow.js 4.22's layouts, so that a model TF.js saved loads here
(in the same origin) and the other way round:

indexeddb://NAME    database 'tensorflowjs' version 1 with two object stores, both keyed by
                    'modelPath': 'models_store' holds {modelPath, modelArtifacts, modelArtifactsInfo}
                    (modelArtifacts with TF.js's camelCase keys, weightData one ArrayBuffer),
                    'model_info_store' holds {modelPath, modelArtifactsInfo} (dateSaved a Date).
localstorage://NAME keys 'tensorflowjs_models/NAME/' + 'info', 'model_topology', 'weight_specs',
                    'weight_data' (base64) and 'model_metadata', each a JSON string.
downloads://NAME    save only: the browser downloads NAME.json and NAME.weights.bin.
browser_files(files) load only: JS File objects, model.json first, then its weight files.

All of it exists only in Pyodide: IndexedDB requests are JS events, awaited here as promises; in
CPython the routers raise a clear error for these schemes.
"""
import asyncio
import base64
import datetime
import json
import math

from ..core.environment import ENV
from ..core.limits import load_json
from .artifacts import ModelArtifacts, ModelArtifactsInfo, SaveResult, artifacts_from_model_json_async, model_json_for
from .router import IN_BROWSER, register_load_router, register_save_router
from .weights import check_group_bytes, manifest_groups

if IN_BROWSER:
    import js
    from pyodide.ffi import JsException, create_proxy
else:
    js = create_proxy = None

    class JsException(Exception):
        pass

INDEXEDDB = "indexeddb://"
LOCALSTORAGE = "localstorage://"
DOWNLOADS = "downloads://"

DATABASE_NAME = "tensorflowjs"
DATABASE_VERSION = 1
MODEL_STORE_NAME = "models_store"
INFO_STORE_NAME = "model_info_store"

PATH_SEPARATOR = "/"
PATH_PREFIX = "tensorflowjs_models"
INFO_SUFFIX = "info"
_LS_SUFFIXES = {"info": INFO_SUFFIX, "topology": "model_topology", "weight_specs": "weight_specs",
                "weight_data": "weight_data", "model_metadata": "model_metadata"}

DEFAULT_FILE_NAME_PREFIX = "model"
JSON_EXTENSION = ".json"
WEIGHT_DATA_EXTENSION = ".weights.bin"


def browser_only(what):
    """The error for a browser-only scheme or function used in CPython."""
    return RuntimeError(f"{what} is only available in the browser (Pyodide); in CPython save and load with a "
                        f"directory path, file:// or http(s)://")


# --- ModelArtifacts <-> TF.js's artifacts object ---------------------------------------------------------
def _camel(name):
    head, *rest = name.split("_")
    return head + "".join(w.title() for w in rest)


_ARTIFACT_KEYS = tuple((_camel(f), f) for f in ModelArtifacts.FIELDS if f != "weight_data")
_ALWAYS = ("modelTopology", "format", "generatedBy", "convertedBy")   # TF.js's layers models set these


def artifacts_to_json(artifacts):
    """The JSON part of TF.js's ModelArtifacts object (all but weightData)."""
    return {key: getattr(artifacts, attr) for key, attr in _ARTIFACT_KEYS
            if key in _ALWAYS or getattr(artifacts, attr) is not None}


def artifacts_from_json(d, weight_data):
    return ModelArtifacts(weight_data=weight_data, **{attr: d.get(key) for key, attr in _ARTIFACT_KEYS})


def _finite(value):
    """value with NaN and infinities as None, as JSON.stringify writes them."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def _json_text(value):
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except ValueError:
        return json.dumps(_finite(value), separators=(",", ":"), ensure_ascii=False)


def _to_js(value):
    """A JSON-able Python value as a plain JS value (objects, arrays, null), made by JSON.parse so
    that None stays null and no proxy is created."""
    return js.JSON.parse(_json_text(value))


def js_json_string(value):
    """JSON.stringify's text for value: what TF.js writes (its numbers differ from Python's)."""
    return js.JSON.stringify(_to_js(value))


def _from_js(obj):
    """A JS value of JSON data (Dates become ISO strings) as Python."""
    return None if _nullish(obj) else json.loads(js.JSON.stringify(obj))


def _nullish(value):
    return value is None or type(value).__name__ == "JsNull"


def _array_buffer(data):
    u8 = js.Uint8Array.new(len(data))
    u8.assign(data)
    return u8.buffer


def _bytes_of(value):
    """bytes of an ArrayBuffer, a typed array or an Array of them (TF.js's WeightData)."""
    if _nullish(value):
        return None
    if js.Array.isArray(value):
        return b"".join(_bytes_of(v) for v in value)
    return value.to_bytes()


def _iso_now():
    now = datetime.datetime.now(datetime.timezone.utc)
    return now, now.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _utf8_len(text):
    return len(text.encode("utf-8"))


def model_artifacts_info(artifacts):
    """TF.js's getModelArtifactsInfoForJSON, with JSON.stringify's byte counts: (info, its JSON
    dict with dateSaved as Date.toJSON writes it)."""
    if isinstance(artifacts.model_topology, (bytes, bytearray, memoryview)):
        raise ValueError("Expected JSON model topology, received bytes")
    now, iso = _iso_now()
    sizes = (0 if artifacts.model_topology is None else _utf8_len(js_json_string(artifacts.model_topology)),
             0 if artifacts.weight_specs is None else _utf8_len(js_json_string(artifacts.weight_specs)),
             0 if artifacts.weight_data is None else len(artifacts.weight_data))
    info = ModelArtifactsInfo(now, "JSON", *sizes)
    return info, info_to_json(info, iso)


def info_to_json(info, iso=None):
    """A ModelArtifactsInfo as TF.js's JSON object (dateSaved as an ISO string ending in Z)."""
    if isinstance(info, dict):
        return info
    if iso is None:
        d = info.date_saved.astimezone(datetime.timezone.utc)
        iso = d.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"dateSaved": iso, "modelTopologyType": info.model_topology_type,
            "modelTopologyBytes": info.model_topology_bytes, "weightSpecsBytes": info.weight_specs_bytes,
            "weightDataBytes": info.weight_data_bytes}


def _check_json_topology(artifacts, who):
    if isinstance(artifacts.model_topology, (bytes, bytearray, memoryview)):
        raise ValueError(f"{who}.save() does not support saving model topology in binary formats yet.")


def _check_path(model_path, what):
    if not isinstance(model_path, str) or not model_path:
        raise ValueError(f"For {what}, modelPath must not be null, undefined or empty.")
    return model_path


def _strip(path, scheme):
    return path[len(scheme):] if path.startswith(scheme) else path


# --- IndexedDB -------------------------------------------------------------------------------------------
def _when(target, ok, *failures):
    """A promise settled by target's `ok` event (resolved) or any of `failures` (rejected). The
    handlers are the promise's own JS functions, so no Python proxy is left behind."""
    r = js.Promise.withResolvers()
    setattr(target, "on" + ok, r.resolve)
    for name in failures:
        setattr(target, "on" + name, r.reject)
    return r.promise


def _dom_error(target, what):
    error = getattr(target, "error", None)
    detail = "aborted" if _nullish(error) else f"{error.name}: {error.message}"
    return RuntimeError(f"IndexedDB: {what} failed ({detail})")


async def _settled(request, what):
    try:
        await _when(request, "success", "error")
    except JsException:
        raise _dom_error(request, what) from None


def _set_up_database(event):
    db = event.target.result
    key_path = _to_js({"keyPath": "modelPath"})
    db.createObjectStore(MODEL_STORE_NAME, key_path)
    db.createObjectStore(INFO_STORE_NAME, key_path)


async def _open_database():
    factory = getattr(js, "indexedDB", None)
    if _nullish(factory):
        raise RuntimeError("The current browser does not appear to support IndexedDB.")
    request = factory.open(DATABASE_NAME, DATABASE_VERSION)
    upgrade = create_proxy(_set_up_database)
    request.onupgradeneeded = upgrade
    try:
        await _settled(request, f"opening database '{DATABASE_NAME}'")
    finally:
        request.onupgradeneeded = None
        upgrade.destroy()
    return request.result


async def _idb_read(store_name, method, *args):
    """One request on store_name in its own readonly transaction: its result."""
    db = await _open_database()
    try:
        request = getattr(db.transaction(store_name, "readonly").objectStore(store_name), method)(*args)
        await _settled(request, f"{method} in '{store_name}'")
        return request.result
    finally:
        db.close()   # takes effect when the transaction is done


async def _idb_write(what, **records):
    """Puts (a record) or deletes (a key, as {'delete': key}) in both stores in one readwrite
    transaction, so both change or neither does. The requests are all issued before the first
    await: a transaction with nothing pending commits as soon as the event loop turns."""
    db = await _open_database()
    try:
        tx = db.transaction(js.Array.of(INFO_STORE_NAME, MODEL_STORE_NAME), "readwrite")
        done = _when(tx, "complete", "error", "abort")
        try:
            for store_name, op in records.items():
                store = tx.objectStore(store_name)
                if isinstance(op, dict) and "delete" in op:
                    store.delete(op["delete"])
                else:
                    store.put(op)
        except JsException as e:
            tx.abort()
            raise RuntimeError(f"IndexedDB: {what} failed ({e})") from None
        try:
            await done
        except JsException:
            raise _dom_error(tx, what) from None
    finally:
        db.close()


class BrowserIndexedDB:
    """indexeddb://NAME: load and save in TF.js's IndexedDB database."""

    URL_SCHEME = INDEXEDDB

    def __init__(self, model_path):
        if not IN_BROWSER:
            raise browser_only(INDEXEDDB)
        self.model_path = _check_path(model_path, "IndexedDB")

    def __repr__(self):
        return f"BrowserIndexedDB({self.model_path!r})"

    async def save(self, artifacts):
        _check_json_topology(artifacts, "BrowserIndexedDB")
        info, info_json = model_artifacts_info(artifacts)
        info_js = _to_js(info_json)
        info_js.dateSaved = js.Date.new(info_json["dateSaved"])
        model_js = _to_js(artifacts_to_json(artifacts))
        if artifacts.weight_data is not None:
            model_js.weightData = _array_buffer(artifacts.weight_data)
        info_record = js.Object.new()
        info_record.modelPath, info_record.modelArtifactsInfo = self.model_path, info_js
        model_record = js.Object.new()
        model_record.modelPath, model_record.modelArtifacts = self.model_path, model_js
        model_record.modelArtifactsInfo = info_js
        await _idb_write(f"saving model '{self.model_path}'",
                         **{INFO_STORE_NAME: info_record, MODEL_STORE_NAME: model_record})
        return SaveResult(info)

    async def load(self):
        record = await _idb_read(MODEL_STORE_NAME, "get", self.model_path)
        if _nullish(record):
            raise ValueError(f"load: Cannot find model with path '{self.model_path}' in IndexedDB.")
        model_js = record.modelArtifacts
        topology = getattr(model_js, "modelTopology", None)
        if not _nullish(topology) and js.Object.prototype.toString.call(topology) == "[object ArrayBuffer]":
            raise ValueError(f"IndexedDB model '{self.model_path}' has a binary model topology, which is not "
                             f"supported yet")
        weight_data = _bytes_of(getattr(model_js, "weightData", None))
        fields = _from_js(model_js)
        return artifacts_from_json(fields, weight_data)


async def indexeddb_list_models():
    """{modelPath: info JSON} of every model in TF.js's IndexedDB database."""
    records = await _idb_read(INFO_STORE_NAME, "getAll")
    return {r.modelPath: _from_js(r.modelArtifactsInfo) for r in records}


async def indexeddb_remove_model(path):
    path = _strip(path, INDEXEDDB)
    record = await _idb_read(INFO_STORE_NAME, "get", path)
    if _nullish(record):
        raise ValueError(f"remove_model: Cannot find model with path '{path}' in IndexedDB.")
    info = _from_js(record.modelArtifactsInfo)
    await _idb_write(f"removing model '{path}'", **{INFO_STORE_NAME: {"delete": path},
                                                    MODEL_STORE_NAME: {"delete": path}})
    return info


# --- localStorage ----------------------------------------------------------------------------------------
def _local_storage():
    storage = getattr(js, "localStorage", None)
    if _nullish(storage):
        raise RuntimeError("The current environment does not support local storage.")
    return storage


def _keys(path):
    return {name: PATH_SEPARATOR.join((PATH_PREFIX, path, suffix)) for name, suffix in _LS_SUFFIXES.items()}


def _get_item(ls, key):
    value = ls.getItem(key)
    return None if _nullish(value) else value


def _model_path_from_key(key):
    items = key.split(PATH_SEPARATOR)
    if len(items) < 3:
        raise ValueError(f"Invalid key format: {key}")
    return PATH_SEPARATOR.join(items[1:-1])


_METADATA = ("format", "generatedBy", "convertedBy")
_OPTIONAL_METADATA = ("signature", "userDefinedMetadata", "modelInitializer", "initializerSignature",
                      "trainingConfig")


class BrowserLocalStorage:
    """localstorage://NAME: load and save under TF.js's localStorage keys."""

    URL_SCHEME = LOCALSTORAGE

    def __init__(self, model_path):
        if not IN_BROWSER:
            raise browser_only(LOCALSTORAGE)
        self.model_path = _check_path(model_path, "local storage")
        self.keys = _keys(self.model_path)

    def __repr__(self):
        return f"BrowserLocalStorage({self.model_path!r})"

    async def save(self, artifacts):
        _check_json_topology(artifacts, "BrowserLocalStorage")
        ls = _local_storage()
        info, info_json = model_artifacts_info(artifacts)
        fields = artifacts_to_json(artifacts)
        metadata = {k: fields.get(k) for k in _METADATA}
        metadata.update({k: fields[k] for k in _OPTIONAL_METADATA if fields.get(k) is not None})
        items = ((self.keys["info"], info_json), (self.keys["topology"], artifacts.model_topology),
                 (self.keys["weight_specs"], artifacts.weight_specs))
        try:
            for key, value in items:
                ls.setItem(key, js_json_string(value))
            ls.setItem(self.keys["weight_data"], base64.b64encode(artifacts.weight_data or b"").decode("ascii"))
            ls.setItem(self.keys["model_metadata"], js_json_string(metadata))
        except JsException:
            _remove_items(ls, self.keys)
            raise ValueError(f"Failed to save model '{self.model_path}' to local storage: size quota being exceeded "
                             f"is a possible cause of this failure: modelTopologyBytes={info.model_topology_bytes}, "
                             f"weightSpecsBytes={info.weight_specs_bytes}, "
                             f"weightDataBytes={info.weight_data_bytes}.") from None
        return SaveResult(info)

    async def load(self):
        ls = _local_storage()
        info = _parse_item(ls, self.keys["info"])
        if info is None:
            raise ValueError(f"load: In local storage, there is no model with name '{self.model_path}'")
        if info.get("modelTopologyType") != "JSON":
            raise ValueError("load: BrowserLocalStorage does not support loading non-JSON model topology yet.")
        fields = {"modelTopology": _parse_item(ls, self.keys["topology"])}
        if fields["modelTopology"] is None:
            raise ValueError(f"load: In local storage, the topology of model '{self.model_path}' is missing.")
        fields["weightSpecs"] = _parse_item(ls, self.keys["weight_specs"])
        if fields["weightSpecs"] is None:
            raise ValueError(f"load: In local storage, the weight specs of model '{self.model_path}' are missing.")
        metadata = _parse_item(ls, self.keys["model_metadata"]) or {}
        fields.update({k: metadata.get(k) for k in _METADATA + _OPTIONAL_METADATA})
        weight_data = _get_item(ls, self.keys["weight_data"])
        if weight_data is None:
            raise ValueError(f"load: In local storage, the binary weight values of model '{self.model_path}' are "
                             f"missing.")
        return artifacts_from_json(fields, base64.b64decode(weight_data))


def _parse_item(ls, key):
    text = _get_item(ls, key)
    return None if text is None else json.loads(text)


def _remove_items(ls, keys):
    for key in keys.values():
        ls.removeItem(key)


async def local_storage_list_models():
    """{modelPath: info JSON} of every model under TF.js's localStorage keys."""
    ls = _local_storage()
    prefix, suffix = PATH_PREFIX + PATH_SEPARATOR, PATH_SEPARATOR + INFO_SUFFIX
    out = {}
    for i in range(ls.length):
        key = ls.key(i)
        if key.startswith(prefix) and key.endswith(suffix):
            out[_model_path_from_key(key)] = json.loads(ls.getItem(key))
    return out


async def local_storage_remove_model(path):
    ls = _local_storage()
    path = _strip(path, LOCALSTORAGE)
    keys = _keys(path)
    info = _parse_item(ls, keys["info"])
    if info is None:
        raise ValueError(f"remove_model: Cannot find model at path '{path}'")
    _remove_items(ls, keys)
    return info


# --- downloads:// ----------------------------------------------------------------------------------------
class BrowserDownloads:
    """downloads://NAME (save only): the browser downloads NAME.json and NAME.weights.bin, by
    clicking <a download> links to Blob URLs as TF.js does."""

    URL_SCHEME = DOWNLOADS
    URL_LIFETIME_S = 60.0   # the Blob URLs are revoked after this (TF.js leaves them)

    def __init__(self, file_name_prefix=DEFAULT_FILE_NAME_PREFIX):
        if not IN_BROWSER:
            raise browser_only(DOWNLOADS)
        prefix = _strip(file_name_prefix or "", DOWNLOADS) or DEFAULT_FILE_NAME_PREFIX
        self.model_json_file_name = prefix + JSON_EXTENSION
        self.weight_data_file_name = prefix + WEIGHT_DATA_EXTENSION

    def __repr__(self):
        return f"BrowserDownloads({self.model_json_file_name!r}, {self.weight_data_file_name!r})"

    async def save(self, artifacts):
        document = getattr(js, "document", None)
        if _nullish(document):
            raise RuntimeError("Browser downloads are not supported in this environment since `document` is not "
                               "present")
        _check_json_topology(artifacts, "BrowserDownloads")
        info, _ = model_artifacts_info(artifacts)
        manifest = [{"paths": ["./" + self.weight_data_file_name], "weights": artifacts.weight_specs}]
        model_json = js_json_string(model_json_for(artifacts, manifest)).encode("utf-8")
        await self._download(document, self.model_json_file_name, model_json, "application/json")
        if artifacts.weight_data is not None:
            await self._download(document, self.weight_data_file_name, artifacts.weight_data,
                                 "application/octet-stream")
        return SaveResult(info)

    async def _download(self, document, name, data, ctype):
        u8 = js.Uint8Array.new(len(data))
        u8.assign(data)
        url = js.URL.createObjectURL(js.Blob.new(js.Array.of(u8), _to_js({"type": ctype})))
        anchor = document.createElement("a")
        anchor.download = name
        anchor.href = url
        # One click per turn of the event loop: browsers may keep only the last of several
        # downloads started at once.
        await asyncio.sleep(0)
        anchor.dispatchEvent(js.MouseEvent.new("click"))
        asyncio.get_running_loop().call_later(self.URL_LIFETIME_S, js.URL.revokeObjectURL, url)


def browser_downloads(file_name_prefix=DEFAULT_FILE_NAME_PREFIX):
    """TF.js's browserDownloads: the downloads://NAME handler."""
    return BrowserDownloads(file_name_prefix)


# --- browser_files -----------------------------------------------------------------------------------------
def _basename(path):
    path = path.rstrip("/")
    return path[path.rfind("/") + 1:]


class BrowserFiles:
    """tf.io.browser_files(files): load from JS File objects (an <input type="file">'s files):
    model.json first, then the weight files its manifest names (matched by base name)."""

    def __init__(self, files):
        if not IN_BROWSER:
            raise browser_only("browser_files")
        files = _file_list(files)
        if len(files) < 1:
            raise ValueError(f"browser_files: at least 1 file is required, but received {len(files)}")
        self.json_file, self.weights_files = files[0], files[1:]

    async def load(self):
        name = self.json_file.name
        try:
            if self.json_file.size > int(ENV.get("MAX_JSON_BYTES")):
                raise ValueError(f"browser_files: '{name}' holds {self.json_file.size} bytes, more than tf.env() flag "
                                 f"MAX_JSON_BYTES allows")
            model_json = load_json(await self.json_file.text(), f"browser_files: '{name}'")
        except ValueError as e:
            if "MAX_" in str(e):   # a limit: its own message says which and how to raise it
                raise
            raise ValueError(f"browser_files: Failed to read model topology and weights manifest JSON from file "
                             f"'{name}'. BrowserFiles supports loading Keras-style tf.Model artifacts only.") from None
        except JsException:
            raise ValueError(f"browser_files: Failed to read model topology and weights manifest JSON from file "
                             f"'{name}'. BrowserFiles supports loading Keras-style tf.Model artifacts only.") from None
        if not isinstance(model_json, dict) or model_json.get("modelTopology") is None:
            raise ValueError(f"browser_files: modelTopology field is missing from file {name}")
        if model_json.get("weightsManifest") is None:
            raise ValueError(f"browser_files: weightManifest field is missing from file {name}")
        if not self.weights_files:
            return ModelArtifacts(model_topology=model_json["modelTopology"])
        return await artifacts_from_model_json_async(model_json, self._load_weights, nesting_checked=True)

    async def _load_weights(self, manifest):
        groups = manifest_groups(manifest, self.json_file.name)
        by_path = self._match_files([p for g in groups for p in g.paths])
        for g in groups:   # File sizes are known before reading: a manifest that disagrees reads nothing
            check_group_bytes(g, sum(int(by_path[p].size) for p in g.paths), self.json_file.name)
        buffers = await asyncio.gather(*(self._read(p, by_path[p]) for g in groups for p in g.paths))
        return [s for g in groups for s in g.specs], b"".join(buffers)

    async def _read(self, path, file):
        try:
            return (await file.arrayBuffer()).to_bytes()
        except JsException as e:
            raise ValueError(f"browser_files: Failed to read weights data from file of path '{path}' ({e})") from None

    def _match_files(self, paths):
        names = [_basename(f.name) for f in self.weights_files]
        seen, out = [], {}
        for path in paths:
            base = _basename(path)
            if base in seen:
                raise ValueError(f"browser_files: Duplicate file basename found in weights manifest: '{base}'")
            seen.append(base)
            if base not in names:
                raise ValueError(f"browser_files: Weight file with basename '{base}' is not provided.")
            out[path] = self.weights_files[names.index(base)]
        if len(seen) != len(self.weights_files):
            raise ValueError(f"browser_files: Mismatch in the number of files in weights manifest ({len(seen)}) and "
                             f"the number of weight files provided ({len(self.weights_files)}).")
        return out


def _file_list(files):
    if isinstance(files, (list, tuple)):
        return list(files)
    if files is not None and hasattr(files, "length"):   # a JS Array or FileList
        return list(js.Array.from_(files))
    raise TypeError(f"browser_files: argument 'files' must be a list of File objects or a FileList, got "
                    f"{type(files).__name__}")


def browser_files(files):
    """An IO handler loading a model from File objects of an <input type="file"> (in the page).

    Args:
        files: [model.json File, *weight Files].

    Returns:
        A BrowserFiles handler.

    Example:
        >>> tf.io.browser_files([])   # CPython has no File objects
        Traceback (most recent call last):
        ...
        RuntimeError: browser_files is only available in the browser (Pyodide); ...
    """
    return BrowserFiles(files)


# --- routers ---------------------------------------------------------------------------------------------
def _load_router(url, **_):
    if not isinstance(url, str):
        return None
    if url.startswith(INDEXEDDB):
        return BrowserIndexedDB(url[len(INDEXEDDB):])
    if url.startswith(LOCALSTORAGE):
        return BrowserLocalStorage(url[len(LOCALSTORAGE):])
    if url.startswith(DOWNLOADS):
        if not IN_BROWSER:
            raise browser_only(DOWNLOADS)
        raise ValueError(f"'{url}': downloads:// only saves; load the downloaded files with tf.io.browser_files")
    return None


def _save_router(url):
    if isinstance(url, str) and url.startswith(DOWNLOADS):
        return BrowserDownloads(url[len(DOWNLOADS):])
    return _load_router(url) if isinstance(url, str) and url.startswith((INDEXEDDB, LOCALSTORAGE)) else None


register_load_router(_load_router)
register_save_router(_save_router)
