"""Keccak-256 Merkle trees compatible with OpenZeppelin's ``@openzeppelin/merkle-tree``.

The same trees, proofs, multiproofs and dumps as the JavaScript library
(version 1.0.8), byte for byte, built on keccakx's batch engines (all SIMD
lanes and cores, or a GPU)::

    >>> from keccakx.merkle import StandardMerkleTree
    >>> values = [["0x1111111111111111111111111111111111111111", "5000000000000000000"],
    ...           ["0x2222222222222222222222222222222222222222", "2500000000000000000"]]
    >>> tree = StandardMerkleTree.of(values, ["address", "uint256"])
    >>> tree.root[:18]
    '0xd4dee0beab2d53f2'
    >>> proof = tree.get_proof(0)
    >>> StandardMerkleTree.verify(tree.root, ["address", "uint256"], values[0], proof)
    True

- ``StandardMerkleTree``: leaves ``keccak256(keccak256(abi.encode(types, value)))``.
- ``SimpleMerkleTree``: leaves are the ``bytes32`` values themselves.
- Leaves are sorted by hash unless ``sort_leaves=False``.
- ``dump()`` gives the library's dump object (``standard-v1`` / ``simple-v1``);
  ``dumps()`` its JSON text exactly as ``JSON.stringify(tree.dump())`` writes
  it; ``load()`` takes either and validates the tree.

Values are JSON-like: ``str``, ``int``, ``bool``, ``bytes`` (kept as ``0x``
hex), lists and tuples. Which values a type accepts is the JavaScript
encoder's rule (see docs/merkle.md); a value that does not fit raises
``ValueError``, as do the library's argument errors (same messages: "Index
out of bounds", "Leaf is not in tree", "Cannot prove duplicated index",
"Merkle tree is invalid", ...). ``backend`` is ``"auto"``, ``"cpu"`` or
``"gpu"``.
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any, Iterable, Iterator, List, Sequence, Union

from ._keccakx import (
    MerkleTreeCore as _Core,
    _merkle_leaf_hash,
    _merkle_process_multi_proof,
    _merkle_process_proof,
)

__all__ = ["StandardMerkleTree", "SimpleMerkleTree", "device_tree"]


def _hex(x: Union[str, bytes, bytearray]) -> str:
    if isinstance(x, (bytes, bytearray)):
        return "0x" + bytes(x).hex()
    if not isinstance(x, str):
        raise TypeError(f"a node is a hex str or bytes, not {type(x).__name__}")
    return x


class _Hybrid:
    """``Tree.verify(root, ..., proof)`` on the class, ``tree.verify(leaf, proof)``
    on a tree, as in the JavaScript library."""

    def __init__(self, static, bound):
        self.static = static
        self.bound = bound
        functools.update_wrapper(self, bound)

    def __get__(self, obj, cls=None):
        if obj is None:
            return self.static
        return functools.partial(self.bound, obj)


class _Tree:
    _format = ""

    def __init__(self, core: _Core):
        self._core = core

    @property
    def root(self) -> str:
        """The root, ``0x`` + 64 hex digits."""
        return self._core.root

    @property
    def length(self) -> int:
        return len(self._core)

    def __len__(self) -> int:
        return len(self._core)

    def at(self, index: int) -> Any:
        """Value ``index`` (input order), or None past the end."""
        if not 0 <= index < len(self._core):
            return None
        return self._core.value(index)

    def entries(self) -> Iterator[tuple]:
        """(index, value) for every value, in input order."""
        for i in range(len(self._core)):
            yield i, self._core.value(i)

    def __iter__(self) -> Iterator[tuple]:
        return self.entries()

    def dumps(self) -> str:
        """The dump's JSON text, as ``JSON.stringify(tree.dump())`` writes it."""
        return self._core.dump_json()

    def dump(self) -> dict:
        """The dump object (``format``, ``tree``, ``values``, ...)."""
        return json.loads(self._core.dump_json())

    def validate(self, backend: str = "auto") -> None:
        """Raise ValueError unless every value and node is where it should be."""
        self._core.validate(backend)

    def leaf_hash(self, leaf: Any) -> str:
        return self._core.leaf_hash(leaf)

    def leaf_lookup(self, leaf: Any) -> int:
        """The index of a value ("Leaf is not in tree" otherwise)."""
        return self._core.leaf_lookup(leaf)

    def get_proof(self, leaf: Any) -> List[str]:
        """The proof of a value, given by index or as the value."""
        return self._core.proof(leaf)

    def get_all_proofs(self) -> List[List[str]]:
        """Every value's proof, in input order (one native call)."""
        return self._core.all_proofs()

    def write_all_proofs(self, path) -> None:
        """Write every value's proof to the file ``path``, one JSON array per
        line in input order (streamed from native code: a million proofs are
        ~1.4 GB of text)."""
        self._core.write_all_proofs(os.fspath(path))

    def get_multi_proof(self, leaves: Iterable[Any]) -> dict:
        """``{"leaves": [values], "proof": [...], "proofFlags": [...]}`` for
        values given by index or as values."""
        idx, proof, flags = self._core.multi_proof(list(leaves))
        return {"leaves": [self._core.value(i) for i in idx], "proof": proof, "proofFlags": flags}

    def _verify(self, leaf: Any, proof: Sequence) -> bool:
        return self._core.verify(leaf, [_hex(p) for p in proof])

    def _verify_multi_proof(self, multiproof: dict) -> bool:
        return self._core.verify_multi(
            list(multiproof["leaves"]),
            [_hex(p) for p in multiproof["proof"]],
            [bool(f) for f in multiproof["proofFlags"]],
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {len(self)} values root={self.root}>"


def _load_text(data: Union[dict, str, bytes]) -> str:
    if isinstance(data, dict):
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    if isinstance(data, (bytes, bytearray)):
        return bytes(data).decode("utf-8")
    return data


class StandardMerkleTree(_Tree):
    """A tree of ABI-encoded values (``leafEncoding``: their Solidity types)."""

    @classmethod
    def of(
        cls,
        values: Iterable[Sequence[Any]],
        leaf_encoding: Sequence[str],
        *,
        sort_leaves: bool = True,
        backend: str = "auto",
    ) -> "StandardMerkleTree":
        return cls(_Core.build(list(values), list(leaf_encoding), sort_leaves, backend))

    @classmethod
    def load(cls, data: Union[dict, str, bytes], *, backend: str = "auto") -> "StandardMerkleTree":
        """A tree from its dump (object or JSON text), validated."""
        return cls(_Core.load(_load_text(data), "standard-v1", backend))

    @property
    def leaf_encoding(self) -> List[str]:
        return list(self._core.leaf_encoding)

    @staticmethod
    def _static_verify(root: str, leaf_encoding: Sequence[str], leaf: Sequence[Any], proof: Sequence) -> bool:
        h = _merkle_leaf_hash(list(leaf_encoding), leaf)
        return _merkle_process_proof(h, [_hex(p) for p in proof]) == _hex(root).lower()

    @staticmethod
    def _static_verify_multi(root: str, leaf_encoding: Sequence[str], multiproof: dict) -> bool:
        leaves = [_merkle_leaf_hash(list(leaf_encoding), l) for l in multiproof["leaves"]]
        got = _merkle_process_multi_proof(
            leaves, [_hex(p) for p in multiproof["proof"]], [bool(f) for f in multiproof["proofFlags"]]
        )
        return got == _hex(root).lower()

    verify = _Hybrid(_static_verify.__func__, _Tree._verify)
    verify_multi_proof = _Hybrid(_static_verify_multi.__func__, _Tree._verify_multi_proof)


class SimpleMerkleTree(_Tree):
    """A tree whose leaves are ``bytes32`` values (``0x`` hex str or bytes)."""

    @classmethod
    def of(
        cls,
        values: Iterable[Union[str, bytes]],
        *,
        sort_leaves: bool = True,
        backend: str = "auto",
    ) -> "SimpleMerkleTree":
        return cls(_Core.build(list(values), None, sort_leaves, backend))

    @classmethod
    def load(cls, data: Union[dict, str, bytes], *, backend: str = "auto") -> "SimpleMerkleTree":
        """A tree from its dump (object or JSON text), validated."""
        return cls(_Core.load(_load_text(data), "simple-v1", backend))

    @staticmethod
    def _static_verify(root: str, leaf: Union[str, bytes], proof: Sequence) -> bool:
        h = _merkle_leaf_hash(None, leaf)
        return _merkle_process_proof(h, [_hex(p) for p in proof]) == _hex(root).lower()

    @staticmethod
    def _static_verify_multi(root: str, multiproof: dict) -> bool:
        leaves = [_merkle_leaf_hash(None, l) for l in multiproof["leaves"]]
        got = _merkle_process_multi_proof(
            leaves, [_hex(p) for p in multiproof["proof"]], [bool(f) for f in multiproof["proofFlags"]]
        )
        return got == _hex(root).lower()

    verify = _Hybrid(_static_verify.__func__, _Tree._verify)
    verify_multi_proof = _Hybrid(_static_verify_multi.__func__, _Tree._verify_multi_proof)


def device_tree(leaves: Any, *, nodes: bool = False):
    """The OpenZeppelin tree of leaves that live in GPU memory, built there.

    ``leaves`` is an ``(n, 32)`` uint8 array with ``__cuda_array_interface__``
    (CuPy, PyTorch, Numba), one ``bytes32`` leaf a row, in leaf order (not
    sorted here: sort them first for ``sort_leaves`` trees). The leaves stay
    on the device; every level is hashed there. Returns the root as ``0x``
    hex, or ``(root, nodes)`` with ``nodes=True``: the whole node array as
    hex, root first, in the JavaScript library's layout (``dump()["tree"]``).
    """
    from . import _cuda_interface, _device_ordinal
    from ._keccakx import _gpu_merkle_raw

    cai = _cuda_interface(leaves)
    if cai is None:
        raise TypeError("device_tree: leaves must be a GPU array (__cuda_array_interface__); "
                        "use SimpleMerkleTree.of for host values")
    shape = tuple(cai["shape"])
    if len(shape) != 2 or shape[1] != 32 or not str(cai["typestr"]).endswith(("u1", "i1")):
        raise ValueError(f"device_tree: leaves must be an (n, 32) uint8 array, got shape {shape} {cai['typestr']}")
    strides = cai.get("strides")
    if strides is not None and (int(strides[0]) != 32 or int(strides[1]) != 1):
        raise ValueError("device_tree: the leaves must be contiguous (row stride 32)")
    stream = cai.get("stream")
    root, tree = _gpu_merkle_raw(_device_ordinal(leaves), int(cai["data"][0]), shape[0],
                                 None if stream is None else int(stream), nodes)
    root = "0x" + bytes(root).hex()
    if not nodes:
        return root
    return root, ["0x" + tree[i:i + 32].hex() for i in range(0, len(tree), 32)]
