"""The solver-neutral matrix layer: linear and mixed-integer programs as sparse arrays, handed
to any back-end of :mod:`packgap.solvers.catalogue` through that solver's own API.

A program is

    min  cost @ x + offset   s.t.  row_lower <= A x <= row_upper,  col_lower <= x <= col_upper,

with ``x[i]`` integer where ``integer[i]``, ``A`` in compressed-sparse-column form (Pyomo costs
about 17 us per nonzero to build and hand over, DESIGN.md; arrays reach a solver in
milliseconds). Models built column by column (column generation) use :func:`open_model`: rows
declared once, columns added in batches, re-solved after each batch. HiGHS keeps one instance
and restarts from its last basis (:class:`packgap.solvers.highspy_lp.HighsModel`); every other
back-end gets the whole program again at each solve (:class:`ArrayModel`, one function per
back-end: ``solve_arrays``).

Conventions of every back-end: minimisation; row duals ``y`` and reduced costs
``c - A^T y`` as HiGHS reports them (a binding ``<=`` row has ``y <= 0``). The duals are
floating-point numbers from a possibly unfinished solve; a caller that needs a certified bound
recomputes it from them (weak duality), it never trusts ``objective``.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from packgap.result import Status
from packgap.solvers import catalogue
from packgap.solvers.outcome import SolveOptions, SolverOutcome, status_from_gap


@dataclass(frozen=True)
class Columns:
    """A batch of columns in CSC form: ``starts[i]:starts[i + 1]`` indexes column i's entries."""

    cost: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    starts: np.ndarray
    rows: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.cost)


@dataclass(frozen=True)
class ArrayMip:
    """A MIP in column-wise sparse form: column ``i``'s entries are ``index[start[i]:start[i+1]]``
    (row numbers) with coefficients ``value[start[i]:start[i+1]]``."""

    cost: np.ndarray
    col_lower: np.ndarray
    col_upper: np.ndarray
    integer: np.ndarray
    start: np.ndarray
    index: np.ndarray
    value: np.ndarray
    row_lower: np.ndarray
    row_upper: np.ndarray
    offset: float = 0.0

    @property
    def num_col(self) -> int:
        return len(self.cost)

    @property
    def num_row(self) -> int:
        return len(self.row_lower)

    @property
    def nonzeros(self) -> int:
        return len(self.value)

    def csr(self) -> Any:
        """The constraint matrix as a SciPy CSR array (rows one by one, for row-wise APIs)."""
        from scipy.sparse import csc_array

        return csc_array((self.value, self.index, self.start), shape=(self.num_row, self.num_col)).tocsr()


@dataclass(frozen=True)
class LpSolution:
    """One solve: ``x`` (None without a feasible point), row duals ``y`` and reduced costs
    ``dj`` (None for a MIP or without a dual point), the MIP's dual bound."""

    status: Status
    objective: float | None
    x: np.ndarray | None
    y: np.ndarray | None
    dj: np.ndarray | None
    mip_bound: float | None
    wall_s: float
    message: str


@dataclass(frozen=True)
class MipSolution:
    """The outcome and, when the solver has an incumbent, its column values."""

    outcome: SolverOutcome
    values: np.ndarray | None


class LpModel(Protocol):
    """A model with fixed rows, grown by :meth:`add_columns` and solved repeatedly."""

    columns: int
    integer: bool

    def add_columns(self, cols: Columns) -> None: ...

    def set_integer(self, integer: bool | np.ndarray) -> None: ...

    def set_probing(self, on: bool) -> None: ...

    def set_offset(self, offset: float) -> None: ...

    def set_start(self, x: np.ndarray) -> None: ...

    def solve(self, time_limit: float | None, warm: bool = True) -> LpSolution: ...


def open_model(row_lower: np.ndarray, row_upper: np.ndarray, options: SolveOptions) -> LpModel:
    """An empty model with these rows on ``options.solver``."""
    catalogue.require(options.solver)
    if options.solver == "highs":
        from packgap.solvers.highspy_lp import HighsModel

        return HighsModel(row_lower, row_upper, options)
    return ArrayModel(row_lower, row_upper, options)


@dataclass
class ArrayModel:
    """:class:`LpModel` for a back-end without a model kept between solves: the columns are
    kept here and the whole program goes to the back-end's ``solve_arrays`` at each solve
    (``warm`` has no effect; probing is HiGHS's presolve option, kept for HiGHS only)."""

    row_lower: np.ndarray
    row_upper: np.ndarray
    options: SolveOptions
    batches: list[Columns] = field(default_factory=list)
    mask: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    offset: float = 0.0
    start: np.ndarray | None = None
    columns: int = 0
    integer: bool = False

    def add_columns(self, cols: Columns) -> None:
        if len(cols):
            self.batches.append(cols)
            self.mask = np.concatenate([self.mask, np.zeros(len(cols), dtype=bool)])
            self.columns += len(cols)

    def set_integer(self, integer: bool | np.ndarray) -> None:
        self.mask = np.broadcast_to(np.asarray(integer, dtype=bool), (self.columns,)).copy()
        self.integer = bool(self.mask.any())

    def set_probing(self, on: bool) -> None:
        del on

    def set_offset(self, offset: float) -> None:
        self.offset = float(offset)

    def set_start(self, x: np.ndarray) -> None:
        self.start = np.asarray(x, dtype=float)

    def program(self) -> ArrayMip:
        """The columns added so far as one program."""
        b = self.batches

        def glue(name: str, kind: type = float) -> np.ndarray:
            return np.concatenate([np.zeros(0, dtype=kind), *(np.asarray(getattr(c, name), dtype=kind) for c in b)])

        ends = np.cumsum([int(c.starts[-1]) for c in b], dtype=np.int64)
        shifts = np.concatenate([[0], ends[:-1]]).astype(np.int64)
        starts = [np.asarray(c.starts[1:], dtype=np.int64) + s for c, s in zip(b, shifts, strict=True)]
        return ArrayMip(
            glue("cost"),
            glue("lower"),
            glue("upper"),
            self.mask,
            np.concatenate([np.zeros(1, dtype=np.int64), *starts]),
            glue("rows", np.int64),
            glue("values"),
            np.asarray(self.row_lower, dtype=float),
            np.asarray(self.row_upper, dtype=float),
            self.offset,
        )

    def solve(self, time_limit: float | None, warm: bool = True) -> LpSolution:
        del warm
        backend = importlib.import_module(catalogue.BACKENDS[self.options.solver].module)
        solved: LpSolution = backend.solve_arrays(self.program(), self.options, time_limit, self.start)
        return solved


def solve_mip(mip: ArrayMip, options: SolveOptions, start: np.ndarray | None = None) -> MipSolution:
    """Solve ``mip`` on ``options.solver``; the bound is the solver's dual bound (the objective
    itself for an LP solved to optimality); ``wall_s`` includes handing the model over."""
    began = time.perf_counter()
    model = open_model(mip.row_lower, mip.row_upper, options)
    model.add_columns(Columns(mip.cost, mip.col_lower, mip.col_upper, mip.start, mip.index, mip.value))
    model.set_integer(mip.integer)
    model.set_offset(mip.offset)
    if start is not None:
        model.set_start(start)
    solved = model.solve(options.time_limit)
    bound = solved.mip_bound
    if not mip.integer.any() and solved.status == Status.OPTIMAL:
        bound = solved.objective
    status = solved.status
    if status == Status.OPTIMAL and options.mip_gap > 0:
        status = status_from_gap(solved.objective, bound)
    wall = time.perf_counter() - began
    outcome = SolverOutcome(
        status, solved.objective, bound, wall, options.solver, catalogue.version(options.solver), solved.message
    )
    return MipSolution(outcome, solved.x)
