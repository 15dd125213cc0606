"""tfjs-layers' own specs (tag tfjs-v4.22.0, `tfjs-layers/src/**/*_test.ts`) run against pytfweb's
layers API on cpu (tests/tfjs_specs/layers.py). npm's tfjs-layers ships no specs, so they are read
from the tfjs checkout or git directory TFJS_SRC names; without it this module reports that it did
not run.
"""
import os

import pytest

from tests.tfjs_specs import coverage, source

SRC = source.source()


if SRC is None:
    coverage.record_not_run("layers")   # `pytfweb ops --specs` says the layers specs did not run, and why

    def test_layers_specs_not_run():
        pytest.skip(source.NOT_RUN)
else:
    from tests.tfjs_specs import layers

    @pytest.mark.parametrize("path", layers.spec_files(SRC), ids=lambda p: os.path.basename(p))
    def test_layers_spec_file(path):
        results = layers.run_file(SRC, path)
        failed = [f"{key}: {detail}" for key, status, detail in results if status == "failed"]
        assert not failed, f"{len(failed)} of {len(results)} cases fail:\n" + "\n".join(failed)
        if not any(status in ("passed", "deviation") for _, status, _ in results):
            # nothing of the file carried over: the coverage table counts it, each case with its reason
            reasons = sorted({detail[:80] for _, _, detail in results})
            pytest.skip(f"none of its {len(results)} cases is translated: {'; '.join(reasons[:3])}")

    def test_hand_fixture_passes_tfjs_own_spec_of_it():
        # layers.FakeNumericDataset stands for dataset_fakes.ts: TF.js's spec of that fixture (not applicable to
        # pytfweb, so not counted) must pass against it
        path = "tfjs-layers/src/engine/dataset_fakes_test.ts"
        results = layers.run_program(layers.program_of(SRC, path), path)
        assert results and all(status == "passed" for _, status, _ in results), results
