//! Portable Threefish-256/512/1024 and UBI.

/// Key-schedule parity constant C240.
pub(crate) const C240: u64 = 0x1BD11BDAA9FC1A22;

/// Rotation constants R_{d,j} (d = round mod 8), per state size.
pub(crate) const R4: [[u32; 2]; 8] = [
    [14, 16],
    [52, 57],
    [23, 40],
    [5, 37],
    [25, 33],
    [46, 12],
    [58, 22],
    [32, 32],
];
pub(crate) const R8: [[u32; 4]; 8] = [
    [46, 36, 19, 37],
    [33, 27, 14, 42],
    [17, 49, 36, 39],
    [44, 9, 54, 56],
    [39, 30, 34, 24],
    [13, 50, 10, 17],
    [25, 29, 39, 43],
    [8, 35, 56, 22],
];
pub(crate) const R16: [[u32; 8]; 8] = [
    [24, 13, 8, 47, 8, 17, 22, 37],
    [38, 19, 10, 55, 49, 18, 23, 52],
    [33, 4, 51, 13, 34, 41, 59, 17],
    [5, 20, 48, 41, 47, 28, 16, 25],
    [41, 9, 37, 31, 12, 47, 44, 30],
    [16, 34, 56, 51, 4, 53, 42, 41],
    [31, 44, 47, 46, 19, 42, 44, 25],
    [9, 48, 35, 52, 23, 31, 37, 20],
];
/// Word permutations pi: after a round, word i takes the old word PI[i].
pub(crate) const PI4: [usize; 4] = [0, 3, 2, 1];
pub(crate) const PI8: [usize; 8] = [2, 1, 4, 7, 6, 5, 0, 3];
pub(crate) const PI16: [usize; 16] = [0, 9, 2, 13, 6, 11, 4, 15, 10, 7, 12, 3, 14, 5, 8, 1];

#[inline(always)]
pub(crate) const fn rot(nw: usize, d: usize, j: usize) -> u32 {
    match nw {
        4 => R4[d % 8][j],
        8 => R8[d % 8][j],
        _ => R16[d % 8][j],
    }
}
#[inline(always)]
pub(crate) const fn pi(nw: usize, i: usize) -> usize {
    match nw {
        4 => PI4[i],
        8 => PI8[i],
        _ => PI16[i],
    }
}
pub(crate) const fn rounds(nw: usize) -> usize {
    if nw == 16 {
        80
    } else {
        72
    }
}

/// Extended key k_0..k_NW (k_NW = C240 ^ xor of all) and tweak t_0, t_1, t_2.
#[inline(always)]
pub(crate) const fn expand<const NW: usize>(
    key: &[u64; NW],
    tweak: [u64; 2],
) -> ([u64; 17], [u64; 3]) {
    let mut k = [0u64; 17];
    let mut par = C240;
    let mut i = 0;
    while i < NW {
        k[i] = key[i];
        par ^= key[i];
        i += 1;
    }
    k[NW] = par;
    (k, [tweak[0], tweak[1], tweak[0] ^ tweak[1]])
}

/// Word `i` of subkey `s`.
#[inline(always)]
pub(crate) const fn subkey_word<const NW: usize>(
    k: &[u64; 17],
    t: &[u64; 3],
    s: usize,
    i: usize,
) -> u64 {
    let mut w = k[(s + i) % (NW + 1)];
    if i == NW - 3 {
        w = w.wrapping_add(t[s % 3]);
    } else if i == NW - 2 {
        w = w.wrapping_add(t[(s + 1) % 3]);
    } else if i == NW - 1 {
        w = w.wrapping_add(s as u64);
    }
    w
}

/// Threefish encryption, written plainly (used at compile time for the IVs).
pub(crate) const fn threefish_const<const NW: usize>(
    key: &[u64; NW],
    tweak: [u64; 2],
    p: &[u64; NW],
) -> [u64; NW] {
    let (k, t) = expand::<NW>(key, tweak);
    let mut v = *p;
    let nr = rounds(NW);
    let mut d = 0;
    while d < nr {
        if d % 4 == 0 {
            let mut i = 0;
            while i < NW {
                v[i] = v[i].wrapping_add(subkey_word::<NW>(&k, &t, d / 4, i));
                i += 1;
            }
        }
        let mut j = 0;
        while j < NW / 2 {
            let a = v[2 * j].wrapping_add(v[2 * j + 1]);
            v[2 * j + 1] = v[2 * j + 1].rotate_left(rot(NW, d, j)) ^ a;
            v[2 * j] = a;
            j += 1;
        }
        let old = v;
        let mut i = 0;
        while i < NW {
            v[i] = old[pi(NW, i)];
            i += 1;
        }
        d += 1;
    }
    let mut i = 0;
    while i < NW {
        v[i] = v[i].wrapping_add(subkey_word::<NW>(&k, &t, nr / 4, i));
        i += 1;
    }
    v
}

/// One round `D` (mod 8) with the permutation applied, fully specialised.
#[inline(always)]
fn round<const NW: usize, const D: usize>(v: &mut [u64; NW]) {
    for j in 0..NW / 2 {
        let a = v[2 * j].wrapping_add(v[2 * j + 1]);
        v[2 * j + 1] = v[2 * j + 1].rotate_left(rot(NW, D, j)) ^ a;
        v[2 * j] = a;
    }
    let old = *v;
    for i in 0..NW {
        v[i] = old[pi(NW, i)];
    }
}

#[inline(always)]
fn add_key<const NW: usize>(v: &mut [u64; NW], k: &[u64; 17], t: &[u64; 3], s: usize) {
    for i in 0..NW {
        v[i] = v[i].wrapping_add(subkey_word::<NW>(k, t, s, i));
    }
}

/// Threefish encryption, unrolled by eight rounds for the run-time path.
#[inline(always)]
pub(crate) fn threefish<const NW: usize>(
    key: &[u64; NW],
    tweak: [u64; 2],
    p: &[u64; NW],
) -> [u64; NW] {
    let (k, t) = expand::<NW>(key, tweak);
    let mut v = *p;
    let nr = rounds(NW);
    let mut s = 0;
    while s < nr / 4 {
        add_key::<NW>(&mut v, &k, &t, s);
        round::<NW, 0>(&mut v);
        round::<NW, 1>(&mut v);
        round::<NW, 2>(&mut v);
        round::<NW, 3>(&mut v);
        add_key::<NW>(&mut v, &k, &t, s + 1);
        round::<NW, 4>(&mut v);
        round::<NW, 5>(&mut v);
        round::<NW, 6>(&mut v);
        round::<NW, 7>(&mut v);
        s += 2;
    }
    add_key::<NW>(&mut v, &k, &t, nr / 4);
    v
}

/// UBI step: h <- E_h,tweak(m) ^ m.
pub(crate) fn ubi<const NW: usize>(h: &mut [u64; NW], m: &[u64; NW], tweak: [u64; 2]) {
    let c = threefish::<NW>(h, tweak, m);
    for i in 0..NW {
        h[i] = c[i] ^ m[i];
    }
}
