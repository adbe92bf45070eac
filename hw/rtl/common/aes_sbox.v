// The AES S-box (issue 27b's AES-based cores, see aes_round.v): the
// synthesised look-up table of the 2009 study ("HW LUT").
`timescale 1ns/1ps
// A 256-entry table (aes_consts.vh, generated from the definition).
module aes_sbox (
    input  wire [7:0] a,
    output wire [7:0] y
);
`include "aes_consts.vh"
    assign y = aes_sbox_lut(a);
endmodule
