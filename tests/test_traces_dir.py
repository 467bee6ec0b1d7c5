"""Trace folder resolution: explicit option, environment, default; clear errors otherwise."""

from __future__ import annotations

import pytest

from packgap.errors import PackgapError
from packgap.instances.traces import ENV, trace_file, traces_dir


def test_explicit_then_environment(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.setenv(ENV, str(tmp_path / "b"))
    assert traces_dir(tmp_path / "a") == tmp_path / "a"
    assert traces_dir() == tmp_path / "b"


def test_missing_folders_and_files_are_named(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    with pytest.raises(PackgapError, match=r"--traces: trace folder .*nope does not exist"):
        traces_dir(tmp_path / "nope")
    monkeypatch.setenv(ENV, str(tmp_path / "gone"))
    with pytest.raises(PackgapError, match=r"\$PACKGAP_TRACES"):
        traces_dir()
    monkeypatch.setenv(ENV, str(tmp_path))
    with pytest.raises(PackgapError, match=r"muri/x\.csv does not exist"):
        trace_file("muri/x.csv")
