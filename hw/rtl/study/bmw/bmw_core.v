// BMW-256 core after the 2009 ASIC study's fastest variant: the whole
// compression function (f0, f1, f2) as one combinational block
// (bmw_compress.vh), generic adders, one cycle per 512-bit block. The final
// compression f(H, CONST_final) reuses the same block in the cycle after
// the final message block (its inputs switched by multiplexers, as the
// paper's Figure 2), so a message costs its blocks + 1 cycles; the digest
// is the last eight words of that result.
// Interface: the generic block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); words little-endian, as the wrapper's
// byte order, so no swapping.
// The datapath is written inside the clocked block (blocking temporaries),
// so that a simulator evaluates it once per clock; it is the same logic.
`timescale 1ns/1ps
module bmw_core (
    input  wire          clk,
    input  wire          rst,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [511:0]  in_block,
    input  wire          in_first,
    input  wire          in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]   in_count,    // not needed: the length is in the padding
    input  wire          in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire          out_valid,
    output wire [255:0]  out_digest,
    input  wire          out_ack
);
`include "bmw_consts.vh"
`include "bmw_compress.vh"

    reg  [511:0] h;               // the double pipe H
    reg          fbusy;           // the final compression runs this cycle
    reg          hold;
    wire         take = in_valid & in_ready;

    assign in_ready  = ~fbusy & (~hold | out_ack);
    assign out_valid = hold;

    /* verilator lint_off BLKSEQ */
    reg  [511:0] fm, fh;
    always @(posedge clk) begin
        fm = fbusy ? h : in_block;
        fh = fbusy ? BMW_CONST_FINAL : (in_first ? BMW_IV : h);
        if (take | fbusy)
            h <= bmw_f(fm, fh);
    end
    /* verilator lint_on BLKSEQ */

    always @(posedge clk) begin
        if (rst) begin
            fbusy <= 1'b0; hold <= 1'b0;
        end else if (take) begin
            hold  <= 1'b0;
            fbusy <= in_last;
        end else if (fbusy) begin
            fbusy <= 1'b0;
            hold  <= 1'b1;
        end else if (out_ack) begin
            hold <= 1'b0;
        end
    end

    assign out_digest = h[511:256];           // H_8..H_15
endmodule
