// Hamsi-256 core after the 2009 ASIC study's fastest variant: three P/Pf
// rounds in series (hamsi_round.vh), S-boxes as logic from their table, the
// expansion as a parity per output bit (the linear code's columns), a
// 512-bit state register and the 256-bit chaining value. One cycle per
// 32-bit block: expansion, concatenation, three rounds, truncation and the
// feed-forward in the cycle the block is taken. The wrapper pads to 32 bits
// (0x80, zeros); the core adds the two blocks of the 64-bit bit length
// (from in_count) itself: the high word through P (one cycle), the low word
// through Pf (six rounds: two cycles, the state register between them).
// Four cycles from taking the final block to the digest.
// Interface: the generic block-core interface of hash_stream.v
// (docs/hardware-study-interface.md); the 4-byte block is a big-endian
// word, the digest big-endian words.
// The datapath is written inside the clocked block (blocking temporaries),
// so that a simulator evaluates it once per clock; it is the same logic.
`timescale 1ns/1ps
module hamsi_core (
    input  wire          clk,
    input  wire          rst,
    input  wire          in_valid,
    output wire          in_ready,
    input  wire [31:0]   in_block,
    input  wire          in_first,
    input  wire          in_last,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [63:0]   in_count,    // message bytes: the length blocks (bits 60:0)
    input  wire          in_nomsg,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire          out_valid,
    output wire [255:0]  out_digest,
    input  wire          out_ack
);
`include "hamsi_consts.vh"
`include "hamsi_round.vh"

    function [31:0] bswap;
        input [31:0] x;
        bswap = {x[7:0], x[15:8], x[23:16], x[31:24]};
    endfunction

    // the message expansion (the linear code): the XOR of the generator
    // rows selected by the word's bits, most significant first
    function [255:0] expand;
        input [31:0] w;
        integer i;
        begin
            expand = 256'd0;
            for (i = 0; i < 32; i = i + 1)
                expand = expand ^ ({256{w[31 - i]}} & hamsi_expand_row(i[4:0]));
        end
    endfunction

    localparam [1:0] IDLE = 2'd0, LENHI = 2'd1, PF1 = 2'd2, PF2 = 2'd3;

    reg  [255:0] h;               // chaining value c0..c7
    reg  [511:0] st;              // the state between the two Pf cycles
    reg  [60:0]  nbytes;          // message length in bytes
    reg  [1:0]   phase;
    reg          hold;
    wire         take = in_valid & in_ready;

    assign in_ready  = (phase == IDLE) & (~hold | out_ack);
    assign out_valid = hold;

    // datapath temporaries (blocking, inside the clocked block: see above)
    /* verilator lint_off BLKSEQ */
    reg  [63:0]  nbits;
    reg  [31:0]  word;
    reg  [255:0] hb, m;
    reg  [511:0] s;
    reg          fin;
    reg  [2:0]   rc0;

    always @(posedge clk) begin
        nbits = {nbytes, 3'b000};
        word  = take ? bswap(in_block) : (phase == LENHI ? nbits[63:32] : nbits[31:0]);
        hb    = (take && in_first) ? HAMSI_IV : h;
        m     = expand(word);
        // concatenation: rows (m0 m1 c0 c1) (c2 c3 m2 m3) (m4 m5 c4 c5) (c6 c7 m6 m7)
        s     = (phase == PF2) ? st : {m[255:192], hb[255:192], hb[191:128], m[191:128],
                                       m[127:64],  hb[127:64],  hb[63:0],    m[63:0]};
        fin   = phase[1];                                    // PF1, PF2: Pf's constants
        rc0   = (phase == PF2) ? 3'd3 : 3'd0;
        s     = hamsi_rnd(s, fin, rc0);
        s     = hamsi_rnd(s, fin, rc0 + 3'd1);
        s     = hamsi_rnd(s, fin, rc0 + 3'd2);
        // truncation to rows 0 and 2, fed forward onto the chaining value
        if (take || phase == LENHI || phase == PF2)
            h <= hb ^ {s[383:256], s[127:0]};
        if (phase == PF1)
            st <= s;
        if (take && in_last)
            nbytes <= in_count[60:0];
    end
    /* verilator lint_on BLKSEQ */

    always @(posedge clk) begin
        if (rst) begin
            phase <= IDLE; hold <= 1'b0;
        end else begin
            case (phase)
                IDLE: begin
                    if (out_ack) hold <= 1'b0;
                    if (take && in_last) phase <= LENHI;
                end
                LENHI: phase <= PF1;
                PF1:   phase <= PF2;
                PF2: begin
                    phase <= IDLE;
                    hold  <= 1'b1;
                end
            endcase
        end
    end

    genvar g;
    generate
        for (g = 0; g < 8; g = g + 1) begin : g_out
            assign out_digest[32*g +: 32] = bswap(h[32*g +: 32]);
        end
    endgenerate
endmodule
