"""The families packgap knows, dispatched by name or by a file's ``schema`` field."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packgap import jsonio
from packgap.errors import InstanceError, Problem, UnknownNameError
from packgap.family import Family
from packgap.packing import FAMILY as PACKING
from packgap.placement import FAMILY as PLACEMENT
from packgap.placement import trace
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
    return _instance(jsonio.read(path), path)


def _instance(document: Mapping[str, Any], path: Path) -> tuple[Family[Any, Any], Any]:
    fam = family_of(document, str(path))
    return fam, _at(path, fam.instance_from_dict, document)


def _at(path: Path, build: Callable[[Mapping[str, Any]], Any], document: Mapping[str, Any]) -> Any:
    """``build(document)``, with schema problems reported against ``path``."""
    try:
        return build(document)
    except InstanceError as exc:
        raise InstanceError(str(path), exc.problems) from None


@dataclass(frozen=True)
class Document:
    """A loaded file: a family instance (``family`` set) or a cluster trace (``family`` None)."""

    kind: str
    value: Any
    family: Family[Any, Any] | None

    def summary(self) -> dict[str, Any]:
        if self.family is not None:
            return {"family": self.kind, **self.family.summary(self.value)}
        return trace.summary(self.value)


def load_document(path: Path) -> Document:
    """Any packgap data file: a family instance or a ``packgap.cluster-trace``."""
    document = jsonio.read(path)
    if document.get("schema") == trace.SCHEMA:
        version = document.get("version")
        if version != trace.VERSION:
            problem = Problem("version", f"{trace.SCHEMA} supports version {trace.VERSION}, got {version!r}")
            raise InstanceError(str(path), [problem])
        return Document("cluster-trace", _at(path, trace.from_dict, document), None)
    fam, instance = _instance(document, path)
    return Document(fam.name, instance, fam)
