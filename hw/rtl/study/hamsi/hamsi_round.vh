// Hamsi-256's round (P or Pf) as functions, included inside a module after
// hamsi_consts.vh: one round XORs the constants (Pf's when `f`) and the
// round number `r` into the state, applies the 128 S-boxes to the bit
// columns (s_i, s_i+4, s_i+8, s_i+12) and L to the four diagonals. The state
// is s0..s15, word k in bits 32k+31:32k (rows of four: s0..s3 is row 0).
function [31:0] rotl;
    input [31:0] x;
    input integer n;
    rotl = (x << n) | (x >> (32 - n));
endfunction

// Serpent's linear transformation on (a, b, c, d) = bits 31:0 .. 127:96
function [127:0] lmap;
    input [127:0] v;
    reg [31:0] a, b, c, d;
    begin
        a = v[31:0]; b = v[63:32]; c = v[95:64]; d = v[127:96];
        a = rotl(a, 13);
        c = rotl(c, 3);
        b = b ^ a ^ c;
        d = d ^ c ^ (a << 3);
        b = rotl(b, 1);
        d = rotl(d, 7);
        a = a ^ b ^ d;
        c = c ^ d ^ (b << 7);
        a = rotl(a, 5);
        c = rotl(c, 22);
        lmap = {d, c, b, a};
    end
endfunction

// The S-box on 32 bit columns at once: (a, b, c, d) = bits 31:0 .. 127:96
// are the input bits 0..3 of the 32 S-boxes; each output bit is the OR of
// the table's minterms where it is 1 (the table as logic).
function [127:0] sbox_cols;
    input [127:0] x;
    reg   [31:0] sel;
    reg   [3:0]  v;
    integer e;
    begin
        sbox_cols = 128'd0;
        for (e = 0; e < 16; e = e + 1) begin
            sel = (e[0] ? x[31:0]   : ~x[31:0])   & (e[1] ? x[63:32]  : ~x[63:32]) &
                  (e[2] ? x[95:64]  : ~x[95:64])  & (e[3] ? x[127:96] : ~x[127:96]);
            v = hamsi_sbox(e[3:0]);
            sbox_cols = sbox_cols | {{32{v[3]}} & sel, {32{v[2]}} & sel, {32{v[1]}} & sel,
                                     {32{v[0]}} & sel};
        end
    end
endfunction

function [511:0] hamsi_rnd;
    input [511:0] s_in;
    input         f;
    input [2:0]   r;
    reg   [511:0] t;
    reg   [127:0] q;
    integer i;
    begin
        t = s_in ^ (f ? HAMSI_ALPHA_F : HAMSI_ALPHA);
        t[34:32] = t[34:32] ^ r;                       // the round number into s1
        for (i = 0; i < 4; i = i + 1) begin            // S-boxes on the columns (s_i, s_i+4, s_i+8, s_i+12)
            q = sbox_cols({t[32*(i+12) +: 32], t[32*(i+8) +: 32], t[32*(i+4) +: 32], t[32*i +: 32]});
            t[32*i +: 32]      = q[31:0];
            t[32*(i+4) +: 32]  = q[63:32];
            t[32*(i+8) +: 32]  = q[95:64];
            t[32*(i+12) +: 32] = q[127:96];
        end
        for (i = 0; i < 4; i = i + 1) begin            // L on (s_i, s_i+5, s_i+10, s_i+15), mod 4 per row
            q = lmap({t[32*(12 + (i+3)%4) +: 32], t[32*(8 + (i+2)%4) +: 32],
                      t[32*(4 + (i+1)%4) +: 32], t[32*i +: 32]});
            t[32*i +: 32]              = q[31:0];
            t[32*(4 + (i+1)%4) +: 32]  = q[63:32];
            t[32*(8 + (i+2)%4) +: 32]  = q[95:64];
            t[32*(12 + (i+3)%4) +: 32] = q[127:96];
        end
        hamsi_rnd = t;
    end
endfunction
