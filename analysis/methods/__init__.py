"""Every registered method, by family then name (a plain dict: STYLE.md)."""

from __future__ import annotations

from analysis.methods import packing, placement, planning
from analysis.methods.base import Method, MethodOutput, RunContext
from packgap.errors import UnknownNameError

METHODS: dict[str, dict[str, Method]] = {}
for _module in (planning, packing, placement):
    for _method in _module.METHODS:
        METHODS.setdefault(_method.family, {})[_method.name] = _method


def method(family: str, name: str) -> Method:
    methods = METHODS.get(family, {})
    if name not in methods:
        raise UnknownNameError(f"{family} method", name, list(methods))
    return methods[name]


def resolve(family: str, names: str) -> list[Method]:
    """``"all"`` or a comma-separated list of method names of ``family``."""
    if names.strip() == "all":
        return list(METHODS.get(family, {}).values())
    return [method(family, n.strip()) for n in names.split(",") if n.strip()]


__all__ = ["METHODS", "Method", "MethodOutput", "RunContext", "method", "resolve"]
