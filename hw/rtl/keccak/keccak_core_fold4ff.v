// Slice-wise folded Keccak-f[1600] core, folding factor 4, state in
// flip-flops (the ASIC-friendly variant of keccak_core_fold4, which keeps the
// state in LUT RAM): each cycle works on 16 of the 64 slices, so a round
// takes 4 cycles and a block 96.
//
// * theta: the 320 column parities of the round input are kept in a register
//   (C). They are computed ahead, from the slices the previous round writes
//   (CN accumulates 5x16 parities per cycle), so theta never waits for the
//   slices of later cycles.
// * rho by addressing: every lane is a 64-bit circular register that turns by
//   16 bits per cycle. Lane L is read and written through a fixed 16-bit
//   window at position -r[L], so the bits it presents in cycle k are exactly
//   rho's sources for slices 16k..16k+15. The new bits go into the window the
//   old bits left; in the last cycle of a round each lane turns by 16-r[L]
//   instead of 16, which puts it back at offset 0. No barrel shifter, and C
//   turns with the state, so D's taps are fixed too.
// * pi and chi work on the 16 slices in the window; iota adds 16 bits of RC.
// * The block is XORed into the state and into C (with its own column
//   parities) in the first cycle of round 0 only.
// The state is cleared after the final output of a message (out_ack with
// out_clear), so a first block needs no masking; a first block waits for that
// clear (one cycle between messages).
// Interface: see keccak_core_basic.v.
`timescale 1ns/1ps
module keccak_core_fold4ff (
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
    input  wire          out_clear
);
    reg  [1599:0] p;        // state, lane L = p[64L +: 64], rotating
    reg  [319:0]  c;        // column parities of the round input, rotating with p
    reg  [319:0]  cn;       // parities of the round output, 16 slices per cycle
    reg           busy, hold, lastf, zero;
    reg  [4:0]    rnd;
    reg  [1:0]    k;

    assign in_ready  = ~busy & ~hold & (zero | ~in_first);
    wire take        = in_valid & in_ready;
    wire active      = busy | take;
    wire [1:0] ck    = busy ? k : 2'd0;
    wire [4:0] cr    = busy ? rnd : 5'd0;
    wire lastk       = (ck == 2'd3);
    assign out_valid = hold;
    assign out_state = p[1343:0];

    wire [63:0] rc;
    keccak_rc u_rc (.rnd(cr), .rc(rc));
    reg  [15:0] rc16;
    always @(*) begin
        case (ck)
            2'd0: rc16 = rc[15:0];
            2'd1: rc16 = rc[31:16];
            2'd2: rc16 = rc[47:32];
            default: rc16 = rc[63:48];
        endcase
    end

    wire [1599:0] pn;
    wire [319:0]  ce;
    wire [79:0]   par;
    keccak_fold4ff_dp u_dp (
        .p(p), .c(c), .blk(in_block), .absorb(take), .lastk(lastk), .rc16(rc16),
        .pn(pn), .ce(ce), .par(par));

    integer i;
    always @(posedge clk) begin
        if (rst | (out_ack & out_clear)) begin
            p <= 1600'd0;
            c <= 320'd0;
        end else if (active) begin
            p <= pn;
            for (i = 0; i < 5; i = i + 1) begin
                if (lastk)
                    c[64*i +: 64] <= {par[16*i +: 16], cn[64*i+16 +: 48]};
                else
                    c[64*i +: 64] <= {ce[64*i +: 16], ce[64*i+16 +: 48]};
            end
        end
    end

    always @(posedge clk) begin
        if (active)
            for (i = 0; i < 5; i = i + 1)
                cn[64*i +: 64] <= {par[16*i +: 16], cn[64*i+16 +: 48]};
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; zero <= 1'b1; rnd <= 5'd0; k <= 2'd0;
        end else begin
            if (out_ack) begin
                hold <= 1'b0;
                if (out_clear) zero <= 1'b1;
            end
            if (take) begin
                busy  <= 1'b1;
                rnd   <= 5'd0;
                k     <= 2'd1;
                lastf <= in_last;
                zero  <= 1'b0;
            end else if (busy) begin
                k <= k + 2'd1;
                if (k == 2'd3) begin
                    rnd <= rnd + 5'd1;
                    if (rnd == 5'd23) begin
                        busy <= 1'b0;
                        hold <= lastf;
                    end
                end
            end
        end
    end
endmodule
