"""The package version is written once, in ``symbolic.core.__version__``: the project's metadata reads it
from there (``--version`` and the JSON report show it)."""
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_the_metadata_reads_the_version_from_the_package():
    doc = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in doc["project"] and "version" in doc["project"]["dynamic"]
    assert doc["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "symbolic.core.__version__"}
