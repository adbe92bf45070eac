// One full AES round, built from the AES pieces shared by the AES-based
// cores of the ASIC study (ECHO, SHAvite-3, Fugue): aes_sbox.v (the S-box as
// a synthesised look-up table, the "HW LUT" S-box the 2009 study chose for
// all three) and aes_mixcolumn.v (MixColumns on one column). Byte k of a 128-bit state sits in bits 8k+7:8k
// and is the AES state byte at row k % 4, column k / 4 (FIPS 197 3.4).
`timescale 1ns/1ps
// One AES round: SubBytes, ShiftRows, MixColumns, AddRoundKey.
module aes_round (
    input  wire [127:0] x,
    input  wire [127:0] key,
    output wire [127:0] y
);
    wire [127:0] sb, sr, mc;
    genvar k, c;
    generate
        for (k = 0; k < 16; k = k + 1) begin : g_sbox
            aes_sbox u_sbox (.a(x[8*k +: 8]), .y(sb[8*k +: 8]));
            // ShiftRows: row r moves left by r columns (wiring)
            assign sr[8*k +: 8] = sb[8*((4 * ((k / 4 + k % 4) % 4)) + k % 4) +: 8];
        end
        for (c = 0; c < 4; c = c + 1) begin : g_mix
            aes_mixcolumn u_mix (.a(sr[32*c +: 32]), .y(mc[32*c +: 32]));
        end
    endgenerate
    assign y = mc ^ key;
endmodule
