"""The keywords that set registry parameters come from the registry: every
function accepts exactly the keywords whose groups it takes (in new(),
hash_many() and the pure-Python checks of keccakx-cluster), and the errors
name the keyword and its limits."""

import pytest

import keccakx
from keccakx import _keccakx, cluster

# A value of the right type for each keyword (not always one the function
# accepts: a ValueError for it is fine, an "unexpected keyword" is not).
SAMPLE = {
    "custom": b"c", "function_name": b"N", "key": b"k", "block_size": 64,
    "domain": 0x1F, "rate": 1088, "capacity": 512, "width": 1600, "rounds": 24,
    "suffix": 0x06, "degree": 4, "height": 2, "prefix": b"p",
}

KEYWORDS = dict(_keccakx._registry_keywords())
NAMES = _keccakx._registry_names()


def test_every_keyword_has_groups_and_a_sample():
    assert set(KEYWORDS) == set(SAMPLE)
    groups = {"length", "customization", "function_name", "key", "block_size",
              "domain", "sponge", "tree"}
    for kw, gs in KEYWORDS.items():
        assert gs and set(gs) <= groups, kw


def takes(name, kw):
    params = _keccakx._registry_entry(name)[5]
    return any(g in params for g in KEYWORDS[kw])


def unexpected(e, kw):
    return isinstance(e, TypeError) and f"unexpected keyword argument '{kw}'" in str(e)


@pytest.mark.parametrize("name", NAMES)
def test_new_accepts_exactly_the_keywords_the_registry_gives(name):
    for kw in KEYWORDS:
        extra = {"key": b"k"} if takes(name, "key") and kw != "key" else {}
        if name == "keccak" and kw not in ("rate", "capacity"):
            extra["rate"] = 1088
        try:
            keccakx.new(name, **extra, **{kw: SAMPLE[kw]})
            err = None
        except (TypeError, ValueError) as e:
            err = e
        assert unexpected(err, kw) == (not takes(name, kw)), (name, kw, err)
        try:
            keccakx.hash_many([b"abc"], name, **extra, **{kw: SAMPLE[kw]})
            err = None
        except (TypeError, ValueError) as e:
            err = e
        assert unexpected(err, kw) == (not takes(name, kw)), (name, kw, err)


@pytest.mark.parametrize("kw,value,message", [
    ("rate", -1, "rate (bits) must be in 0..=1600, got -1"),
    ("capacity", 1601, "capacity (bits) must be in 0..=1600, got 1601"),
    ("rounds", 1001, "rounds must be in 0..=1000, got 1001"),
    ("suffix", 256, "suffix must be in 0..=255, got 256"),
])
def test_int_keywords_name_their_limits(kw, value, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        keccakx.new("keccak", **{kw: value})
    with pytest.raises(TypeError, match=f"{kw.split()[0]}.* must be an int, not 'str'"):
        keccakx.new("keccak", **{kw: "1"})


def test_given_none_is_not_given():
    # None for a keyword the function does not take is no error (as before).
    assert keccakx.new("sha3_256", custom=None).hexdigest() == keccakx.sha3_256().hexdigest()


def test_cluster_checks_follow_the_registry():
    sha3 = cluster._info("sha3-256")
    kmac = cluster._info("kmac128")
    tree = cluster._info("tree-li")
    raw = cluster._info("keccak")
    assert cluster.params_for(kmac, {"custom": b"x", "rate": 8, "key": b"k"}) == {"custom": b"x", "key": b"k"}
    assert cluster.params_for(tree, {"rate": 1024, "width": 1600, "degree": 2}) == {"rate": 1024, "degree": 2}
    # Refusals come from the library, in keccakx sum's words and flags.
    assert cluster.refusal(sha3, None, {"custom": b"x"}) == "-a sha3-256: SHA3-256 takes no --customization"
    assert cluster.refusal(sha3, None, {"capacity": 512}).startswith("-a sha3-256: SHA3-256 takes no --capacity (only raw")
    assert "takes no --suffix" in cluster.refusal(tree, None, {"rate": 1024, "suffix": 6})
    assert "takes no --height (--degree, --height and --prefix are tree-LI" in cluster.refusal(raw, None, {"rate": 1088, "height": 2})
    assert cluster.refusal(tree, None, {"rate": 1024, "prefix": b"p"}) is None
    assert cluster.refusal(kmac, None, {}) == "-a kmac128: KMAC128 needs --key-hex or --key-file"
    # In a check without -a, the default keeps only what it takes.
    assert cluster.refusal(sha3, None, {"custom": b"x"}, check_list=True) is None
