"""The calls into a JavaScript program the CPU-forward runner compiled (cpu_forward_runner.py),
in a module of their own so that `pytfweb bench --breakdown` counts their time as JS calls, as it
counts webgl's gpgpu_context.py wrappers: the work happens in JavaScript, not in Python."""


def compile_program(source):
    """The function the program's source evaluates to."""
    import js
    return js.Function.new(source)()


def call(fn, args):
    return fn(*args)
