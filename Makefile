# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo docs test test-repeat test-slow bench bench-check bench-baseline solver-profiles lint clean figures figures-quick

# The example plug-in package (examples/packgap-example) is installed too: the tests use its entry point.
$(STAMP): pyproject.toml examples/packgap-example/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/pip install --quiet --no-build-isolation --no-deps -e examples/packgap-example
	touch $(STAMP)

# One small instance per family: the papers' heuristics, an exact method, the certified gaps.
demo: $(STAMP)
	$(BIN)/packgap demo

# The pytest run builds the documentation site too (tests/test_docs.py) and executes the tutorial.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest

# The default suite REPEAT times, each run beside a second copy of itself (tests/repeat.py): a
# test that fails under load is flaky. About twice a suite's time per run; a subset with
# REPEAT_ARGS="tests/test_deadline.py tests/analysis".
REPEAT ?= 10
test-repeat: $(STAMP)
	$(BIN)/python -m tests.repeat --runs $(REPEAT) -- $(REPEAT_ARGS)

# The documentation site into site/ (MkDocs, warnings are errors); sources in docs/.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# README numbers that take minutes to recompute (tests marked slow).
test-slow: $(STAMP)
	$(BIN)/pytest -m slow

# The large set, SCIP's cases of every exact model among them (benchmarks/test_solvers_bench.py).
bench: $(STAMP)
	PACKGAP_BENCH=large $(BIN)/pytest benchmarks --benchmark-enable --benchmark-autosave -o addopts="--import-mode=importlib" -q

# The small benchmark set (each case a few seconds at most), timed and compared to the committed
# baseline as ratios to a calibration loop; see benchmarks/check.py.
BENCH_RUN = $(BIN)/pytest benchmarks -o addopts="--import-mode=importlib" -q -p no:warnings --benchmark-enable \
	--benchmark-max-time=0.5 --benchmark-min-rounds=3 --benchmark-json=.benchmarks/check.json

# A failed check runs the set once more and scores each case at its faster median (benchmarks/check.py).
bench-check: $(STAMP)
	mkdir -p .benchmarks
	$(BENCH_RUN)
	$(BIN)/python benchmarks/check.py .benchmarks/check.json benchmarks/baseline.json || { \
		$(BENCH_RUN:check.json=check2.json) && \
		$(BIN)/python benchmarks/check.py .benchmarks/check.json benchmarks/baseline.json --again .benchmarks/check2.json; }

bench-baseline: $(STAMP)
	mkdir -p .benchmarks
	$(BENCH_RUN)
	$(BIN)/python benchmarks/check.py .benchmarks/check.json benchmarks/baseline.json --write

# Every exact LP / MILP model on every installed solver: performance profiles and solved counts.
solver-profiles: $(STAMP)
	$(BIN)/python -m benchmarks.solver_profiles --out solver-bench --time-limit 10

figures: $(STAMP)
	$(BIN)/packgap figures --all --workers 2 --out figures

figures-quick: $(STAMP)
	$(BIN)/packgap figures --all --quick --workers 2 --out figures-quick

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache .benchmarks figures-quick solver-bench
