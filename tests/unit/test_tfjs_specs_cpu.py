"""TF.js's own tfjs-core specs (ops and gradients, from the npm package @tensorflow/tfjs-core
4.22.0), translated by tests/tfjs_specs into pytfweb cases and run on cpu: one test per spec
file, failing with each failing case's name and first error. The translation is generated into
build/specs/core (`make specs`; regenerated here when the spec files or the translator change).
The same cases run on webgl and webgpu in tests/browser/test_tfjs_specs.py."""
import pytest

from tests.tfjs_specs import run, translate

REPORT, FILES = run.files("core")


@pytest.fixture(scope="module", autouse=True)
def failures_file():
    """build/specs/failures-cpu.txt after the module: every failing case and the common causes."""
    yield
    run.failures_text("core", "cpu")


@pytest.mark.parametrize("module", [m for _, m in FILES], ids=[f for f, _ in FILES])
def test_spec_file_on_cpu(module):
    out = run.run_file("core", module, "cpu")
    failing = {cid: err for cid, err in out["results"].items() if err and not err.startswith("skip:")}
    problems = [f"{cid}: {err}" for cid, err in failing.items()]
    if out["left"]:
        problems.append(f"{out['left']} tensors left after the file's cases, by " + ", ".join(
            f"{cid} ({n})" for cid, n in out.get("leaks", {}).items()))
    assert not problems, f"{len(failing)} of {len(out['results'])} cases fail on cpu:\n" + "\n".join(problems)


def test_every_case_is_accounted_for():
    """Each `it` of the spec files is translated, hand-translated, or listed (not applicable, or
    untranslated with the construct that stopped the translator), and the generated modules hold
    exactly the runnable ones."""
    runnable = {r["id"] for r in REPORT if r["status"] in ("translated", "hand")}
    rt = run.load_runtime()
    loaded = set()
    for _, module in FILES:
        loaded |= {cid for cid, _, _ in run.load_cases(run.module_source("core", module), rt, module)}
    assert loaded == runnable
    for r in REPORT:
        assert r["status"] in ("translated", "hand", "not_applicable", "untranslated"), r
        if r["status"] in ("not_applicable", "untranslated", "hand"):
            assert r.get("reason"), r


def test_translator_rules():
    """A few translations the runner relies on, on a spec written here."""
    spec = {"imports": [{"local": "tf", "source": "../index", "imported": "*"},
                        {"local": "expectArraysClose", "source": "../test_util", "imported": "expectArraysClose"}],
            "helpers": [], "dynamic": [], "suites": []}
    ctx = translate.FileContext(spec)
    tr = translate.Translator(ctx)

    def js(src_tree):
        return tr.expr(src_tree)
    ident = lambda n: {"type": "Identifier", "name": n}  # noqa: E731
    member = lambda o, p: {"type": "MemberExpression", "object": o, "property": ident(p), "computed": False}  # noqa: E731
    call = lambda f, *a: {"type": "CallExpression", "callee": f, "arguments": list(a)}  # noqa: E731
    lit = lambda v: {"type": "Literal", "value": v}  # noqa: E731
    assert js(call(member(ident("tf"), "matMul"), ident("a"), ident("b"))) == "tf.mat_mul(a, b)"
    opts = {"type": "ObjectExpression", "properties": [
        {"type": "Property", "key": ident("transposeB"), "value": lit(True), "computed": False, "kind": "init"}]}
    assert js(call(member(member(ident("tf"), "fused"), "matMul"), ident("a"), opts)) == \
        "tf.fused.mat_mul(a, transpose_b=True)"
    assert js({"type": "AwaitExpression", "argument": call(member(ident("x"), "data"))}) == "_js.read(x, 'data')"
    # an argument passed as undefined is left out, the later ones by keyword
    assert js(call(member(ident("tf"), "randomNormal"), ident("s"), ident("undefined"), lit(2))) == \
        "tf.random_normal(s, stddev=2)"
    with pytest.raises(translate.Unsupported):
        js({"type": "ThisExpression"})


def test_runtime_keeps_tfjs_test_util_semantics():
    """expectArraysClose / expectArraysEqual as tfjs-core's test_util.ts has them: 1e-3 on a
    float32 backend, any two non-finite values close (NaN included), typed arrays of different
    kinds not, nested arrays compared by shape; jasmine's toEqual with shapes as lists."""
    import array
    rt = run.load_runtime()
    rt.expectArraysClose(array.array("f", [1.0, 2.0009]), [1, 2])
    with pytest.raises(AssertionError, match="differ"):
        rt.expectArraysClose(array.array("f", [1.0, 2.0011]), [1, 2])
    rt.expectArraysClose([float("nan"), float("inf")], [float("-inf"), float("nan")])
    with pytest.raises(AssertionError, match="different type"):
        rt.expectArraysClose(array.array("i", [1]), rt.new_Float32Array([1]))
    with pytest.raises(AssertionError, match="different shapes"):
        rt.expectArraysClose([[1, 2]], [[1], [2]])
    with pytest.raises(AssertionError):
        rt.expectArraysEqual(array.array("f", [1.0001]), [1])
    rt.expectArraysEqual(["a", "b"], ["a", "b"])
    rt.expect((2, 3)).toEqual([2, 3])
    with pytest.raises(AssertionError):
        rt.expect((2, 3)).not_.toEqual([2, 3])
    with pytest.raises(AssertionError, match="to throw"):
        rt.expect(lambda: 1).toThrowError()
    assert rt.div(6, 3) == 2 and isinstance(rt.div(6, 3), int) and rt.mod(-7, 3) == -1
    assert rt.plus("a", 1) == "a1" and rt.String(1.0) == "1" and rt.String([1, 2.5]) == "1,2.5"
