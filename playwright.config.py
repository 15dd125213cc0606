"""Browser settings shared by the browser tests, `pytfweb run` and the benchmark.

The one definition is pytfweb/host/browser_config.py (so that an installed wheel has it too); this
file re-exports it for tools that look here. Load it with runpy.run_path or importlib, since its
name has a dot:

    cfg = runpy.run_path("playwright.config.py")
    browser = p.chromium.launch(**cfg["launch_options"]())
"""
import os
import sys

try:
    from pytfweb.host.browser_config import *  # noqa: F401,F403
except ImportError:  # a checkout without pytfweb installed
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from pytfweb.host.browser_config import *  # noqa: F401,F403
