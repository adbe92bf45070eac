# GPU engine: crates/keccakx-gpu. Neither a GPU nor the CUDA toolkit
# is needed here (docs/gpu.md):
#   make test-gpu   NVRTC from the PyPI wheel nvidia-cuda-nvrtc (installed under
#                   target/gpu-tools) compiles every kernel for sm_80 and sm_90,
#                   cuobjdump (wheel nvidia-cuda-cuobjdump) checks their sm_90 SASS
#                   (no spills; the permutation's instruction mix per round against
#                   bench/gpu/sass-sm_90.json), and the kernels' logic runs as C++
#                   on the CPU (host emulation, g++); a missing NVRTC, cuobjdump
#                   or g++ fails this target instead of skipping.
#                   The other GPU tests run in test-rust and skip without a GPU.
#   make bench-gpu  keccakx-gpu-bench -> bench/results/gpu-<date>.json on a machine
#                   with a GPU; elsewhere it says "no GPU" and succeeds.
#   make gpu-pack   build here and stage what the lent GPU machine runs in .gpu/
#                   (one archive + run-on-gpu.sh, checked to fit the 60 MiB budget);
#                   its kernels are compiled by the NVRTC the GPU machine has
#                   (GPU_DEVICE_NVRTC_WHEEL) after tests/sass.rs checked that
#                   NVRTC's SASS, so the machine loads exactly the checked code.
.PHONY: deps-gpu deps-gpu-device test-gpu bench-gpu gpu-pack

GPU_TOOLS ?= $(CURDIR)/target/gpu-tools
# Exact versions: the SASS record (bench/gpu/sass-sm_90.json) is compared
# exactly for the NVRTC that wrote it.
GPU_NVRTC_WHEEL ?= nvidia-cuda-nvrtc==13.5.37
GPU_SASS_WHEEL ?= nvidia-cuda-cuobjdump==13.5.37
# cuobjdump -sass runs nvdisasm, which it looks for beside itself.
GPU_NVDISASM_WHEEL ?= nvidia-cuda-nvdisasm==13.5.37
# The NVRTC of the lent GPU machine (CUDA 13.0 there: bench/results/gpu-h200-*
# record "nvrtc_version": "13.0"): `make gpu-pack` compiles the kernels it
# carries with this one, named ...-nvrtc13.0.cubin, which the machine's own
# NVRTC 13.0 then finds in the kernel cache instead of compiling its own.
GPU_DEVICE_NVRTC_WHEEL ?= nvidia-cuda-nvrtc==13.0.88
GPU_NVRTC_LIB = $(GPU_TOOLS)/nvrtc/nvidia/cu13/lib/libnvrtc.so.13
GPU_DEVICE_NVRTC_LIB = $(GPU_TOOLS)/nvrtc-device/nvidia/cu13/lib/libnvrtc.so.13
GPU_CUOBJDUMP = $(GPU_TOOLS)/sass/nvidia/cu13/bin/cuobjdump
GPU_NVDISASM = $(GPU_TOOLS)/sass/nvidia/cu13/bin/nvdisasm
GPU_BENCH_STAMP := $(shell date +%Y%m%d)
# The same workspace-wide feature set as test-rust, so nothing is rebuilt.
GPU_CARGO_SEL := --workspace --exclude keccakx-py --exclude keccakx-bench

deps-gpu:
	@$(PYTHON) -m pip --version >/dev/null 2>&1 || { apt-get update -qq && apt-get -y -qq install python3-pip >/dev/null; }
	@test -e $(GPU_NVRTC_LIB) && grep -qxF '$(GPU_NVRTC_WHEEL)' $(GPU_TOOLS)/nvrtc/.wheel 2>/dev/null || { \
		echo "deps-gpu: installing NVRTC ($(GPU_NVRTC_WHEEL), PyPI) into $(GPU_TOOLS)/nvrtc"; \
		rm -rf $(GPU_TOOLS)/nvrtc; \
		$(PYTHON) -m pip install -q --disable-pip-version-check --root-user-action=ignore --target $(GPU_TOOLS)/nvrtc '$(GPU_NVRTC_WHEEL)' && \
		echo '$(GPU_NVRTC_WHEEL)' > $(GPU_TOOLS)/nvrtc/.wheel; }
	@test -e $(GPU_NVRTC_LIB) || { echo "deps-gpu: $(GPU_NVRTC_LIB) is missing after the install"; exit 1; }
	@test -x $(GPU_CUOBJDUMP) && test -x $(GPU_NVDISASM) && grep -qxF '$(GPU_SASS_WHEEL) $(GPU_NVDISASM_WHEEL)' $(GPU_TOOLS)/sass/.wheel 2>/dev/null || { \
		echo "deps-gpu: installing cuobjdump and nvdisasm ($(GPU_SASS_WHEEL) $(GPU_NVDISASM_WHEEL), PyPI) into $(GPU_TOOLS)/sass"; \
		rm -rf $(GPU_TOOLS)/sass; \
		$(PYTHON) -m pip install -q --disable-pip-version-check --root-user-action=ignore --target $(GPU_TOOLS)/sass '$(GPU_SASS_WHEEL)' '$(GPU_NVDISASM_WHEEL)' && \
		echo '$(GPU_SASS_WHEEL) $(GPU_NVDISASM_WHEEL)' > $(GPU_TOOLS)/sass/.wheel; }
	@test -x $(GPU_CUOBJDUMP) && test -x $(GPU_NVDISASM) || { echo "deps-gpu: $(GPU_CUOBJDUMP) or nvdisasm is missing after the install"; exit 1; }
	@command -v g++ >/dev/null || { apt-get update -qq && apt-get -y -qq install g++ >/dev/null; }

deps-gpu-device:
	@test -e $(GPU_DEVICE_NVRTC_LIB) && grep -qxF '$(GPU_DEVICE_NVRTC_WHEEL)' $(GPU_TOOLS)/nvrtc-device/.wheel 2>/dev/null || { \
		echo "deps-gpu-device: installing the GPU machine's NVRTC ($(GPU_DEVICE_NVRTC_WHEEL), PyPI) into $(GPU_TOOLS)/nvrtc-device"; \
		rm -rf $(GPU_TOOLS)/nvrtc-device; \
		$(PYTHON) -m pip install -q --disable-pip-version-check --root-user-action=ignore --target $(GPU_TOOLS)/nvrtc-device '$(GPU_DEVICE_NVRTC_WHEEL)' && \
		echo '$(GPU_DEVICE_NVRTC_WHEEL)' > $(GPU_TOOLS)/nvrtc-device/.wheel; }
	@test -e $(GPU_DEVICE_NVRTC_LIB) || { echo "deps-gpu-device: $(GPU_DEVICE_NVRTC_LIB) is missing after the install"; exit 1; }

test-gpu: deps-gpu deps-rust
	KECCAKX_NVRTC_LIB=$(GPU_NVRTC_LIB) KECCAKX_REQUIRE_NVRTC=1 KECCAKX_REQUIRE_GXX=1 \
		KECCAKX_CUOBJDUMP=$(GPU_CUOBJDUMP) KECCAKX_REQUIRE_SASS=1 \
		$(CARGO) test --profile $(TEST_PROFILE) $(GPU_CARGO_SEL) --test nvrtc_compile --test emulation --test sass

TEST_TARGETS += test-gpu

bench-gpu: deps-rust
	@mkdir -p bench/results
	@status=0; $(CARGO) run --release -p keccakx-gpu-bench -- \
		--out bench/results/gpu-$(GPU_BENCH_STAMP).json || status=$$?; \
	if [ $$status -eq 2 ]; then echo "bench-gpu: skipped (no GPU on this machine)"; \
	elif [ $$status -ne 0 ]; then exit $$status; fi

BENCH_TARGETS += bench-gpu

gpu-pack: deps-gpu deps-gpu-device deps-rust
	KECCAKX_NVRTC_LIB=$(GPU_DEVICE_NVRTC_LIB) KECCAKX_CUOBJDUMP=$(GPU_CUOBJDUMP) \
		GPU_DEVICE_NVRTC_WHEEL='$(GPU_DEVICE_NVRTC_WHEEL)' bash bench/gpu/pack.sh
