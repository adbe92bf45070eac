// SHAvite-3-256 core after the 2009 ASIC study (its fastest variant): one
// AES round per cycle for the compression function E^256 and one for the
// message expansion. 37 cycles per block: the block is taken (the chaining
// value updated with the previous block's feed-forward), then 36 cycles,
// each one AES round of the Feistel rounds (12 rounds x 3) keyed by one
// 128-bit round key, while the expansion produces the round key 4 ahead
// (non-linear steps: an AES round on a rotated group, linear steps: XORs).
//
// HAIFA inputs the wrapper cannot express are the core's: the bit counter
// (message bits up to the end of the block, 0 for a block of padding only;
// from in_count and in_nomsg) and the digest size 256 in the last two bytes
// of the final block (the wrapper writes the 64-bit bit length before them
// and zeros there: LEN_BYTES 10, little-endian). The salt is 0.
// Interface: docs/hardware-study-interface.md; words little-endian.
`timescale 1ns/1ps
module shavite3_core (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [511:0] in_block,
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
`include "shavite3_consts.vh"

    reg  [255:0] h;                 // chaining value h0..h7, h0 in bits 31:0
    reg  [127:0] lft, rgt;          // the Feistel halves (h0..h3, h4..h7 at the start)
    reg  [127:0] x;                 // between the three AES rounds of a Feistel round
    reg  [511:0] win;               // round-key words rk[4g .. 4g+15], rk[4g] in bits 31:0
    reg  [63:0]  cnt;               // the HAIFA bit counter
    reg  [5:0]   g;                 // round key used this cycle, 0..35
    reg  [1:0]   sub;               // g mod 3: which AES round of the Feistel round
    reg          busy, hold, lastf;
    wire         take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    // ------------------------------------------------------- compression
    wire [127:0] key = win[127:0];
    wire [127:0] aes_c_out;
    aes_round u_aes_c (.x((sub == 2'd0 ? rgt : x) ^ key), .key(128'd0), .y(aes_c_out));

    // ------------------------------------------- message expansion, 4 ahead
    // group n = g + 4: non-linear when (n - 4) mod 8 < 4, i.e. g[2] == 0
    function [31:0] w;              // window word i
        input [511:0] v;
        input integer i;
        w = v[32*i +: 32];
    endfunction
    wire [127:0] aes_k_out;
    aes_round u_aes_k (.x({w(win, 0), w(win, 3), w(win, 2), w(win, 1)}), .key(128'd0),
                       .y(aes_k_out));
    wire [127:0] nl = aes_k_out ^ win[511:384];
    wire [31:0]  l0 = w(win, 0) ^ w(win, 13);
    wire [127:0] lin = {w(win, 3) ^ l0, w(win, 2) ^ w(win, 15), w(win, 1) ^ w(win, 14), l0};
    // the counter enters four non-linear groups (rk[16,17], rk[57,58], rk[86,87], rk[124,127])
    wire [31:0]  c0 = cnt[31:0], c1 = cnt[63:32];
    reg  [127:0] tap;
    always @(*) begin
        case (g)
            6'd0:  tap = {64'd0, ~c1, c0};
            6'd10: tap = {32'd0, ~c0, c1, 32'd0};
            6'd17: tap = {~c0, c1, 64'd0};
            6'd27: tap = {~c1, 64'd0, c0};
            default: tap = 128'd0;
        endcase
    end
    wire [127:0] grp = g[2] ? lin : (nl ^ tap);

    // ---------------------------------------------------------- registers
    wire [511:0] blk  = in_last ? (in_block | {8'h01, 504'd0}) : in_block;  // digest size 256
    wire [255:0] hcur = h ^ {rgt, lft};                                      // Davies-Meyer
    wire [255:0] hn   = in_first ? SHAVITE3_256_IV : hcur;

    always @(posedge clk) begin
        if (take) begin
            win <= blk;
            cnt <= in_nomsg ? 64'd0 : {in_count[60:0], 3'b000};
            h   <= hn;
            lft <= hn[127:0];
            rgt <= hn[255:128];
        end else if (busy) begin
            win <= {grp, win[511:128]};
            if (sub == 2'd2) begin
                lft <= rgt;
                rgt <= lft ^ aes_c_out;
            end else begin
                x <= aes_c_out;
            end
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; g <= 6'd0; sub <= 2'd0;
        end else if (busy) begin
            g   <= g + 6'd1;
            sub <= (sub == 2'd2) ? 2'd0 : sub + 2'd1;
            if (g == 6'd35) begin
                busy <= 1'b0;
                hold <= lastf;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy  <= 1'b1;
                g     <= 6'd0;
                sub   <= 2'd0;
                lastf <= in_last;
            end
        end
    end

    assign out_digest = hcur;
endmodule
