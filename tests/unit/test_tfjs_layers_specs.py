"""tfjs-layers' own specs (tag tfjs-v4.22.0) run against pytfweb's layers API
(tests/tfjs_specs/layers.py): the files that map most directly (layers.FILES: core, activations,
initializers, constraints, regularizers, losses, metrics, convolutional, pooling, merge,
normalization). npm's tfjs-layers ships no specs, so they are read from the tfjs checkout or git
directory TFJS_SRC names; without it this module reports that it did not run.
"""
import pytest

from tests.tfjs_specs import coverage, source

SRC = source.source()


if SRC is None:
    coverage.record_not_run("layers")

    def test_layers_specs_not_run():
        pytest.skip(source.NOT_RUN)
else:
    from tests.tfjs_specs import layers

    @pytest.mark.parametrize("path", layers.spec_files(SRC, layers.FILES),
                             ids=lambda p: p.split("tfjs-layers/src/", 1)[-1])
    def test_layers_spec_file(path):
        results = layers.run_file(SRC, path)
        coverage.record("layers", path, results)
        failed = [f"{key}: {detail}" for key, status, detail in results if status == "failed"]
        assert not failed, f"{len(failed)} of {len(results)} cases fail:\n" + "\n".join(failed)
        assert any(status in ("passed", "deviation") for _, status, _ in results), \
            "no case of the file ran an assertion against pytfweb"
