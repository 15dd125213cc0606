"""Package layout for setuptools (metadata is in pyproject.toml).

The wheel holds pytfweb/** (.py, plus the .js/.glsl/.wgsl files modules read at run time: the
shaders live beside their backends, in backends/webgl/shaders/ and backends/webgpu/shaders/) and
the top-level web/ as pytfweb/web/. pytfweb.host.paths looks for <package>/web first and
<package>/../web (a checkout) second. pytfweb.host.bundle builds the browser's zip from the same
package files.
"""
from setuptools import find_namespace_packages, setup

packages = find_namespace_packages(include=["pytfweb", "pytfweb.*"], exclude=["*.__pycache__"])

setup(
    packages=packages + ["pytfweb.web"],
    package_dir={"pytfweb.web": "web"},
    package_data={
        "pytfweb": ["**/*.js", "**/*.glsl", "**/*.wgsl", "py.typed"],
        "pytfweb.data": ["*.json"],
        "pytfweb.web": ["*.html", "*.js", "*.css", "examples/*.html", "examples/*.py"],
    },
    include_package_data=False,
)
