"""Exact offline optimum of small sharing instances: event-driven branch and bound.

The problem is SJF-BSBF's model (section IV) offline: every job's arrival is known; a
schedule picks each job's start, its G_j GPUs (at most C jobs per GPU, eq. 9; memory fits)
and its sub-batch b on Algorithm 2's ladder B, ceil(B/2), ..., 1, without preemption or
migration (eq. 10), to minimise the sum of completion times (eq. 15).

Why branching on events suffices: with the order of all starts and finishes fixed, every
finish is an affine function of the start times (rates are piecewise constant, eqs. 5-7),
so the objective is linear over a polyhedron and an optimum sits at a vertex, where each
start equals an arrival or some finish (or another start, which recursively equals one of
those). Theorem 1 is the two-job case of this argument. So at each event time (an arrival
or a finish) the search either starts one more waiting job or advances to the next event.
Simultaneous starts are tried in every order that can matter (a job's sub-batch depends
on who is already on its GPUs); the transposition table merges orders that end in one
state. With ``every_batch`` (the default) every ladder sub-batch that fits is tried;
without it a job takes the largest that fits beside the jobs on its GPUs when it starts
(Algorithm 2's choice, as every heuristic here), a restricted class whose optimum can be
higher: a smaller sub-batch can leave room for a later partner (4 of the 10 six-job
instances of :mod:`packgap.analysis.sharing.exact_scaling`, by up to 2.2 %).

Symmetry: GPUs are identical and eq. 4 has no topology term, so a GPU is characterised by
the set of jobs it holds; an allocation is a count per such class (:mod:`packgap.models.sharing.moves`).
Within a class the GPUs are interchangeable from now on, so one representative is searched:
the lowest ids, and among empty GPUs the most recently freed first (a canonical choice that
depends on the state only, as the transposition table needs).

Order (:meth:`Search.run`): depth-first dives of :data:`DIVE` nodes and best-first stretches
(lowest bound first) of as many, in turns; each node waits under the larger of its parent's
bounds on it, so the least of them never falls. Depth first alone leaves children of the root
open, so a stopped search certified its root bound and no more; best first alone finds better
schedules late (README 12 jobs seed 2 from the local search's incumbent, 60 s: depth first
proves it in 194,223 nodes, best first only is still open after 356,177; with the turns
194,083). The measured effect on the open seeds is on the sharing page of the docs.

Pruning (each rule is switched by :class:`Rules`; the tests compare them with the search
without it):

* the node bound of :mod:`packgap.models.sharing.node_bound` against the incumbent, which starts
  as the best online heuristic; up to :data:`packgap.models.sharing.subset_bound.MAX_JOBS` jobs
  it reads a table of block optima (:func:`subset_table`, built after :data:`PROBE_NODES` nodes
  within :data:`~packgap.models.sharing.subset_bound.SHARE` of the time left; README 10 jobs x
  16 GPUs, seeds 1-10, 60 s: 7/10 proven with blocks of up to :data:`BLOCKS` jobs, 3/10 without
  the table, measured before blocks of five or six);
* dominance (:mod:`packgap.models.sharing.dominance`): no later start on GPUs idle since the
  job could have started (left shift); simultaneous starts on disjoint GPUs in one order
  only; of sub-batches alike for every later partner, the largest;
* the transposition table: two paths to one state (up to relabelling GPUs) share their
  future, so only the one with the smaller sum of completions so far goes on. The key
  holds everything the rules read, so a state's allowed futures depend on the key only.

When the search stops early (time or node limit) every node it has not explored is
bounded instead (a start by the larger of its parent's bound and its quick bound,
:meth:`NodeBound.start`; a move to the next event by its parent's node bound; after a short
grace, every child of a node by the node's bound; a waiting node by its key), so
``lower_bound`` = max(root bound, min(incumbent, open nodes' bounds)) is valid. The best
start list becomes a schedule in :mod:`packgap.models.sharing.start_list`.
"""

from __future__ import annotations

import heapq
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from packgap.models.sharing import subset_bound
from packgap.models.sharing.bound import min_solo_time
from packgap.models.sharing.dominance import ALL_RULES, Rules, left_shift_dominated, start_order_cut
from packgap.models.sharing.incumbent import improve
from packgap.models.sharing.moves import Moves, concrete
from packgap.models.sharing.node_bound import NodeBound, Running
from packgap.models.sharing.start_list import Start, schedule_of
from packgap.sharing import Perf, SharingInstance, SharingSolution
from packgap.sharing.progress import TIME_TOL, co_located_rates, replay

#: Relative tolerance of the prune: a node whose bound is within it of the incumbent is cut.
PRUNE_TOL = 1e-9

#: The search's default node limit.
MAX_NODES = 5_000_000

#: The search runs this many nodes before it builds the subset bound's table (item 4 of the
#: node bound), so that instances it proves without the table do not pay for it: README 6 jobs
#: seed 1 took 0.60 s with the table first, of which 0.5 s was the table.
PROBE_NODES = 2_000

#: The largest block of the search's own table (item 4 of the node bound), two more jobs than
#: the class bound's (:data:`packgap.models.sharing.subset_bound.SIZE`): the table is built
#: smaller blocks first within its share of the time, so the blocks it does not reach are
#: left out. README 10 jobs x 16 GPUs, seeds 1-10, 60 s: 5/10 proven with blocks of up to four,
#: 6/10 with five (seed 10 in 37.9 s), 7/10 with six (seed 6 in 21.9 s; seed 5 stopped 0.6 %
#: below its best schedule's summed completions; tables in 1.8-15 s, two cut short); 12 jobs
#: 4/10 with each (seed 2 in 35.9 / 16.1 / 11.7 s; measured).
BLOCKS = 6

#: The share of the time limit the first incumbent's local search may take at most.
LOCAL_SEARCH_SHARE = 0.1

#: After a stop, open children get their quick bounds for at most this long (s) and this
#: share of the time limit, taken from its end; then each open node's own bound stands for
#: its children.
GRACE_S = 1.0
GRACE_SHARE = 0.05


#: The nodes of each depth-first dive and of each best-first stretch (:meth:`Search.run`), and
#: the most nodes the frontier keeps, each with a copy of its state (README 10 jobs x 16 GPUs,
#: 60 s: at most 375 MB in all).
DIVE = 2_000
FRONTIER = 100_000

#: A node: (now, sum of completions so far, running, waiting, each GPU's free time, starts,
#: the job started last at ``now``), the arguments of :meth:`Search.search`.
Node = tuple[float, float, Running, list[int], list[float], list[Start], int | None]


@dataclass
class Outcome:
    """``sum_completion``: the best schedule's sum of completion times; ``lower_bound``: a
    proven bound on the non-preemptive optimum's (equal to it when ``proven``)."""

    solution: SharingSolution
    sum_completion: float
    proven: bool
    nodes: int
    root_bound: float
    lower_bound: float


class Search:
    """The search; :meth:`search` explores the subtree of one node (depth first, or its children
    onto the frontier) and keeps the best complete schedule below ``best`` (the tests call it on
    inner nodes); ``subsets``: item 4's table from the first node (None: built after
    :data:`PROBE_NODES` nodes, when due)."""

    def __init__(
        self,
        instance: SharingInstance,
        deadline: float,
        max_nodes: int,
        every_batch: bool,
        rules: Rules,
        subsets: subset_bound.SubsetBound | None = None,
    ) -> None:
        self.inst, self.perf, self.rules = instance, Perf(instance), rules
        self.ids = [j.id for j in instance.jobs]
        self.solo = [min_solo_time(instance, i) for i in range(len(instance.jobs))]
        self.node_bound = NodeBound(instance, self.perf, self.solo, strong=rules.node_bound, subsets=subsets)
        self.table_due = subsets is None and rules.subsets and 2 < len(self.ids) <= subset_bound.MAX_JOBS
        self.grace = min(GRACE_S, GRACE_SHARE * max(0.0, deadline - time.perf_counter()))
        # The grace comes out of the time limit, not on top of it: with it, 480 jobs took 21.2 s
        # of a 20 s limit's 21.5 s promise (benchmarks/time_limits.py --large).
        self.deadline, self.max_nodes = deadline - self.grace, max_nodes
        self.grace_end = math.inf
        self.best = math.inf
        self.best_starts: list[Start] = []
        self.nodes = 0
        self.stopped = False
        self.open_bound = math.inf
        self.seen: dict[tuple[object, ...], float] = {}
        self.moves = Moves(instance, self.perf, rules, every_batch, self.late)
        #: The nodes waiting for best first, and whether the search now goes depth first.
        self.frontier: list[tuple[float, int, Node]] = []
        self.depth_first = True
        self.pushed = itertools.count()
        #: The frontier's key of the node being expanded: a bound on every schedule below it.
        self.floor = -math.inf
        #: The node count at which the current dive ends (:meth:`run`).
        self.dive_end = math.inf

    def late(self) -> bool:
        """Stop past the deadline or the node limit; True once the grace for bounding the open
        children by their quick bounds is spent too (then a node's own bound covers them)."""
        clock = time.perf_counter()
        if not self.stopped and (self.nodes > self.max_nodes or clock > self.deadline):
            self.stopped = True
            self.grace_end = clock + self.grace
        return self.stopped and clock > self.grace_end

    def search(
        self,
        now: float,
        done: float,
        running: Running,
        pending: list[int],
        free: list[float],
        starts: list[Start],
        last: int | None,
    ) -> None:
        """Explore the node at ``now``; ``last``: the job started just before at ``now``."""
        self.nodes += 1
        if self.nodes == PROBE_NODES and self.table_due:
            clock = time.perf_counter()
            share = clock + subset_bound.SHARE * (self.deadline - clock)
            self.node_bound.subsets = subset_table(self.inst, share, self.rules, BLOCKS)
        self.late()
        if self.nodes > self.dive_end:
            self.depth_first, self.dive_end = False, math.inf
        holders: list[list[int]] = [[] for _ in free]
        for j, (gpus, _, _) in running.items():
            for g in gpus:
                holders[g].append(j)
        enough = math.inf if self.stopped else self.best * (1 - PRUNE_TOL) - done
        node = self.node_bound.estimate(now, running, pending, holders, enough)
        # The frontier key of the node searched below is a bound on every node under it too.
        bound = max(done + node.value, self.floor)
        if self.stopped:
            self.open_bound = min(self.open_bound, bound)
            return
        if bound >= self.best * (1 - PRUNE_TOL):
            return
        if not running and not pending:
            self.best, self.best_starts = done, list(starts)
            return
        sets = [tuple(sorted(h)) for h in holders]
        empty = sorted((g for g, h in enumerate(sets) if not h), key=lambda g: (-free[g], g))
        key: tuple[object, ...] = (
            round(now, 6),
            tuple(sorted((j, b, round(left, 6)) for j, (_, b, left) in running.items())),
            tuple(sorted(sets)),
            tuple(pending),
        )
        if self.rules.start_order:
            key += (last,)
        if self.rules.left_shift and pending:
            # Free times below every waiting job's arrival act alike in the rule (see there).
            floor = min(self.inst.jobs[j].arrival for j in pending)
            key += (tuple(round(max(free[g], floor), 6) for g in empty),)
        if self.seen.get(key, math.inf) <= done:
            return
        self.seen[key] = done
        members: dict[tuple[int, ...], list[int]] = {}
        for g in empty:
            members.setdefault((), []).append(g)
        for g, h in enumerate(sets):
            if h:
                members.setdefault(h, []).append(g)
        classes = {h: len(gs) for h, gs in members.items()}
        ready = sorted((j for j in pending if self.inst.jobs[j].arrival <= now + TIME_TOL), key=lambda j: self.solo[j])
        for j in ready:
            if self.late():
                # Checked per job too: past the grace a job whose moves are cut yields none,
                # and the loop went on through every ready job of every open ancestor.
                self.open_bound = min(self.open_bound, bound)
                return
            rest = [p for p in pending if p != j]
            alone_cut = self.rules.left_shift and left_shift_dominated(
                self.inst.jobs[j].arrival, self.inst.jobs[j].gpus, now, [free[g] for g in empty]
            )
            for taken, b in self.moves(classes, running, j):
                if self.late():
                    self.open_bound = min(self.open_bound, bound)
                    return
                if alone_cut and not any(taken):
                    continue
                if self.rules.start_order and start_order_cut(j, last, taken):
                    continue
                partners = {h for holders_of_gpu in taken for h in holders_of_gpu}
                # The child's bound: its quick bound, and this node's, which holds below it too
                # (the quick bound alone can be the lower one: it reads no frontier key and not
                # item 4's blocks of started jobs; README 10 jobs seed 1 certified its root bound
                # and no more after 60 s with it, 9.3 % of the root's gap more with both; measured).
                child = max(bound, done + self.node_bound.start(node, j, now, partners, b))
                if child >= self.best * (1 - PRUNE_TOL):
                    continue
                if self.stopped:
                    # Once stopped, a child left open is bounded, not explored.
                    self.open_bound = min(self.open_bound, child)
                    continue
                gpus = concrete(taken, members)
                running[j] = (gpus, b, float(self.inst.jobs[j].iterations))
                starts.append(Start(j, now, gpus, b))
                self.visit(child, (now, done, running, rest, free, starts, j))
                starts.pop()
                del running[j]
        if self.stopped:
            self.open_bound = min(self.open_bound, bound)
            return
        self.advance((now, done, running, pending, free, starts, last), bound)

    def visit(self, bound: float, node: Node) -> None:
        """Explore a child now (in a dive), or, in a best-first stretch, keep a copy of it on the
        frontier under ``bound`` (its parent's bound on it, never below the parent's own key)."""
        if self.depth_first:
            self.search(*node)
            return
        now, done, running, pending, free, starts, last = node
        copy = (now, done, dict(running), list(pending), list(free), list(starts), last)
        # Ties go last in, first out: depth first among equal bounds keeps the frontier small.
        heapq.heappush(self.frontier, (bound, -next(self.pushed), copy))

    def run(self, dive: float) -> None:
        """The whole search from the root, in turns: depth first for ``dive`` nodes, then best
        first (lowest bound first) for as many, then a dive below the best waiting node, and so
        on; once :data:`FRONTIER` nodes wait, depth first below each in the order of its bound.
        When a dive ends, the nodes it left open (each ancestor's children not yet explored) go
        on the frontier as the recursion unwinds. Every order explores the nodes whose bound is
        below the incumbent, so a search run to the end proves the same optimum."""
        self.dive_end = dive
        self.search(0.0, 0.0, {}, list(range(len(self.ids))), [0.0] * self.inst.cluster.gpus, [], None)
        frontier, next_dive = self.frontier, self.nodes + dive
        while frontier and not self.stopped:
            self.floor, _, node = heapq.heappop(frontier)
            if self.floor >= self.best * (1 - PRUNE_TOL):
                frontier.clear()
                break
            if len(frontier) >= FRONTIER:
                self.depth_first, self.dive_end = True, math.inf
            elif self.nodes >= next_dive:
                self.depth_first, self.dive_end, next_dive = True, self.nodes + dive, self.nodes + 2 * dive
            self.search(*node)
            self.depth_first, self.dive_end = False, math.inf
        if frontier:
            self.open_bound = min(self.open_bound, frontier[0][0])

    def advance(self, node: Node, bound: float) -> None:
        """Move to the next arrival or finish; finished jobs add their completion time."""
        now, done, running, pending, free, starts, _ = node
        future = [self.inst.jobs[j].arrival for j in pending if self.inst.jobs[j].arrival > now + TIME_TOL]
        rates = co_located_rates(self.perf, {self.ids[j]: (g, b) for j, (g, b, _) in running.items()})
        finishes = [left / rates[self.ids[j]] for j, (_, _, left) in running.items()]
        step = min([*finishes, *(a - now for a in future)], default=math.inf)
        if not math.isfinite(step):
            return
        # Land exactly on an arrival, so float round-off never leaves it in the future.
        landing = min(future, default=math.inf)
        later_now = landing if landing - now <= step else now + step
        later: Running = {}
        left_gpus: list[int] = []
        for (j, (g, b, left)), f in zip(running.items(), finishes, strict=True):
            if f <= step * (1 + 1e-12):
                done += now + f
                left_gpus.extend(g)
            else:
                later[j] = (g, b, left - rates[self.ids[j]] * step)
        later_free = list(free)
        for gpu in left_gpus:
            later_free[gpu] = later_now
        self.visit(bound, (later_now, done, later, pending, later_free, starts, None))


def subset_table(
    instance: SharingInstance, deadline: float, rules: Rules = ALL_RULES, size: int = subset_bound.SIZE
) -> subset_bound.SubsetBound:
    """Item 4's table of the node bound (:mod:`packgap.models.sharing.subset_bound`): blocks of
    at most ``size`` jobs, fewer than the instance's, each searched here over every ladder
    sub-batch with ``rules`` but no table of its own, until ``deadline``."""
    solo = [min_solo_time(instance, i) for i in range(len(instance.jobs))]
    return subset_bound.build(instance, solo, _block_solver(rules), min(size, len(instance.jobs) - 1), deadline)


def window_sums(
    instance: SharingInstance, deadline: float, size: int = subset_bound.SIZE, width: int = subset_bound.WIDTH
) -> list[tuple[list[int], float]]:
    """The blocks of :func:`packgap.models.sharing.subset_bound.windowed`, each searched here."""
    solo = [min_solo_time(instance, i) for i in range(len(instance.jobs))]
    return subset_bound.windowed(instance, solo, _block_solver(ALL_RULES), size, width, deadline)


def _block_solver(rules: Rules) -> subset_bound.BlockSolver:
    """A block's proven bound: the search over every ladder sub-batch with ``rules``, the table
    of the block's own sub-blocks as its node bound's item 4 from the first node, until the
    deadline. Without the first incumbent's local search: on blocks of up to five jobs its
    decodes took 63 % of the table's time and the searches find as good a schedule within a
    few nodes (README 10 jobs x 16 GPUs, seeds 1 and 4, blocks of up to five: the table in
    27.2 / 20.9 s with it, 12.0 / 12.7 s without, the same optima). Both changes together, the
    default blocks of up to four, seeds 1-10: 52.2 s of tables in all before, 10.3 s after,
    the same tables (measured)."""
    inner = replace(rules, subsets=False, local_search=False)

    def block(sub: SharingInstance, until: float, table: subset_bound.SubsetBound | None) -> float:
        left = None if math.isinf(until) else max(0.0, until - time.perf_counter())
        return solve(sub, None, time_limit=left, rules=inner, subsets=table).lower_bound

    return block


def solve(
    instance: SharingInstance,
    incumbent: SharingSolution | None,
    *,
    time_limit: float | None,
    max_nodes: int = MAX_NODES,
    every_batch: bool = True,
    rules: Rules = ALL_RULES,
    on_start: Callable[[], None] | None = None,
    subsets: subset_bound.SubsetBound | None = None,
    dive: float = DIVE,
) -> Outcome:
    """Branch and bound; ``proven`` when the search ran to the end (the optimum is proven);
    ``subsets``: a table of block optima of ``instance`` for item 4 of the node bound from the
    first node (then the search builds none); ``dive``: the nodes of each depth-first dive and of
    each best-first stretch between them (:meth:`Search.run`; math.inf: depth first throughout,
    0: best first only)."""
    if not dive >= 0:
        raise ValueError(f"dive is a count of search nodes, at least 0, not {dive}")
    deadline = math.inf if time_limit is None else time.perf_counter() + time_limit
    search = Search(instance, deadline, max_nodes, every_batch, rules, subsets)
    if incumbent is not None:
        search.best = sum(r.finish for r in replay(instance, incumbent, search.perf).run.records.values())
    if rules.local_search or incumbent is None:
        # Without the local search and an incumbent, its seed orders' decodes alone (no time to
        # spend): a search stopped before its first leaf still returns a schedule.
        share = math.inf if time_limit is None else LOCAL_SEARCH_SHARE * time_limit
        until = time.perf_counter() + share if rules.local_search else -math.inf
        value, found = improve(instance, search.perf, incumbent, every_batch, until)
        if value < search.best:
            search.best, search.best_starts = value, [Start(*s) for s in found]
    if on_start is not None:
        on_start()
    search.run(dive)
    root = search.node_bound.root()
    proven = not search.stopped
    lower = search.best if proven else max(root, min(search.best, search.open_bound))
    if not search.best_starts:
        assert incumbent is not None, "without an incumbent the local search's decodes give a schedule"
        return Outcome(incumbent, search.best, proven, search.nodes, root, lower)
    return Outcome(
        schedule_of(instance, search.best_starts, search.perf), search.best, proven, search.nodes, root, lower
    )
