"""TF.js's own jasmine specs (tfjs-core 4.22.0, from its npm package) translated into pytfweb
test cases: extract.mjs (front end), translate.py (back end), runtime.py (what the generated code
calls), hand.py and not_applicable.py (the per-case exceptions, each with its reason)."""
