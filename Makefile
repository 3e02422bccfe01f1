# cfmem: `make demo` runs the pipeline on a bundled example, `make test` runs every test.
# Both create .venv and install what they need on a fresh machine.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
DEMO_MODEL ?= examples/fusiondetect.mlir
OUT    := out

.PHONY: demo test pytest lit clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/lit -q lit_tests
	$(BIN)/python -m pytest

demo: $(STAMP)
	@mkdir -p $(OUT)
	@echo "== $(DEMO_MODEL): parse, verify and annotate op costs with xdsl-opt"
	$(BIN)/xdsl-opt $(DEMO_MODEL) -p nn-annotate-costs -o $(OUT)/costs.mlir
	@grep -m1 'cfmem.total_macs' $(OUT)/costs.mlir | sed 's/.*attributes/  function totals:/; s/ {$$//'
	@echo "== run with the reference interpreter on seeded inputs"
	$(BIN)/cfmem run $(DEMO_MODEL) --seed 0 -o $(OUT)/outputs.npz

clean:
	rm -rf $(OUT) lit_tests/**/Output
