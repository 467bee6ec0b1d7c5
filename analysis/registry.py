"""The registry of family kits: the one place that lists the families packgap knows.

Adding a family is one folder per layer (``packgap/F``, ``models/F``, ``heuristics/F``,
``instances/F``, ``analysis/F``) plus one line in :data:`KIT_MODULES`. Everything generic
(the CLI, ``methods``, ``instances generate/from-trace/show``, ``compare``, ``sweep``,
``simulate``, ``report``, :func:`packgap.solve`) iterates over :func:`kits`.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from packgap import jsonio
from packgap.analysis import plugins
from packgap.analysis.kit import DocumentKind, FamilyKit, Generator, TraceBuilder
from packgap.analysis.method import Method
from packgap.errors import InstanceError, PackgapError, Problem, UnknownNameError
from packgap.family import Family

T = TypeVar("T")

#: One line per family: the module whose ``KIT`` is the family's :class:`FamilyKit`.
KIT_MODULES: tuple[str, ...] = (
    "packgap.analysis.planning",
    "packgap.analysis.packing",
    "packgap.analysis.placement",
    "packgap.analysis.calibration",
    "packgap.analysis.sharing",
)


@functools.cache
def kits() -> dict[str, FamilyKit]:
    """Every family's kit by family name, in registry order."""
    loaded = [importlib.import_module(m).KIT for m in KIT_MODULES]
    return {k.name: k for k in loaded}


def _named(kind: str, found: Mapping[str, T], name: str) -> T:
    """``found[name]``, or an error naming the valid names."""
    if name not in found:
        raise UnknownNameError(kind, name, list(found))
    return found[name]


def kit(name: str) -> FamilyKit:
    return _named("family", kits(), name)


def family(name: str) -> Family[Any, Any]:
    return kit(name).family


def methods(family_name: str) -> dict[str, Method]:
    """packgap's own methods of the family, then its plug-ins' (:mod:`packgap.analysis.plugins`)."""
    return {**{m.name: m for m in kit(family_name).methods}, **plugins.methods(family_name)}


def method(family_name: str, name: str) -> Method:
    return _named(f"{family_name} method", methods(family_name), name)


def resolve(family_name: str, names: str) -> list[Method]:
    """``"all"`` (plug-ins included) or a comma-separated list of method names of ``family_name``."""
    if names.strip() == "all":
        return list(methods(family_name).values())
    chosen = [method(family_name, n.strip()) for n in names.split(",") if n.strip()]
    if not chosen:
        raise PackgapError(f"methods: none given (name M1,M2,... or all; see `packgap methods {family_name}`)")
    return chosen


def generators() -> dict[str, Generator]:
    """Every generator of every kit, by name (names are unique across kits)."""
    return {g.name: g for k in kits().values() for g in k.generators}


def generator(name: str) -> Generator:
    return _named("generator", generators(), name)


def trace_builders() -> dict[str, TraceBuilder]:
    return {b.name: b for k in kits().values() for b in k.trace_builders}


def trace_builder(name: str) -> TraceBuilder:
    return _named("trace kind", trace_builders(), name)


@dataclass(frozen=True)
class Document:
    """A loaded file: a family instance (``family`` set) or another kind a kit declares."""

    kind: str
    value: Any
    kit: FamilyKit
    family: Family[Any, Any] | None

    def summary(self) -> dict[str, Any]:
        if self.family is not None:
            return {"family": self.kind, **self.family.summary(self.value)}
        return self._document_kind().summary(self.value)

    def to_dict(self) -> dict[str, Any]:
        if self.family is not None:
            return self.family.instance_to_dict(self.value)
        return self._document_kind().to_dict(self.value)

    def _document_kind(self) -> DocumentKind:
        return next(d for d in self.kit.documents if d.kind == self.kind)


def to_document(kind: str, value: Any) -> dict[str, Any]:
    """The file form of an instance of family ``kind`` or of a document of that kind."""
    for k in kits().values():
        if k.name == kind:
            return k.family.instance_to_dict(value)
        for d in k.documents:
            if d.kind == kind:
                return d.to_dict(value)
    raise UnknownNameError("document kind", kind, document_kinds())


def document_kinds() -> list[str]:
    return [kind for k in kits().values() for kind in (k.name, *(d.kind for d in k.documents))]


def read_document(document: Mapping[str, Any], where: str) -> Document:
    """Dispatch on the document's ``schema`` and ``version``; every schema problem at once."""
    schema, version = document.get("schema"), document.get("version")
    for k in kits().values():
        fam = k.family
        kinds: list[tuple[str, str, int, Any, Family[Any, Any] | None]] = [
            (fam.name, fam.schema, fam.version, fam.instance_from_dict, fam)
        ]
        kinds += [(d.kind, d.schema, d.version, d.from_dict, None) for d in k.documents]
        for kind, kind_schema, kind_version, build, owner in kinds:
            if kind_schema != schema:
                continue
            if version != kind_version:
                problem = Problem("version", f"{schema} supports version {kind_version}, got {version!r}")
                raise InstanceError(where, [problem])
            try:
                value = build(document)
            except InstanceError as exc:
                raise InstanceError(where, exc.problems) from None
            return Document(kind, value, k, owner)
    known = ", ".join(s for k in kits().values() for s in (k.family.schema, *(d.schema for d in k.documents)))
    raise InstanceError(where, [Problem("schema", f"unknown schema {schema!r} (known: {known})")])


def load_document(path: Path) -> Document:
    """Any packgap data file: a family instance or another document kind of a kit."""
    return read_document(jsonio.read(path), str(path))


def load_instance(path: Path) -> tuple[Family[Any, Any], Any]:
    """A family instance file (not a trace); every schema problem is reported at once."""
    doc = load_document(path)
    if doc.family is None:
        raise PackgapError(f"{path} is a {doc.kind}, not an instance of a family")
    return doc.family, doc.value
