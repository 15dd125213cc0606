"""The webgpu backend's pure-Python parts, checked here in CPython (no page needed): the WGSL
reader (a function with its callees, signatures, sections), the buffer size classes, the uniform
packing, and that every kernel's WGSL functions exist for the table rows."""
import struct

import pytest

from pytfweb.backends.webgpu import wgsl
from pytfweb.backends.webgpu.device import bucket, pack_uniforms
from pytfweb.ops.elementwise import BINARY, GRADIENT_KERNELS, UNARY


def test_function_with_callees_from_its_file_and_common():
    text = wgsl.functions(("unary_ops.wgsl", "op_Sigmoid"))
    # callees first, each once: op_Exp (same file), then inf (common.wgsl), then op_Sigmoid
    assert text.index("fn inf(") < text.index("fn op_Exp(") < text.index("fn op_Sigmoid(")
    assert text.count("fn op_Exp(") == 1
    assert wgsl.signature("binary_ops.wgsl", "op_FloorDiv") == ((("a", "f32"), ("b", "f32")), "i32")
    assert wgsl.signature("unary_ops.wgsl", "op_IsNan_int") == ((("x", "i32"),), "bool")
    assert wgsl.signature("unary_ops.wgsl", "op_Nothing") is None
    with pytest.raises(KeyError, match="defines no op_Nothing"):
        wgsl.functions(("unary_ops.wgsl", "op_Nothing"))
    with pytest.raises(KeyError, match="no '// @program nope' section"):
        wgsl.program("reduction.wgsl", "nope")


@pytest.mark.parametrize("row", UNARY + BINARY + GRADIENT_KERNELS, ids=lambda r: r.kernel)
def test_every_table_row_has_wgsl(row):
    ops = "unary_ops.wgsl" if row in UNARY else "binary_ops.wgsl"
    fn = "op_" + row.kernel
    assert wgsl.has(ops, fn) or wgsl.has(ops, fn + "_int"), f"backends/webgpu/shaders/{ops} defines neither {fn} nor {fn}_int"
    if row.kind in ("bool", "logical", "bitwise"):   # bool and int32 operands only: the int variant
        assert wgsl.has(ops, fn + "_int")


def test_size_classes():
    assert [bucket(n) for n in (1, 16, 17, 33, 64, 65, 80, 81, 100, 128, 129)] == \
        [16, 16, 32, 64, 64, 80, 80, 96, 112, 128, 160]
    for n in range(1, 5000, 7):
        b = bucket(n)
        assert b >= n and b % 16 == 0 and b <= max(64, n * 1.25 + 16)


def test_uniforms_are_packed_in_field_order_and_padded():
    data = pack_uniforms((("size", "i32"), ("alpha", "f32"), ("flag", "u32")), (7, 0.5, 3))
    assert len(data) == 16 and struct.unpack("<ifI", data[:12]) == (7, 0.5, 3)
    assert len(pack_uniforms((("a", "i32"),) * 5, (1,) * 5)) == 32


def test_generated_bindings_and_coordinates():
    text = wgsl.bindings("f32", (("a", "i32"),), (("size", "i32"),))
    assert "@binding(0) var<storage, read_write> result: array<f32>" in text
    assert "@binding(1) var<storage, read> a: array<i32>" in text and "@binding(2) var<uniform> u" in text
    assert wgsl.dot("c", 2, "s") == "c0 * u.s0 + c1 * u.s1" and wgsl.dot("c", 0, "s") == "0"
    assert "let c1 = rem_c;" in wgsl.coords("c", 2)
