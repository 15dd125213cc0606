"""tfjs-converter's own executor specs (tag tfjs-v4.22.0) run against pytfweb's graph-op table
(tests/tfjs_specs/converter.py). npm's tfjs-converter ships no specs, so they are read from the
tfjs checkout or git directory TFJS_SRC names; without it this module reports that it did not run.
"""
import os

import pytest

from tests.tfjs_specs import coverage, source

SRC = source.source()


if SRC is None:
    coverage.record_not_run("converter")

    def test_converter_specs_not_run():
        pytest.skip(source.NOT_RUN)
else:
    from tests.tfjs_specs import converter

    @pytest.fixture(scope="module")
    def oplist():
        return converter.OpList(SRC)

    @pytest.mark.parametrize("path", converter.spec_files(SRC), ids=lambda p: os.path.basename(p))
    def test_converter_spec_file(path, oplist):
        results = converter.run_file(SRC, path, oplist)
        coverage.record("converter", path, results)
        failed = [f"{key}: {detail}" for key, status, detail in results if status == "failed"]
        assert not failed, f"{len(failed)} of {len(results)} cases fail:\n" + "\n".join(failed)
        # a file with no case carried over would pass without checking anything
        assert any(status in ("passed", "deviation") for _, status, _ in results), \
            "no case of the file ran an assertion against pytfweb"
