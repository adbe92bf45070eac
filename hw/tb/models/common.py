"""Constants computed from their definitions, shared by the models and the
RTL constant generator (hw/codegen/gen_study_consts.py)."""

from decimal import Decimal, getcontext


def isqrt(n):
    """floor(sqrt(n)) for an integer n >= 0."""
    if n < 2:
        return n
    x = 1 << ((n.bit_length() + 1) // 2)
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


def primes(n):
    out, k = [], 2
    while len(out) < n:
        if all(k % p for p in out):
            out.append(k)
        k += 1
    return out


def frac_root_bits(x, root, bits):
    """The first `bits` bits of the fractional part of x ** (1/root)."""
    getcontext().prec = 80
    lo, hi = Decimal(0), Decimal(x)
    for _ in range(300):
        mid = (lo + hi) / 2
        if mid ** root < x:
            lo = mid
        else:
            hi = mid
    return int((lo % 1) * (1 << bits))


def sha256_iv():
    """FIPS 180-4 5.3.3: the square roots of the first 8 primes."""
    return [frac_root_bits(p, 2, 32) for p in primes(8)]


def sha256_k():
    """FIPS 180-4 4.2.2: the cube roots of the first 64 primes."""
    return [frac_root_bits(p, 3, 32) for p in primes(64)]


def pi_hex_digits(n):
    """The first n hexadecimal digits of the fractional part of pi (Machin's
    formula in integer arithmetic, with guard digits)."""
    guard = 10
    one = 16 ** (n + guard)

    def arctan_inv(x):
        total, term, k, sign = 0, one // x, 1, 1
        while term:
            total += sign * (term // k)
            term //= x * x
            k += 2
            sign = -sign
        return total

    pi = 4 * (4 * arctan_inv(5) - arctan_inv(239))
    frac = (pi - 3 * one) // 16 ** guard
    return f"{frac:0{n}x}"
