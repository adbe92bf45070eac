// Pipelined Keccak-f[1600] core: a register inside the round (after theta),
// so a round takes two cycles, and two independent messages share the round
// logic, one in each half. Each message sees 48 cycles per block; with two
// messages in flight the core finishes two blocks every 48 cycles.
//
// r1 holds a state after theta, r2 a state after rho/pi/chi/iota. Every cycle
// the two contexts swap halves: r1 <= theta(r2), r2 <= rpci(r1). A context
// with no work passes through unchanged (bypass), so the other context never
// waits. Context `a` (the one in r2 this cycle) is the one that can accept a
// block or hand its state out.
// A continuation block (in_first=0) always goes to the context that owns the
// current input message; a first block goes to whichever context is free.
// Outputs are handed out in the order the final blocks were accepted.
// Interface: see keccak_core_basic.v.
`timescale 1ns/1ps
module keccak_core_pipe (
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
    reg  [1599:0] r1, r2;
    reg           a;             // context now in r2 (the other is in r1)
    reg  [1:0]    busy, hold, lastf, pend;
    reg  [4:0]    rnd0, rnd1;    // round of each context's next rpci
    reg           cur;           // context owning the input message
    reg           older;         // with both pending, the one to output first
    wire          b = ~a;

    wire a_busy  = a ? busy[1] : busy[0];
    wire a_hold  = a ? hold[1] : hold[0];
    wire b_busy  = b ? busy[1] : busy[0];
    wire b_pend  = b ? pend[1] : pend[0];
    wire [4:0] b_rnd = b ? rnd1 : rnd0;

    // a state handed out may be replaced in the same cycle
    assign out_valid = a_hold & (~b_pend | (older == a));
    assign in_ready  = ~a_busy & (~a_hold | (out_valid & out_ack)) & (in_first | (cur == a));
    wire   take      = in_valid & in_ready;
    assign out_state = r2[1343:0];

    wire [1599:0] s1in = take ? (({1600{~in_first}} & r2) ^ {256'd0, in_block}) : r2;
    wire [1599:0] th, rp;
    keccak_theta u_theta (.s(s1in), .o(th));
    keccak_rpci  u_rpci  (.s(r1), .rnd(b_rnd), .o(rp));

    always @(posedge clk) begin
        r1 <= (take | a_busy) ? th : r2;
        r2 <= b_busy ? rp : r1;
    end

    always @(posedge clk) begin
        if (rst) begin
            a <= 1'b0; busy <= 2'b00; hold <= 2'b00; lastf <= 2'b00; pend <= 2'b00;
            rnd0 <= 5'd0; rnd1 <= 5'd0; cur <= 1'b0; older <= 1'b0;
        end else begin
            a <= ~a;
            // stage 2 (context b): one rpci per cycle while busy
            if (b_busy) begin
                if (b) rnd1 <= rnd1 + 5'd1; else rnd0 <= rnd0 + 5'd1;
                if (b_rnd == 5'd23) begin
                    busy[b] <= 1'b0;
                    hold[b] <= lastf[b];
                end
            end
            // stage 1 (context a): accept a block or hand the state out
            if (out_valid & out_ack) begin
                hold[a] <= 1'b0;
                pend[a] <= 1'b0;
            end
            if (take) begin
                busy[a]  <= 1'b1;
                lastf[a] <= in_last;
                if (a) rnd1 <= 5'd0; else rnd0 <= 5'd0;
                if (in_first) cur <= a;
                if (in_last) begin
                    pend[a] <= 1'b1;
                    if (~b_pend) older <= a;
                    else         older <= b;
                end
            end
        end
    end
endmodule
