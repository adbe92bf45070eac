// Skein-256-256 / Skein-512-256 core after the 2009 ASIC study: eight
// Threefish rounds unrolled (so every MIX rotation is fixed wiring) and a key
// schedule that supplies two subkeys a cycle. A UBI block takes 10 cycles:
// the block plus subkey 0 in the cycle it is taken, then nine cycles of eight
// rounds (subkeys 2j-1 after round 4 and 2j after round 8 of cycle j), the
// feed-forward XOR in the last. The final block is followed by the output
// transformation (UBI of an 8-byte zero counter, type Out): 10 more cycles.
// NW = 4 (Threefish-256) or 8 (Threefish-512); FINAL selects the key-schedule
// parity constant (v1.2 round two: 0x5555...; v1.3 final: 0x1BD11BDAA9FC1A22)
// and the IV (the configuration block's chaining value, a constant).
// Interface: the block-core interface of hash_stream.v; words little-endian.
`timescale 1ns/1ps
module skein_core #(
    parameter integer NW    = 8,        // state words: 4 (Skein-256) or 8 (Skein-512)
    parameter integer FINAL = 0         // 0: v1.2 (round two), 1: v1.3 (final)
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [64*NW-1:0] in_block,
    input  wire             in_first,
    input  wire             in_last,
    input  wire [63:0]      in_count,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire             in_nomsg,   // not needed: the count says it all
    /* verilator lint_on UNUSEDSIGNAL */
    output wire             out_valid,
    output wire [255:0]     out_digest,
    input  wire             out_ack
);
`include "skein_consts.vh"

    localparam integer W = 64 * NW;
    localparam [511:0] IV_ANY = (NW == 4)
        ? {256'd0, (FINAL != 0 ? SKEIN256_256_IV_FINAL : SKEIN256_256_IV_R2)}
        : (FINAL != 0 ? SKEIN512_256_IV_FINAL : SKEIN512_256_IV_R2);
    localparam [W-1:0] IV = IV_ANY[W-1:0];
    localparam [63:0] PARITY = (FINAL != 0) ? SKEIN_PARITY_FINAL : SKEIN_PARITY_R2;
    localparam [63:0] T1_MSG = {8'd48, 56'd0};          // type Msg in tweak bits 120..125
    localparam [63:0] T1_OUT = {2'b11, 6'd63, 56'd0};   // type Out, first and final
    localparam [63:0] T0_OUT = 64'd8;                   // position: the 8-byte counter

    // rotation constant of MIX j in round d mod 8 (Skein v1.2/v1.3, Table 4)
    function integer rot;
        input integer nw, d, j;
        begin
            if (nw == 4)
                case (d)
                    0: rot = (j == 0) ? 14 : 16;
                    1: rot = (j == 0) ? 52 : 57;
                    2: rot = (j == 0) ? 23 : 40;
                    3: rot = (j == 0) ? 5 : 37;
                    4: rot = (j == 0) ? 25 : 33;
                    5: rot = (j == 0) ? 46 : 12;
                    6: rot = (j == 0) ? 58 : 22;
                    default: rot = 32;
                endcase
            else
                case (8 * d + j)
                    0: rot = 46;  1: rot = 36;  2: rot = 19;  3: rot = 37;
                    8: rot = 33;  9: rot = 27;  10: rot = 14; 11: rot = 42;
                    16: rot = 17; 17: rot = 49; 18: rot = 36; 19: rot = 39;
                    24: rot = 44; 25: rot = 9;  26: rot = 54; 27: rot = 56;
                    32: rot = 39; 33: rot = 30; 34: rot = 34; 35: rot = 24;
                    40: rot = 13; 41: rot = 50; 42: rot = 10; 43: rot = 17;
                    48: rot = 25; 49: rot = 29; 50: rot = 39; 51: rot = 43;
                    56: rot = 8;  57: rot = 35; 58: rot = 56; 59: rot = 22;
                    default: rot = 0;
                endcase
        end
    endfunction
    // the word permutation after each round: new[i] = old[perm(i)]
    function integer perm;
        input integer nw, i;
        begin
            if (nw == 4)
                perm = (i == 1) ? 3 : (i == 3) ? 1 : i;
            else
                case (i)
                    0: perm = 2; 1: perm = 1; 2: perm = 4; 3: perm = 7;
                    4: perm = 6; 5: perm = 5; 6: perm = 0; default: perm = 3;
                endcase
        end
    endfunction
    function [63:0] rotl;
        input [63:0] x;
        input integer n;
        rotl = (x << n) | (x >> (64 - n));
    endfunction

    // four rounds d0 .. d0+3 (d0 = 0 or 4)
    function [W-1:0] four_rounds;
        input [W-1:0] xin;
        input integer d0;
        reg [W-1:0] x, y;
        integer d, j, i;
        begin
            x = xin;
            for (d = d0; d < d0 + 4; d = d + 1) begin
                for (j = 0; j < NW / 2; j = j + 1) begin
                    x[64*(2*j) +: 64] = x[64*(2*j) +: 64] + x[64*(2*j+1) +: 64];
                    x[64*(2*j+1) +: 64] = rotl(x[64*(2*j+1) +: 64], rot(NW, d, j)) ^ x[64*(2*j) +: 64];
                end
                for (i = 0; i < NW; i = i + 1)
                    y[64*i +: 64] = x[64*perm(NW, i) +: 64];
                x = y;
            end
            four_rounds = x;
        end
    endfunction

    // subkey from the rotated key words kw (kw[i] = ks[(s+i) mod (NW+1)]),
    // the rotated tweak words ta, tb (t[s mod 3], t[(s+1) mod 3]) and s
    function [W-1:0] subkey;
        input [W-1:0] kw;
        input [63:0]  ta, tb;
        input [4:0]   s;
        reg [W-1:0] k;
        begin
            k = kw;
            k[64*(NW-3) +: 64] = k[64*(NW-3) +: 64] + ta;
            k[64*(NW-2) +: 64] = k[64*(NW-2) +: 64] + tb;
            k[64*(NW-1) +: 64] = k[64*(NW-1) +: 64] + {59'd0, s};
            subkey = k;
        end
    endfunction
    function [W-1:0] add_words;
        input [W-1:0] a, b;
        integer i;
        for (i = 0; i < NW; i = i + 1)
            add_words[64*i +: 64] = a[64*i +: 64] + b[64*i +: 64];
    endfunction

    reg  [W-1:0]      h;          // chaining value
    reg  [W-1:0]      x;          // Threefish state
    reg  [W-1:0]      msg;        // the block, for the feed-forward
    reg  [W+63:0]     kr;         // key schedule words, rotated by s
    reg  [191:0]      tr;         // tweak words, rotated by s mod 3
    reg  [4:0]        s;          // the next subkey (odd)
    reg  [3:0]        cyc;        // 1..9: round cycles of the current UBI
    reg               busy, outp, start_out, hold, lastf;
    wire              take = in_valid & in_ready;

    assign in_ready  = ~busy & ~start_out & (~hold | out_ack);
    assign out_valid = hold;

    // start of a UBI: key, tweak, block
    wire [W-1:0] key   = start_out ? h : (in_first ? IV : h);
    wire [63:0]  t0    = start_out ? T0_OUT : in_count;
    wire [63:0]  t1    = start_out ? T1_OUT : (T1_MSG | {in_last, in_first, 62'd0});
    wire [W-1:0] blk   = start_out ? {W{1'b0}} : in_block;
    reg  [63:0]  par;
    integer pi;
    always @(*) begin
        par = PARITY;
        for (pi = 0; pi < NW; pi = pi + 1)
            par = par ^ key[64*pi +: 64];
    end
    wire [W+63:0] ks   = {par, key};
    wire [191:0]  ts   = {t0 ^ t1, t1, t0};
    wire [W-1:0]  x0   = add_words(blk, subkey(key, t0, t1, 5'd0));

    // a round cycle: subkeys s and s+1
    wire [W-1:0] kw_a = kr[W-1:0];
    wire [W-1:0] kw_b = kr[W+63:64];
    wire [W-1:0] xa   = add_words(four_rounds(x, 0), subkey(kw_a, tr[63:0], tr[127:64], s));
    wire [W-1:0] xb   = add_words(four_rounds(xa, 4), subkey(kw_b, tr[127:64], tr[191:128], s + 5'd1));
    wire         last_cyc = (cyc == 4'd9);

    always @(posedge clk) begin
        if (take | start_out) begin
            x   <= x0;
            msg <= blk;
            kr  <= {ks[63:0], ks[W+63:64]};           // rotated by 1: subkey 1 next
            tr  <= {ts[63:0], ts[191:64]};
        end else if (busy) begin
            x   <= xb;
            kr  <= {kr[127:0], kr[W+63:128]};          // rotated by 2
            tr  <= {tr[127:0], tr[191:128]};
            if (last_cyc) h <= xb ^ msg;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; outp <= 1'b0; start_out <= 1'b0; hold <= 1'b0; lastf <= 1'b0;
            cyc <= 4'd0; s <= 5'd1;
        end else if (start_out) begin
            start_out <= 1'b0;
            busy <= 1'b1; outp <= 1'b1; cyc <= 4'd1; s <= 5'd1;
        end else if (busy) begin
            cyc <= cyc + 4'd1;
            s   <= s + 5'd2;
            if (last_cyc) begin
                busy <= 1'b0;
                if (outp) begin
                    outp <= 1'b0; hold <= 1'b1;
                end else if (lastf) begin
                    start_out <= 1'b1;
                end
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy <= 1'b1; cyc <= 4'd1; s <= 5'd1; lastf <= in_last;
            end
        end
    end

    assign out_digest = h[255:0];
endmodule
