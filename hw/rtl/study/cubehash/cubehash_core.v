// CubeHash16/32-256 core after the 2009 ASIC study's fastest variant: two
// CubeHash rounds unrolled (cubehash_round.vh twice in series),
// generic adders, the 1,024-bit state in one register. 8 cycles per
// 32-byte block: the block is XORed into the state on the way into the
// first two rounds, in the cycle it is taken, then 7 more cycles of two
// rounds. After the final block, 1 is XORed into x[31] on the way into the
// first of 80 cycles of final rounds (10r = 160). The initial state after
// the 10r initial rounds is a constant (cubehash_consts.vh, from the model),
// as the specification allows; the paper's core computed it at run time
// (its parameters were run-time inputs).
// Interface: the generic block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); words little-endian, as the wrapper's
// byte order, so no swapping.
`timescale 1ns/1ps
module cubehash_core (
    input  wire          clk,
    input  wire          rst,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [255:0]  in_block,
    input  wire          in_first,
    input  wire          in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]   in_count,    // not needed: padding has no length
    input  wire          in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire          out_valid,
    output wire [255:0]  out_digest,
    input  wire          out_ack
);
`include "cubehash_consts.vh"
`include "cubehash_round.vh"

    localparam [6:0] BLOCK_CYCLES = 7'd8;     // r / 2
    localparam [6:0] FINAL_CYCLES = 7'd80;    // 10r / 2

    reg  [1023:0] x;                          // the state
    reg  [6:0]    cnt;                        // cycles done in this phase
    reg           busy, fin, hold, lastf;
    wire          take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    // the two rounds, written inside the clocked block (blocking
    // temporaries) so that a simulator evaluates them once per clock; the
    // input is the block XORed in (take), 1 XORed into x[31] (the first
    // final cycle), or the state
    /* verilator lint_off BLKSEQ */
    reg  [1023:0] r;
    always @(posedge clk) begin
        r = (take && in_first) ? CUBEHASH_IV : x;
        if (take)
            r[255:0] = r[255:0] ^ in_block;
        else
            r[992] = r[992] ^ (fin & (cnt == 7'd0));
        r = cubehash_rnd(cubehash_rnd(r));
        if (take | busy)
            x <= r;
    end
    /* verilator lint_on BLKSEQ */

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; fin <= 1'b0; hold <= 1'b0; lastf <= 1'b0; cnt <= 7'd0;
        end else if (take) begin
            hold  <= 1'b0;
            busy  <= 1'b1;
            fin   <= 1'b0;
            lastf <= in_last;
            cnt   <= 7'd1;
        end else if (busy) begin
            cnt <= cnt + 7'd1;
            if (!fin && cnt == BLOCK_CYCLES - 7'd1) begin
                cnt <= 7'd0;
                if (lastf) fin <= 1'b1; else busy <= 1'b0;
            end
            if (fin && cnt == FINAL_CYCLES - 7'd1) begin
                busy <= 1'b0; fin <= 1'b0; hold <= 1'b1;
            end
        end else if (out_ack) begin
            hold <= 1'b0;
        end
    end

    // the digest: the first 32 bytes of the state
    assign out_digest = x[255:0];
endmodule
