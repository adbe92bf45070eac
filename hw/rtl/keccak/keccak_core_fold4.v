// Slice-wise folded Keccak-f[1600] core, folding factor 4: each cycle works
// on 16 of the 64 slices, so a round takes 4 cycles and a block 96.
//
// * The state lives in small memories (keccak_fold4_dp: asynchronous read,
//   synchronous write; FPGA LUT RAM), two banks: a round reads one bank and
//   writes its output, 16 slices a cycle, into the other.
// * rho by memory addressing: each lane is stored as 16 bit chains of 4
//   chunks; in cycle k the 16 rho sources of output slices 16k..16k+15 are
//   one read of each chain, at chunk k-q or k-q-1 (q = r div 16). No barrel
//   shifter and no per-bit state multiplexer.
// * theta: the 320 column parities of the round input (C) are accumulated
//   from the chunks the previous round writes (CN) and turn by 16 bits a
//   cycle, so the D taps are fixed wiring.
// * pi, chi and iota work on the 16 slices in hand.
// * Absorb rides on a round: the block is XORed into the chunks that round 23
//   of the previous permutation writes. So a permutation runs rounds 0..22
//   and parks; the next block's absorb pass is the parked state's round 23
//   with chunk k of the block XORed in (for a message's first block the
//   round's output is dropped: the block alone is written, and its parities
//   become C). A permutation whose result is wanted (in_last) runs round 23
//   once more as an output pass, into a 1344-bit output register (out_state).
//   When the next message's first block is already waiting, its absorb pass
//   and the output pass are the same round (run once).
//
// Cycle counts: a block every 96 cycles; the core reads the block during its
// 4-cycle absorb pass and takes it (in_ready) in that pass's last cycle, so
// the block must stay valid and unchanged until then (the AXI rule). The
// result is out_valid 97 cycles after that take (92 cycles of rounds 0..22,
// then the 4-cycle output pass), 100 cycles after its absorb pass began.
// The output pass waits while out_valid is still high (the register is
// busy); a new message can be absorbed and permuted meanwhile. A pass is
// decided a cycle ahead (all datapath controls come from registers): a block
// that arrives while the core is parked starts its pass in the next cycle;
// one that is waiting when the core parks loses no cycle.
// Interface: see keccak_core_basic.v (out_clear is not needed here).
`timescale 1ns/1ps
module keccak_core_fold4 (
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
    input  wire          out_clear   // not needed: the first block masks the state
    /* verilator lint_on UNUSEDSIGNAL */
);
    reg  [319:0]  c;        // column parities of the round input, turning 16 a cycle
    reg  [319:0]  cn;       // parities of the round output, 16 slices per cycle
    reg  [1343:0] ost;      // output register (lanes 0..20 of the permuted state)
    reg           busy;     // a pass or round is running (all its cycles)
    reg           hold;     // ost holds a result not yet acknowledged
    reg           pend;     // parked state needs an output pass
    reg           lastf;    // the block being permuted wants its result
    reg           ab, fm, ob, oo; // pass flags: absorb, first block, write ost, output only
    reg           rb;       // bank read by this round
    reg  [4:0]    rnd;      // round of the current cycle (23 while parked)
    reg  [1:0]    k;        // cycle of the round (0 while parked)

    // Next state of the sequencer, and the decision to start a pass in the
    // next cycle (so every datapath control comes from a register): absorb a
    // waiting block (with a pending output pass folded in, which needs a free
    // ost), or run the output pass alone. A block that is valid now is still
    // valid next cycle (the AXI rule; blocks are taken only in absorb passes).
    reg           busy_n, hold_n, pend_n, lastf_n, ab_n, fm_n, ob_n, oo_n, rb_n;
    reg  [4:0]    rnd_n;
    reg  [1:0]    k_n;
    always @(*) begin
        busy_n = busy; hold_n = hold & ~out_ack; pend_n = pend; lastf_n = lastf;
        ab_n = ab; fm_n = fm; ob_n = ob; oo_n = oo; rb_n = rb; rnd_n = rnd; k_n = k;
        if (busy) begin
            k_n = k + 2'd1;
            if (k == 2'd3) begin
                if (ob) begin               // output pass done: ost is valid
                    hold_n = 1'b1;
                    pend_n = 1'b0;
                end
                if (oo) begin               // output only: the state stays parked
                    busy_n = 1'b0;
                end else begin
                    rb_n = ~rb;
                    if (rnd == 5'd23) begin // absorb pass done: the block is taken
                        rnd_n = 5'd0;
                        lastf_n = in_last;
                    end else begin
                        rnd_n = rnd + 5'd1;
                        if (rnd == 5'd22) begin   // park before round 23
                            busy_n = 1'b0;
                            if (lastf) pend_n = 1'b1;
                        end
                    end
                end
                ab_n = 1'b0; fm_n = 1'b0; ob_n = 1'b0; oo_n = 1'b0;
            end
        end
        if (~busy_n) begin
            if (in_valid & ~(pend_n & hold_n)) begin
                busy_n = 1'b1; ab_n = 1'b1; fm_n = in_first; ob_n = pend_n;
            end else if (~in_valid & pend_n & ~hold_n) begin
                busy_n = 1'b1; ob_n = 1'b1; oo_n = 1'b1;
            end
        end
        if (rst) begin
            busy_n = 1'b0; hold_n = 1'b0; pend_n = 1'b0; lastf_n = 1'b0; rb_n = 1'b0;
            ab_n = 1'b0; fm_n = 1'b0; ob_n = 1'b0; oo_n = 1'b0; rnd_n = 5'd23; k_n = 2'd0;
        end
    end

    always @(posedge clk) begin
        busy <= busy_n; hold <= hold_n; pend <= pend_n; lastf <= lastf_n;
        ab <= ab_n; fm <= fm_n; ob <= ob_n; oo <= oo_n; rb <= rb_n; rnd <= rnd_n; k <= k_n;
    end

    wire lastk = (k == 2'd3);

    assign in_ready  = busy & ab & (k == 2'd3);
    assign out_valid = hold;
    assign out_state = ost;

    wire [63:0] rc;
    keccak_rc u_rc (.rnd(rnd), .rc(rc));
    reg  [15:0] rc16;
    always @(*) begin
        case (k)
            2'd0: rc16 = rc[15:0];
            2'd1: rc16 = rc[31:16];
            2'd2: rc16 = rc[47:32];
            default: rc16 = rc[63:48];
        endcase
    end

    wire [335:0] y;
    wire [79:0]  par;
    wire [7:0] kqn  = {k_n - 2'd3, k_n - 2'd2, k_n - 2'd1, k_n};
    keccak_fold4_dp u_dp (
        .clk(clk), .rb(rb), .k(k), .rbn(rb_n), .kqn(kqn), .c(c), .blk(in_block),
        .bsel({4{ab}} & {k == 2'd3, k == 2'd2, k == 2'd1, k == 2'd0}), .wzero(fm), .rc16(rc16), .y(y), .par(par));

    // C turns by 16 a cycle (back in place after a round); at the end of a
    // round that is not an output-only pass it takes the new parities. CN
    // shifts every cycle (while parked it collects don't-cares).
    integer i;
    always @(posedge clk) begin
        if (busy) begin
            for (i = 0; i < 5; i = i + 1) begin
                if (lastk & ~oo)
                    c[64*i +: 64] <= {par[16*i +: 16], cn[64*i+16 +: 48]};
                else
                    c[64*i +: 64] <= {c[64*i +: 16], c[64*i+16 +: 48]};
            end
        end
        for (i = 0; i < 5; i = i + 1)
            cn[64*i +: 64] <= {par[16*i +: 16], cn[64*i+16 +: 48]};
    end

    // k (the memories keep their own read-address copies of k-q, from kqn
    // and rbn); the absorb pass's one-hot chunk select
    // Output register: chunk k of each rate lane, written during an output pass.
    genvar gl;
    generate
        for (gl = 0; gl < 21; gl = gl + 1) begin : g_out
            always @(posedge clk) begin
                if (busy & ob) begin
                    case (k)
                        2'd0: ost[64*gl +: 16]      <= y[16*gl +: 16];
                        2'd1: ost[64*gl + 16 +: 16] <= y[16*gl +: 16];
                        2'd2: ost[64*gl + 32 +: 16] <= y[16*gl +: 16];
                        default: ost[64*gl + 48 +: 16] <= y[16*gl +: 16];
                    endcase
                end
            end
        end
    endgenerate

endmodule
