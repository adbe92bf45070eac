// JH-256 core after the 2009 ASIC study: one round R8 a cycle with 320
// S-boxes (256 on the state, 64 computing the next round constant on the fly
// with R6), the state kept grouped (256 4-bit elements; grouping and
// de-grouping are wiring). A block: the first half of H XORed with the
// message as it is taken, the rounds, and the message XORed into the second
// half in the last cycle. Round two (ROUND3=0): 35 rounds R8 and the final
// S-box layer, 1 + 35 + 1 = 37 cycles; final (ROUND3=1): 42 rounds, 43 cycles.
// Interface: the block-core interface of hash_stream.v.
`timescale 1ns/1ps
module jh_core #(
    parameter integer ROUND3 = 0        // 0: round two (35.5 rounds), 1: final (42)
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [511:0] in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,       // not needed: the length is in the padding
    input  wire         in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
`include "jh_consts.vh"

    localparam [5:0] NR = (ROUND3 != 0) ? 6'd42 : 6'd35;   // full rounds R8
    localparam [1023:0] IVQ = (ROUND3 != 0) ? JH_IVQ_FINAL : JH_IVQ_R2;

    reg  [1023:0] q;              // H, grouped
    reg  [255:0]  c;              // the round constant
    reg  [511:0]  m;              // the block, for the second XOR
    reg  [5:0]    r;              // rounds done
    reg           busy, hold, lastf;
    wire          take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    wire [1023:0] m1_in, m1_unused, m2_unused, m2, q_r8, q_st;
    jh_msg u_msg_in (.blk(in_block), .m1(m1_in), .m2(m2_unused));
    jh_msg u_msg    (.blk(m), .m1(m1_unused), .m2(m2));
    jh_r8 u_r8 (.q(q), .c(c), .s(q_st), .o(q_r8));
    // R6 sees the constant as 64 nibbles, c_4k the most significant bit of
    // nibble k; the register holds c_i (element i's S-box selector) in bit i
    wire [255:0] c_nib, c_next_nib, c_next;
    genvar gk;
    generate
        for (gk = 0; gk < 64; gk = gk + 1) begin : g_nib
            assign c_nib[4*gk +: 4]  = {c[4*gk], c[4*gk+1], c[4*gk+2], c[4*gk+3]};
            assign c_next[4*gk +: 4] = {c_next_nib[4*gk], c_next_nib[4*gk+1],
                                        c_next_nib[4*gk+2], c_next_nib[4*gk+3]};
        end
    endgenerate
    jh_r6 u_r6 (.q(c_nib), .o(c_next_nib));
    jh_digest u_out (.q(q), .d(out_digest));

    wire last_round = (r == NR - 6'd1);
    wire half       = (ROUND3 == 0) && (r == NR);      // the final S-box layer

    always @(posedge clk) begin
        if (take) begin
            q <= (in_first ? IVQ : q) ^ m1_in;
            m <= in_block;
            c <= JH_C0;
        end else if (busy) begin
            c <= c_next;
            if (half)
                q <= q_st ^ m2;
            else if (last_round && ROUND3 != 0)
                q <= q_r8 ^ m2;
            else
                q <= q_r8;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; r <= 6'd0;
        end else if (busy) begin
            r <= r + 6'd1;
            if (half || (last_round && ROUND3 != 0)) begin
                busy <= 1'b0;
                hold <= lastf;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy <= 1'b1; r <= 6'd0; lastf <= in_last;
            end
        end
    end
endmodule
