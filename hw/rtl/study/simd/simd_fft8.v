// The 8-point NTT mod 257 of SIMD's message expansion (root 4, so every
// twiddle factor is a shift): y_m = sum_n z_n 4^(nm) mod 257. Inputs and
// outputs are canonical residues 0..256, natural order (z_n in bits
// 9n+8:9n). One radix-2 decimation-in-frequency layer (z_n +- z_n+4, the
// odd half shifted by 2n), then two 4-point NTTs with the root 16; shifted
// terms are folded (256 = -1 mod 257) to keep the adders narrow, and each
// output is brought back to 0..256 at the end. Purely combinational.
`timescale 1ns/1ps
module simd_fft8 (
    input  wire [71:0] z,
    output wire [71:0] y
);
    // x mod 257 for |x| < 2^15, in -64..319 (one fold: 256 = -1)
    function signed [10:0] fold;
        input signed [15:0] x;
        fold = $signed({3'b000, x[7:0]}) - $signed({{3{x[15]}}, x[15:8]});
    endfunction
    // x mod 257 for -4096 <= x < 4096, canonical 0..256 (two folds, one fix)
    function [8:0] canon;
        input signed [12:0] x;
        reg signed [9:0] r1, r2;
        begin
            r1 = $signed({2'b00, x[7:0]}) - $signed({{5{x[12]}}, x[12:8]});
            r2 = $signed({2'b00, r1[7:0]}) - $signed({{8{r1[9]}}, r1[9:8]});
            canon = r2[9] ? 9'd256 : r2[8:0];
        end
    endfunction

    wire signed [10:0] zs [0:7];
    genvar n;
    generate
        for (n = 0; n < 8; n = n + 1) begin : g_in
            assign zs[n] = $signed({2'b00, z[9*n +: 9]});
        end
    endgenerate

    // first layer: a_n = z_n + z_n+4, b_n = (z_n - z_n+4) * 4^n
    wire signed [10:0] a0 = zs[0] + zs[4], a1 = zs[1] + zs[5], a2 = zs[2] + zs[6], a3 = zs[3] + zs[7];
    wire signed [10:0] d4 = zs[0] - zs[4], d5 = zs[1] - zs[5], d6 = zs[2] - zs[6], d7 = zs[3] - zs[7];
    wire signed [15:0] d5w = {{5{d5[10]}}, d5}, d6w = {{5{d6[10]}}, d6}, d7w = {{5{d7[10]}}, d7};
    wire signed [10:0] b0 = d4;
    wire signed [10:0] b1 = fold(d5w <<< 2);
    wire signed [10:0] b2 = fold(d6w <<< 4);
    wire signed [10:0] b3 = fold(d7w <<< 6);

    // the 4-point NTT (root 16) of each half: outputs 0..3
    function [51:0] ntt4;            // four 13-bit signed results
        input signed [10:0] p0, p1, p2, p3;
        reg signed [12:0] q0, q1, q2, q3, c0, c1, dd0, dd1;
        reg signed [15:0] e;
        reg signed [10:0] f;
        begin
            q0  = {{2{p0[10]}}, p0};
            q1  = {{2{p1[10]}}, p1};
            q2  = {{2{p2[10]}}, p2};
            q3  = {{2{p3[10]}}, p3};
            c0  = q0 + q2;
            c1  = q1 + q3;
            dd0 = q0 - q2;
            e   = {{3{q1[12]}}, q1} - {{3{q3[12]}}, q3};
            f   = fold(e <<< 4);
            dd1 = {{2{f[10]}}, f};
            ntt4 = {dd0 - dd1, c0 - c1, dd0 + dd1, c0 + c1};
        end
    endfunction
    wire [51:0] ev = ntt4(a0, a1, a2, a3);   // y_0, y_2, y_4, y_6
    wire [51:0] od = ntt4(b0, b1, b2, b3);   // y_1, y_3, y_5, y_7
    generate
        for (n = 0; n < 4; n = n + 1) begin : g_out
            assign y[9*(2*n) +: 9]   = canon(ev[13*n +: 13]);
            assign y[9*(2*n+1) +: 9] = canon(od[13*n +: 13]);
        end
    endgenerate
endmodule
