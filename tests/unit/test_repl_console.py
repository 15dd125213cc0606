"""The REPL's evaluation (pytfweb/host/console.py) in CPython, on the cpu backend: what the page
runs for every entry of web/repl.html and `pytfweb repl`."""
import asyncio
import concurrent.futures

from pytfweb.host.console import Console, banner, status_line


def _session():
    return Console({"__name__": "__main__"})


def run_async(coro):
    """asyncio.run in a thread of its own: when the browser tests share the process, Playwright's
    sync API keeps an event loop running in this one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def push_all(console, *lines):
    """Push lines in order; the last reply."""
    async def run():
        reply = None
        for line in lines:
            reply = await console.push(line)
        return reply
    return run_async(run())


def test_namespace_has_tf_and_persists(capsys):
    c = _session()
    push_all(c, "x = tf.tensor([1.5, 2.5])", "y = x * 2", "y")
    # the repr, TensorFlow's
    assert capsys.readouterr().out == "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 5.], dtype=float32)>\n"
    assert c.namespace["tf"].get_backend() == "cpu"


def test_multi_line_entry_wants_more_until_the_empty_line(capsys):
    c = _session()
    assert push_all(c, "def double(x):") == {"more": True}
    assert push_all(c, "    return x * 2") == {"more": True}
    reply = push_all(c, "")
    assert reply["more"] is False and reply["exit"] is None
    push_all(c, "double(21)")
    assert capsys.readouterr().out == "42\n"


def test_top_level_await_and_displayhook(capsys):
    c = _session()
    push_all(c, "t = tf.tensor([1, 2, 3])", "list(await t.data())", "_")
    assert capsys.readouterr().out == "[1.0, 2.0, 3.0]\n[1.0, 2.0, 3.0]\n"
    push_all(c, "None", "x = 1;")
    assert capsys.readouterr().out == ""


def test_exception_shows_traceback_with_earlier_entries_and_session_goes_on(capsys):
    c = _session()
    push_all(c, "def f(x):", "    return x * 2", "", "f(None)")
    err = capsys.readouterr().err
    assert err.startswith("Traceback (most recent call last):\n")
    assert 'File "<input-2>", line 1, in <module>' in err
    assert 'File "<input-1>", line 2, in f' in err and "return x * 2" in err
    assert "console.py" not in err  # the REPL's own frames are left out
    assert err.rstrip().endswith("TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'")
    push_all(c, "f(2)")
    assert capsys.readouterr().out == "4\n"


def test_syntax_error_resets_the_entry(capsys):
    c = _session()
    reply = push_all(c, "1 +* 2")
    assert reply["more"] is False
    assert "SyntaxError" in capsys.readouterr().err
    push_all(c, "3")
    assert capsys.readouterr().out == "3\n"


def test_cancel_input_drops_the_incomplete_entry(capsys):
    c = _session()
    assert push_all(c, "for i in range(3):", "    print('never')") == {"more": True}
    c.cancel_input()
    push_all(c, "'after'")
    assert capsys.readouterr().out == "'after'\n"


def test_system_exit_gives_the_status():
    c = _session()
    assert push_all(c, "import sys; sys.exit(3)")["exit"] == 3
    assert push_all(c, "raise SystemExit")["exit"] == 0


def test_interrupt_cancels_an_awaiting_entry(capsys):
    c = _session()

    async def run():
        assert not c.interrupt()  # nothing running
        entry = asyncio.ensure_future(c.push("import asyncio; print('waiting'); await asyncio.sleep(30)"))
        while "waiting" not in capsys.readouterr().out:
            await asyncio.sleep(0.01)
        assert c.interrupt()
        return await entry

    reply = run_async(run())
    assert reply["more"] is False
    assert capsys.readouterr().err == "KeyboardInterrupt\n"
    push_all(c, "asyncio.sleep")  # the session goes on
    assert "function" in capsys.readouterr().out


def test_status_line_and_banner():
    c = _session()
    reply = push_all(c, "t = tf.tensor([1.0, 2.0])")
    assert reply["memory"] == {"backend": "cpu", "num_tensors": 1, "num_bytes": 8}
    assert reply["status"] == "cpu · tf.memory(): num_tensors=1 num_bytes=8"
    webgl = {"backend": "webgl", "num_tensors": 2, "num_textures": 3, "num_bytes_in_gpu": 24, "num_bytes": 24}
    assert status_line(webgl) == "webgl · tf.memory(): num_tensors=2 num_textures=3 num_bytes_in_gpu=24"
    text = banner()
    assert text.startswith("pytfweb ") and "Python 3." in text and "backend: cpu" in text
