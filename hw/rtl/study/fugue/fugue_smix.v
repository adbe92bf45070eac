`timescale 1ns/1ps
// SMIX of Fugue: the AES S-box on all 16 bytes of the 4x4 matrix (column j =
// word j, row 0 its most significant byte), then Super-Mix: M times every
// column, plus for every row i the sum of its off-diagonal entries times
// column i of M placed in row i, then row i rotated left by i.
module fugue_smix (
    input  wire [127:0] x,
    output wire [127:0] y
);
    function [7:0] xt;
        input [7:0] b;
        xt = {b[6:0], 1'b0} ^ (b[7] ? 8'h1b : 8'h00);
    endfunction
    function [7:0] gmul;                       // b times 1, 4 or 7
        input [7:0] b;
        input integer k;
        reg [7:0] b2, b4;
        begin
            b2 = xt(b);
            b4 = xt(b2);
            case (k)
                4: gmul = b4;
                7: gmul = b4 ^ b2 ^ b;
                default: gmul = b;
            endcase
        end
    endfunction
    function integer mcoef;                    // M = [1 4 7 1; 1 1 4 7; 7 1 1 4; 4 7 1 1]
        input integer row, col;
        mcoef = (((col - row + 4) % 4) == 1) ? 4 : (((col - row + 4) % 4) == 2) ? 7 : 1;
    endfunction

    // u: row i of column j after the S-boxes in bits 8(4i+j)+7:8(4i+j)
    wire [127:0] u;
    genvar gi, gj;
    generate
        for (gi = 0; gi < 4; gi = gi + 1) begin : g_row
            for (gj = 0; gj < 4; gj = gj + 1) begin : g_col
                aes_sbox u_sbox (.a(x[32*gj + 8*(3-gi) +: 8]), .y(u[8*(4*gi+gj) +: 8]));
            end
        end
    endgenerate

    reg [7:0] off, v;
    reg [127:0] out;
    integer i, j, k;
    always @(*) begin
        out = 128'd0;
        for (i = 0; i < 4; i = i + 1) begin
            off = 8'd0;
            for (k = 0; k < 4; k = k + 1)
                if (k != i) off = off ^ u[8*(4*i+k) +: 8];
            for (j = 0; j < 4; j = j + 1) begin
                // y[i][j] lands in row i of column (j - i) mod 4
                v = gmul(off, mcoef(j, i));
                for (k = 0; k < 4; k = k + 1)
                    v = v ^ gmul(u[8*(4*k+j) +: 8], mcoef(i, k));
                out[32*((j + 4 - i) % 4) + 8*(3-i) +: 8] = v;
            end
        end
    end
    assign y = out;
endmodule
