"""file:// URLs and plain paths (CPython): a directory holding model.json and its weight shards.

Saving writes DIR/model.json and DIR/group1-shard{i}of{n}.bin, 4 MB a shard as TF.js's converter
writes them; loading takes the directory or the model.json path, and reads the shards its
weightsManifest names, relative to model.json (or to weight_path_prefix).
"""
import json
import os
import stat
from typing import Any, Callable, Optional

from ..core.environment import ENV
from .artifacts import (ModelArtifacts, SaveResult, artifacts_from_model_json, artifacts_info, model_json_for,
                        parse_model_json)
from .router import IN_BROWSER, register_load_router, register_save_router
from .weights import (DEFAULT_SHARD_BYTES, check_group_bytes, manifest_groups, shard_names, split_shards,
                      weights_manifest)

SCHEME = "file://"
MODEL_JSON = "model.json"


class FileSystem:
    """An IO handler loading from and saving to a directory (or a model.json path): model.json and
    weight shards, TF.js's layout (tf.io.file_system; file:// URLs and plain paths route to it).

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> _ = tf.sequential([tf.layers.dense(units=1, input_shape=[2])]).save_sync(tf.io.file_system(folder))
        >>> sorted(os.listdir(folder))
        ['group1-shard1of1.bin', 'model.json']
    """

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

    def load_sync(self) -> ModelArtifacts:
        """Read model.json and the weight shards it names.

        Returns:
            The ModelArtifacts.
        """
        json_path = self._model_json_path()
        limit = int(ENV.get("MAX_JSON_BYTES"))
        model_json = parse_model_json(read_regular_file(json_path, limit, "load", "model file",
                                                         limit_name="MAX_JSON_BYTES"), json_path)
        prefix = self.weight_path_prefix if self.weight_path_prefix is not None else os.path.dirname(json_path)
        return artifacts_from_model_json(model_json, lambda manifest: self._read_weights(manifest, prefix, json_path),
                                         nesting_checked=True)

    async def load(self) -> ModelArtifacts:
        """load_sync, awaited (TF.js's handler interface).

        Returns:
            The ModelArtifacts.
        """
        return self.load_sync()

    def _read_weights(self, manifest, prefix, source):
        groups = manifest_groups(manifest, source)
        root = os.path.realpath(prefix or ".")
        n, done, chunks, specs = sum(len(g.paths) for g in groups), 0, [], []
        for group in groups:
            nbytes = 0
            for rel in group.paths:
                path = inside_folder(root, rel, source)
                data = read_regular_file(path, group.max_bytes - nbytes, "load",
                                         f"weight file listed in {source}", on_too_long=lambda: check_group_bytes(
                                             group, group.max_bytes + 1, source))
                nbytes += len(data)
                chunks.append(data)
                done += 1
                if self.on_progress is not None:
                    self.on_progress(done / n)
            check_group_bytes(group, nbytes, source)
            specs.extend(group.specs)
        return specs, b"".join(chunks)

    # --- save ----------------------------------------------------------------------------------------
    def save_sync(self, artifacts: ModelArtifacts) -> SaveResult:
        """Write model.json and the weight shards.

        Args:
            artifacts: the ModelArtifacts.

        Returns:
            A SaveResult.
        """
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

    async def save(self, artifacts: ModelArtifacts) -> SaveResult:
        """save_sync, awaited (TF.js's handler interface).

        Args:
            artifacts: the ModelArtifacts.

        Returns:
            A SaveResult.
        """
        return self.save_sync(artifacts)


def inside_folder(root, rel, source):
    """root/rel, resolved through symlinks, or a ValueError when it lies outside root (realpath'd)."""
    path = os.path.realpath(os.path.join(root, rel))
    if path != root and os.path.commonpath([path, root]) == root:
        return path
    raise ValueError(f"load: weight file '{rel}' listed in {source} resolves to '{path}', outside the model's folder "
                     f"'{root}': refused")


def read_regular_file(path, max_bytes, api, what, on_too_long=None, limit_name=None):
    """The bytes of a regular file, at most max_bytes of them: a FIFO, device or directory is refused
    before anything is read (opened non-blocking, so a FIFO cannot hang the open), and a file larger than
    max_bytes is refused from its size (on_too_long raises the caller's error, if given)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
                     | getattr(os, "O_BINARY", 0))
    except OSError as e:
        raise ValueError(f"{api}: {what} '{path}' cannot be read ({e.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{api}: {what} '{path}' is not a regular file: refused")
        if st.st_size > max_bytes:
            if on_too_long is not None:
                on_too_long()
            raise ValueError(f"{api}: {what} '{path}' holds {st.st_size} bytes, more than the {max_bytes} allowed"
                             f"{_by_flag(limit_name)}: refused")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(max_bytes + 1)   # a file that grew since fstat is caught here
        if len(data) > max_bytes:
            if on_too_long is not None:
                on_too_long()
            raise ValueError(f"{api}: {what} '{path}' holds more than the {max_bytes} bytes allowed{_by_flag(limit_name)}: "
                             f"refused")
        return data
    finally:
        os.close(fd)


def _by_flag(name):
    return f" (tf.env() flag {name})" if name else ""


def file_system(path: Any, weight_path_prefix: Optional[str] = None, on_progress: Optional[Callable] = None,
                shard_bytes: int = DEFAULT_SHARD_BYTES) -> FileSystem:
    """An IO handler loading from and saving to a directory in CPython (or Pyodide's file system).

    Args:
        path: the directory, or a model.json path (a file:// prefix is accepted).
        weight_path_prefix: where the weight files are, if not beside model.json.
        on_progress: called with the fraction loaded.
        shard_bytes: the largest weight shard written.

    Returns:
        A FileSystem handler.

    Example:
        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> _ = tf.sequential([tf.layers.dense(units=1, input_shape=[2])]).save_sync(tf.io.file_system(folder))
        >>> tf.load_layers_model_sync(tf.io.file_system(folder)).count_params()
        3
    """
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
