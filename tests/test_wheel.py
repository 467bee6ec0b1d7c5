"""The installed package owns one import name (issue 20): a wheel's only top-level package is
``packgap``, and it runs from a folder holding a researcher's own ``models``, ``analysis``,
``solvers`` and ``paper_figures`` packages without importing them.

The wheel is built without isolation (no download), from a copy of the source tree: setuptools
writes ``build/`` and ``*.egg-info`` beside the sources, and two suites building from one checkout
at once (``make test-repeat``) removed each other's files. It is installed without dependencies into a
fresh virtual environment outside the repository that sees this environment's third-party
packages through a ``.pth`` line; this environment's editable ``packgap`` is invisible there
(``.pth`` files of an added path are not processed).
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
USER_PACKAGES = ("models", "analysis", "solvers", "heuristics", "instances", "paper_figures")
#: What a checkout's root holds beside its sources (build outputs, environments, caches, results).
NOT_SOURCES: tuple[str, ...] = (
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    ".*_cache",
    ".benchmarks",
    ".hypothesis",
    "site",
)
NOT_SOURCES += ("figures", "figures-quick", "solver-bench", "tutorial-out", "*.duckdb*", "demo-*.json")


def _not_sources(folder: str, names: list[str]) -> set[str]:
    """:data:`NOT_SOURCES` at the root, ``__pycache__`` everywhere (``shutil.copytree``'s ignore)."""
    skipped = {n for n in names if n == "__pycache__"}
    if Path(folder) == ROOT:
        skipped |= shutil.ignore_patterns(*NOT_SOURCES)(folder, names)
    return skipped


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PACKGAP_TRACES")}
    env["COLUMNS"] = "200"
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment with the wheel installed; returns its ``bin`` folder."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    # symlinks=True keeps packgap/<layer> links to the layers' folders (no git needed: a zip works too).
    shutil.copytree(ROOT, source, symlinks=True, ignore=_not_sources)
    dist = base / "dist"
    built = _run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, source, cwd=base)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = dist.glob("packgap-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        top_level = next(n for n in archive.namelist() if n.endswith(".dist-info/top_level.txt"))
        assert archive.read(top_level).decode().split() == ["packgap"]
        names = archive.namelist()
    assert not [n for n in names if n.split("/")[0] in USER_PACKAGES], "a layer installed at the top level"
    assert "packgap/instances/calibration/table3.json" in names, "package data missing from the wheel"
    env_dir = base / "env"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    purelib = Path(
        _run(
            env_dir / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))", cwd=base
        ).stdout.strip()
    )
    (purelib / "_packgap_test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    target = env_dir / "bin" / "python"
    pip = _run(sys.executable, "-m", "pip", "--python", target, "install", "--no-deps", "-q", wheel, cwd=base)
    assert pip.returncode == 0, pip.stderr[-2000:]
    return env_dir / "bin"


@pytest.fixture
def user_repo(tmp_path: Path) -> Path:
    """A researcher's folder: packages named like packgap's layers that fail when imported."""
    for name in USER_PACKAGES:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('the user\\'s own {name} was imported')\n")
    return tmp_path


def test_wheel_runs_beside_a_users_own_packages(installed: Path, user_repo: Path) -> None:
    located = _run(installed / "python", "-c", "import packgap.models, packgap; print(packgap.__file__)", cwd=user_repo)
    assert located.returncode == 0, located.stderr
    assert str(ROOT) not in located.stdout, "the test imported the checkout, not the wheel"
    assert _run(installed / "packgap", "--help", cwd=user_repo).returncode == 0
    # The reproductions come through the wheel's entry point, from packgap.paper_figures.
    listed = _run(installed / "packgap", "figures", "--list", cwd=user_repo)
    assert listed.returncode == 0, listed.stderr
    assert "pal-fig11" in listed.stdout and "sjf-bsbf-table3" in listed.stdout
    made = _run(
        installed / "packgap", "instances", "generate", "planning", "--groups", "4", "--seed", "1", "-o", "p.json",
        cwd=user_repo,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    compared = _run(
        installed / "packgap", "compare", "p.json", "--methods", "fifo,exact-flow", "--time-limit", "20", cwd=user_repo
    )
    assert compared.returncode == 0, compared.stderr
    assert "exact-flow" in compared.stdout
    api = _run(
        installed / "python",
        "-c",
        "import packgap; t = packgap.compare(['p.json'], ['fifo', 'exact-flow'], time_limit=20); "
        "print(sorted(t['method']))",
        cwd=user_repo,
    )
    assert api.returncode == 0, api.stderr
    assert "['exact-flow', 'fifo']" in api.stdout
