"""hash_many: lists of buffers and 2-D arrays, every function, parameters,
and the device-array contract (no GPU backend in this build)."""

import hashlib
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import keccakx


BINDS_LENGTH = {"kmac128", "kmac256", "tuplehash128", "tuplehash256", "parallelhash128", "parallelhash256"}


def one_by_one(msgs, name, length, **params):
    """The reference: each message through a hash object."""
    if name in BINDS_LENGTH:
        params = dict(params, digest_size=length)
    out = []
    for m in msgs:
        if name.startswith("tuplehash"):
            h = keccakx.new(name, elements=[m], **params)
        else:
            h = keccakx.new(name, **params)
            h.update(m)
        out.append(h.digest(length) if isinstance(h, keccakx.XOF) else h.digest())
    return b"".join(out)


@given(st.lists(st.binary(max_size=600), max_size=40), st.sampled_from(["sha3_256", "sha3_512", "keccak_256"]))
def test_list_matches_hashlib_or_objects(msgs, name):
    got = keccakx.hash_many(msgs, name)
    assert got.dtype == np.uint8
    assert got.shape == (len(msgs), keccakx.new(name).digest_size)
    if name.startswith("sha3"):
        want = b"".join(hashlib.new(name, m).digest() for m in msgs)
    else:
        want = one_by_one(msgs, name, None)
    assert got.tobytes() == want


PARAMS = [
    ("shake_128", 50, {}),
    ("shake_256", 7, {}),
    ("cshake128", 32, {"function_name": b"N", "custom": b"S"}),
    ("kmac256", 40, {"key": b"k" * 32, "custom": b"c"}),
    ("kmacxof128", 33, {"key": b"k" * 16}),
    ("tuplehash128", 32, {"custom": b"t"}),
    ("parallelhash256", 64, {"block_size": 16}),
    ("turboshake128", 32, {"domain": 0x0B}),
    ("kt128", 32, {"custom": b"c"}),
    ("kt256", 64, {}),
    ("keccak", 32, {"rate": 1088, "capacity": 512, "suffix": 0x06}),
    ("keccak", 20, {"rate": 40, "capacity": 160}),
    ("tree_li", 32, {"height": 1, "degree": 2}),
]


@pytest.mark.parametrize("name,length,params", PARAMS, ids=[f"{p[0]}-{i}" for i, p in enumerate(PARAMS)])
def test_every_kind_matches_objects(name, length, params):
    rnd = random.Random(length)
    msgs = [rnd.randbytes(rnd.choice([0, 1, 135, 136, 137, 300, 9000])) for _ in range(25)]
    got = keccakx.hash_many(msgs, name, digest_size=length, **params)
    assert got.shape == (25, length)
    assert got.tobytes() == one_by_one(msgs, name, length, **params)


def test_2d_array_rows_and_dtypes():
    rnd = np.random.default_rng(1)
    arr = rnd.integers(0, 256, size=(300, 64), dtype=np.uint8)
    want = b"".join(hashlib.sha3_256(r.tobytes()).digest() for r in arr)
    assert keccakx.hash_many(arr, "sha3_256").tobytes() == want
    assert keccakx.hash_many(arr.view(np.int8), "sha3_256").tobytes() == want
    # A non-contiguous view is made contiguous first (rows stay rows).
    wide = rnd.integers(0, 256, size=(300, 128), dtype=np.uint8)
    view = wide[:, ::2]
    want = b"".join(hashlib.sha3_256(r.tobytes()).digest() for r in view)
    assert keccakx.hash_many(view, "sha3_256").tobytes() == want
    # Empty rows and zero rows.
    assert keccakx.hash_many(np.zeros((3, 0), np.uint8), "sha3_224").tobytes() == hashlib.sha3_224().digest() * 3
    assert keccakx.hash_many(np.zeros((0, 10), np.uint8), "sha3_224").shape == (0, 28)
    assert keccakx.hash_many([], "shake_128", 16).shape == (0, 16)


def test_mixed_buffer_types_and_iterables():
    data = [b"a", bytearray(b"bc"), memoryview(b"def"), np.frombuffer(b"ghij", np.uint8)]
    want = b"".join(hashlib.sha3_256(bytes(m)).digest() for m in data)
    assert keccakx.hash_many(data, "sha3_256").tobytes() == want
    assert keccakx.hash_many(iter(data), "sha3_256").tobytes() == want
    assert keccakx.hash_many(tuple(data), "sha3_256").tobytes() == want


def test_large_batch_uses_threads_and_is_right():
    msgs = [i.to_bytes(8, "little") * 8 for i in range(20000)]
    got = keccakx.hash_many(msgs, "sha3_256")
    for i in (0, 1, 9999, 19999):
        assert got[i].tobytes() == hashlib.sha3_256(msgs[i]).digest()
    keccakx.set_threads(1)
    try:
        assert keccakx.hash_many(msgs, "sha3_256").tobytes() == got.tobytes()
    finally:
        keccakx.set_threads(0)


def test_result_is_writable_and_owned():
    got = keccakx.hash_many([b"x"], "sha3_256")
    got[0, 0] ^= 1  # a normal, writable array


class FakeCudaArray:
    """Stands in for a CuPy / Numba device array."""

    __cuda_array_interface__ = {"shape": (2, 64), "typestr": "|u1", "data": (0, False), "version": 3}


class FakeDLPackGpu:
    def __dlpack_device__(self):
        return (2, 0)  # kDLCUDA


@pytest.mark.parametrize("arr", [FakeCudaArray(), FakeDLPackGpu()], ids=["cuda_array_interface", "dlpack_cuda"])
def test_device_arrays_need_cuda_backend(arr):
    assert "gpu" not in keccakx.backends()
    with pytest.raises(RuntimeError, match="GPU arrays need the CUDA backend; none available"):
        keccakx.hash_many(arr, "sha3_256")


def test_cpu_dlpack_object_is_accepted():
    class HostDLPack:
        def __init__(self, a):
            self.a = a

        def __dlpack__(self, **kw):
            return self.a.__dlpack__(**kw)

        def __dlpack_device__(self):
            return self.a.__dlpack_device__()

    a = np.arange(128, dtype=np.uint8).reshape(2, 64)
    want = b"".join(hashlib.sha3_256(r.tobytes()).digest() for r in a)
    assert keccakx.hash_many(HostDLPack(a), "sha3_256").tobytes() == want


def test_backends():
    assert keccakx.backends()[0] == "cpu"
    info = keccakx.backend_info()
    assert info["cpu"] == keccakx.engine()
    assert isinstance(info["gpu"], str) and info["gpu"]


def test_batch_errors():
    with pytest.raises(TypeError, match="sequence of bytes-like"):
        keccakx.hash_many(b"abc", "sha3_256")
    with pytest.raises(TypeError, match="message 1"):
        keccakx.hash_many([b"a", "str"], "sha3_256")
    with pytest.raises(TypeError, match="message 1.*int"):
        keccakx.hash_many([b"a", 5], "sha3_256")
    with pytest.raises(TypeError):
        keccakx.hash_many(5, "sha3_256")
    with pytest.raises(ValueError, match="2-D"):
        keccakx.hash_many(np.zeros(10, np.uint8), "sha3_256")
    with pytest.raises(TypeError, match="dtype must be uint8"):
        keccakx.hash_many(np.zeros((2, 2), np.float32), "sha3_256")
    with pytest.raises(ValueError, match="unsupported hash type"):
        keccakx.hash_many([b"a"], "md5")
    with pytest.raises(ValueError, match="fixed digest size"):
        keccakx.hash_many([b"a"], "sha3_256", digest_size=16)
    with pytest.raises(TypeError, match="unexpected keyword argument 'custom'"):
        keccakx.hash_many([b"a"], "sha3_256", custom=b"x")
    with pytest.raises(TypeError, match="'key'"):
        keccakx.hash_many([b"a"], "kmac128")
    with pytest.raises(ValueError, match="digest_size must be in"):
        keccakx.hash_many([b"a"], "shake_128", digest_size=-1)


def test_device_array_glue_reads_cuda_array_interface(monkeypatch):
    """The Python side of the GPU path, with the native call and the output
    allocation replaced (no GPU here): pointer, shape, row stride and stream
    come from __cuda_array_interface__; the output is a (rows, out_len)
    device array of the input's library."""
    calls = []

    class FakeOut:
        def __init__(self, shape):
            self.shape = shape
            self.__cuda_array_interface__ = {"shape": shape, "typestr": "|u1", "data": (0xD0000, False), "version": 3}

    class FakeIn:
        __cuda_array_interface__ = {"shape": (5, 64), "typestr": "|u1", "data": (0xA0000, True),
                                    "strides": (128, 1), "version": 3, "stream": 7}

    monkeypatch.setattr(keccakx._keccakx, "_gpu_status", lambda: (True, "fake"))
    monkeypatch.setattr(keccakx, "_device_empty", lambda x, shape, ordinal: FakeOut(shape))
    monkeypatch.setattr(keccakx._keccakx, "_gpu_hash_many_raw", lambda *a, **kw: calls.append((a, kw)) or 16)
    out = keccakx.hash_many(FakeIn(), "shake_128", 16)
    assert isinstance(out, FakeOut) and out.shape == (5, 16)
    assert calls == [((0, "shake_128", 16, 0xA0000, 5, 128, 64, 0xD0000, 7), {})]
    out = keccakx.hash_many(FakeIn(), "sha3_512")
    assert out.shape == (5, 64)
    with pytest.raises(TypeError, match="uint8"):
        bad = FakeIn()
        bad.__cuda_array_interface__ = dict(FakeIn.__cuda_array_interface__, typestr="<f4")
        keccakx.hash_many(bad, "sha3_256")
    with pytest.raises(ValueError, match="contiguous"):
        bad = FakeIn()
        bad.__cuda_array_interface__ = dict(FakeIn.__cuda_array_interface__, strides=(1, 5))
        keccakx.hash_many(bad, "sha3_256")


def test_device_array_on_unsupported_function_is_clear():
    # Without a GPU the availability check comes first, with the reason.
    if keccakx.backend_info()["gpu_available"]:
        pytest.skip("a GPU is present: covered by the GPU tests")
    with pytest.raises(RuntimeError, match="none available: .+"):
        keccakx.hash_many(FakeCudaArray(), "kmac128", key=b"k")


def test_gpu_host_and_device_tree_entry_points_without_a_gpu():
    # The host-fed GPU path and the device Merkle tree say why they cannot
    # run (no CUDA here), and refuse bad shapes before that.
    np = pytest.importorskip("numpy")
    import keccakx.merkle

    rows = np.zeros((4, 64), dtype=np.uint8)
    if not keccakx.backend_info()["gpu_available"]:
        with pytest.raises(RuntimeError, match="gpu_hash_many needs the CUDA backend"):
            keccakx.gpu_hash_many(rows, "sha3_256")
    with pytest.raises(ValueError, match="C-contiguous 2-D"):
        keccakx.gpu_hash_many(np.zeros(64, dtype=np.uint8), "sha3_256")
    with pytest.raises(ValueError, match="C-contiguous 2-D"):
        keccakx.gpu_hash_many(rows[:, ::2], "sha3_256")
    with pytest.raises(TypeError, match="GPU array"):
        keccakx.merkle.device_tree(np.zeros((4, 32), dtype=np.uint8))
    with pytest.raises(ValueError, match=r"\(n, 32\) uint8"):
        keccakx.merkle.device_tree(FakeCudaArray())
