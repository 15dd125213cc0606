"""The API reference's checks (pytfweb/host/apidocs.py): every public name documented (arguments,
return value, an example), the examples in the docstrings run as doctests on cpu, and the HTML
reference builds when pdoc is installed.

api_docs_todo.txt lists the public names still undocumented: a shrinking list. A public name that
is not documented and not listed fails, and so does a listed name that is now documented or gone
(delete its line)."""
import doctest
import inspect
from pathlib import Path

import pytest

import pytfweb as tf
from pytfweb.host import apidocs

TODO = Path(__file__).with_name("api_docs_todo.txt")


def _todo():
    return {line.split("#")[0].strip() for line in TODO.read_text(encoding="utf-8").splitlines()} - {""}


def test_every_public_name_is_documented():
    missing = apidocs.undocumented()
    todo = _todo()
    new = {name: what for name, what in missing.items() if name not in todo}
    assert not new, ("public names without a complete docstring (Args:, Returns:, Example:):\n"
                     + "\n".join(f"  {n}: {'; '.join(w)}" for n, w in sorted(new.items())))
    done = sorted(todo - set(missing))
    assert not done, f"documented now or no longer public: delete from {TODO.name}:\n  " + "\n  ".join(done)


def test_the_checker_rejects_incomplete_docstrings():
    def no_doc(x):
        pass

    def no_args(x, axis=None):
        """Sums.

        Returns:
            A tensor.

        Example:
            >>> 1
            1
        """

    def no_example(x):
        """Sums.

        Args:
            x: a tensor.

        Returns:
            A tensor.
        """

    def complete(x, *, axis=None) -> None:
        """Sums.

        Args:
            x: a tensor.
            axis (int): the axis.

        Example:
            >>> 1
            1
        """
    assert apidocs.problems("tf.f", no_doc) == ["no docstring"]
    assert apidocs.problems("tf.f", no_args) == ["no Args: section"]
    assert apidocs.problems("tf.f", no_example) == ["no Example: with >>>"]
    assert apidocs.problems("tf.Tensor.f", no_example) == []   # a method needs no example
    assert apidocs.problems("tf.f", complete) == []
    complete.__annotations__["return"] = "Tensor"   # the source returns no value: no Returns: needed
    assert apidocs.problems("tf.f", complete) == []

    def returns(x, *, axis=None):
        """Sums.

        Args:
            x: a tensor.
            axis (int): the axis.

        Example:
            >>> 1
            1
        """
        return x
    assert apidocs.problems("tf.f", returns) == ["no Returns: section"]
    complete = returns
    complete.__doc__ = complete.__doc__.replace("axis (int)", "axes (int)")
    assert apidocs.problems("tf.f", complete) == ["Args: axis", "no Returns: section"]


def test_the_public_api_covers_the_namespaces():
    api = apidocs.public_api()
    for name in ("tf.add", "tf.Tensor", "tf.Tensor.reshape", "tf.Tensor.array_sync", "tf.layers.dense",
                 "tf.layers.Layer.apply", "tf.train.adam", "tf.io.from_memory", "tf.data.array",
                 "tf.image.resize_bilinear", "tf.losses.mean_squared_error", "tf.sequential"):
        assert name in api, name


def _examples():
    """(name, docstring) of each public docstring holding an example, each docstring once."""
    seen, out = set(), []
    for name, obj in apidocs.public_api().items():
        doc = inspect.getdoc(obj) if not isinstance(obj, property) else obj.__doc__
        if doc and ">>>" in doc and doc not in seen:
            seen.add(doc)
            out.append((name, doc))
    return out


EXAMPLES = _examples()


@pytest.mark.parametrize("name,doc", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_docstring_examples_run(name, doc):
    """Each example runs as a doctest on cpu, in a fresh engine, with `tf` imported."""
    tf.set_backend("cpu")
    test = doctest.DocTestParser().get_doctest(doc, {"tf": tf}, name, None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    report = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_a_wrong_example_fails():
    """The doctest run is not vacuous: an example whose printed output is wrong fails."""
    test = doctest.DocTestParser().get_doctest(">>> tf.add(1, 2).print()\nTensor\n    4\n", {"tf": tf}, "x", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test, out=lambda s: None)
    assert runner.failures == 1


def test_the_reference_builds(tmp_path):
    files = apidocs.build_api_docs(tmp_path)
    assert "pytfweb.html" in files and "index.html" in files
    page = (tmp_path / "pytfweb.html").read_text(encoding="utf-8")
    assert "tidy" in page and "Example" in page


def test_build_web_puts_the_reference_in_api(tmp_path, monkeypatch, capsys):
    from pytfweb.host import site
    files = site.build_web(tmp_path / "a")
    assert {"api/index.html", "api/pytfweb.html", "api/pytfweb/layers.html"} <= set(files)

    def no_pdoc():
        raise ImportError("the API reference needs pdoc")
    monkeypatch.setattr(apidocs, "rendered", no_pdoc)
    assert site.main(str(tmp_path / "b")) == 0
    assert not (tmp_path / "b" / "api").exists()
    assert "left out api/ (the API reference): pdoc is not installed" in capsys.readouterr().err


# The ops' namespaces: every function annotated, its parameters and its return (pytfweb.core.types).
ANNOTATED = ("tf", "tf.image", "tf.linalg", "tf.signal", "tf.spectral", "tf.string", "tf.sparse", "tf.fused",
             "tf.math", "tf.losses", "tf.train")


def test_the_ops_are_annotated():
    missing, checked = [], 0
    for name, obj in apidocs.public_api().items():
        if name.rsplit(".", 1)[0] not in ANNOTATED or inspect.isclass(obj) or not callable(obj):
            continue
        checked += 1
        sig = inspect.signature(obj)
        bare = [p.name for p in sig.parameters.values() if p.annotation is p.empty]
        if bare or sig.return_annotation is sig.empty:
            missing.append(f"{name}: {', '.join(bare) or 'return'}")
    assert checked > 300, checked   # tf.add ... tf.train.adam: the walk reached the ops
    assert not missing, "unannotated:\n  " + "\n  ".join(missing)
