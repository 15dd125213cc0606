"""Tools around the library: serving it to a browser, driving headless Chromium, running scripts.

    paths           where the package, web pages and Pyodide files are
    browser_config  the one definition of the browser settings (playwright.config.py re-exports it)
    bundle          the zip of pytfweb that a page imports from (on sys.path, in Pyodide's site-packages)
    server          a small HTTP server: web/ at /, Pyodide at /pyodide/, the bundle at /pytfweb.zip.gz
    chromium        launching the browser and opening a page with pytfweb loaded
    script          running a script or a snippet with top-level await (used in CPython and in the page)
    runner          `pytfweb run` and `pytfweb startup`
    console         the REPL's evaluation of an entry (web/repl.js calls it in the page)
    repl            `pytfweb repl`: web/repl.html driven from a terminal
    bench           `pytfweb bench`: pytfweb vs TensorFlow.js in one Chromium, or vs numpy
    bench_models    models built from tf.layers for the bench and the examples (JS twin: web/bench_models.js)
    zoo             the model zoo's catalog (npm @vladmandic/human) and a model's input from its photo
    coverage        `pytfweb ops`: TF.js 4.22's kernels and functions, and which of them exist here
    shipped         a test function sent to the page by the pytest plugin (pytfweb/pytest_plugin.py) and run there

Only `script`, `console`, `shipped`, `bench_models` and `zoo` run inside Pyodide; nothing here is imported by `import pytfweb`.
"""
