// Fugue-256 core after the 2009 ASIC study: one sub-round (ROR3, CMIX,
// SMIX) per cycle, TIX folded into the first sub-round of every word, so a
// 32-bit block takes 2 cycles; one SMIX (16 table S-boxes, then the
// Super-Mix matrix) serves the sub-rounds and the final rounds.
//
// The wrapper pads with a zero byte (hash_stream PAD_BYTE 0, no length
// field), so the core sees the message as zero-filled words and one extra
// block of padding when the message ends on a word (in_nomsg: skipped).
// The core adds what the wrapper cannot express: after the final block the
// message length in bits as two more words (64 bits, big-endian), then G1
// (10 sub-rounds) and G2 (13 pairs of ROR15/ROR14 steps with SMIX).
// Every block occupies 2 cycles (a block of padding only changes nothing),
// so the final block is always 42 cycles from its take to out_valid.
// Interface: docs/hardware-study-interface.md; words big-endian.
`timescale 1ns/1ps
module fugue_core (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [31:0]  in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,    // bytes; messages are shorter than 2^61 bytes
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire         in_nomsg,
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
`include "fugue_consts.vh"

    localparam integer W = 30;                 // state words
    // steps after the take of the final block: 1 the word's second
    // sub-round, 2..5 the two length words, 6..15 G1, 16..41 G2
    localparam [5:0] STEP_LEN = 6'd2,
                     STEP_G2  = 6'd16,
                     STEP_END = 6'd41;

    function [31:0] bswap;
        input [31:0] x;
        bswap = {x[7:0], x[15:8], x[23:16], x[31:24]};
    endfunction

    reg  [32*W-1:0] st;                        // word i in bits 32i+31:32i
    reg  [63:0]     bits;                      // message length in bits
    reg  [5:0]      step;
    reg             busy, hold, lastf;
    wire            take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    // ---------------------------------------------------- the step this cycle
    // decoded a cycle ahead into flip-flops (off the SMIX input's path)
    // (the datapath's selects use ~busy, not take: when the core is idle
    // and takes nothing, the state keeps its value whatever they select)
    reg  in_g2, g2b, len_tix, len_hi, idle1;
    wire tix_en   = busy ? len_tix : ~in_nomsg;
    wire idle     = take ? in_nomsg : (busy & idle1);
    wire [31:0] tix_word = busy ? (len_hi ? bits[63:32] : bits[31:0]) : bswap(in_block);

    // the state a block starts from: the IV for the first block
    wire [32*W-1:0] iv_state = {FUGUE256_IV, {(32*(W-8)){1'b0}}};
    wire [32*W-1:0] src = (~busy & in_first) ? iv_state : st;

    // TIX, ROR3, CMIX (the sub-round before its SMIX); word i of a flat
    // state vector in bits 32i+31:32i
    reg  [32*W-1:0] t, r, a, rot;               // a: G2's state after its XORs
    always @(*) begin
        t = src;
        if (tix_en) begin
            t[32*10 +: 32] = t[32*10 +: 32] ^ t[31:0];
            t[31:0]        = tix_word;
            t[32*8 +: 32]  = t[32*8 +: 32] ^ tix_word;
            t[32*1 +: 32]  = t[32*1 +: 32] ^ t[32*24 +: 32];
        end
        r = {t[32*(W-3)-1:0], t[32*W-1:32*(W-3)]};            // ROR3
        r[31:0]        = r[31:0] ^ r[32*4 +: 32];
        r[32*1 +: 32]  = r[32*1 +: 32] ^ r[32*5 +: 32];
        r[32*2 +: 32]  = r[32*2 +: 32] ^ r[32*6 +: 32];
        r[32*15 +: 32] = r[32*15 +: 32] ^ r[32*4 +: 32];
        r[32*16 +: 32] = r[32*16 +: 32] ^ r[32*5 +: 32];
        r[32*17 +: 32] = r[32*17 +: 32] ^ r[32*6 +: 32];
        a = st;
        a[32*4 +: 32] = a[32*4 +: 32] ^ a[31:0];
        if (g2b) a[32*16 +: 32] = a[32*16 +: 32] ^ a[31:0];
        else     a[32*15 +: 32] = a[32*15 +: 32] ^ a[31:0];
        // the rotated state: words 4..29 go straight to the register, 0..3 to SMIX
        if (!in_g2)   rot = r;
        else if (g2b) rot = {a[32*(W-14)-1:0], a[32*W-1:32*(W-14)]};   // ROR14
        else          rot = {a[32*(W-15)-1:0], a[32*W-1:32*(W-15)]};   // ROR15
    end

    wire [127:0] smix_out;
    fugue_smix u_smix (.x(rot[127:0]), .y(smix_out));
    wire [32*W-1:0] next = {rot[32*W-1:128], smix_out};

    // ---------------------------------------------------------- registers
    always @(posedge clk) begin
        if (take) begin
            if (!in_nomsg) st <= next;
            else if (in_first) st <= iv_state;
            bits <= {in_count[60:0], 3'b000};
        end else if (busy && !idle) begin
            st <= next;
        end
    end

    // the flags of the step after this one (all 0 when the core is not busy then)
    wire [5:0] step_nx = busy ? step + 6'd1 : 6'd1;
    wire       ending  = (step == 6'd1 && !lastf) || step == STEP_END;
    wire       busy_nx = busy ? ~ending : take;
    always @(posedge clk) begin
        if (rst) begin
            in_g2 <= 1'b0; g2b <= 1'b0; len_tix <= 1'b0; len_hi <= 1'b0; idle1 <= 1'b0;
        end else begin
            in_g2   <= busy_nx && step_nx >= STEP_G2;
            g2b     <= busy_nx && step_nx >= STEP_G2 && step_nx[0];
            len_tix <= busy_nx && (step_nx == STEP_LEN || step_nx == STEP_LEN + 6'd2);
            len_hi  <= busy_nx && step_nx == STEP_LEN;
            idle1   <= busy_nx && step_nx == 6'd1 && in_nomsg;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; step <= 6'd0;
        end else if (busy) begin
            step <= step_nx;
            if (ending) busy <= 1'b0;
            if (step == STEP_END) hold <= 1'b1;
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy   <= 1'b1;
                step   <= step_nx;
                lastf  <= in_last;
            end
        end
    end

    // the digest: S1 S2 S3 S4+S0 S15+S0 S16 S17 S18, words big-endian
    wire [31:0] s0 = st[31:0];
    assign out_digest = {bswap(st[32*18 +: 32]), bswap(st[32*17 +: 32]), bswap(st[32*16 +: 32]),
                         bswap(st[32*15 +: 32] ^ s0), bswap(st[32*4 +: 32] ^ s0),
                         bswap(st[32*3 +: 32]), bswap(st[32*2 +: 32]), bswap(st[32*1 +: 32])};
endmodule
