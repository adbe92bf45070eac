// BMW-256's compression function f(M, H) -> H' as functions, included inside
// a module after bmw_consts.vh. Words are 32-bit, word i in bits 32i+31:32i.
// f0: W_j = sum of +-(M xor H)_i over the five i of the specification's
// table (BMW_F0_IDX, BMW_F0_NEG), Q_j = s_(j mod 5)(W_j) + H_(j+1 mod 16);
// f1: Q_16, Q_17 by expand1, Q_18..Q_31 by expand2, each a multi-operand
// sum plus AddElement(j); f2: the new H folded from M and Q. The sums are
// written as plain additions (generic adders; the synthesis tool builds
// them).

function [31:0] bmw_rotl;
    input [31:0] x;
    input integer n;
    bmw_rotl = (n % 32 == 0) ? x : ((x << (n % 32)) | (x >> (32 - n % 32)));
endfunction

// shift left by n > 0, right by -n (n a 5-bit two's complement number)
function [31:0] bmw_shift;
    input [31:0] x;
    input [4:0]  n;
    bmw_shift = n[4] ? (x >> (~n + 5'd1)) : (x << n);
endfunction

function [31:0] bmw_s;
    input integer i;
    input [31:0] x;
    case (i)
        0: bmw_s = (x >> 1) ^ (x << 3) ^ bmw_rotl(x, 4)  ^ bmw_rotl(x, 19);
        1: bmw_s = (x >> 1) ^ (x << 2) ^ bmw_rotl(x, 8)  ^ bmw_rotl(x, 23);
        2: bmw_s = (x >> 2) ^ (x << 1) ^ bmw_rotl(x, 12) ^ bmw_rotl(x, 25);
        3: bmw_s = (x >> 2) ^ (x << 2) ^ bmw_rotl(x, 15) ^ bmw_rotl(x, 29);
        4: bmw_s = (x >> 1) ^ x;
        default: bmw_s = (x >> 2) ^ x;
    endcase
endfunction

function [511:0] bmw_f;
    input [511:0] m;
    input [511:0] h;
    reg   [1023:0] q;
    reg   [31:0]  w, t, xl, xh;
    reg   [511:0] o;
    integer j, k, a, b, c, n;
    begin
        // f0
        for (j = 0; j < 16; j = j + 1) begin
            w = 32'd0;
            for (k = 0; k < 5; k = k + 1) begin
                n = {28'd0, BMW_F0_IDX[20*j + 4*k +: 4]};
                t = m[32*n +: 32] ^ h[32*n +: 32];
                w = BMW_F0_NEG[5*j + k] ? w - t : w + t;
            end
            q[32*j +: 32] = bmw_s(j % 5, w) + h[32*((j + 1) % 16) +: 32];
        end
        // f1
        for (j = 16; j < 32; j = j + 1) begin
            a = j - 16; b = (j - 13) % 16; c = (j - 6) % 16;
            w = (bmw_rotl(m[32*a +: 32], a + 1) + bmw_rotl(m[32*b +: 32], b + 1)
                 - bmw_rotl(m[32*c +: 32], c + 1) + j * 32'h05555555) ^ h[32*((j - 9) % 16) +: 32];
            if (j < 18) begin                          // expand1
                for (k = 0; k < 16; k = k + 1)
                    w = w + bmw_s((k + 1) % 4, q[32*(j - 16 + k) +: 32]);
            end else begin                             // expand2
                for (k = 0; k < 14; k = k + 1)
                    w = w + ((k % 2 == 0) ? q[32*(j - 16 + k) +: 32]
                                          : bmw_rotl(q[32*(j - 16 + k) +: 32],
                                                     (k == 1) ? 3 : (k == 3) ? 7 : (k == 5) ? 13 :
                                                     (k == 7) ? 16 : (k == 9) ? 19 : (k == 11) ? 23 : 27));
                w = w + bmw_s(4, q[32*(j - 2) +: 32]) + bmw_s(5, q[32*(j - 1) +: 32]);
            end
            q[32*j +: 32] = w;
        end
        // f2
        xl = q[32*16 +: 32] ^ q[32*17 +: 32] ^ q[32*18 +: 32] ^ q[32*19 +: 32]
           ^ q[32*20 +: 32] ^ q[32*21 +: 32] ^ q[32*22 +: 32] ^ q[32*23 +: 32];
        xh = xl ^ q[32*24 +: 32] ^ q[32*25 +: 32] ^ q[32*26 +: 32] ^ q[32*27 +: 32]
           ^ q[32*28 +: 32] ^ q[32*29 +: 32] ^ q[32*30 +: 32] ^ q[32*31 +: 32];
        for (j = 0; j < 8; j = j + 1)
            o[32*j +: 32] = (bmw_shift(xh, BMW_F2_LOW[10*j +: 5]) ^ bmw_shift(q[32*(16 + j) +: 32], BMW_F2_LOW[10*j + 5 +: 5])
                             ^ m[32*j +: 32]) + (xl ^ q[32*(24 + j) +: 32] ^ q[32*j +: 32]);
        for (j = 8; j < 16; j = j + 1)
            o[32*j +: 32] = bmw_rotl(o[32*((j - 4) % 8) +: 32], j + 1)
                          + (xh ^ q[32*(16 + j) +: 32] ^ m[32*j +: 32])
                          + (bmw_shift(xl, BMW_F2_HIGH[5*(j - 8) +: 5]) ^ q[32*(16 + (j - 1) % 8) +: 32]
                             ^ q[32*j +: 32]);
        bmw_f = o;
    end
endfunction
