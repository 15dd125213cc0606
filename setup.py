"""Package layout for setuptools (metadata is in pyproject.toml).

The wheel holds pytfweb/** (.py, plus the .js/.glsl files modules read at run time), the top-level
shaders/ as pytfweb/shaders/ and web/ as pytfweb/web/. At run time the package looks for
<package>/shaders first and <package>/../shaders (a checkout) second; pytfweb.host.paths does the
same for web/. pytfweb.host.bundle builds the browser's zip by the same rule.
"""
from setuptools import find_namespace_packages, setup

packages = find_namespace_packages(include=["pytfweb", "pytfweb.*"], exclude=["*.__pycache__"])

setup(
    packages=packages + ["pytfweb.shaders", "pytfweb.web"],
    package_dir={"pytfweb.shaders": "shaders", "pytfweb.web": "web"},
    package_data={
        "pytfweb": ["**/*.js", "**/*.glsl"],
        "pytfweb.data": ["*.json"],
        "pytfweb.shaders": ["**/*.glsl", "**/*.wgsl"],
        "pytfweb.web": ["*.html", "*.js", "*.css"],
    },
    include_package_data=False,
)
