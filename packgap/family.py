"""The contract every problem family fulfils: types, file form, one validator, one evaluator."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar


class Named(Protocol):
    @property
    def name(self) -> str: ...


InstanceT = TypeVar("InstanceT", bound=Named)
SolutionT = TypeVar("SolutionT")


@dataclass(frozen=True)
class Evaluation:
    """What the evaluator recomputes from a solution: the objective and named metrics."""

    objective: float
    metrics: Mapping[str, float]


@dataclass(frozen=True)
class Family(Generic[InstanceT, SolutionT]):
    """A problem family: its schema and the one validator and evaluator everybody uses.

    ``validate`` raises :class:`~packgap.errors.ValidationError` naming every violated rule;
    ``evaluate`` assumes a validated solution and recomputes the objective from it.
    """

    name: str
    schema: str
    version: int
    description: str
    instance_from_dict: Callable[[Mapping[str, Any]], InstanceT]
    instance_to_dict: Callable[[InstanceT], dict[str, Any]]
    solution_from_dict: Callable[[Mapping[str, Any]], SolutionT]
    solution_to_dict: Callable[[SolutionT], dict[str, Any]]
    validate: Callable[[InstanceT, SolutionT], None]
    evaluate: Callable[[InstanceT, SolutionT], Evaluation]
    summary: Callable[[InstanceT], dict[str, Any]]

    @classmethod
    def of(
        cls,
        name: str,
        description: str,
        instance: ModuleType,
        solution: ModuleType,
        *,
        validate: Callable[[InstanceT, SolutionT], None],
        evaluate: Callable[[InstanceT, SolutionT], Evaluation],
        summary: Callable[[InstanceT], dict[str, Any]],
    ) -> Family[InstanceT, SolutionT]:
        """A family from its ``instance`` module (``SCHEMA``, ``VERSION``, ``from_dict``,
        ``to_dict``) and its ``solution`` module (``from_dict``, ``to_dict``)."""
        return cls(
            name=name,
            schema=instance.SCHEMA,
            version=instance.VERSION,
            description=description,
            instance_from_dict=instance.from_dict,
            instance_to_dict=instance.to_dict,
            solution_from_dict=solution.from_dict,
            solution_to_dict=solution.to_dict,
            validate=validate,
            evaluate=evaluate,
            summary=summary,
        )
