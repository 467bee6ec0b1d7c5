"""Researchers' own methods and online policies, registered from outside the package (issue 32).

A plug-in is a module (or a ``.py`` file) that calls :func:`register_method` or
:func:`register_policy` when it is imported. packgap finds plug-ins three ways:

- installed packages name a module in the entry-point group ``packgap.methods``
  (``[project.entry-points."packgap.methods"] mine = "my_package.rules"``); the module is
  imported the first time the registry lists methods, in every process, workers included;
  an entry point that names a callable instead is imported and called with no arguments;
- ``packgap --plugin MODULE_OR_FILE COMMAND ...`` (repeatable) and :func:`load_plugins`;
- ``$PACKGAP_PLUGINS``: the same, separated by ``:``.

A plug-in method is ``function(instance, context) -> solution``: ``instance`` is the family's
instance object, ``context`` a :class:`~packgap.analysis.method.RunContext` (``context.params``
the method's parameters, ``context.options.seed`` the run's seed, ``context.time_left()`` the
seconds left of ``--time-limit``); it returns the family's solution object, its JSON document
(the ``solution`` of ``packgap solve --json``) or a full
:class:`~packgap.analysis.method.MethodOutput` (a method that proves a bound). The family's
validator checks the answer and its evaluator scores it, as for every built-in method.

Online policies (``packgap simulate``) have the interface of packgap's own:

- ``sharing``: ``function(instance) -> SharingSolution`` (or its document): the whole online
  schedule of a :class:`~packgap.sharing.SharingInstance`, as ``fifo`` and ``sjf-bsbf`` return it;
- ``placement``: ``function(round, seed) -> PlacementSolution`` (or its document): the GPUs of
  each job of one scheduling round (a :class:`~packgap.placement.PlacementInstance` of the free
  GPUs and the scheduled jobs), as PAL's ``pal(round, seed)``; ``sticky=True`` keeps a job's
  GPUs across rounds, as Tiresias' packed-sticky policy does;
- ``packing``: ``function(view) -> [Start, ...]``: a re-planning policy of
  :func:`packgap.packing.online.simulate` (a ``View`` of the waiting queue and free GPUs at
  ``view.now``; each ``Start`` starts one or two waiting jobs on free GPUs of one type), as a
  ``packer+planner`` pipeline online.

Every result row of a plug-in records where it came from: solver ``plugin:MODULE`` (the file
path for a ``.py`` file) and as solver version the distribution's version, the module's
``__version__``, or for a file the first 12 hex digits of its SHA-256. Plug-ins are listed
beside packgap's own methods (``packgap methods``, ``--methods all``) and never join a
reproduction: those name their methods and policies.

A sweep's workers, local processes or Dask workers, load the plug-ins of their parent by name
(the modules and files of ``--plugin``, ``$PACKGAP_PLUGINS`` and :func:`load_plugins`, plus the
entry points), so nothing depends on a forked copy of the parent; a Dask worker on another
machine needs the same files or packages there. A method registered only in a notebook or a
script's ``__main__`` runs in ``solve`` and ``compare`` but not in a sweep's workers.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import os
import sys
import traceback
import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib.metadata import PackageNotFoundError, entry_points, packages_distributions, version
from pathlib import Path
from typing import Any

from packgap.analysis.method import Method, MethodOutput, RunContext
from packgap.errors import PackgapError, UnknownNameError
from packgap.result import Status

#: Entry-point group of installed plug-ins.
GROUP = "packgap.methods"
#: Environment variable naming plug-in modules or files, separated by ``:``.
ENV = "PACKGAP_PLUGINS"
#: Families with an online simulator that takes plug-in policies (module docstring).
POLICY_FAMILIES = ("sharing", "placement", "packing")
#: Parameter values a plug-in may declare (they are written into every result row).
PARAM_TYPES = (bool, int, float, str, type(None))


@dataclass(frozen=True)
class Origin:
    """Where a plug-in came from: a module name or a ``.py`` path, and its version."""

    module: str
    version: str

    @property
    def solver(self) -> str:
        return f"plugin:{self.module}"


@dataclass(frozen=True)
class Policy:
    """A registered online policy of ``family`` (module docstring for each family's interface)."""

    family: str
    name: str
    function: Callable[..., Any]
    description: str
    origin: Origin
    sticky: bool = False


@dataclass
class _Registered:
    methods: dict[str, dict[str, Method]] = field(default_factory=dict)
    policies: dict[str, dict[str, Policy]] = field(default_factory=dict)
    origins: dict[tuple[str, str], Origin] = field(default_factory=dict)
    #: Modules and files loaded by name, in order: what a sweep's workers load again.
    specs: list[str] = field(default_factory=list)
    #: Module name of each plug-in file -> its origin.
    files: dict[str, Origin] = field(default_factory=dict)


_REGISTERED = _Registered()


def _origin(function: Callable[..., Any]) -> Origin:
    module = getattr(function, "__module__", None) or "__main__"
    if module in _REGISTERED.files:
        return _REGISTERED.files[module]
    top = module.split(".")[0]
    for dist in _distributions().get(top, []):
        try:
            return Origin(module, version(dist))
        except PackageNotFoundError:
            continue
    own = getattr(sys.modules.get(module), "__version__", None)
    return Origin(module, str(own) if own is not None else "unversioned")


@functools.cache
def _distributions() -> Mapping[str, list[str]]:
    return packages_distributions()


def _check_name(kind: str, family: str, name: str, taken: Iterable[str]) -> None:
    if not isinstance(name, str) or not name.strip() or "," in name or name.strip() != name:
        raise PackgapError(f"{kind} of {family}: name must be a non-empty string without commas, got {name!r}")
    if name == "all" or name in taken:
        raise PackgapError(f"{kind} {name!r} of {family} is taken by packgap's own (choose another name)")


def _check_params(name: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    if params is None:
        return {}
    if not isinstance(params, Mapping):
        raise PackgapError(f"method {name!r}: params must map parameter names to default values")
    for key, value in params.items():
        if not isinstance(key, str) or not isinstance(value, PARAM_TYPES):
            raise PackgapError(
                f"method {name!r}: parameter {key!r} must have a bool, int, float, str or None default, got {value!r}"
            )
    return dict(params)


def _registrar(
    kind: str,
    family: str,
    name: str,
    description: str,
    build: Callable[[Callable[..., Any], Origin, str], Any],
    function: Callable[..., Any] | None,
) -> Callable[..., Any]:
    """Register ``build(function, origin, description)`` as the ``kind`` ``name`` of ``family`` now,
    or a decorator that does it (``function`` None). A name registered again by the same module
    (a plug-in loaded twice) replaces its entry; by another module, it is an error naming both."""
    tables = _REGISTERED.methods if kind == "method" else _REGISTERED.policies

    def register(given: Callable[..., Any]) -> Callable[..., Any]:
        if not callable(given):
            raise PackgapError(f"{kind} {name!r} of {family}: expected a function, got {given!r}")
        origin = _origin(given)
        table = tables.setdefault(family, {})
        before = _REGISTERED.origins.get((f"{kind}:{family}", name))
        if name in table and before is not None and before.module != origin.module:
            raise PackgapError(f"{kind} {name!r} of {family} is registered by {before.module} and {origin.module}")
        _REGISTERED.origins[(f"{kind}:{family}", name)] = origin
        text = description or (given.__doc__ or "").strip().split("\n")[0] or f"plug-in of {origin.module}"
        table[name] = build(given, origin, text)
        return given

    return register if function is None else register(function)


def register_method(
    family: str,
    name: str,
    function: Callable[[Any, RunContext], Any] | None = None,
    *,
    params: Mapping[str, Any] | None = None,
    description: str = "",
) -> Callable[..., Any]:
    """Register ``function(instance, context)`` as method ``name`` of ``family`` (module
    docstring); without ``function``, a decorator. ``params`` declares the method's parameters
    and their defaults (``--param NAME=VALUE`` and a sweep spec's ``params`` set them; an
    unknown or mistyped one fails as for every method). Returns ``function``."""
    from packgap.analysis import registry

    kit = registry.kit(family)
    _check_name("method", family, name, (m.name for m in kit.methods))
    defaults = _check_params(name, params)

    def build(given: Callable[..., Any], origin: Origin, text: str) -> Method:
        run = functools.partial(_run_method, family, given, origin)
        return Method(family, name, text, run, defaults=defaults, plugin=origin.module)

    return _registrar("method", family, name, description, build, function)


def register_policy(
    family: str,
    name: str,
    function: Callable[..., Any] | None = None,
    *,
    description: str = "",
    sticky: bool = False,
) -> Callable[..., Any]:
    """Register ``function`` as online policy ``name`` of ``family`` for ``packgap simulate``
    (the interfaces are in the module docstring); without ``function``, a decorator.
    ``sticky`` (placement only): the simulator keeps a placed job's GPUs until it ends."""
    if family not in POLICY_FAMILIES:
        raise UnknownNameError("family with plug-in policies", family, list(POLICY_FAMILIES))
    if sticky and family != "placement":
        raise PackgapError(f"policy {name!r}: sticky applies to placement policies only")
    _check_name("policy", family, name, builtin_policies(family))

    def build(given: Callable[..., Any], origin: Origin, text: str) -> Policy:
        return Policy(family, name, given, text, origin, sticky)

    return _registrar("policy", family, name, description, build, function)


def builtin_policies(family: str) -> tuple[str, ...]:
    """The names of packgap's own online policies of ``family`` (a plug-in takes none of them)."""
    from packgap.analysis import registry

    sim = registry.kit(family).simulation
    found: tuple[str, ...] = () if sim is None else sim.policies
    return found


def as_solution(family: str, answer: Any) -> Any:
    """A plug-in's answer as the family's solution object: a document is read by the family's
    reader (a bad field fails with its path), an object is kept."""
    from packgap.analysis import registry

    if isinstance(answer, Mapping):
        return registry.family(family).solution_from_dict(answer)
    return answer


def _run_method(family: str, function: Callable[..., Any], origin: Origin, instance: Any, ctx: RunContext) -> Any:
    answer = function(instance, ctx)
    if isinstance(answer, MethodOutput):
        if answer.solver == "packgap":
            answer = replace(answer, solver=origin.solver, solver_version=origin.version)
        return answer
    if answer is None:
        raise PackgapError(f"plug-in {origin.module} returned no solution")
    solution = as_solution(family, answer)
    return MethodOutput(solution, Status.FEASIBLE, solver=origin.solver, solver_version=origin.version)


def load_plugins(*specs: str) -> list[str]:
    """Import each plug-in module (a dotted name) or ``.py`` file, once per process; the names
    are kept for a sweep's workers. Returns the specs loaded, files as absolute paths."""
    loaded = []
    for spec in specs:
        spec = spec.strip()
        if not spec:
            continue
        key = _load_one(spec)
        if key not in _REGISTERED.specs:
            _REGISTERED.specs.append(key)
        loaded.append(key)
    return loaded


def _is_file(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec or "/" in spec


def _load_one(spec: str) -> str:
    if not _is_file(spec):
        if spec not in sys.modules:
            try:
                importlib.import_module(spec)
            except ImportError as exc:
                raise PackgapError(f"plug-in {spec!r} cannot be imported: {exc}") from exc
        return spec
    path = Path(spec).expanduser().resolve()
    if not path.is_file():
        raise PackgapError(f"plug-in file {spec} does not exist")
    name = "packgap_plugin_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return str(path)
    source = path.read_bytes()
    _REGISTERED.files[name] = Origin(str(path), "sha256:" + hashlib.sha256(source).hexdigest()[:12])
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None or module_spec.loader is None:
        raise PackgapError(f"plug-in file {spec} cannot be imported")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except PackgapError:
        del sys.modules[name]
        raise
    except Exception as exc:
        del sys.modules[name]
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(path)]
        at = f" (line {frames[-1].lineno})" if frames else ""
        raise PackgapError(f"plug-in file {spec} failed{at}: {type(exc).__name__}: {exc}") from exc
    return str(path)


def environment_specs() -> list[str]:
    """The plug-ins ``$PACKGAP_PLUGINS`` names."""
    return [s for s in os.environ.get(ENV, "").split(":") if s.strip()]


class PluginWarning(UserWarning):
    """An installed plug-in (entry point) that cannot be loaded: skipped, so that one broken
    package leaves packgap usable; the CLI prints it."""


@functools.cache
def _entry_points_loaded() -> bool:
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            found = point.load()
            if callable(found):
                found()
        except Exception as exc:
            message = f"plug-in entry point {point.name} = {point.value} skipped: {type(exc).__name__}: {exc}"
            warnings.warn(message, PluginWarning, stacklevel=1)
    return True


def ensure_loaded() -> None:
    """The installed plug-ins (entry points, once per process) and those of ``$PACKGAP_PLUGINS``."""
    _entry_points_loaded()
    load_plugins(*environment_specs())


def loaded_specs() -> tuple[str, ...]:
    """The modules and files loaded by name: a sweep's workers load them again."""
    return tuple(_REGISTERED.specs)


def methods(family: str) -> dict[str, Method]:
    """The plug-in methods of ``family`` by name, in registration order."""
    ensure_loaded()
    return dict(_REGISTERED.methods.get(family, {}))


def policies(family: str) -> dict[str, Policy]:
    """The plug-in online policies of ``family`` by name, in registration order."""
    ensure_loaded()
    return dict(_REGISTERED.policies.get(family, {}))


def policy(family: str, name: str) -> Policy | None:
    return policies(family).get(name)
