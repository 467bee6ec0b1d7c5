"""The families packgap knows, dispatched by name or by a file's ``schema`` field."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from packgap import jsonio
from packgap.errors import InstanceError, Problem, UnknownNameError
from packgap.family import Family
from packgap.packing import FAMILY as PACKING
from packgap.placement import FAMILY as PLACEMENT
from packgap.planning import FAMILY as PLANNING

FAMILIES: dict[str, Family[Any, Any]] = {f.name: f for f in (PLANNING, PLACEMENT, PACKING)}


def family(name: str) -> Family[Any, Any]:
    try:
        return FAMILIES[name]
    except KeyError:
        raise UnknownNameError("family", name, list(FAMILIES)) from None


def family_of(document: Mapping[str, Any], where: str) -> Family[Any, Any]:
    """The family whose ``schema`` and ``version`` the document declares."""
    schema, version = document.get("schema"), document.get("version")
    for fam in FAMILIES.values():
        if fam.schema == schema:
            if version != fam.version:
                raise InstanceError(
                    where, [Problem("version", f"{schema} supports version {fam.version}, got {version!r}")]
                )
            return fam
    known = ", ".join(f.schema for f in FAMILIES.values())
    raise InstanceError(where, [Problem("schema", f"unknown schema {schema!r} (known: {known})")])


def load_instance(path: Path) -> tuple[Family[Any, Any], Any]:
    """Read, check and build an instance file; every schema problem is reported at once."""
    document = jsonio.read(path)
    fam = family_of(document, str(path))
    try:
        return fam, fam.instance_from_dict(document)
    except InstanceError as exc:
        raise InstanceError(str(path), exc.problems) from None
