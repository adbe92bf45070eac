// One CubeHash round (the specification's ten steps) as a function, included
// inside a module. The state is 32 little-endian words x[0..31], word i in
// bits 32i+31:32i; x[0..15] are the "0jklm" words, x[16..31] the "1jklm"
// words. The swaps are wiring: word i takes its partner's value.
function [1023:0] cubehash_rnd;
    input [1023:0] s;
    reg   [511:0]  a, b, t;
    integer i;
    begin
        a = s[511:0];
        b = s[1023:512];
        for (i = 0; i < 16; i = i + 1)                            // 1. add
            b[32*i +: 32] = b[32*i +: 32] + a[32*i +: 32];
        for (i = 0; i < 16; i = i + 1)                            // 2. rotate by 7
            a[32*i +: 32] = {a[32*i +: 25], a[32*i + 25 +: 7]};
        for (i = 0; i < 16; i = i + 1)                            // 3. swap, 4. xor
            t[32*i +: 32] = a[32*(i ^ 8) +: 32] ^ b[32*i +: 32];
        a = t;
        for (i = 0; i < 16; i = i + 1)                            // 5. swap, 6. add
            t[32*i +: 32] = b[32*(i ^ 2) +: 32] + a[32*i +: 32];
        b = t;
        for (i = 0; i < 16; i = i + 1)                            // 7. rotate by 11
            a[32*i +: 32] = {a[32*i +: 21], a[32*i + 21 +: 11]};
        for (i = 0; i < 16; i = i + 1)                            // 8. swap, 9. xor
            t[32*i +: 32] = a[32*(i ^ 4) +: 32] ^ b[32*i +: 32];
        a = t;
        for (i = 0; i < 16; i = i + 1)                            // 10. swap
            t[32*i +: 32] = b[32*(i ^ 1) +: 32];
        cubehash_rnd = {t, a};
    end
endfunction
