// ECHO-256 behind the generic byte-stream wrapper (hash_stream.v): 64-bit
// beats in, 32-byte digest out; padding 0x80, zeros, and 18 bytes at the end
// of the final block that the core fills in (digest size, bit length:
// echo_core.v), as it does the counter.
`timescale 1ns/1ps
module echo_stream (
    input  wire        clk,
    input  wire        rst,
    input  wire        s_valid,
    output wire        s_ready,
    input  wire [63:0] s_data,
    input  wire [7:0]  s_keep,
    input  wire        s_last,
    output wire        m_valid,
    input  wire        m_ready,
    output wire [63:0] m_data,
    output wire [7:0]  m_keep,
    output wire        m_last
);
    wire          in_valid, in_ready, in_first, in_last, in_nomsg, out_valid, out_ack;
    wire [1535:0] in_block;
    wire [63:0]   in_count;
    wire [255:0]  out_digest;

    hash_stream #(
        .BLOCK_BYTES(192), .DIGEST_BYTES(32), .BEAT_BYTES(8),
        .PAD_EN(1), .PAD_BYTE(8'h80), .LEN_BYTES(18), .LEN_LE(1)
    ) u_wrap (
        .clk(clk), .rst(rst),
        .s_valid(s_valid), .s_ready(s_ready), .s_data(s_data), .s_keep(s_keep), .s_last(s_last),
        .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data), .m_keep(m_keep), .m_last(m_last),
        .core_in_valid(in_valid), .core_in_ready(in_ready), .core_in_block(in_block),
        .core_in_first(in_first), .core_in_last(in_last), .core_in_count(in_count),
        .core_in_nomsg(in_nomsg), .core_out_valid(out_valid), .core_out_ack(out_ack),
        .core_out_digest(out_digest));

    echo_core u_core (
        .clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(in_ready), .in_block(in_block),
        .in_first(in_first), .in_last(in_last), .in_count(in_count), .in_nomsg(in_nomsg),
        .out_valid(out_valid), .out_digest(out_digest), .out_ack(out_ack));
endmodule
