# Hashing on a Dask cluster: keccakx.hazmat (core + Python),
# keccakx.distributed and the keccakx-cluster command (crates/keccakx-py/python),
# tests/distributed, bench/cluster, docs/distributed.md.
#   make test-cluster    a real `dask scheduler` + 2 `dask worker` processes and a
#                        moto S3 server on 127.0.0.1, started and stopped by the
#                        tests; digests against the library and `keccakx sum`
#                        (~2-3 min on 2 cores, bounded by a 15-minute timeout)
#   make demo-cluster    one command: hash a generated file on a LocalCluster,
#                        next to `keccakx sum` of the same file
#   make bench-cluster   digest/hash_files vs keccakx sum, 1 and 2 workers, final-node
#                        cost -> bench/results/cluster-<date>.json and .png (~5-10 min)
# Python packages go into the .venv of mk/python.mk (the keccakx[dask] extra,
# plus moto's server and boto3 for the tests, matplotlib for the plot).
.PHONY: deps-cluster test-cluster demo-cluster bench-cluster

CLUSTER_PY_DEPS := "dask[distributed]" fsspec s3fs "moto[server]" boto3
CLUSTER_BENCH_JSON ?= bench/results/cluster-$(shell date -u +%F).json
CLUSTER_BENCH_ARGS ?=

deps-cluster: build-python
	@$(PY_BIN) -c 'import distributed, fsspec, s3fs, moto.server, boto3' 2>/dev/null || \
		$(PY_BIN) -m pip install -q --disable-pip-version-check $(CLUSTER_PY_DEPS)

test-cluster: deps-cluster build-cli-test
	cd tests/distributed && KECCAKX_BIN=$(CLI_TEST_BIN) timeout 900 $(PY_BIN) -m pytest -q -p no:cacheprovider .

demo-cluster: deps-cluster build-cli
	@d=$$(mktemp -d) && head -c 100000000 /dev/urandom > $$d/demo.bin && \
	  echo "keccakx-cluster sum -a kt128 $$d/demo.bin   (a LocalCluster on this machine)" && \
	  $(PY_VENV)/bin/keccakx-cluster sum -a kt128 $$d/demo.bin && \
	  echo "keccakx sum -a kt128 $$d/demo.bin           (one process, for comparison)" && \
	  $(CLI_BIN) sum -a kt128 $$d/demo.bin; rm -rf $$d

bench-cluster: deps-cluster build-cli
	@$(PY_BIN) -c 'import matplotlib' 2>/dev/null || $(PY_BIN) -m pip install -q --disable-pip-version-check matplotlib
	@mkdir -p bench/results
	$(TIMED) $(PY_BIN) bench/cluster/bench.py --keccakx $(CLI_BIN) --out $(CLUSTER_BENCH_JSON) $(CLUSTER_BENCH_ARGS)
	$(PY_BIN) bench/cluster/plot.py $(CLUSTER_BENCH_JSON)

TEST_TARGETS += test-cluster
BENCH_TARGETS += bench-cluster
