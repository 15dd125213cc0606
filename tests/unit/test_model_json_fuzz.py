"""Fuzzing the loaders with mutated model.json files (hypothesis): whatever a stranger's file holds,
loading it either works or raises a clear ValueError / TypeError (or NotImplementedError for a layer
or op pytfweb lacks); never a KeyError, AttributeError, IndexError or RecursionError from inside a
loader, and no tensor is left behind."""
import copy
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytfweb as tf
from tests import hostile_corpus

CLEAR = (ValueError, TypeError, NotImplementedError)

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 10 ** 12), st.floats(allow_nan=True),
                      st.text(max_size=12), st.sampled_from(["float32", "int32", "string", "..", "/etc/passwd",
                                                             "relu", "Dense", "valid", "same"]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                             st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                          max_leaves=12)


def _paths(value, prefix=()):
    """Every path (a tuple of keys and indices) into a JSON value."""
    out, stack = [], [(value, prefix)]
    while stack:
        v, p = stack.pop()
        out.append(p)
        if isinstance(v, dict):
            stack.extend((c, p + (k,)) for k, c in v.items())
        elif isinstance(v, list):
            stack.extend((c, p + (i,)) for i, c in enumerate(v))
    return out


@st.composite
def mutations(draw, base):
    """A copy of base with 1-3 edits: a value replaced, a key deleted, or a list entry duplicated."""
    j = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(j) if p]
        path = draw(st.sampled_from(sorted(paths, key=repr)))
        parent = j
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        action = draw(st.sampled_from(["replace", "delete", "duplicate"]))
        if action == "replace":
            parent[key] = draw(json_value)
        elif action == "delete":
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return j


def _fuzz(base_folder, base, load):
    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    @given(mutations(base))
    def check(mutated):
        with tempfile.TemporaryDirectory() as d:
            folder = Path(d) / "m"
            shutil.copytree(base_folder, folder)
            (folder / "model.json").write_text(json.dumps(mutated))
            before = tf.memory()["num_tensors"]
            try:
                model = load(f"file://{folder}")
            except CLEAR:
                assert tf.memory()["num_tensors"] == before
                return
            model.dispose() if hasattr(model, "dispose") else None
    check()


def test_mutated_layers_model_json_loads_or_fails_clearly(tmp_path):
    base_folder = tmp_path / "base"
    base = hostile_corpus.layers_model_files(base_folder)
    _fuzz(base_folder, base, tf.load_layers_model_sync)


def test_mutated_graph_model_json_loads_or_fails_clearly(tmp_path):
    base_folder = tmp_path / "base"
    base = hostile_corpus.graph_model_files(base_folder)
    _fuzz(base_folder, base, tf.load_graph_model_sync)


@pytest.mark.parametrize("bad", ["[", "{}", "[]", "null", '{"modelTopology": 1}', '{"weightsManifest": [{}]}',
                                 "\udcff", '{"modelTopology": {"class_name": "Sequential"}}'])
def test_malformed_model_json_texts(tmp_path, bad):
    (tmp_path / "model.json").write_text(bad, errors="surrogateescape")
    with pytest.raises(CLEAR):
        tf.load_layers_model_sync(f"file://{tmp_path}")
