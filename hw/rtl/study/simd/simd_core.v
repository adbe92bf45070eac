// SIMD-256 core (v1.1, round two) after the 2009 ASIC study's design: the
// message expansion with 16 parallel FFT-8 units and 16 modular multipliers,
// the compression with four parallel Feistel ladders, one step per cycle:
// 32 steps and the 4 feed-forward steps, 36 cycles per 512-bit block.
//
// Two stages in lockstep on one phase counter ph (0..35, one block period):
//   E (expansion) takes a block at ph = 20 and computes the NTT of
//     the SIMD model's decomposition (hw/tb/models/simd.py, ntt_fft): at the take the
//     twisting layer's additions (the X^127 and, for the final block, X^125
//     terms folded in), ph 21-24 the twisting multiplications (16 per cycle),
//     ph 25 the column FFT-8s of both 64-point NTTs (16 units), ph 26-33 the
//     twiddle multiplications (16 per cycle); at ph 34 the same FFT-8 units
//     do the row transforms and the 128 values, lifted to -128..128, go to
//     the compression stage's buffer Y.
//   C (compression) runs step k at ph = k; the step's four message words are
//     a register W loaded the cycle before (from Y, the inner code x185 or
//     x233, or the chaining value for the feed-forward steps), and so are the
//     step's rotations, Boolean function and ladder permutation. At ph = 35
//     the next block starts: state = chaining value ^ M.
// Block periods follow each other back to back, so a long message takes a
// block every 36 cycles. The wrapper zero-fills the message to a block
// boundary; the core adds SIMD's final block itself (the message length in
// bits, compressed with the final expansion) in the period after the last
// message block, and skips the wrapper's empty block of a zero-length
// message (whose final block is all zero). A digest waits in its register
// until acknowledged; the pipeline stalls only if the next digest is due
// before then.
// Interface: the generic block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); byte i of the block in in_block[8i+7:8i],
// words little-endian.
`timescale 1ns/1ps
module simd_core (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [511:0] in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,    // bits 63:61 unused: messages are shorter than 2^61 bytes
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire         in_nomsg,
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
`include "simd_consts.vh"

    localparam [5:0] PH_TAKE = 6'd20;   // E takes a block
    localparam [5:0] PH_XFER = 6'd34;   // E hands the expanded block to C
    localparam [5:0] PH_LAST = 6'd35;   // C's last step; the next block starts

    function [31:0] rotl;
        input [31:0] x;
        input [4:0]  n;
        rotl = (x << n) | (x >> (6'd32 - {1'b0, n}));
    endfunction
    // a * c mod 257 for a, c in 0..256, canonical 0..256
    function [8:0] mulred;
        input [8:0] a, c;
        reg [16:0] p;
        reg signed [9:0] r1;
        /* verilator lint_off UNUSEDSIGNAL */
        reg signed [9:0] r2;
        /* verilator lint_on UNUSEDSIGNAL */
        begin
            p  = a * c;
            r1 = $signed({2'b00, p[7:0]}) - $signed({1'b0, p[16:8]});
            r2 = $signed({2'b00, r1[7:0]}) - $signed({{8{r1[9]}}, r1[9:8]});
            mulred = r2[8:0];       // r2 in 0..256
        end
    endfunction
    // 0..256 -> -128..128
    function [8:0] lift;
        input [8:0] v;
        lift = (v > 9'd128) ? v - 9'd257 : v;
    endfunction
    // one 32-bit word of the expanded message from two lifted values
    function [31:0] inner;
        input [8:0] lo, hi;
        input       big;             // x233 (rounds 2, 3), else x185
        reg [15:0] l, h;
        begin
            l = {{7{lo[8]}}, lo};
            h = {{7{hi[8]}}, hi};
            inner = big ? {h * 16'd233, l * 16'd233} : {h * 16'd185, l * 16'd185};
        end
    endfunction

    // ------------------------------------------------------------- control
    reg  [5:0]  ph;
    reg         e_busy, e_first, e_final;      // E holds a block
    reg         len_pend;                      // the final (length) block is due
    reg  [63:0] len_bits;
    reg         c_run, c_final;                // C runs a block
    reg         n_load, n_first, n_final;      // a block waits in Y for C
    reg         hold;
    wire        digest_due = (ph == PH_LAST) & c_run & c_final;
    wire        adv = ~(digest_due & hold & ~out_ack);   // stall only on a held digest
    wire        at_take = adv & (ph == PH_TAKE) & ~e_busy;
    assign      in_ready = at_take & ~len_pend;
    wire        take     = in_valid & in_ready;
    wire        len_take = at_take & len_pend;
    wire        e_load   = take | len_take;
    wire        xfer     = adv & (ph == PH_XFER) & e_busy;
    wire        start    = adv & (ph == PH_LAST) & n_load;

    always @(posedge clk) begin
        if (rst) begin
            ph <= PH_TAKE; e_busy <= 1'b0; e_first <= 1'b0; e_final <= 1'b0; len_pend <= 1'b0;
            c_run <= 1'b0; c_final <= 1'b0;
            n_load <= 1'b0; n_first <= 1'b0; n_final <= 1'b0; hold <= 1'b0;
        end else begin
            if (adv) begin
                if (ph == PH_LAST)
                    ph <= n_load ? 6'd0 : PH_TAKE;     // nothing for C: wait for the next take
                else if (ph == PH_TAKE && !(e_load || c_run))
                    ph <= PH_TAKE;
                else
                    ph <= ph + 6'd1;
            end
            if (e_load) begin
                e_busy  <= 1'b1;
                e_first <= take & in_first;
                e_final <= len_take | in_nomsg;       // the empty message's block is the final one
            end
            if (take & in_last & ~in_nomsg) len_pend <= 1'b1;
            if (len_take) len_pend <= 1'b0;
            if (xfer) begin
                e_busy <= 1'b0; n_load <= 1'b1; n_first <= e_first; n_final <= e_final;
            end
            if (adv && ph == PH_LAST) begin
                c_run <= n_load; c_final <= n_final; n_load <= 1'b0;
            end
            if (adv & digest_due) hold <= 1'b1;
            else if (out_ack) hold <= 1'b0;
        end
    end
    always @(posedge clk)
        if (take & in_last) len_bits <= {in_count[60:0], 3'b000};

    // ------------------------------------------------------- E: expansion
    reg  [511:0] blk;                 // the block in E (and its M for C's start)
    reg  [8:0]   x [0:127];           // u in 0..63, v in 64..127 (index 8a + b)
    wire [511:0] blk_in = take ? in_block : {448'd0, len_bits};
    wire         fin_in = len_take | in_nomsg;

    // the 16 multipliers: twisting (ph 21-24) or twiddles (ph 26-33)
    wire        twisting = (ph >= 6'd21) & (ph <= 6'd24);
    wire [1:0]  tq = ph[1:0] - 2'd1;             // twisting batch 0..3 (ph 21..24)
    wire [2:0]  dq = ph[2:0] - 3'd2;             // twiddle row b 0..7 (ph 26..33)
    reg  [8:0]  mul_a [0:15];
    reg  [8:0]  mul_c [0:15];
    wire [8:0]  mul_o [0:15];
    integer l;
    always @(*) begin
        for (l = 0; l < 16; l = l + 1) begin
            if (twisting) begin
                mul_a[l] = x[64 + 16 * tq + l];
                mul_c[l] = simd_twist({tq, l[3:0]});
            end else begin
                mul_a[l] = x[64 * (l / 8) + 8 * dq + (l % 8)];
                mul_c[l] = simd_twiddle({dq, l[2:0]});
            end
        end
    end
    genvar g, h;
    generate
        for (g = 0; g < 16; g = g + 1) begin : g_mul
            assign mul_o[g] = mulred(mul_a[g], mul_c[g]);
        end
    endgenerate

    // the 16 FFT-8 units: unit (branch br, column c) reads x[64br + 8a + c],
    // a = 0..7 (the columns, and after the transposed write the rows)
    wire [71:0] fft_o [0:15];
    generate
        for (g = 0; g < 16; g = g + 1) begin : g_fft
            wire [71:0] zin;
            for (h = 0; h < 8; h = h + 1) begin : g_z
                assign zin[9*h +: 9] = x[64 * (g / 8) + 8 * h + (g % 8)];
            end
            simd_fft8 u_fft (.z(zin), .y(fft_o[g]));
        end
    endgenerate

    integer j, q, br, cc, m;
    always @(posedge clk) begin
        if (e_load) begin
            blk <= blk_in;
            for (j = 0; j < 64; j = j + 1) begin
                if (j == 63 || (j == 61 && fin_in)) begin
                    x[j]      <= {1'b0, blk_in[8*j +: 8]} + 9'd1;
                    x[64 + j] <= (blk_in[8*j +: 8] == 8'd0) ? 9'd256 : {1'b0, blk_in[8*j +: 8]} - 9'd1;
                end else begin
                    x[j]      <= {1'b0, blk_in[8*j +: 8]};
                    x[64 + j] <= {1'b0, blk_in[8*j +: 8]};
                end
            end
        end else if (adv & e_busy) begin
            for (q = 0; q < 4; q = q + 1)
                if (ph == q[5:0] + 6'd21)
                    for (l = 0; l < 16; l = l + 1)
                        x[64 + 16 * q + l] <= mul_o[l];
            if (ph == 6'd25)                     // column FFTs, written transposed
                for (br = 0; br < 2; br = br + 1)
                    for (cc = 0; cc < 8; cc = cc + 1)
                        for (m = 0; m < 8; m = m + 1)
                            x[64 * br + 8 * cc + m] <= fft_o[8 * br + cc][9*m +: 9];
            for (q = 0; q < 8; q = q + 1)
                if (ph == q[5:0] + 6'd26)
                    for (l = 0; l < 16; l = l + 1)
                        x[64 * (l / 8) + 8 * q + (l % 8)] <= mul_o[l];
        end
    end

    // ----------------------------------------------------- C: compression
    reg  [1151:0] y;                  // the expanded block, lifted, y[i] in bits 9i+8:9i
    reg  [31:0]   st [0:15];          // A0..3, B0..3, C0..3, D0..3
    reg  [31:0]   hc [0:15];          // the chaining value (feed-forward key)
    reg  [31:0]   w  [0:3];           // this step's message words
    reg  [12:0]   ctl;                // this step's {MAJ, p, r, s}
    reg  [255:0]  dig;

    // the row FFTs: unit (br, m1) output m2 is y[2(m1 + 8 m2) + br]
    always @(posedge clk) begin
        if (xfer)
            for (br = 0; br < 2; br = br + 1)
                for (cc = 0; cc < 8; cc = cc + 1)
                    for (m = 0; m < 8; m = m + 1)
                        y[9 * (2 * (cc + 8 * m) + br) +: 9] <= lift(fft_o[8 * br + cc][9*m +: 9]);
    end

    // the next step's words and controls
    wire [5:0]  knext = (ph == PH_LAST) ? 6'd0 : ph + 6'd1;
    wire [71:0] sel   = simd_wsel(y, knext[4:0]);
    always @(posedge clk) begin
        if (adv) begin
            ctl <= simd_ctrl(knext);
            for (j = 0; j < 4; j = j + 1)
                w[j] <= knext[5] ? hc[4 * knext[1:0] + j]
                                 : inner(sel[18*j +: 9], sel[18*j+9 +: 9], knext[4]);
        end
    end

    // one step of the four ladders: A' = D', B' = A <<< r, C' = B, D' = C
    wire        f_maj = ctl[12];
    wire [1:0]  f_p   = ctl[11:10];
    wire [4:0]  f_r   = ctl[9:5];
    wire [4:0]  f_s   = ctl[4:0];
    reg  [31:0] ra [0:3];
    reg  [31:0] nx [0:15];            // the state after the step
    reg  [31:0] fv, sum;
    always @(*) begin
        for (j = 0; j < 4; j = j + 1)
            ra[j] = rotl(st[j], f_r);
        for (j = 0; j < 4; j = j + 1) begin
            fv = f_maj ? ((st[j] & st[4 + j]) | (st[j] & st[8 + j]) | (st[4 + j] & st[8 + j]))
                       : ((st[j] & st[4 + j]) | (~st[j] & st[8 + j]));
            sum = st[12 + j] + w[j] + fv;
            nx[j]      = rotl(sum, f_s) + ra[j[1:0] ^ f_p];
            nx[4 + j]  = ra[j];
            nx[8 + j]  = st[4 + j];
            nx[12 + j] = st[8 + j];
        end
    end

    always @(posedge clk) begin
        if (start) begin                          // the next block: state = H ^ M
            for (j = 0; j < 16; j = j + 1) begin
                hc[j] <= n_first ? SIMD_IV[32*j +: 32] : (c_run ? nx[j] : st[j]);
                st[j] <= (n_first ? SIMD_IV[32*j +: 32] : (c_run ? nx[j] : st[j])) ^ blk[32*j +: 32];
            end
        end else if (adv & c_run) begin
            for (j = 0; j < 16; j = j + 1)
                st[j] <= nx[j];
        end
        if (adv & digest_due)
            for (j = 0; j < 8; j = j + 1)
                dig[32*j +: 32] <= nx[j];
    end

    assign out_valid  = hold;
    assign out_digest = dig;
endmodule
