"""pytfweb/core/limits.py: nesting depth found by the parser-free scan the page uses agrees with the walk of
the parsed value; deep JSON is a ValueError naming its source, never a RecursionError."""
import json

import pytest

import pytfweb as tf
from pytfweb.core import limits


@pytest.mark.parametrize("text", ["[]", "1", '"[[["', "[" * 100 + "]" * 100, "[" * 101 + "]" * 101,
                                  '{"a": [{"b": ["]]]}"]}], "c": {}}', '[{"x": "\\\\\\"[["}]',
                                  "[" * 60 + '{"k": ' + "[" * 45 + "]" * 45 + "}" + "]" * 60])
def test_the_scan_agrees_with_the_walk(text):
    value = json.loads(text)
    try:
        limits.check_depth(value, "t")
        deep = False
    except ValueError:
        deep = True
    assert limits._too_deep(text) == deep


_SCAN_CASES = ["[]", "1", '"[[["', "[" * 100 + "]" * 100, "[" * 101 + "]" * 101, '{"a": [{"b": ["]]]}"]}], "c": {}}',
               '[{"x": "\\\\\\"[["}]', "[" * 60 + '{"k": ' + "[" * 45 + "]" * 45 + "}" + "]" * 60, "[[]", "[]]"]


def test_the_pages_javascript_scan_agrees_with_the_walk():
    """The page measures depth in JavaScript (limits._DEPTH_JS): run here under node on the same texts."""
    import shutil
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed (make installs it with the npm packages)")
    script = f"const depth = {limits._DEPTH_JS};\nconsole.log(JSON.stringify(JSON.parse(process.argv[1]).map(depth)));"
    out = subprocess.run([node, "-e", script, json.dumps(_SCAN_CASES)], capture_output=True, text=True, check=True)
    depths = json.loads(out.stdout)
    for text, depth in zip(_SCAN_CASES, depths):
        try:
            json.loads(text)
        except ValueError:
            assert depth == 0, text   # unbalanced: left to json.loads
            continue
        assert (depth > 100) == limits._too_deep_regex(text), text


def test_deep_json_is_a_value_error_naming_the_source():
    with pytest.raises(ValueError, match="model.json: JSON nested more than 100 levels.*MAX_NESTING_DEPTH"):
        limits.load_json("[" * 100000 + "]" * 100000, "model.json")
    with pytest.raises(ValueError, match="m.json: nested more than 100"):
        limits.load_json("[" * 500 + "]" * 500, "m.json")
    with pytest.raises(ValueError, match="not valid JSON"):
        limits.load_json("[}", "m.json")
    tf.env().set("MAX_NESTING_DEPTH", 600)
    try:
        assert limits.load_json("[" * 500 + "]" * 500, "m.json") is not None
    finally:
        tf.env().set("MAX_NESTING_DEPTH", 100)


def test_check_elements_never_multiplies_past_the_limit():
    with pytest.raises(ValueError, match="MAX_TENSOR_ELEMENTS"):
        limits.check_elements([10 ** 12] * 1000, "op: argument 'shape'")
    assert limits.check_elements([2, 3], "x") == 6
    assert limits.check_elements([0, 10 ** 12], "x") == 0


def _deep_graph(levels):
    attr = {"list": {}}
    for _ in range(levels):
        attr = {"list": {"func": [attr]}}
    return {"node": [{"name": "x", "op": "Placeholder", "attr": {"deep": attr}}], "versions": {}}


def test_a_deep_topology_is_refused_from_a_file_and_from_a_dict(tmp_path):
    """A model.json read by a loader was checked by load_json, so the model loaders skip walking
    it again (ModelArtifacts.nesting_checked); artifacts handed over as a dict are walked."""
    import asyncio
    import pytfweb as tf
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"format": "graph-model", "modelTopology": _deep_graph(200)}))
    with pytest.raises(ValueError, match="nested more than 100 levels"):
        asyncio.run(tf.load_graph_model(str(path)))
    artifacts = tf.io.ModelArtifacts(model_topology=_deep_graph(200), format="graph-model")
    assert artifacts.nesting_checked is False
    with pytest.raises(ValueError, match="modelTopology: nested more than 100"):
        asyncio.run(tf.load_graph_model(tf.io.from_memory(artifacts)))
    shallow = tmp_path / "shallow.json"
    shallow.write_text(json.dumps({"format": "graph-model", "modelTopology": _deep_graph(3)}))
    model = asyncio.run(tf.load_graph_model(str(shallow)))
    model.dispose()
