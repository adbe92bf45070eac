// BLAKE-32 / BLAKE-256 core after the 2009 ASIC study: four G functions in
// parallel (a column or a diagonal step per cycle, two cycles a round), a
// pipeline register at the output of the permutation table (the message and
// constant words of the next step, m[sigma(2i)] ^ c[sigma(2i+1)], are picked
// a cycle ahead), and the finalisation one cycle after the last step:
// 1 + 2*ROUNDS + 1 cycles per block (22 for the round-two 10 rounds, 30 for
// the final 14). No salt.
// Interface: the block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); words big-endian.
`timescale 1ns/1ps
module blake_core #(
    parameter integer ROUNDS = 10       // 10: BLAKE-32 (round two), 14: BLAKE-256 (final)
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [511:0] in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,       // bytes; the counter t is bits (mod 2^64)
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire         in_nomsg,
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
`include "blake_consts.vh"

    localparam integer LAST = 2 * ROUNDS - 1;
    localparam [4:0]   LAST_STEP = LAST[4:0];

    function [31:0] bswap;
        input [31:0] x;
        bswap = {x[7:0], x[15:8], x[23:16], x[31:24]};
    endfunction
    function [31:0] rotr;
        input [31:0] x;
        input integer n;
        rotr = (x >> n) | (x << (32 - n));
    endfunction
    // the message word of slot k in step s
    function [31:0] mword;
        input [511:0] m;
        input [4:0]   s;
        input [2:0]   k;
        reg [3:0] idx;
        begin
            idx = blake_mi({s, k});
            mword = m[32 * idx +: 32];
        end
    endfunction

    reg  [255:0] h;               // chaining value, h_0 in bits 31:0
    reg  [511:0] v;               // the state v_0 .. v_15
    reg  [511:0] m;               // message words, big-endian decoded
    reg  [255:0] mc;              // m ^ c of the 8 slots of the current step
    reg  [4:0]   step;
    reg          busy, fin, hold, lastf;
    wire         take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    // the block's words and the first step's slots, straight from the input
    reg  [511:0] m_in;
    integer w;
    always @(*)
        for (w = 0; w < 16; w = w + 1)
            m_in[32 * w +: 32] = bswap(in_block[32 * w +: 32]);

    // the slots of step `s` from message `src`
    function [255:0] slots;
        input [511:0] src;
        input [4:0]   s;
        reg   [3:0]   k;
        begin
            for (k = 4'd0; k < 4'd8; k = k + 4'd1)
                slots[32 * k +: 32] = mword(src, s, k[2:0]) ^ blake_cv({s, k[2:0]});
        end
    endfunction

    // G on (a, b, c, d) with the two slot words x (first) and y (second)
    function [127:0] g;
        input [127:0] abcd;
        input [31:0]  x, y;
        reg [31:0] a, b, c, d;
        begin
            a = abcd[31:0]; b = abcd[63:32]; c = abcd[95:64]; d = abcd[127:96];
            a = a + b + x;
            d = rotr(d ^ a, 16);
            c = c + d;
            b = rotr(b ^ c, 12);
            a = a + b + y;
            d = rotr(d ^ a, 8);
            c = c + d;
            b = rotr(b ^ c, 7);
            g = {d, c, b, a};
        end
    endfunction

    function [31:0] vw;
        input [511:0] s;
        input integer i;
        vw = s[32 * i +: 32];
    endfunction

    // one step: the four G functions on the columns (even steps) or diagonals
    reg [511:0] vnext;
    reg [127:0] r0, r1, r2, r3;
    always @(*) begin
        vnext = v;
        if (step[0] == 1'b0) begin
            r0 = g({vw(v, 12), vw(v, 8),  vw(v, 4), vw(v, 0)}, mc[31:0],    mc[63:32]);
            r1 = g({vw(v, 13), vw(v, 9),  vw(v, 5), vw(v, 1)}, mc[95:64],   mc[127:96]);
            r2 = g({vw(v, 14), vw(v, 10), vw(v, 6), vw(v, 2)}, mc[159:128], mc[191:160]);
            r3 = g({vw(v, 15), vw(v, 11), vw(v, 7), vw(v, 3)}, mc[223:192], mc[255:224]);
            {vnext[32*12 +: 32], vnext[32*8  +: 32], vnext[32*4 +: 32], vnext[32*0 +: 32]} = r0;
            {vnext[32*13 +: 32], vnext[32*9  +: 32], vnext[32*5 +: 32], vnext[32*1 +: 32]} = r1;
            {vnext[32*14 +: 32], vnext[32*10 +: 32], vnext[32*6 +: 32], vnext[32*2 +: 32]} = r2;
            {vnext[32*15 +: 32], vnext[32*11 +: 32], vnext[32*7 +: 32], vnext[32*3 +: 32]} = r3;
        end else begin
            r0 = g({vw(v, 15), vw(v, 10), vw(v, 5), vw(v, 0)}, mc[31:0],    mc[63:32]);
            r1 = g({vw(v, 12), vw(v, 11), vw(v, 6), vw(v, 1)}, mc[95:64],   mc[127:96]);
            r2 = g({vw(v, 13), vw(v, 8),  vw(v, 7), vw(v, 2)}, mc[159:128], mc[191:160]);
            r3 = g({vw(v, 14), vw(v, 9),  vw(v, 4), vw(v, 3)}, mc[223:192], mc[255:224]);
            {vnext[32*15 +: 32], vnext[32*10 +: 32], vnext[32*5 +: 32], vnext[32*0 +: 32]} = r0;
            {vnext[32*12 +: 32], vnext[32*11 +: 32], vnext[32*6 +: 32], vnext[32*1 +: 32]} = r1;
            {vnext[32*13 +: 32], vnext[32*8  +: 32], vnext[32*7 +: 32], vnext[32*2 +: 32]} = r2;
            {vnext[32*14 +: 32], vnext[32*9  +: 32], vnext[32*4 +: 32], vnext[32*3 +: 32]} = r3;
        end
    end

    // the state's initialisation: h, c_0..c_3, t0 ^ c_4, t0 ^ c_5, t1 ^ c_6, t1 ^ c_7
    wire [255:0] h_in = in_first ? BLAKE_IV : h;
    wire [63:0]  t    = in_nomsg ? 64'd0 : {in_count[60:0], 3'b000};
    wire [511:0] v_in = {BLAKE_C03[255:224] ^ t[63:32], BLAKE_C03[223:192] ^ t[63:32],
                         BLAKE_C03[191:160] ^ t[31:0],  BLAKE_C03[159:128] ^ t[31:0],
                         BLAKE_C03[127:0], h_in};

    always @(posedge clk) begin
        if (take) begin
            h  <= h_in;
            v  <= v_in;
            m  <= m_in;
            mc <= slots(m_in, 5'd0);
        end else if (busy & ~fin) begin
            v  <= vnext;
            mc <= slots(m, step + 5'd1);
        end else if (busy) begin
            h  <= h ^ v[255:0] ^ v[511:256];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; fin <= 1'b0; hold <= 1'b0; lastf <= 1'b0; step <= 5'd0;
        end else if (busy) begin
            if (fin) begin
                busy <= 1'b0;
                fin  <= 1'b0;
                hold <= lastf;
            end else begin
                step <= step + 5'd1;
                if (step == LAST_STEP) fin <= 1'b1;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy  <= 1'b1;
                step  <= 5'd0;
                lastf <= in_last;
            end
        end
    end

    genvar gw;
    generate
        for (gw = 0; gw < 8; gw = gw + 1) begin : g_out
            assign out_digest[32 * gw +: 32] = bswap(h[32 * gw +: 32]);
        end
    endgenerate
endmodule
