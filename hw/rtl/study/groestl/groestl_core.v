// Grøstl-256 core after the 2009 ASIC study: one round unit shared by P and
// Q, pipelined in two stages (AddRoundConstant + SubBytes + ShiftBytes | 
// MixBytes), so that P and Q alternate in it and each advances a round every
// two cycles: a block takes 22 cycles (P(h^m) and Q(m) in 20, the two results
// XORed into the chaining value in the next two). The output transformation
// P(h) ^ h runs P alone through the same unit after the final block.
// The core reads the block in the two cycles it injects h^m and m, and takes
// it in the second (the wrapper meanwhile keeps it: the AXI rule), so it
// needs no copy of the message.
// TWEAK selects the round-two constants (0) or the final, tweaked ones (1):
// the round constants of P and Q and Q's ShiftBytes.
// State: byte k of the 64-byte state (and of the block) at row k % 8,
// column k / 8, in bits 8k+7:8k. Interface: the block-core interface of
// hash_stream.v.
`timescale 1ns/1ps
module groestl_core #(
    parameter integer TWEAK = 0         // 0: round two, 1: final
) (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [511:0] in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,       // not needed: the block count is in the padding
    input  wire         in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
    localparam [511:0] IV = {8'h00, 8'h01, 496'd0};  // 256 as the last two bytes, big-endian

    reg  [511:0] h;               // chaining value (the digest after the output transformation)
    reg  [511:0] ra, rb;          // the two pipeline registers
    reg  [4:0]   cyc;             // 0..21 of a block, 0..20 of the output transformation
    reg          busy, outp, hold, lastf;

    wire start   = ~busy & in_valid & (~hold | out_ack);
    assign in_ready  = busy & ~outp & (cyc == 5'd1);
    assign out_valid = hold;
    wire [511:0] h_in = in_first ? IV : h;

    // stage A's input and which permutation and round it does this cycle
    reg  [511:0] a_in;
    reg          a_q;
    reg  [3:0]   a_rnd;
    always @(*) begin
        a_q   = 1'b0;
        a_rnd = cyc[4:1];
        a_in  = rb;
        if (start) begin
            a_in = h_in ^ in_block; a_rnd = 4'd0;
        end else if (outp) begin
            a_in = (cyc == 5'd0) ? h : rb;
        end else begin
            a_q = cyc[0];
            if (cyc == 5'd1) a_in = in_block;
        end
    end
    wire [511:0] a_out, b_out;
    groestl_stage_a #(.TWEAK(TWEAK)) u_a (.s(a_in), .q(a_q), .rnd(a_rnd), .o(a_out));
    groestl_stage_b u_b (.s(ra), .o(b_out));

    always @(posedge clk) begin
        ra <= a_out;
        rb <= b_out;
        if (start & in_first) h <= IV;
        if (busy & ~outp & (cyc == 5'd20 || cyc == 5'd21)) h <= h ^ rb;
        if (busy & outp & (cyc == 5'd20)) h <= h ^ rb;
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; outp <= 1'b0; hold <= 1'b0; lastf <= 1'b0; cyc <= 5'd0;
        end else if (busy) begin
            cyc <= cyc + 5'd1;
            if (!outp && cyc == 5'd21) begin
                cyc <= 5'd0;
                if (lastf) outp <= 1'b1;
                else busy <= 1'b0;
            end
            if (outp && cyc == 5'd20) begin
                busy <= 1'b0; outp <= 1'b0; hold <= 1'b1;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (start) begin
                busy <= 1'b1; cyc <= 5'd1; lastf <= in_last;
            end
        end
    end

    assign out_digest = h[511:256];
endmodule
