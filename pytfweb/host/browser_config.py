"""The browser settings shared by the browser tests, `pytfweb run` and the benchmark.

This is the one definition; the top-level playwright.config.py re-exports it so that it is found
both in a checkout and in an installed wheel. Values that come from the environment are read when
the functions are called.
"""
import os

#: Debian's Chromium; Playwright's own browser download is not used.
DEFAULT_EXECUTABLE = "/usr/bin/chromium"

#: Flags that keep Chromium quiet and offline (no background connections to refused hosts).
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # WebGL2 on SwiftShader (CPU) where there is no GPU. Headless Chromium 156 gives WebGL2 without
    # these two as well; they keep the software fallback allowed where Chromium would refuse it.
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    # WebGPU (the webgpu backend): Chromium 156 on Linux gives navigator.gpu an adapter (SwiftShader
    # here) only with this flag, and only on a secure origin (http://127.0.0.1 is one).
    "--enable-unsafe-webgpu",
]

HEADLESS = True

#: Milliseconds.
TIMEOUTS = {
    "launch": 60_000,       # starting the browser
    "navigation": 60_000,   # opening a page
    "load": 180_000,        # Pyodide + the pytfweb bundle + the backend, in the page
    "call": 300_000,        # one run_py / compare call in the tests (SwiftShader compiles slowly)
}


def executable_path():
    """PYTFWEB_BROWSER names another Chromium-like executable."""
    return os.environ.get("PYTFWEB_BROWSER") or DEFAULT_EXECUTABLE


def launch_options(**overrides):
    """Keyword arguments for playwright's `chromium.launch()`."""
    opts = {
        "executable_path": executable_path(),
        "args": list(LAUNCH_ARGS),
        "headless": HEADLESS,
        "timeout": TIMEOUTS["launch"],
    }
    opts.update(overrides)
    return opts


__all__ = ["DEFAULT_EXECUTABLE", "LAUNCH_ARGS", "HEADLESS", "TIMEOUTS", "executable_path", "launch_options"]
