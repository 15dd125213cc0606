"""Debug mode: every kernel is logged (name, ms, output shape and size) and the first kernel
whose output holds a NaN raises tf.NaNError; prod mode turns it off."""
import re

import pytest

import pytfweb as tf

LINE = re.compile(r"^(?P<kernel>\w+)\t(?P<ms>\d+\.\d{3}) ms\tshape (?P<shape>\[[\d, ]*\])\tsize (?P<size>\d+)"
                  r"\tdtype (?P<dtype>\w+)$")


def logged(capsys):
    out = capsys.readouterr().out
    rows = [LINE.match(line) for line in out.splitlines()]
    assert all(rows), f"unexpected debug output:\n{out}"
    return [(m["kernel"], m["shape"], int(m["size"]), m["dtype"], float(m["ms"])) for m in rows]


def test_debug_mode_is_off_by_default_and_logs_nothing(capsys):
    assert tf.env().get("DEBUG") is False
    tf.exp(tf.tensor([1.0, 2.0]))
    assert capsys.readouterr().out == ""


def test_every_kernel_is_logged_with_time_shape_size_and_dtype(capsys):
    tf.enable_debug_mode()
    assert tf.env().get("DEBUG") is True
    a = tf.tensor([[1, 2, 3], [4, 5, 6]], dtype="int32")
    b = tf.exp(a)                                       # Cast to float32, then Exp
    c = tf.greater(b, 10.0)
    rows = logged(capsys)
    assert [(k, s, n, d) for k, s, n, d, _ in rows] == [
        ("Cast", "[2, 3]", 6, "float32"), ("Exp", "[2, 3]", 6, "float32"), ("Greater", "[2, 3]", 6, "bool")]
    assert all(ms >= 0 for *_, ms in rows)
    assert c.array_sync() == [[False, False, True], [True, True, True]]
    assert capsys.readouterr().out == ""                # reading back runs no kernel


def test_scalars_log_an_empty_shape(capsys):
    tf.enable_debug_mode()
    tf.neg(tf.scalar(1.0))
    assert [(k, s, n) for k, s, n, *_ in logged(capsys)] == [("Neg", "[]", 1)]


def test_the_first_kernel_with_a_nan_output_raises_naming_it(capsys):
    tf.enable_debug_mode()
    x = tf.tensor([-1.0, 4.0])
    before = tf.memory()
    with pytest.raises(tf.NaNError, match="'Log'"):
        tf.exp(tf.log(x))
    # Log was logged and failed; Exp never ran
    assert [k for k, *_ in logged(capsys)] == ["Log"]
    after = tf.memory()
    assert (after.num_tensors, after.num_data_buffers, after.num_bytes) == \
        (before.num_tensors, before.num_data_buffers, before.num_bytes)
    assert not x.is_disposed and x.data_sync().tolist() == [-1.0, 4.0]


def test_nan_error_inside_tidy_leaks_nothing_and_the_engine_goes_on(capsys):
    tf.enable_debug_mode()
    x = tf.tensor([0.0, 1.0])
    with pytest.raises(tf.NaNError, match="'RealDiv'"):
        tf.tidy(lambda: tf.sqrt(tf.div(x * 2, x)))
    m = tf.memory()
    assert (m.num_tensors, m.num_data_buffers, m.num_bytes) == (1, 1, 8)
    assert tf.engine().scopes == []
    assert tf.sqrt(x).data_sync().tolist() == [0.0, 1.0]
    assert [k for k, *_ in logged(capsys)] == ["Multiply", "RealDiv", "Sqrt"]


def test_infinity_and_int_results_are_not_nan(capsys):
    tf.enable_debug_mode()
    assert tf.div(tf.tensor([1.0]), 0).data_sync()[0] == float("inf")
    assert tf.div(tf.tensor([1], dtype="int32"), 0).data_sync()[0] == 0
    capsys.readouterr()


def test_nan_error_is_an_engine_runtime_error():
    assert issubclass(tf.NaNError, tf.EngineError) and issubclass(tf.NaNError, RuntimeError)


def test_prod_mode_turns_debug_off(capsys):
    tf.enable_debug_mode()
    tf.enable_prod_mode()
    assert (tf.env().get("DEBUG"), tf.env().get("PROD")) == (False, True)
    out = tf.log(tf.tensor([-1.0]))
    assert out.data_sync()[0] != out.data_sync()[0]      # NaN passes through
    assert capsys.readouterr().out == ""


def test_debug_mode_can_be_set_through_env(capsys):
    tf.env().set("DEBUG", True)
    tf.abs(tf.tensor([-1.0]))
    assert [k for k, *_ in logged(capsys)] == ["Abs"]
    with pytest.raises(ValueError, match="unknown flag 'NOPE'"):
        tf.env().set("NOPE", 1)
