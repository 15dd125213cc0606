"""The elementwise IR (backends/gpu/elementwise_ir.py) and the tables rendered from it
(backends/gpu/elementwise_ops.py, backends/gpu/optimizer_ops.py), in CPython: every table kernel
renders in GLSL and WGSL under the names and signatures the programs and fusion code call; each
GLSL op function, with the functions it calls, and each webgl optimizer program, as webgl's
shader compiler completes it, compiles as a GLSL ES 3.00 fragment shader (glslangValidator:
Debian's glslang-tools; webgpu's WGSL is compiled by the browser tests); the IR refuses what it
does not define."""
import shutil
import subprocess

import pytest

from pytfweb.backends.gpu import elementwise_ir as ir
from pytfweb.backends.gpu import elementwise_ops, optimizer_ops
from pytfweb.backends.gpu import shader_source
from pytfweb.backends.webgl import shader_compiler
from pytfweb.backends.webgl.programs import optimizers as webgl_optimizers
from pytfweb.backends.webgpu import wgsl
from pytfweb.backends.webgpu.programs import optimizers as webgpu_optimizers
from pytfweb.kernels.elementwise import BINARY, GRADIENT_KERNELS, UNARY

ROWS = UNARY + BINARY + GRADIENT_KERNELS
X = ir.arg("x")


def files(row):
    return ("unary_ops.glsl", "unary_ops.wgsl") if row in UNARY else ("binary_ops.glsl", "binary_ops.wgsl")


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.kernel)
def test_every_kernel_renders_in_both_languages(row):
    glsl_file, wgsl_file = files(row)
    fn = "op_" + row.kernel
    arity = 1 if row in UNARY else 2
    # webgl: float op_K(float...) (BitwiseAnd's only function converts its operands itself)
    text = shader_source.function(glsl_file, fn)
    assert text is not None, f"{glsl_file} has no {fn}"
    assert text.count(f"float {fn}(") == 1
    header = text[text.index(f"float {fn}("):].split("{", 1)[0]
    assert header.count("float ") == 1 + arity
    # webgpu: op_K(f32...) and/or op_K_int(i32...), attributes after the operands
    variants = [v for v in (fn, fn + "_int") if wgsl.has(wgsl_file, v)]
    assert variants
    for variant in variants:
        params, ret = wgsl.signature(wgsl_file, variant)
        operand = "i32" if variant.endswith("_int") else "f32"
        assert [t for _, t in params[:arity]] == [operand] * arity
        assert ret in ("f32", "i32", "bool")
        if row.kind in ("compare", "logical", "test", "bool"):
            assert ret == "bool"
        attrs = [p for p, _ in params[arity:]]
        assert attrs == {"LeakyRelu": ["alpha"], "Step": ["alpha"],
                         "ClipByValue": ["clipLoI", "clipLoT", "clipHiI", "clipHiT"] if variant.endswith("_int")
                         else ["clipMin", "clipMax"]}.get(row.kernel, [])


def test_exact_int32_paths_on_both_targets():
    for kernel in ("FloorDiv", "Mod", "Pow"):
        text = shader_source.function("binary_ops.glsl", f"op_{kernel}_int")
        assert "int a = toInt(aF);" in text and "float(" in text
        assert wgsl.signature("binary_ops.wgsl", f"op_{kernel}_int")[1] == "i32"
    # int32 adds on webgl stay float adds (exact to 2^24, as every int32 value there)
    assert shader_source.function("binary_ops.glsl", "op_Add_int") is None
    # webgl's Pow_int: its helpers come along, callees first
    parts = [name for name, _ in shader_source.function_parts("binary_ops.glsl", "op_Pow_int")]
    assert parts[-1] == "op_Pow_int" and {"powMulWide", "bitLength"} <= set(parts)
    assert "countLeadingZeros" in wgsl.functions(("binary_ops.wgsl", "op_Pow_int"))


def test_per_target_differences_are_where_the_table_says():
    glsl_exp = shader_source.function("unary_ops.glsl", "op_Exp")
    wgsl_exp = wgsl.functions(("unary_ops.wgsl", "op_Exp"))
    assert "88.72284" not in glsl_exp and "88.72284" in wgsl_exp
    assert "abs(x)" in shader_source.function("unary_ops.glsl", "op_Abs")
    assert "bitcast<u32>(x) & 0x7fffffffu" in wgsl.functions(("unary_ops.wgsl", "op_Abs"))
    # the same formula, written once, in both
    for text in (shader_source.function("unary_ops.glsl", "op_Erf"), wgsl.functions(("unary_ops.wgsl", "op_Erf"))):
        assert "1.061405429 * t - 1.453152027" in text


# --- the GLSL compiles ------------------------------------------------------------------------------

GLSLANG = shutil.which("glslangValidator")


def _glsl_programs():
    for glsl_file in ("unary_ops.glsl", "binary_ops.glsl"):
        names = [n for n in _defined(glsl_file) if n.startswith("op_")]
        for name in names:
            yield glsl_file, name


def _defined(glsl_file):
    import re
    return re.findall(r"^\w+\s+(\w+)\s*\(", shader_source.read(glsl_file), re.M)


@pytest.mark.parametrize("glsl_file,name", list(_glsl_programs()))
def test_glsl_op_compiles(tmp_path, glsl_file, name):
    assert GLSLANG, "glslangValidator is missing: `make setup` installs Debian's glslang-tools"
    arity = 1 if glsl_file == "unary_ops.glsl" else 2
    source = "\n".join([
        "#version 300 es", "precision highp float;", "precision highp int;",
        shader_source.read("header.glsl"),
        "uniform float alpha;", "uniform float clipMin;", "uniform float clipMax;",
        shader_source.function(glsl_file, name),
        "void main() {", f"  setOutput({name}({', '.join(['gl_FragCoord.x'] * arity)}));", "}", ""])
    path = tmp_path / "op.frag"
    path.write_text(source)
    result = subprocess.run([GLSLANG, str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr + "\n" + source


# --- the optimizers' updates ------------------------------------------------------------------------

UPDATES = optimizer_ops.UPDATES
# what each kernel's attrs give the update's uniforms
ATTRS = {"learning_rate": 0.1, "momentum": 0.9, "use_nesterov": True, "decay": 0.9, "epsilon": 1e-7,
         "centered": True, "rho": 0.95, "beta1": 0.9, "beta2": 0.999}


def _webgl_programs():
    for name, update in UPDATES.items():
        if "glsl" in update.functions["value"].targets:
            outputs = ("value",) + update.slots
            # one draw for every output, and one per output (a context with few draw buffers)
            for parts in [outputs] + [(out,) for out in outputs]:
                yield name, parts


@pytest.mark.parametrize("read", [None, "same", "row", "column"])
@pytest.mark.parametrize("name,outputs", list(_webgl_programs()),
                         ids=lambda p: p if isinstance(p, str) else "+".join(p))
def test_webgl_optimizer_program_compiles(tmp_path, name, outputs, read):
    # read None: the shape-keyed program (compiler getters); else the shapeless one, every
    # tensor input fetched that way and the scalars as one value
    assert GLSLANG, "glslangValidator is missing: `make setup` installs Debian's glslang-tools"
    update = UPDATES[name]
    reads = None if read is None else {n: "one" if n in update.scalars else read for n in update.inputs}
    program = webgl_optimizers._program(update, outputs, update.uniforms(ATTRS), (2, 3), reads)
    inputs = [shader_compiler.InputInfo(n, () if n in update.scalars else (2, 3), (1, 1) if n in update.scalars
                                        else (3, 2)) for n in program.variable_names]
    source = shader_compiler.build_source(program, inputs, (3, 2))
    path = tmp_path / "optimizer.frag"
    path.write_text(source)
    result = subprocess.run([GLSLANG, str(path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr + "\n" + source


def test_every_update_renders_its_outputs_in_both_languages():
    kernels = {"sgd", "momentum", "momentum_nesterov", "momentum_either", "rmsprop", "rmsprop_centered", "adagrad",
               "adadelta", "adamax", "adam"}
    assert set(UPDATES) == kernels
    for name, update in UPDATES.items():
        uniforms = [n for n, _, _ in update.uniforms(ATTRS)]
        assert len(set(uniforms)) == len(uniforms)
        for out, fn in update.functions.items():
            reads = [p for p, _ in fn.params]
            # a parameter is an input's old value or a slot's new value: what main passes
            assert all(p in update.inputs or p[len("new_"):] in update.slots for p in reads), (fn.name, reads)
            if "glsl" in fn.targets:
                assert shader_source.function("optimizers.glsl", fn.name).count(f"float {fn.name}(") == 1
            params, ret = wgsl.signature("optimizers.wgsl", fn.name)
            assert ret == "f32" and [p for p, _ in params[:len(reads)]] == reads
            # the rest are hyper-parameters: uniforms of the update (webgpu passes u.<name>)
            assert set(p for p, _ in params[len(reads):]) <= set(uniforms), (fn.name, params)
    assert "nesterov" in [n for n, _, _ in UPDATES["momentum_either"].uniforms(ATTRS)]
    assert shader_source.function("optimizers.glsl", "momentum_either_value") is None   # webgpu's only


def test_update_slots_come_after_the_slots_they_need():
    centered = UPDATES["rmsprop_centered"]
    assert centered.slots == ("ms", "mom", "mg")
    assert centered.slots_for(("value",)) == ("ms", "mg", "mom")
    assert centered.slots_for(("ms",)) == ("ms",)
    assert UPDATES["adadelta"].slots_for(("value",)) == ()   # TF.js's step from the old accumulators
    assert UPDATES["adam"].slots_for(("value", "m", "v")) == ("m", "v")


def test_the_updates_keep_tfjs_steps_in_their_order():
    glsl = shader_source.read("optimizers.glsl")
    wgsl_text = shader_source.read("optimizers.wgsl")
    for text in (glsl, wgsl_text):
        # adadelta's step from the previous accumulated gradient (TF.js's), NaN-propagating sqrt
        assert "sqrtOf(accumVar + epsilon) / sqrtOf(accumGrad + epsilon) * gradient" in text
        assert "sqrtOf(new_ms - (new_mg * new_mg + epsilon))" in text
        assert "mHat / (sqrtOf(vHat) + epsilon) * negLearningRate + value" in text
        assert "lr / oneMinusAccBeta1 * (new_m / (new_v + epsilon)) + value" in text
        assert "op_Maximum(v * beta2, absOf(gradient))" in text
    assert "isNaN(x) ? x : op_Sqrt(x)" in glsl and "select(op_Sqrt(x), x, isNan(x))" in wgsl_text


def test_webgpu_optimizer_programs_bind_what_they_read():
    fields = (("size", "i32"),)
    program, used = webgpu_optimizers._program("adam", ("m", "v"), True, False, fields)
    assert used == UPDATES["adam"].inputs
    code = program.source()
    assert "result[i] = adam_value(s_m, oneMinusAccBeta1[0], s_v, oneMinusAccBeta2[0], value[i], u.epsilon" in code
    # split: the slots, then the value from the slots stored
    program, used = webgpu_optimizers._program("adam", ("m", "v"), False, False, fields)
    assert used == ("gradient", "m", "v") and "result" not in program.source()
    program, used = webgpu_optimizers._program("rmsprop", (), True, True, fields)
    assert used == ("value", "stored_mom") and "rmsprop_value(value[i], stored_mom[i])" in program.source()


# --- the IR and its renderers ------------------------------------------------------------------------

def render(body, target, params=(("x", ir.F32),), abi="native", **kw):
    return ir.render([ir.Function("f", params, body, abi=abi, **kw)], target)


def test_literals_take_their_neighbours_type_and_operators_their_parentheses():
    body = ir.select((ir.i32(X) & 1).eq(1), 0, X * (X + 1.0))
    assert "return select(x * (x + 1.0), 0.0, (i32(x) & 1) == 1);" in render(body, "wgsl")
    assert "return (int(x) & 1) == 1 ? 0.0 : x * (x + 1.0);" in render(body, "glsl")
    i = ir.arg("i")
    assert "return i - (i - 2);" in render(i - (i - 2), "glsl", params=(("i", ir.I32),))
    # WGSL shifts by a u32; GLSL shifts by the int as it is
    assert "return 1u << u32(i - 1);" in render(ir.u32(1) << (i - 1), "wgsl", params=(("i", ir.I32),))
    assert "return 1u << (i - 1);" in render(ir.u32(1) << (i - 1), "glsl", params=(("i", ir.I32),))


def test_per_target_nodes_and_statements():
    body = [ir.only("wgsl", ir.when(X.eq(0.0), ir.NEGZERO)), ir.per_target(glsl=ir.abs_(X), wgsl=ir.clear_sign(X))]
    glsl, wgsl_text = render(body, "glsl"), render(body, "wgsl")
    assert "negZero()" in wgsl_text and "bitcast<f32>" in wgsl_text
    assert "if" not in glsl and "return abs(x);" in glsl


def test_webgl_values_convention():
    a, b = ir.arg("a"), ir.arg("b")
    params = (("a", ir.I32), ("b", ir.I32))
    glsl = render(a.eq(b), "glsl", params=params, abi="values")
    assert glsl.startswith("float f(float aF, float bF) {") and "int a = toInt(aF);" in glsl
    assert "return float(a == b);" in glsl
    assert render(a.eq(b), "wgsl", params=params, abi="values").startswith("fn f(a: i32, b: i32) -> bool {")
    # attributes: uniforms on webgl, parameters (in order of use) on webgpu
    body = ir.select(X > ir.attr("hi"), ir.attr("hi"), X * ir.attr("lo"))
    assert render(body, "wgsl", abi="values").startswith("fn f(x: f32, hi: f32, lo: f32) -> f32 {")
    assert render(body, "glsl", abi="values").startswith("float f(float x) {")


def test_the_ir_refuses_what_it_does_not_define():
    with pytest.raises(ir.IRError, match="unknown node kind"):
        ir.Node("bogus")
    with pytest.raises(ir.IRError, match="unknown built-in"):
        ir.Node("call", X, value="cbrt")
    with pytest.raises(ir.IRError, match="unknown intrinsic"):
        ir.Node("intrinsic", X, X, value="isnan")
    with pytest.raises(ir.IRError, match="unknown operator"):
        ir.Node("binop", X, X, value="**")
    with pytest.raises(ir.IRError, match="unknown statement kind"):
        ir.Stmt("goto")
    with pytest.raises(ir.IRError, match="not an expression"):
        X + "1"
    with pytest.raises(ir.IRError, match="truth value"):
        bool(X < 0.0)
    with pytest.raises(ir.IRError, match="only the last item"):
        render([X, X], "glsl")
    with pytest.raises(ir.IRError, match="wgsl has no built-in for fmod"):
        render(ir.fmod(X, 2.0), "wgsl")
    with pytest.raises(ir.IRError, match="glsl has no intrinsic to_int32"):
        render(ir.to_int32(X), "glsl")
    with pytest.raises(ir.IRError, match="f32 and i32 mixed"):
        render(X + ir.arg("i"), "wgsl", params=(("x", ir.F32), ("i", ir.I32)))
    with pytest.raises(ir.IRError, match="not defined here"):
        render(ir.v("nope"), "glsl")
    with pytest.raises(ir.IRError, match="calls g, not a function"):
        render(ir.call("g", X), "wgsl")
    with pytest.raises(ir.IRError, match="write INF / NAN"):
        render(X + float("inf"), "glsl")
    with pytest.raises(ir.IRError, match="unknown target"):
        ir.render([], "hlsl")
    with pytest.raises(ir.IRError, match="no body for wgsl"):
        ir.Function("f", (), {"glsl": [X]})


def test_rendering_is_deterministic_and_every_file_is_served():
    for module in (elementwise_ops, optimizer_ops):
        for name in module.names():
            assert module.source(name) == module.source.__wrapped__(name)
            assert shader_source.read(name) == module.source(name)
