// BLAKE-32 (ROUNDS=10, round two) or BLAKE-256 (ROUNDS=14, final) behind
// the generic byte-stream wrapper: padding 0x80, zeros, a 1 bit before the
// 64-bit big-endian bit length (the byte before the length ORed with 0x01).
// Ports: see hash_stream.v and docs/hardware-study-interface.md.
`timescale 1ns/1ps
module blake_stream #(
    parameter integer ROUNDS = 10
) (
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
    wire         in_valid, in_ready, in_first, in_last, in_nomsg, out_valid, out_ack;
    wire [511:0] in_block;
    wire [63:0]  in_count;
    wire [255:0] out_digest;

    hash_stream #(
        .BLOCK_BYTES(64), .DIGEST_BYTES(32), .BEAT_BYTES(8),
        .PAD_EN(1), .PAD_BYTE(8'h80), .LEN_BYTES(8), .LEN_LE(0), .LEN_OR_BYTE(8'h01)
    ) u_wrap (
        .clk(clk), .rst(rst),
        .s_valid(s_valid), .s_ready(s_ready), .s_data(s_data), .s_keep(s_keep), .s_last(s_last),
        .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data), .m_keep(m_keep), .m_last(m_last),
        .core_in_valid(in_valid), .core_in_ready(in_ready), .core_in_block(in_block),
        .core_in_first(in_first), .core_in_last(in_last), .core_in_count(in_count),
        .core_in_nomsg(in_nomsg), .core_out_valid(out_valid), .core_out_ack(out_ack),
        .core_out_digest(out_digest));

    blake_core #(.ROUNDS(ROUNDS)) u_core (
        .clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(in_ready), .in_block(in_block),
        .in_first(in_first), .in_last(in_last), .in_count(in_count), .in_nomsg(in_nomsg),
        .out_valid(out_valid), .out_digest(out_digest), .out_ack(out_ack));
endmodule
