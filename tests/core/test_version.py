"""The package version is the one the project's metadata declares."""
import pathlib
import tomllib

from symbolic.core import __version__

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_version_is_the_one_pyproject_declares():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert __version__ == declared
