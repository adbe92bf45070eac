// High-speed Keccak-f[1600] core after the ASIC round-2 study: one cycle to
// absorb the block into the state register, then one round per cycle:
// 25 cycles per block. Nothing sits in front of the round logic but the
// state register, which keeps the round's critical path short.
// Interface: see keccak_core_basic.v.
`timescale 1ns/1ps
module keccak_core_hs (
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
    wire [1599:0] rout;

    keccak_round u_round (.s(st), .rnd(rnd), .o(rout));

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;
    assign out_state = st[1343:0];

    always @(posedge clk) begin
        if (busy)
            st <= rout;
        else if (take)
            st <= ({1600{~in_first}} & st) ^ {256'd0, in_block};
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
                rnd   <= 5'd0;
                lastf <= in_last;
            end
        end
    end
endmodule
