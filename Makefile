# cfmem: `make demo` runs the pipeline on a bundled example, `make test` runs every test.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
DEMO_MODEL ?= examples/wakeword.mlir
OUT    := out

.PHONY: demo test bench mutation clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,mlir,torch,tflite]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/lit -q lit_tests
	$(BIN)/python -m pytest -n auto --dist loadgroup

demo: $(STAMP)
	@mkdir -p $(OUT)
	@echo "== 1. DMA insertion, memory planning, the DMA hazard check and lowering to one byte arena, in xdsl-opt"
	$(BIN)/xdsl-opt $(DEMO_MODEL) -p 'nn-insert-dma,nn-plan-memory,nn-check-dma' -o $(OUT)/planned.mlir
	$(BIN)/xdsl-opt $(OUT)/planned.mlir -p 'nn-lower-to-memref' -o $(OUT)/flat.mlir
	@grep -m1 -o 'cfmem.arena_size = [0-9]* : i64, cfmem.lower_bound = [0-9]* : i64' $(OUT)/flat.mlir
	@echo "== 2. the flat module, run on a real byte arena with ownership checks, computes what the original does"
	$(BIN)/cfmem run $(DEMO_MODEL) --seed 0 -o $(OUT)/original.npz
	$(BIN)/cfmem run $(OUT)/flat.mlir --seed 0 -o $(OUT)/flat.npz
	$(BIN)/python -c "import numpy as n; a=n.load('$(OUT)/original.npz'); b=n.load('$(OUT)/flat.npz'); assert all((a[k]==b[k]).all() for k in a.files); print('outputs identical:', ', '.join(a.files))"
	@echo "== 3. on inputs taking every branch: reference vs flat arena vs upstream MLIR (linalg, JIT)"
	$(BIN)/cfmem check-mlir $(DEMO_MODEL)
	@echo "== 4. memory report: every strategy under every control-flow mode, with the lower bound"
	$(BIN)/cfmem report $(DEMO_MODEL) --compare
	@echo "== 5. where each tensor lives, and sync vs ping-pong DMA on the default chip model"
	$(BIN)/cfmem report $(DEMO_MODEL) --timing --png $(OUT)/plan.png --timeline $(OUT)/dma.png | tail -8
	@echo "== 6. a 256 KiB chip: bigfc's 750 KiB weight streamed in slices computed by an scf.for, then run with the budget enforced"
	$(BIN)/cfmem compile examples/bigfc.mlir --budget 262144 -o $(OUT)/bigfc_flat.mlir
	$(BIN)/cfmem run $(OUT)/bigfc_flat.mlir --seed 0
	@echo "== 7. loops: a recurrent keyword spotter (an if in a loop, a while loop in an if), every iteration checked"
	$(BIN)/cfmem check-mlir examples/seqkws.mlir
	$(BIN)/cfmem report examples/seqkws.mlir --timing --loop-trips 32 | tail -5
	@echo "== 8. plain MLIR: a bufferized linalg program with an if in a for, planned into one arena, run before and after"
	$(BIN)/xdsl-opt examples/upstream/if_in_for.mlir -p 'memref-plan-arena' | grep -m1 -o 'cfmem.arena_size = [0-9]* : i64, cfmem.lower_bound = [0-9]* : i64'
	$(BIN)/cfmem check-arena examples/upstream/if_in_for.mlir

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python bench/examples_report.py
	$(BIN)/python bench/differential.py
	$(BIN)/python bench/real_models.py
	$(BIN)/python bench/zoo.py
	$(BIN)/python bench/fit_chip.py
	$(BIN)/python bench/loops.py
	$(BIN)/python bench/limits.py
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/plan_benchmarks.py
	$(BIN)/python bench/plan_scaling.py
	$(BIN)/python bench/plan_arena.py
	$(BIN)/python bench/onnx_backend.py
	$(BIN)/python bench/tflm.py

# Mutation testing of the checkers, then of the other modules under [tool.mutmut] in
# pyproject.toml; results are kept in mutants/ and only changed functions rerun, then the
# survivors once more (tests added since their last run may kill them).
# `make mutation MODULE=cfmem/passes/place.py` (one or more paths) runs those modules only;
# the report keeps every other module's last results (bench/results/mutation.json).
MUTATION_JOBS ?= 2
# A module's mutants first run against its tests that take at most this many seconds;
# the survivors then run against all of them.
MUTATION_QUICK_SECONDS ?= 2
# MUTATION_SECOND_ROUND=no stops after the quick round (its survivors are reported as such).
MUTATION_SECOND_ROUND ?= yes
MUTATION_CHECKERS := 'cfmem.planning.verify.*' 'cfmem.dma.hazards.*' 'cfmem.dma.flat_hazards.*' 'cfmem.interp.flat.*' 'cfmem.weight_file.*'
MODULE ?=
mutation: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[mutation]'
ifeq ($(strip $(MODULE)),)
	$(BIN)/mutmut run --max-children $(MUTATION_JOBS) $(MUTATION_CHECKERS)
	$(BIN)/mutmut run --max-children $(MUTATION_JOBS)
	$(BIN)/mutmut run --max-children $(MUTATION_JOBS) $$($(BIN)/python bench/mutation_report.py --survivors)
else
	set -f; patterns="$$($(BIN)/python bench/mutation_report.py --patterns $(MODULE))" && \
		CFMEM_MUTATION_MODULES='$(MODULE)' CFMEM_MUTATION_QUICK_SECONDS=$(MUTATION_QUICK_SECONDS) \
		$(BIN)/mutmut run --max-children $(MUTATION_JOBS) $$patterns
	survivors="$$($(BIN)/python bench/mutation_report.py --survivors $(MODULE))" && \
		if [ -n "$$survivors" ] && [ "$(MUTATION_SECOND_ROUND)" = yes ]; then CFMEM_MUTATION_MODULES='$(MODULE)' $(BIN)/mutmut run --max-children $(MUTATION_JOBS) $$survivors; fi
endif
	CFMEM_MUTATION_MODULES='$(MODULE)' CFMEM_MUTATION_SECOND_ROUND=$(MUTATION_SECOND_ROUND) $(BIN)/python bench/mutation_report.py

clean:
	rm -rf $(OUT) lit_tests/**/Output
