// AES MixColumns on one column (issue 27b's AES-based cores, see aes_round.v).
`timescale 1ns/1ps
// Bytes (rows 0..3) in bits 7:0, 15:8, 23:16, 31:24.
module aes_mixcolumn (
    input  wire [31:0] a,
    output wire [31:0] y
);
    function [7:0] xt;               // multiplication by x modulo x^8+x^4+x^3+x+1
        input [7:0] b;
        xt = {b[6:0], 1'b0} ^ (b[7] ? 8'h1b : 8'h00);
    endfunction
    wire [7:0] a0 = a[7:0], a1 = a[15:8], a2 = a[23:16], a3 = a[31:24];
    wire [7:0] s01 = a0 ^ a1, s12 = a1 ^ a2, s23 = a2 ^ a3, s30 = a3 ^ a0;
    assign y[7:0]   = xt(s01) ^ s23 ^ a1;   // 2a0 + 3a1 + a2 + a3
    assign y[15:8]  = xt(s12) ^ s30 ^ a2;   // a0 + 2a1 + 3a2 + a3
    assign y[23:16] = xt(s23) ^ s01 ^ a3;   // a0 + a1 + 2a2 + 3a3
    assign y[31:24] = xt(s30) ^ s12 ^ a0;   // 3a0 + a1 + a2 + 2a3
endmodule
