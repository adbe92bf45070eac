// ECHO-256 core after the 2009 ASIC study: four AES rounds in parallel and
// 16 AES MixColumns units on a state of 16 x 128-bit words. One BIG round
// takes 12 cycles: BIG.SubWords in 8 (the four AES units take one column of
// words per cycle, two passes: key = counter, then key = salt 0) and
// BIG.ShiftRows + BIG.MixColumns in 4 (one column of the shifted state per
// cycle through the 16 MixColumns units). 8 BIG rounds = 96 cycles, plus
// the cycle that takes the block and does BIG.Final of the block before:
// 97 cycles per 1536-bit block, the paper's count.
//
// The state is four rows of four words; in the SubWords passes every row
// rotates by one word per cycle (word 0 of each row into its AES unit, the
// result back in at word 3), so the AES inputs need no multiplexer. The
// MixColumns cycles read and write each row in place, at the word that
// holds the shifted column; so each round leaves row r rotated by r more
// words, which the next round's addressing follows (after 8 rounds every
// row is back in place). BIG.Final folds the rows: the new chaining value
// is the XOR of each row before and after the rounds; the "before" part is
// kept from the take (f), the "after" part is read at the next take.
//
// HAIFA inputs the wrapper cannot express are the core's: the counter (bits
// up to the end of the block, 0 for a block of padding only) and the final
// block's last 18 bytes (digest size 256 in 16 bits, the bit length in 128
// bits, little-endian; the wrapper leaves the place: LEN_BYTES 18). The
// salt is 0. Interface: docs/hardware-study-interface.md.
`timescale 1ns/1ps
module echo_core (
    input  wire          clk,
    input  wire          rst,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [1535:0] in_block,
    input  wire          in_first,
    input  wire          in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]   in_count,   // bytes; messages are shorter than 2^61 bytes
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire          in_nomsg,
    output wire          out_valid,
    output wire [255:0]  out_digest,
    input  wire          out_ack
);
    // word 4s + r of st: row r, slot s (slot = column while a row is in place)
    reg  [2047:0] st;
    reg  [511:0]  f;                // XOR of each row of the state the block started from
    // the counter C of the block (C < 2^64, a multiple of 8): the key of
    // word i in round k is C + 16k + i = C + t, t < 128, so it is
    // {C[64:7] or C[64:7] + 1, (C[6:0] + t) mod 128}: no wide adder per word
    reg  [57:0]   kh, kh1;          // C[64:7] and C[64:7] + 1
    reg  [6:0]    kl;               // C[6:0]
    reg  [2:0]    k;                // BIG round
    reg  [3:0]    p;                // cycle in the round: 0..7 SubWords, 8..11 MixColumns
    reg           busy, hold, lastf;
    wire          take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    function [127:0] word;
        input [2047:0] v;
        input integer i;
        word = v[128*i +: 128];
    endfunction

    // --------------------------------------------------- BIG.SubWords
    // row r rotated left by (-k r) mod 4: its word 0 in cycle q is column
    // (q - k r) mod 4, key C + 16k + 4 column + r
    wire         pass0 = ~p[3] & ~p[2];
    wire [511:0] aes_out;           // row r's AES output in bits 128r+127:128r
    genvar gr;
    generate
        for (gr = 0; gr < 4; gr = gr + 1) begin : g_aes
            localparam [1:0] R = gr;
            wire [1:0]   col = p[1:0] - k[1:0] * R;
            wire [7:0]   lo = {1'b0, kl} + {1'b0, k, col, R};
            wire [127:0] key = pass0 ? {63'd0, lo[7] ? kh1 : kh, lo[6:0]} : 128'd0;
            aes_round u_aes (.x(word(st, gr)), .key(key), .y(aes_out[128*gr +: 128]));
        end
    endgenerate

    // ------------------------------------ BIG.ShiftRows + BIG.MixColumns
    // shifted column m takes row r from its word (m + r (k + 1)) mod 4
    wire [1:0]   kp1 = k[1:0] + 2'd1;
    wire [1:0]   sel0 = p[1:0],
                 sel1 = p[1:0] + kp1,
                 sel2 = p[1:0] + {kp1[0], 1'b0},
                 sel3 = p[1:0] + kp1 * 2'd3;
    wire [127:0] mx0 = word(st, 4 * sel0 + 0), mx1 = word(st, 4 * sel1 + 1),
                 mx2 = word(st, 4 * sel2 + 2), mx3 = word(st, 4 * sel3 + 3);
    wire [127:0] my0, my1, my2, my3;
    genvar gb;
    generate
        for (gb = 0; gb < 16; gb = gb + 1) begin : g_mix
            aes_mixcolumn u_mix (
                .a({mx3[8*gb +: 8], mx2[8*gb +: 8], mx1[8*gb +: 8], mx0[8*gb +: 8]}),
                .y({my3[8*gb +: 8], my2[8*gb +: 8], my1[8*gb +: 8], my0[8*gb +: 8]}));
        end
    endgenerate

    // ------------------------------------------------------ BIG.Final
    reg  [511:0] rows;              // XOR of each row of the state
    integer r, s;
    always @(*) begin
        rows = 512'd0;
        for (r = 0; r < 4; r = r + 1)
            for (s = 0; s < 4; s = s + 1)
                rows[128*r +: 128] = rows[128*r +: 128] ^ word(st, 4 * s + r);
    end
    wire [511:0] chain = f ^ rows;  // the chaining value after the last block
    localparam [127:0] IV_WORD = 128'd256;
    wire [511:0] v_in = in_first ? {4{IV_WORD}} : chain;

    wire [63:0]   bits = {in_count[60:0], 3'b000};   // message bits up to this block's end
    // C[64:7] + 1 in two steps, so no long carry chain (the first synthesis,
    // with one 58-bit incrementer at the take, had it as its longest path):
    // at the take every 8-bit chunk + 1 and whether it is all ones; in the
    // first round cycle each chunk takes its incremented value if all the
    // chunks below it are all ones. No key needs kh1 before cycle 2 of
    // round 0 (C[6:0] <= 120 and t < 8 before that).
    reg  [63:0]   inc8;             // each 8-bit chunk of C[64:7], plus 1
    reg  [7:0]    full8;            // chunk j of C[64:7] is all ones
    /* verilator lint_off UNUSEDSIGNAL */
    reg  [63:0]   kh1_nx;           // bits 63:58 always 0 (C < 2^64)
    /* verilator lint_on UNUSEDSIGNAL */
    reg           below;
    wire [63:0]   kh64 = {6'd0, kh};
    integer j;
    always @(*) begin
        below = 1'b1;
        for (j = 0; j < 8; j = j + 1) begin
            kh1_nx[8*j +: 8] = below ? inc8[8*j +: 8] : kh64[8*j +: 8];
            below = below & full8[j];
        end
    end
    wire [57:0]   ch = in_nomsg ? 58'd0 : {1'b0, bits[63:7]};
    wire [63:0]   ch64 = {6'd0, ch};
    // the final block: digest size and bit length in its last 18 bytes
    wire [1535:0] blk = in_last ? {64'd0, bits, 16'h0100, in_block[8*174-1:0]} : in_block;
    reg  [511:0]  blk_rows;
    integer c;
    always @(*) begin
        blk_rows = v_in;
        for (c = 0; c < 3; c = c + 1)
            blk_rows = blk_rows ^ blk[512*c +: 512];
    end

    // ---------------------------------------------------------- registers
    integer i;
    always @(posedge clk) begin
        if (take) begin
            st <= {blk, v_in};
            f   <= blk_rows;
            kh  <= ch;
            for (j = 0; j < 8; j = j + 1) begin
                inc8[8*j +: 8] <= ch64[8*j +: 8] + 8'd1;
                full8[j]       <= &ch64[8*j +: 8];
            end
            kl  <= in_nomsg ? 7'd0 : bits[6:0];
        end else if (busy) begin
            if (k == 3'd0 && p == 4'd0) kh1 <= kh1_nx[57:0];
            if (!p[3]) begin
                st <= {aes_out, st[2047:512]};
            end else begin
                for (i = 0; i < 4; i = i + 1) begin
                    if (sel0 == i[1:0]) st[128*(4*i + 0) +: 128] <= my0;
                    if (sel1 == i[1:0]) st[128*(4*i + 1) +: 128] <= my1;
                    if (sel2 == i[1:0]) st[128*(4*i + 2) +: 128] <= my2;
                    if (sel3 == i[1:0]) st[128*(4*i + 3) +: 128] <= my3;
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; k <= 3'd0; p <= 4'd0;
        end else if (busy) begin
            p <= (p == 4'd11) ? 4'd0 : p + 4'd1;
            if (p == 4'd11) begin
                k <= k + 3'd1;
                if (k == 3'd7) begin
                    busy <= 1'b0;
                    hold <= lastf;
                end
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy  <= 1'b1;
                k     <= 3'd0;
                p     <= 4'd0;
                lastf <= in_last;
            end
        end
    end

    assign out_digest = chain[255:0];
endmodule
