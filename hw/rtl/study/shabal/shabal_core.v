// Shabal-256 core after the 2009 ASIC study's design: A (12 words), B, C and
// M (16 words each) are shift registers of 32-bit words; each cycle of the
// permutation P computes one word of A and one of B (one step, generic
// adders) and shifts the registers by a word, so that after the 48 steps
// every register is back in place (A rotated four times, B, C, M three
// times; C turns the other way, so that the word the step needs, C[8 - i],
// stays at one position). One cycle before P adds the message to B (and
// XORs the counter W into A), one cycle after P subtracts it from C, swaps
// B and C and adds C into A: 50 cycles per 512-bit block. The block is taken
// in the adding cycle. After the final block the core runs the three final
// rounds (the last block again, W not incremented: 150 more cycles) and
// outputs C[8..15]. The IV is a constant (its two initial rounds saved).
// Interface: the generic block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); byte i of the block in in_block[8i+7:8i],
// words little-endian. The wrapper pads (0x80, zeros to a block boundary).
`timescale 1ns/1ps
module shabal_core (
    input  wire         clk,
    input  wire         rst,
    input  wire         in_valid,
    output wire         in_ready,
    input  wire [511:0] in_block,
    input  wire         in_first,
    input  wire         in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]  in_count,    // not needed: W counts the blocks
    input  wire         in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire         out_valid,
    output wire [255:0] out_digest,
    input  wire         out_ack
);
`include "shabal_consts.vh"

    function [31:0] rotl;
        input [31:0] x;
        input integer n;
        rotl = (x << n) | (x >> (32 - n));
    endfunction

    reg  [31:0] a [0:11];
    reg  [31:0] b [0:15];
    reg  [31:0] c [0:15];
    reg  [31:0] m [0:15];
    reg  [63:0] w;                    // the block counter
    reg  [5:0]  cnt;                  // 1..48 steps of P, 49 the subtracting cycle
    reg  [1:0]  fin;                  // final rounds left after this one
    reg         busy, hold, lastf;
    wire        take = in_valid & in_ready;

    assign in_ready  = ~busy & (~hold | out_ack);
    assign out_valid = hold;

    // one step of P: A[i + 16j mod 12] (the head of A) and B[i] (the head of B)
    wire [31:0] av   = rotl(a[11], 15);
    wire [31:0] a5   = (av << 2) + av;
    wire [31:0] ax   = a[0] ^ a5 ^ c[8];
    wire [31:0] a3   = (ax << 1) + ax;
    wire [31:0] anew = a3 ^ b[13] ^ (b[9] & ~b[6]) ^ m[0];
    wire [31:0] bnew = ~(rotl(b[0], 1) ^ anew);

    // the adding cycle: a taken block (the core idle), or a final round on
    // the kept one (busy); the operands are chosen by registers only, so
    // the handshake is not on the adders' path (it enables the write)
    wire        first = ~busy & in_first;
    wire [63:0] wcur  = first ? 64'd1 : w;
    reg  [31:0] madd [0:15];
    reg  [31:0] badd [0:15];
    integer i;
    always @(*) begin
        for (i = 0; i < 16; i = i + 1) begin
            madd[i] = busy ? m[i] : in_block[32*i +: 32];
            badd[i] = rotl((first ? SHABAL_IV_B[32*i +: 32] : b[i]) + madd[i], 17);
        end
    end
    wire do_add  = take | (busy & cnt == 6'd0);
    wire do_step = busy & cnt != 6'd0 & cnt != 6'd49;
    wire do_sub  = busy & cnt == 6'd49;

    always @(posedge clk) begin
        if (do_add) begin
            for (i = 0; i < 12; i = i + 1)
                a[i] <= (first ? SHABAL_IV_A[32*i +: 32] : a[i])
                        ^ (i == 0 ? wcur[31:0] : i == 1 ? wcur[63:32] : 32'd0);
            for (i = 0; i < 16; i = i + 1) begin
                b[i] <= badd[i];
                m[i] <= madd[i];
                if (first) c[i] <= SHABAL_IV_C[32*i +: 32];
            end
            if (first) w <= 64'd1;
        end else if (do_step) begin
            for (i = 0; i < 11; i = i + 1)
                a[i] <= a[i + 1];
            a[11] <= anew;
            for (i = 0; i < 15; i = i + 1) begin
                b[i] <= b[i + 1];
                m[i] <= m[i + 1];
                c[i + 1] <= c[i];
            end
            b[15] <= bnew;
            m[15] <= m[0];
            c[0]  <= c[15];
        end else if (do_sub) begin
            for (i = 0; i < 12; i = i + 1)
                a[i] <= a[i] + c[(i + 3) % 16] + c[(i + 15) % 16] + c[(i + 11) % 16];
            for (i = 0; i < 16; i = i + 1) begin
                b[i] <= c[i] - m[i];
                c[i] <= b[i];
            end
            if (~lastf) w <= w + 64'd1;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            busy <= 1'b0; hold <= 1'b0; lastf <= 1'b0; fin <= 2'd0; cnt <= 6'd0;
        end else if (busy) begin
            if (cnt != 6'd49) begin
                cnt <= cnt + 6'd1;
            end else if (lastf && fin != 2'd0) begin   // another final round
                cnt <= 6'd0; fin <= fin - 2'd1;
            end else begin
                busy <= 1'b0; hold <= lastf; cnt <= 6'd0;
            end
        end else begin
            if (out_ack) hold <= 1'b0;
            if (take) begin
                busy <= 1'b1; cnt <= 6'd1; lastf <= in_last; fin <= 2'd3;
            end
        end
    end

    // the digest: C[8..15], words little-endian, byte 0 first
    genvar g;
    generate
        for (g = 0; g < 8; g = g + 1) begin : g_out
            assign out_digest[32*g +: 32] = c[8 + g];
        end
    endgenerate
endmodule
