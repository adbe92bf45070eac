// SHA-256 core after the 2009 ASIC study's reference design: no unrolling,
// no quasi-pipelining, generic adders. 66 cycles per block: the block is
// taken (message schedule loaded, working variables set from the chaining
// value), 64 rounds, then the chaining value is added in.
// Interface: the generic block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); byte i of the block in in_block[8i+7:8i],
// words big-endian (FIPS 180-4).
`timescale 1ns/1ps
module sha256_core (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [511:0] in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,    // not needed: the length is in the padding
    input  wire         in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
`include "sha256_consts.vh"

    function [31:0] bswap;
        input [31:0] x;
        bswap = {x[7:0], x[15:8], x[23:16], x[31:24]};
    endfunction
    function [31:0] rotr;
        input [31:0] x;
        input integer n;
        rotr = (x >> n) | (x << (32 - n));
    endfunction

    reg  [31:0] h [0:7];          // chaining value
    reg  [31:0] v [0:7];          // working variables a..h
    reg  [31:0] w [0:15];         // message schedule window, w[0] = W_t
    reg  [6:0]  t;                // 0..63 rounds, 64 the final addition
    reg         busy, hold, lastf;
    wire        take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    // one round
    wire [31:0] s1  = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
    wire [31:0] ch  = (v[4] & v[5]) ^ (~v[4] & v[6]);
    wire [31:0] t1  = v[7] + s1 + ch + sha256_k(t[5:0]) + w[0];
    wire [31:0] s0  = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
    wire [31:0] maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
    wire [31:0] t2  = s0 + maj;
    // the next schedule word
    wire [31:0] ws0 = rotr(w[1], 7) ^ rotr(w[1], 18) ^ (w[1] >> 3);
    wire [31:0] ws1 = rotr(w[14], 17) ^ rotr(w[14], 19) ^ (w[14] >> 10);
    wire [31:0] wnew = ws1 + w[9] + ws0 + w[0];

    integer i;
    always @(posedge clk) begin
        if (take) begin
            for (i = 0; i < 16; i = i + 1)
                w[i] <= bswap(in_block[32*i +: 32]);
            for (i = 0; i < 8; i = i + 1) begin
                h[i] <= in_first ? SHA256_IV[32*i +: 32] : h[i];
                v[i] <= in_first ? SHA256_IV[32*i +: 32] : h[i];
            end
        end else if (busy && t != 7'd64) begin
            for (i = 0; i < 15; i = i + 1)
                w[i] <= w[i + 1];
            w[15] <= wnew;
            v[0] <= t1 + t2;
            v[1] <= v[0];
            v[2] <= v[1];
            v[3] <= v[2];
            v[4] <= v[3] + t1;
            v[5] <= v[4];
            v[6] <= v[5];
            v[7] <= v[6];
        end else if (busy) begin
            for (i = 0; i < 8; i = i + 1)
                h[i] <= h[i] + v[i];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; t <= 7'd0;
        end else if (busy) begin
            t <= t + 7'd1;
            if (t == 7'd64) begin
                busy <= 1'b0;
                hold <= lastf;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy  <= 1'b1;
                t     <= 7'd0;
                lastf <= in_last;
            end
        end
    end

    // the digest: H0..H7 big-endian, byte 0 first
    genvar g;
    generate
        for (g = 0; g < 8; g = g + 1) begin : g_out
            assign out_digest[32*g +: 32] = bswap(h[g]);
        end
    endgenerate
endmodule
