"""``packgap schema FAMILY instance|solution`` (issue 32.3): the JSON Schema built from the readers
takes every generator's files and every heuristic's solutions, and refuses what the readers refuse."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from packgap.analysis import registry
from packgap.analysis.schema import field_rows, meaning, samples, schema
from packgap.errors import UnknownNameError
from tests.clirun import in_process

FAMILIES = list(registry.kits())


@pytest.mark.parametrize("family", FAMILIES)
def test_every_generator_file_and_solution_fits_the_schema(family: str) -> None:
    instances, solutions = samples(family)
    assert instances and solutions, f"{family}: no samples to build the schema from"
    for part, documents in (("instance", instances), ("solution", solutions)):
        built = schema(family, part)
        jsonschema.Draft202012Validator.check_schema(built)
        validator = jsonschema.Draft202012Validator(built)
        for document in documents:
            errors = [f"{'.'.join(map(str, e.path))}: {e.message}" for e in validator.iter_errors(document)]
            assert not errors, f"{family} {part}: {errors[:3]}"


def test_the_schema_refuses_what_the_reader_refuses() -> None:
    (document, *_), _ = samples("placement")
    validator = jsonschema.Draft202012Validator(schema("placement", "instance"))
    for change in (
        lambda d: d["jobs"][0].update(gpus="two"),
        lambda d: d.update(nodes=0),
        lambda d: d.update(surplus=1),
        lambda d: d["jobs"][0].pop("id"),
        lambda d: d.update(objective="fastest"),
        lambda d: d.update(schema="packgap.packing"),
    ):
        changed = copy.deepcopy(document)
        change(changed)
        assert not validator.is_valid(changed), changed


def test_schema_on_the_command_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, printed, _ = in_process(monkeypatch, "schema", "placement", "solution")
    assert code == 0 and json.loads(printed)["required"] == ["allocations"]
    code, _, errors = in_process(monkeypatch, "schema", "placement", "trace")
    assert code == 2 and "unknown document part 'trace'" in errors
    with pytest.raises(UnknownNameError):
        schema("nowhere", "instance")


@pytest.mark.parametrize("family", FAMILIES)
def test_every_field_has_a_unit_and_meaning(family: str) -> None:
    """The docs' data-model tables (docs/families/*.md) say what each field is; a field a reader
    gains without an entry in MEANINGS fails here."""
    for part in ("instance", "solution"):
        missing = [path for path, *_ in field_rows(schema(family, part)) if meaning(family, path) is None]
        assert not missing, f"{family} {part}: no meaning for {missing}"
