"""Data files: YAML errors name the file and line; settings merge data, board profile and lab in that order."""

from __future__ import annotations

from pathlib import Path

import pytest

from perfgate.datafile import line_of, load_mapping, merge
from perfgate.errors import DataError


def test_yaml_error_names_file_and_line(tmp_path: Path) -> None:
    p = tmp_path / "x.yaml"
    p.write_text("a: 1\nb: [2\nc: 3\n")
    with pytest.raises(DataError) as e:
        load_mapping(p)
    assert str(e.value).startswith(f"{p}:")
    assert "not valid YAML" in str(e.value)


def test_a_list_is_not_a_mapping(tmp_path: Path) -> None:
    p = tmp_path / "x.yaml"
    p.write_text("- a\n- b\n")
    with pytest.raises(DataError, match=r"x.yaml:1: the file must hold a mapping of things"):
        load_mapping(p, "a mapping of things")


def test_missing_file_and_empty_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="cannot read"):
        load_mapping(tmp_path / "nope.yaml")
    (tmp_path / "e.yaml").write_text("")
    assert load_mapping(tmp_path / "e.yaml") == {}


def test_reload_when_the_file_changes(tmp_path: Path) -> None:
    p = tmp_path / "x.yaml"
    p.write_text("a: 1\n")
    assert load_mapping(p) == {"a": 1}
    p.write_text("a: 2\n# longer, so the change shows even on a coarse clock\n")
    import os

    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    assert load_mapping(p) == {"a": 2}


def test_merge() -> None:
    assert merge({"a": {"b": 1, "c": 2}, "d": 1}, {"a": {"c": 3}, "d": None}) == {"a": {"b": 1, "c": 3}, "d": 1}
    assert merge({"a": [1]}, {"a": [2]}) == {"a": [2]}


def test_line_of(tmp_path: Path) -> None:
    p = tmp_path / "x.yaml"
    p.write_text("a: 1\nids:\n  '*.x': 2\n")
    assert line_of(p, "*.x") == 3
    assert line_of(p, "nope") is None


def test_a_key_written_twice_is_an_error_at_its_second_line(tmp_path: Path) -> None:
    """YAML keeps the last of two equal keys without a word: a lab's second `workloads:` block once dropped the
    first one's settings (the ICSSG peer). Every data file read through load_mapping refuses it, naming the line."""

    lab = tmp_path / "lab.yaml"
    lab.write_text("name: x\nworkloads:\n  ethernet: {a: 1}\nkind: sim\nworkloads:\n  rt_latency: {b: 2}\n")
    with pytest.raises(DataError, match=r"lab\.yaml:5: .*key 'workloads' is written twice \(first at line 2\)"):
        load_mapping(lab)
    lab.write_text("a: &x {b: 1}\nc:\n  <<: *x\n  d: 2\n")  # merge keys are not duplicates
    assert load_mapping(lab) == {"a": {"b": 1}, "c": {"b": 1, "d": 2}}
