#!/usr/bin/env bash
# The one command on the lent GPU machine (docs/gpu.md), from the repository
# root after `make gpu-pack` here and the device tool's run with
# carry [".gpu"]:
#     bash .gpu/run-on-gpu.sh            everything (under 8 minutes on an H100)
#     bash .gpu/run-on-gpu.sh --quick    cross-checks + one pass of each benchmark (under 3)
#     bash .gpu/run-on-gpu.sh --focus    cross-checks + mutation, the benchmark's --focus
#                                        (new paths beside the old ones) and ncu on the
#                                        64 KiB kernels (under 5)
#     bash .gpu/run-on-gpu.sh --after-focus   the rest of the full run: CLI, Python,
#                                        the full benchmark, MD5, ncu on the permutation
#                                        (under 5.5; the same machine, right after --focus)
# Every step runs under `timeout` and the whole run under a deadline, so a
# hang costs one step, never the 10-minute call. At most four files land in
# $OUT (default /tmp/keccakx-gpu-out): run.log (everything printed),
# results.json (everything measured and checked), nvidia-smi.txt,
# summary.txt; the key figures are printed at the end of stdout as well.
set -uo pipefail
quick=0
mode=full
for a in "$@"; do
	case "$a" in
	--quick) quick=1 mode=quick ;;
	--focus) mode=focus ;;
	--after-focus) mode=after-focus ;;
	-h | --help) sed -n '2,18p' "$0"; exit 0 ;;
	*) echo "run-on-gpu: unknown argument $a (use --quick, --focus, --after-focus or nothing)"; exit 2 ;;
	esac
done
# Which steps run: checks (cross-checks, mutation), focus (the focused
# benchmark and its ncu), rest (CLI, Python, full benchmark, MD5, ncu perm).
case $mode in
focus) do_checks=1 do_focus=1 do_rest=0 ;;
after-focus) do_checks=0 do_focus=0 do_rest=1 ;;
*) do_checks=1 do_focus=0 do_rest=1 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/tmp/keccakx-gpu-out}
mkdir -p "$out"
start=$(date +%s)
case $mode in # seconds for all steps, safely below 3 / 8 / 5 / 5.5 minutes
quick) budget=170 ;;
focus) budget=290 ;;
after-focus) budget=320 ;;
*) budget=460 ;;
esac

# No GPU: one clear line, in seconds.
# (KECCAKX_RUN_WITHOUT_GPU=1 runs every step anyway: to test this script.)
if [ "${KECCAKX_RUN_WITHOUT_GPU:-0}" != 1 ] && ! { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; } &&
	! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then
	echo "run-on-gpu: no NVIDIA GPU or driver on this machine (no working nvidia-smi, no libcuda.so.1): nothing to run"
	exit 2
fi
[ -f "$here/pack.tar.xz" ] || { echo "run-on-gpu: $here/pack.tar.xz is missing: run \`make gpu-pack\` on the build machine and carry .gpu"; exit 2; }

exec > >(tee "$out/run.log") 2>&1
work=$(mktemp -d /tmp/keccakx-gpu.XXXXXX)
export work
tar -C "$work" -xJf "$here/pack.tar.xz" || { echo "run-on-gpu: cannot unpack $here/pack.tar.xz"; exit 2; }
steps="$work/steps"
mkdir -p "$steps"
export KECCAKX_COMMIT="$(head -n1 "$work/COMMIT")"
# Kernels: a writable cache seeded with the ones compiled at pack time.
export KECCAKX_CACHE_DIR="$work/kernel-cache"
cp -r "$work/kernels" "$KECCAKX_CACHE_DIR"

# ---- first lines: driver, NVRTC, loader, C library
echo "== keccakx GPU run $(date -u +%FT%TZ), commit $KECCAKX_COMMIT ($(sed -n 2p "$work/COMMIT")), mode $mode"
echo "== driver: $(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,pcie.link.gen.max,pcie.link.width.max --format=csv,noheader 2>&1 | head -4 | tr '\n' ';')"
echo "== loader: $(ldconfig -p 2>/dev/null | grep -E 'libcuda|libnvrtc' | sed 's/^[[:space:]]*//' | tr '\n' ';')"
# NVRTC: the loader path, else a CUDA toolkit, else a Python wheel (PyTorch, CuPy).
if ! ldconfig -p 2>/dev/null | grep -q libnvrtc && [ -z "${KECCAKX_NVRTC_LIB:-}" ]; then
	for d in /usr/local/cuda/lib64 /usr/local/cuda-13*/lib64 \
		$(python3 -c 'import nvidia, os; [print(os.path.join(p, s, "lib")) for p in nvidia.__path__ for s in ("cu13", "cuda_nvrtc")]' 2>/dev/null); do
		if ls "$d"/libnvrtc.so.1[3-9]* >/dev/null 2>&1; then export KECCAKX_NVRTC_LIB="$d"; break; fi
	done
fi
echo "== KECCAKX_NVRTC_LIB=${KECCAKX_NVRTC_LIB:-unset} (else the loader path and the usual places)"
echo "== kernels carried (used where this machine's NVRTC has their version): $(ls "$work/kernels" | grep -o 'nvrtc[0-9.]*[0-9]' | sort -u | tr '\n' ' ')"
[ -f "$work/sass-check.txt" ] && sed 's/^/== sass (pack time): /' "$work/sass-check.txt"
echo "== C library: this machine $(ldd --version 2>&1 | head -1); built with $(sed -n 3p "$work/COMMIT")"
echo "== binaries need: $(tr '\n' ';' < "$work/GLIBC_NEEDED")"
have=$(ldd --version 2>&1 | head -1 | grep -o '[0-9]\+\.[0-9]\+$')
need=$(cut -d' ' -f2 "$work/GLIBC_NEEDED" | sed 's/GLIBC_//' | sort -V | tail -1)
if [ -n "$have" ] && [ -n "$need" ] && [ "$(printf '%s\n%s\n' "$need" "$have" | sort -V | head -1)" != "$need" ]; then
	echo "== WARNING: glibc $have here is older than the $need the binaries need: they will not start"
fi
timeout 60 "$work/bin/keccakx-gpu-bench" --preflight
case $? in
0) ;;
2) [ "${KECCAKX_RUN_WITHOUT_GPU:-0}" = 1 ] || { echo "run-on-gpu: the benchmark binary finds no usable GPU (see the line above): nothing to run"; exit 2; } ;;
*) echo "run-on-gpu: WARNING: the preflight failed (see above); going on" ;;
esac
echo "== tools: ncu $(command -v ncu || echo absent); compute-sanitizer $(command -v compute-sanitizer || echo absent); python3 $(python3 --version 2>&1)"
nvidia-smi > "$out/nvidia-smi.txt" 2>&1
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER >> "$out/nvidia-smi.txt" 2>&1

# ---- steps, each under its own timeout and the run's deadline
summary="$out/summary.txt"
: > "$summary"
step() { # name timeout_s command...
	local name=$1 limit=$2
	shift 2
	local left=$((budget - ($(date +%s) - start)))
	if [ "$left" -lt 10 ]; then
		echo "skipped (deadline)" > "$steps/$name.status"
		echo "step $name: SKIPPED (run deadline reached)" | tee -a "$summary"
		return
	fi
	[ "$limit" -gt "$left" ] && limit=$left
	echo "== step $name (timeout ${limit} s): $*"
	local t0=$(date +%s)
	if declare -F "$1" >/dev/null; then # a function of this script: run it in bash
		timeout -k 5 "$limit" bash -c "$(declare -f "$1"); $*" > "$steps/$name.out" 2> >(tee "$steps/$name.err" >&2)
	else
		timeout -k 5 "$limit" "$@" > "$steps/$name.out" 2> >(tee "$steps/$name.err" >&2)
	fi
	local rc=$?
	local dt=$(($(date +%s) - t0))
	case $rc in
	0) st=ok ;;
	124 | 137) st="TIMED OUT after ${limit} s" ;;
	*) st="FAILED (exit $rc)" ;;
	esac
	echo "$rc $dt" > "$steps/$name.status"
	echo "step $name: $st in ${dt} s" | tee -a "$summary"
}

q() { [ $quick = 1 ] && echo "$1" || echo "$2"; }
# 1. Every kernel against the CPU (the cross-checks).
if [ $do_checks = 1 ]; then
if [ $mode = focus ]; then
	step tests 130 "$work/tests/gpu_cross" --test-threads=2 --skip million
else
	step tests "$(q 90 150)" "$work/tests/gpu_cross" --test-threads=2 $(q "--skip million --skip gib" "")
fi
# 1b. The same checks with the kernels' mutation switch on (one bit of one
# lane of every output flipped): every cross-check must fail.
mutation_check() {
	local out
	# (copy_bandwidth_is_measured checks no digest.)
	out=$(KECCAKX_GPU_MUTATE=1 "$work/tests/gpu_cross" --test-threads=2 --skip million --skip gib 2>&1)
	local passed
	passed=$(printf '%s\n' "$out" | grep -E '^test .* \.\.\. ok$' | grep -v copy_bandwidth_is_measured || true)
	printf '%s\n' "$out" | grep -E '^test result'
	if [ -n "$passed" ]; then
		echo "mutation: these checks passed with the mutation switch on:"
		printf '%s\n' "$passed"
		return 1
	fi
	echo "mutation: every cross-check failed with the mutation switch on"
}
step mutation "$(q 60 120)" mutation_check
fi
# 1c. The focused benchmark: each new path beside the one it replaces
# (64 KiB batch, KT128 1 and 4 GiB, host-fed registered/staged, Merkle 2^24),
# then Nsight Compute on the old and new 64 KiB kernels at the GPU's own
# clocks (--clock-control none), stall reasons included.
ncu_focus() {
	ncu --clock-control none --target-processes all -k 'regex:^kx_batch_direct_r24(_136)?$' -c 2 \
		--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
		--section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis \
		"$work/bin/keccakx-gpu-bench" --focus-part batch64 --budget-s 60 || return 1
	# The stall reasons as raw per-reason metrics, in a run of their own (a
	# metric name this ncu does not know fails that run only).
	ncu --clock-control none --target-processes all -k 'regex:^kx_batch_direct_r24(_136)?$' -c 2 \
		--metrics smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second \
		"$work/bin/keccakx-gpu-bench" --focus-part batch64 --budget-s 60 || true
}
if [ $do_focus = 1 ]; then
	step bench_focus 130 "$work/bin/keccakx-gpu-bench" --focus --out "$work/bench-focus.json" --budget-s 110
	if command -v ncu >/dev/null 2>&1; then
		step ncu_focus 100 ncu_focus
	else
		echo "step ncu_focus: SKIPPED (ncu not installed)" | tee -a "$summary"
	fi
fi
if [ $do_rest = 1 ]; then
# 2. The CLI: --backend gpu and auto against --backend cpu on many small files.
cli_check() {
	local d
	d=$(mktemp -d /tmp/kx-cli.XXXXXX)
	python3 - "$d" <<-'EOF'
	import os, random, sys
	r = random.Random(5)
	for i in range(3000):
	    n = r.choice([0, 1, 63, 64, 135, 136, 137, 1000, 4096, 70000])
	    open(os.path.join(sys.argv[1], f"f{i:05d}"), "wb").write(r.randbytes(n))
	EOF
	local ok=0
	for a in sha3-256 shake128 keccak-256 turboshake128; do
		"$work/bin/keccakx" sum --backend cpu -a "$a" "$d"/* > "$d.cpu" 2>&1
		# gpu: every chunk on the GPU; auto: chunks routed by the cost model;
		# auto-gpu: auto with the model told the CPU is a million times
		# slower and GPU threads never limit, so that every chunk takes the
		# routed GPU path whole (keccakx-gpu's cost.rs tests that value).
		for b in gpu auto auto-gpu; do
			local cost=${KECCAKX_GPU_COST:-}
			[ $b = auto-gpu ] && cost=cpu_mblocks_per_core=0.000001,thread_kblocks=1000000000
			KECCAKX_GPU_COST=$cost "$work/bin/keccakx" sum --backend ${b%-gpu} -a "$a" "$d"/* > "$d.gpu" 2>&1
			local rc=$?
			if [ $rc -ne 0 ]; then
				echo "cli $a: --backend $b exited $rc: $(grep -m1 'keccakx:' "$d.gpu")"
				ok=1
			elif cmp -s "$d.cpu" "$d.gpu"; then
				echo "cli $a: --backend $b = --backend cpu on 3000 files"
			else
				echo "cli $a: MISMATCH between --backend $b and --backend cpu; first differences:"
				diff "$d.cpu" "$d.gpu" | sed -n 1,4p
				ok=1
			fi
		done
	done
	rm -f "$d.cpu" "$d.gpu"
	rm -rf "$d"
	return $ok
}
step cli 60 cli_check
# 3. CuPy / PyTorch device arrays through the Python module.
if [ -d "$work/py" ]; then
	step python "$(q 40 60)" env PYTHONPATH="$work/py" python3 "$work/py/python_check.py"
else
	echo "step python: SKIPPED (the pack has no Python module)" | tee -a "$summary"
fi
# 4. The benchmark (writes its JSON after every section).
# Its own budget leaves the timeout a margin: the last section in flight
# finishes, and the JSON holds every section completed so far regardless.
step bench "$(q 75 240)" "$work/bin/keccakx-gpu-bench" --out "$work/bench.json" --budget-s "$(q 55 200)" $(q --quick "")
# 5. MD5 beside tree LI at the 2011 paper's sizes (hashlib's OpenSSL MD5).
md5_bench() {
	python3 - <<-'EOF'
	import hashlib, json, os, time
	res = {}
	for n in (1050112, 10500096, 25200000, 50400000):
	    d = os.urandom(n)
	    best = float("inf")
	    for _ in range(5):
	        t = time.perf_counter()
	        hashlib.md5(d).digest()
	        best = min(best, time.perf_counter() - t)
	    res[str(n)] = {"seconds": best, "bytes_per_s": n / best}
	print(json.dumps({"md5_hashlib": res}))
	EOF
}
step md5 20 md5_bench
# 6. Nsight Compute on the permutation kernel, if installed: the funnel-shift
# kernel and the one with rho's rotations on the FMA pipe (the IMAD trick),
# for their pipe utilisation side by side.
# Launch 0 of each kernel is a small correctness check (4096 states); launch
# 1 is the first full wave of the calibration, the one profiled. The pipe
# metrics go in a run of their own: a name this ncu does not know fails that
# run only.
ncu_perm() {
	local k rc=0
	for k in kx_perm_r24 kx_perm_imad_rho_r24; do
		echo "== ncu sections: $k"
		ncu --target-processes all -k "regex:^$k\$" --launch-skip 1 -c 1 \
			--section SpeedOfLight --section ComputeWorkloadAnalysis --section Occupancy \
			--section WarpStateStats --section SchedulerStats --section InstructionStats \
			"$work/bin/keccakx-gpu-bench" --only perm --quick || rc=1
		echo "== ncu pipes: $k"
		ncu --target-processes all -k "regex:^$k\$" --launch-skip 1 -c 1 \
			--metrics smsp__issue_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__warps_eligible.avg.per_cycle_active,smsp__warps_active.avg.per_cycle_active \
			"$work/bin/keccakx-gpu-bench" --only perm --quick || rc=1
	done
	return $rc
}
if command -v ncu >/dev/null 2>&1 && [ $quick = 0 ]; then
	step ncu 100 ncu_perm
else
	echo "step ncu: SKIPPED ($(command -v ncu >/dev/null 2>&1 && echo 'quick mode' || echo 'ncu not installed'))" | tee -a "$summary"
fi
fi # do_rest

# ---- one JSON with everything, the key figures on stdout
python3 - "$work" "$out/results.json" "$quick" "$mode" <<'EOF' || cp "$work/bench.json" "$out/results.json" 2>/dev/null
import json, os, re, sys
work, dest, quick, mode = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
steps = os.path.join(work, "steps")
def read(name, ext):
    try:
        return open(os.path.join(steps, f"{name}.{ext}"), errors="replace").read()
    except OSError:
        return ""
res = {"schema": "keccakx-gpu-run/1", "quick": quick, "mode": mode, "commit": open(os.path.join(work, "COMMIT")).read().split(),
       "glibc_needed": open(os.path.join(work, "GLIBC_NEEDED")).read().split("\n"), "steps": {}}
# The host beside the GPU: CPU model, family/model/stepping, logical CPUs and
# the load at the end of the run (the reproduction documents quote them).
host = {"logical_cpus": os.cpu_count()}
try:
    info = open("/proc/cpuinfo").read()
    for key, name in (("model name", "cpu_model"), ("cpu family", "family"), ("model", "model"), ("stepping", "stepping")):
        m = re.search(rf"^{key}\s*:\s*(.*)$", info, re.M)
        if m:
            host[name] = m.group(1).strip()
    host["loadavg_end"] = " ".join(open("/proc/loadavg").read().split()[:3])
except OSError:
    pass
res["host"] = host
for f in sorted(os.listdir(steps)):
    if f.endswith(".status"):
        name = f[:-7]
        parts = read(name, "status").split()
        st = {"exit": int(parts[0]), "seconds": int(parts[1])} if parts and parts[0].isdigit() else {"status": " ".join(parts)}
        res["steps"][name] = st
t = read("tests", "out")
res["tests"] = {"results": re.findall(r"test result: .*", t), "failed": re.findall(r"^test (\S+) \.\.\. FAILED", t, re.M),
                "skipped_lines": re.findall(r"\*\*\* SKIPPED.*", read("tests", "err"))[:5],
                # What a failing test printed (its panic message), for the record.
                "failures": (t[t.find("\nfailures:"):][:6000] if "\nfailures:" in t else "")}
res["cli"] = read("cli", "out").splitlines()
for name in ("python", "md5"):
    lines = [l for l in read(name, "out").splitlines() if l.startswith("{")]
    if lines:
        try:
            res[name] = json.loads(lines[-1])
        except ValueError:
            res[name] = {"unparsed": lines[-1][:2000]}
for key, f in (("bench", "bench.json"), ("bench_focus", "bench-focus.json")):
    try:
        res[key] = json.load(open(os.path.join(work, f)))
    except (OSError, ValueError) as e:
        res[key] = {"error": f"no benchmark JSON: {e}"}
for name in ("ncu", "ncu_focus"):
    n = read(name, "out") + read(name, "err")
    if not n:
        continue
    # Every metric line and rule text of the profiled launches (not the
    # benchmark's own output or ncu's progress lines).
    # (The benchmark prints its JSON too: lines of it start with a brace,
    # a quote or a closing bracket.)
    keep = [l.rstrip() for l in n.splitlines()
            if l.strip() and not l.startswith(("==PROF==", "KEY ", "== section")) and "Replaying" not in l
            and not l.lstrip().startswith(("{", "}", '"', "]"))]
    res[name] = keep[:600]
json.dump(res, open(dest, "w"), indent=1)
print("== key figures (all in results.json)")
for key in ("bench_focus", "bench"):
    for line in res[key].get("key_figures", []):
        print("  " + line)
for l in res.get("ncu_focus", []):
    if re.search(r"kx_batch_direct|Stall|stalled|Duration|SM Frequency|Issue Slots Busy|Registers Per", l):
        print("  ncu: " + l.strip()[:160])
for k, v in res["steps"].items():
    print(f"  step {k}: {v}")
if res["tests"]["results"]:
    print("  tests: " + " | ".join(res["tests"]["results"]))
if res["tests"]["failed"]:
    print("  FAILED tests: " + ", ".join(res["tests"]["failed"]))
    print(res["tests"]["failures"][:3000])
for lib, r in (res.get("python", {}).get("libraries") or {}).items():
    print(f"  python {lib}: " + json.dumps(r)[:300])
EOF
echo "== done in $(($(date +%s) - start)) s; files in $out: $(ls "$out" | tr '\n' ' ')" | tee -a "$summary"
rm -rf "$work"
