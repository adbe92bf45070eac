// Basic iterative Keccak-f[1600] core: one round per clock, 24 cycles per block.
// The block is XORed into the state in front of the round logic, so round 0
// runs in the same cycle the block is accepted (as in the FPGA paper's basic
// core).
//
// Core interface (shared by all four cores, see docs/hardware.md):
//   in_valid/in_ready/in_block: one rate-sized block (zero above the rate),
//     in_first: start a new message (state taken as zero),
//     in_last: the permuted state is wanted: the core holds it (out_valid)
//     until out_ack.
//   out_state: low 1344 bits (the largest rate) of the state while out_valid.
//   out_clear: with out_ack, the message is finished (used by cores that
//     clear their state instead of masking it on in_first).
`timescale 1ns/1ps
module keccak_core_basic (
    input  wire          clk,
    input  wire          rst,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [1343:0] in_block,
    input  wire          in_first,
    input  wire          in_last,
    output wire          out_valid,
    output wire [1343:0] out_state,
    input  wire          out_ack,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire          out_clear   // not needed: in_first masks the state
    /* verilator lint_on UNUSEDSIGNAL */
);
    reg  [1599:0] st;
    reg           busy, hold, lastf;
    reg  [4:0]    rnd;
    wire          take = in_valid & in_ready;
    wire [1599:0] absorbed = ({1600{~in_first}} & st) ^ {256'd0, in_block};
    wire [1599:0] rin = busy ? st : absorbed;
    wire [1599:0] rout;

    keccak_round u_round (.s(rin), .rnd(busy ? rnd : 5'd0), .o(rout));

    // A held state may be released and replaced in the same cycle.
    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;
    assign out_state = st[1343:0];

    always @(posedge clk) begin
        if (busy | take) st <= rout;
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; rnd <= 5'd0;
        end else if (busy) begin
            rnd <= rnd + 5'd1;
            if (rnd == 5'd23) begin
                busy <= 1'b0;
                hold <= lastf;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy  <= 1'b1;
                rnd   <= 5'd1;
                lastf <= in_last;
            end
        end
    end
endmodule
