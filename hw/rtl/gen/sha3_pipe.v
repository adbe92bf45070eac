// SHA-3/SHAKE stream core, pipelined (48 cycles latency, 2 messages in flight) : sha3_stream with CORE=3.
// Ports: see sha3_stream.v and docs/hardware.md.
`timescale 1ns/1ps
module sha3_pipe (
    input  wire        clk,
    input  wire        rst,
    input  wire [2:0]  s_mode,
    input  wire [15:0] s_outlen,
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
    sha3_stream #(.CORE(3)) u_wrap (
        .clk(clk), .rst(rst), .s_mode(s_mode), .s_outlen(s_outlen),
        .s_valid(s_valid), .s_ready(s_ready), .s_data(s_data), .s_keep(s_keep), .s_last(s_last),
        .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data), .m_keep(m_keep), .m_last(m_last));
endmodule
