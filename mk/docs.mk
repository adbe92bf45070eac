# The generated documents regenerated from their committed data and compared
# byte for byte: each generator's --check writes nothing and fails (with a
# diff) when the committed page is not what its JSON gives. Python's standard
# library only (no plot is drawn); a few seconds.
#   docs/hardware.md                      hw/synth/make_doc.py      hw/synth/results/*.json
#   docs/reproduction-asic-2009.md        hw/synth/make_study.py    hw/synth/results/*.json
#   docs/reproduction-finalists-2012.md   bench/finalists/report.py bench/results/finalists-*.json
#   docs/reproduction-gpu-2011.md         bench/tree2011/make_doc.py bench/results/tree2011-*.json, gpu-h200-*.json
.PHONY: test-docs

test-docs:
	$(PYTHON) hw/synth/make_doc.py --check
	$(PYTHON) hw/synth/make_study.py --check
	$(PYTHON) bench/finalists/report.py --check docs/reproduction-finalists-2012.md
	$(PYTHON) bench/tree2011/make_doc.py --check

TEST_TARGETS += test-docs
