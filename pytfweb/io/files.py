"""file:// URLs and plain paths (CPython): a directory holding model.json and its weight shards.

Saving writes DIR/model.json and DIR/group1-shard{i}of{n}.bin, 4 MB a shard as TF.js's converter
writes them; loading takes the directory or the model.json path, and reads the shards its
weightsManifest names, relative to model.json (or to weight_path_prefix).
"""
import json
import os

from .artifacts import SaveResult, artifacts_from_model_json, artifacts_info, model_json_for, parse_model_json
from .router import IN_BROWSER, register_load_router, register_save_router
from .weights import DEFAULT_SHARD_BYTES, manifest_specs, shard_names, split_shards, weights_manifest

SCHEME = "file://"
MODEL_JSON = "model.json"


class FileSystem:
    """tf.io.file_system(path): load from and save to a directory (or a model.json path)."""

    def __init__(self, path, weight_path_prefix=None, on_progress=None, shard_bytes=DEFAULT_SHARD_BYTES):
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if not isinstance(path, str) or not path:
            raise TypeError(f"file_system: argument 'path' must be a non-empty path string, got {path!r}")
        self.path = path[len(SCHEME):] if path.startswith(SCHEME) else path
        self.weight_path_prefix = weight_path_prefix
        self.on_progress = on_progress
        self.shard_bytes = shard_bytes

    def __repr__(self):
        return f"FileSystem({self.path!r})"

    # --- load ----------------------------------------------------------------------------------------
    def _model_json_path(self):
        p = self.path
        if os.path.isdir(p):
            p = os.path.join(p, MODEL_JSON)
        if not os.path.isfile(p):
            raise ValueError(f"load: no model file at '{p}' (expected a model.json file or a directory holding one)")
        return p

    def load_sync(self):
        json_path = self._model_json_path()
        with open(json_path, "rb") as f:
            model_json = parse_model_json(f.read(), json_path)
        prefix = self.weight_path_prefix if self.weight_path_prefix is not None else os.path.dirname(json_path)
        return artifacts_from_model_json(model_json, lambda manifest: self._read_weights(manifest, prefix, json_path))

    async def load(self):
        return self.load_sync()

    def _read_weights(self, manifest, prefix, source):
        specs, paths = manifest_specs(manifest, source)
        chunks = []
        for i, rel in enumerate(paths):
            p = os.path.join(prefix, rel)
            try:
                with open(p, "rb") as f:
                    chunks.append(f.read())
            except OSError as e:
                raise ValueError(f"load: weight file '{p}' listed in {source} cannot be read ({e.strerror})") from None
            if self.on_progress is not None:
                self.on_progress((i + 1) / len(paths))
        return specs, b"".join(chunks)

    # --- save ----------------------------------------------------------------------------------------
    def save_sync(self, artifacts):
        if isinstance(artifacts.model_topology, (bytes, bytearray)):
            raise ValueError("save: file_system saves JSON model topologies only, got a binary topology")
        directory = self.path[:-len(MODEL_JSON)] if self.path.endswith(MODEL_JSON) else self.path
        directory = directory or "."
        if os.path.isfile(directory):
            raise ValueError(f"save: '{directory}' is a file; file_system saves into a directory")
        os.makedirs(directory, exist_ok=True)
        paths = []
        if artifacts.weight_specs is not None:
            shards = split_shards(artifacts.weight_data or b"", self.shard_bytes)
            paths = shard_names(len(shards))
            for name, data in zip(paths, shards):
                with open(os.path.join(directory, name), "wb") as f:
                    f.write(data)
        model_json = model_json_for(artifacts, weights_manifest(artifacts.weight_specs or [], paths))
        with open(os.path.join(directory, MODEL_JSON), "w", encoding="utf-8") as f:
            json.dump(model_json, f)
        return SaveResult(artifacts_info(artifacts))

    async def save(self, artifacts):
        return self.save_sync(artifacts)


def file_system(path, weight_path_prefix=None, on_progress=None, shard_bytes=DEFAULT_SHARD_BYTES):
    return FileSystem(path, weight_path_prefix, on_progress, shard_bytes)


def _is_local(url):
    if url.startswith(SCHEME):
        return True
    # A plain path means the file system in CPython; in the browser it is a URL relative to the page.
    return not IN_BROWSER and "://" not in url


def _load_router(url, weight_path_prefix=None, on_progress=None, **_):
    return FileSystem(url, weight_path_prefix, on_progress) if _is_local(url) else None


def _save_router(url):
    return FileSystem(url) if _is_local(url) else None


register_load_router(_load_router)
register_save_router(_save_router)
