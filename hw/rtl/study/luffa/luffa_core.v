// Luffa-256 core (round two, specification v2.0) after the 2009 ASIC
// study's design: the message injection MI in a cycle of its own (its input
// switched between IV and message, state and message, state and zero for
// the blank round), the tweak of Q_1, Q_2 applied at the end of MI, then one
// step of each of Q_0, Q_1, Q_2 in parallel per cycle: 9 cycles per 256-bit
// block. The S-boxes are 4-bit look-up tables; the step constants come from
// a table and are registered (the current step's constants are a register,
// off the critical path). After the final block the core runs the blank
// round (MI with a zero block and eight steps: 9 more cycles) and outputs
// V_0 ^ V_1 ^ V_2.
// Interface: the generic block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); byte i of the block in in_block[8i+7:8i],
// words big-endian. The wrapper pads (0x80, zeros to a block boundary).
`timescale 1ns/1ps
module luffa_core (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [255:0] in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,    // not needed: the padding is the wrapper's
    input  wire         in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
`include "luffa_consts.vh"

    function [31:0] bswap;
        input [31:0] x;
        bswap = {x[7:0], x[15:8], x[23:16], x[31:24]};
    endfunction
    function [31:0] rotl;
        input [31:0] x;
        input integer n;
        rotl = (x << n) | (x >> (32 - n));
    endfunction
    // multiplication by x in GF((2^32)^8), x^8 = x^4 + x^3 + x + 1; word i
    // (bits 32i+31:32i) is the coefficient of x^i
    function [255:0] mult2;
        input [255:0] a;
        mult2 = {a[223:192], a[191:160], a[159:128], a[127:96] ^ a[255:224],
                 a[95:64] ^ a[255:224], a[63:32], a[31:0] ^ a[255:224], a[255:224]};
    endfunction
    function [3:0] sbox;
        input [3:0] x;
        case (x)
            4'd0:  sbox = 4'd13; 4'd1:  sbox = 4'd14; 4'd2:  sbox = 4'd0;  4'd3:  sbox = 4'd1;
            4'd4:  sbox = 4'd5;  4'd5:  sbox = 4'd10; 4'd6:  sbox = 4'd7;  4'd7:  sbox = 4'd6;
            4'd8:  sbox = 4'd11; 4'd9:  sbox = 4'd3;  4'd10: sbox = 4'd9;  4'd11: sbox = 4'd12;
            4'd12: sbox = 4'd15; 4'd13: sbox = 4'd8;  4'd14: sbox = 4'd2;  default: sbox = 4'd4;
        endcase
    endfunction
    // SubCrumb on four words: bit k of word i is bit i of S-box k's nibble
    function [127:0] sub_crumb;
        input [31:0] a0, a1, a2, a3;
        integer k;
        reg [3:0] y;
        begin
            for (k = 0; k < 32; k = k + 1) begin
                y = sbox({a3[k], a2[k], a1[k], a0[k]});
                sub_crumb[k]      = y[0];
                sub_crumb[32 + k] = y[1];
                sub_crumb[64 + k] = y[2];
                sub_crumb[96 + k] = y[3];
            end
        end
    endfunction
    function [63:0] mix_word;        // {v, u}
        input [31:0] u0, v0;
        reg [31:0] u, v;
        begin
            v = v0 ^ u0;
            u = rotl(u0, 2) ^ v;
            v = rotl(v, 14) ^ u;
            u = rotl(u, 10) ^ v;
            v = rotl(v, 1);
            mix_word = {v, u};
        end
    endfunction
    // one step of Q_j: SubCrumb, MixWord, AddConstant
    function [255:0] step;
        input [255:0] x;
        input [31:0]  c0, c4;
        reg [127:0] a, b;
        reg [255:0] y;
        reg [63:0]  m;
        integer k;
        begin
            a = sub_crumb(x[31:0], x[63:32], x[95:64], x[127:96]);
            b = sub_crumb(x[191:160], x[223:192], x[255:224], x[159:128]);
            y = {b[95:0], b[127:96], a};
            for (k = 0; k < 4; k = k + 1) begin
                m = mix_word(y[32*k +: 32], y[32*(k+4) +: 32]);
                y[32*k +: 32]     = m[31:0];
                y[32*(k+4) +: 32] = m[63:32];
            end
            step = y ^ {96'd0, c4, 96'd0, c0};
        end
    endfunction
    function [255:0] tweak;          // words 4..7 rotated left by n
        input [255:0] x;
        input integer n;
        integer k;
        begin
            tweak = x;
            for (k = 4; k < 8; k = k + 1)
                tweak[32*k +: 32] = rotl(x[32*k +: 32], n);
        end
    endfunction

    reg  [255:0] v0, v1, v2;          // the chains
    reg  [191:0] crc;                 // constants of the current step
    reg  [3:0]   cnt;                 // steps done in this round
    reg          busy, hold, lastf, blank;
    wire         take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    // the message injection: its state input and its message input, chosen
    // by registers only (idle: a taken block; busy: the blank round's zero
    // block), so that the handshake only enables the write
    wire         fresh  = ~busy & in_first;
    wire [255:0] s0 = fresh ? LUFFA_IV[255:0]   : v0;
    wire [255:0] s1 = fresh ? LUFFA_IV[511:256] : v1;
    wire [255:0] s2 = fresh ? LUFFA_IV[767:512] : v2;
    reg  [255:0] msg;
    integer i;
    always @(*) begin
        for (i = 0; i < 8; i = i + 1)
            msg[32*i +: 32] = busy ? 32'd0 : bswap(in_block[32*i +: 32]);
    end
    wire [255:0] t   = mult2(s0 ^ s1 ^ s2);
    wire [255:0] m1  = mult2(msg);
    wire [255:0] m2  = mult2(m1);
    wire [255:0] mi0 = s0 ^ t ^ msg;
    wire [255:0] mi1 = tweak(s1 ^ t ^ m1, 1);
    wire [255:0] mi2 = tweak(s2 ^ t ^ m2, 2);
    wire         do_mi   = take | (busy & cnt == 4'd8);       // a message or the blank round
    wire         do_step = busy & cnt != 4'd8;

    always @(posedge clk) begin
        if (do_mi) begin
            v0 <= mi0; v1 <= mi1; v2 <= mi2;
            crc <= luffa_rc(3'd0);
        end else if (do_step) begin
            v0 <= step(v0, crc[31:0],    crc[63:32]);
            v1 <= step(v1, crc[95:64],   crc[127:96]);
            v2 <= step(v2, crc[159:128], crc[191:160]);
            crc <= luffa_rc(cnt[2:0] + 3'd1);
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; blank <= 1'b0; cnt <= 4'd0;
        end else if (busy) begin
            if (cnt == 4'd8) begin                 // the blank round's MI
                cnt <= 4'd0; blank <= 1'b1;
            end else if (cnt == 4'd7) begin        // the eighth step
                if (lastf & ~blank) begin
                    cnt <= 4'd8;
                end else begin
                    busy <= 1'b0; hold <= lastf; cnt <= 4'd0;
                end
            end else begin
                cnt <= cnt + 4'd1;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy <= 1'b1; cnt <= 4'd0; lastf <= in_last; blank <= 1'b0;
            end
        end
    end

    // the digest: V_0 ^ V_1 ^ V_2, words big-endian, byte 0 first
    wire [255:0] z = v0 ^ v1 ^ v2;
    genvar g;
    generate
        for (g = 0; g < 8; g = g + 1) begin : g_out
            assign out_digest[32*g +: 32] = bswap(z[32*g +: 32]);
        end
    endgenerate
endmodule
