"""mypy passes on the package, with the settings in pyproject.toml."""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_passes(tmp_path: Path) -> None:
    out, err, status = api.run([
        str(ROOT / "src" / "eboard960"),
        "--config-file", str(ROOT / "pyproject.toml"),  # whatever the working directory
        "--cache-dir", str(tmp_path),  # a clean checkout stays clean
    ])
    assert status == 0, out + err
