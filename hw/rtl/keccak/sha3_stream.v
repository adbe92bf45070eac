// SHA-3 / SHAKE stream wrapper around one Keccak-f[1600] core.
//
// Input stream (AXI-Stream style, 64-bit):
//   s_valid/s_ready handshake; s_data byte 0 = s_data[7:0] is the first byte;
//   s_last marks the final beat of a message. Beats before the last are always
//   full (8 bytes, s_keep ignored). On the last beat s_keep gives the valid
//   bytes as a contiguous mask from byte 0 (8'h00, 8'h01, 8'h03 ... 8'hFF).
//   A zero-length message is one beat with s_last=1 and s_keep=8'h00; a last
//   beat with s_keep=0 may also end a longer message (it adds no bytes).
//   s_mode and s_outlen are sampled with the first beat of each message:
//     s_mode 0 SHA3-224, 1 SHA3-256, 2 SHA3-384, 3 SHA3-512, 4 SHAKE128,
//            5 SHAKE256 (6, 7 reserved: treated as SHA3-256);
//     s_outlen: SHAKE output length in bytes (0..65535), ignored for SHA3.
// Output stream: m_valid/m_ready, m_data (64-bit, byte 0 first), m_keep
//   (contiguous from byte 0), m_last on the final beat of each digest. An empty
//   SHAKE output (s_outlen=0) is one beat with m_keep=0 and m_last=1.
// Padding (pad10*1 with the SHA3 0x06 / SHAKE 0x1F domain bits) is done here.
// The input buffer (one rate-sized block) is loaded while the core permutes
// the previous block; the digest is copied into a 512-bit output register so
// the core can start the next message while the digest streams out.
// CORE: 0 basic (24 cycles/block), 1 high-speed (25), 2 folded FF=4 (96,
//       state in LUT RAM), 3 pipelined (2 messages in flight, 48 cycles
//       latency), 4 folded FF=4 with the state in flip-flops (96).
`timescale 1ns/1ps
module sha3_stream #(
    parameter integer CORE = 0
) (
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
    // ---------------------------------------------------------------- modes
    function [4:0] rate_lanes;     // r / 64
        input [2:0] m;
        case (m)
            3'd0: rate_lanes = 5'd18;
            3'd2: rate_lanes = 5'd13;
            3'd3: rate_lanes = 5'd9;
            3'd4: rate_lanes = 5'd21;
            default: rate_lanes = 5'd17;
        endcase
    endfunction
    function [4:0] last_lane;      // r / 64 - 1: the lane that gets the final pad bit
        input [2:0] m;
        case (m)
            3'd0: last_lane = 5'd17;
            3'd2: last_lane = 5'd12;
            3'd3: last_lane = 5'd8;
            3'd4: last_lane = 5'd20;
            default: last_lane = 5'd16;
        endcase
    endfunction
    function is_shake;
        input [2:0] m;
        is_shake = (m == 3'd4) | (m == 3'd5);
    endfunction
    function [6:0] digest_bytes;   // SHA3 digest length d/8
        input [2:0] m;
        case (m)
            3'd0: digest_bytes = 7'd28;
            3'd2: digest_bytes = 7'd48;
            3'd3: digest_bytes = 7'd64;
            default: digest_bytes = 7'd32;
        endcase
    endfunction

    // ------------------------------------------------------- core interface
    wire          core_in_valid, core_in_ready, core_in_first, core_in_last;
    wire [1343:0] core_in_block;
    wire          core_out_valid, core_out_ack, core_out_clear;
    wire [1343:0] core_out_state;
    // Handshake strobes, for testbenches and counters.
    wire          core_take = core_in_valid & core_in_ready;

    generate
        if (CORE == 1) begin : g_core
            keccak_core_hs u_core (
                .clk(clk), .rst(rst), .in_valid(core_in_valid), .in_ready(core_in_ready),
                .in_block(core_in_block), .in_first(core_in_first), .in_last(core_in_last),
                .out_valid(core_out_valid), .out_state(core_out_state),
                .out_ack(core_out_ack), .out_clear(core_out_clear));
        end else if (CORE == 2) begin : g_core
            keccak_core_fold4 u_core (
                .clk(clk), .rst(rst), .in_valid(core_in_valid), .in_ready(core_in_ready),
                .in_block(core_in_block), .in_first(core_in_first), .in_last(core_in_last),
                .out_valid(core_out_valid), .out_state(core_out_state),
                .out_ack(core_out_ack), .out_clear(core_out_clear));
        end else if (CORE == 4) begin : g_core
            keccak_core_fold4ff u_core (
                .clk(clk), .rst(rst), .in_valid(core_in_valid), .in_ready(core_in_ready),
                .in_block(core_in_block), .in_first(core_in_first), .in_last(core_in_last),
                .out_valid(core_out_valid), .out_state(core_out_state),
                .out_ack(core_out_ack), .out_clear(core_out_clear));
        end else if (CORE == 3) begin : g_core
            keccak_core_pipe u_core (
                .clk(clk), .rst(rst), .in_valid(core_in_valid), .in_ready(core_in_ready),
                .in_block(core_in_block), .in_first(core_in_first), .in_last(core_in_last),
                .out_valid(core_out_valid), .out_state(core_out_state),
                .out_ack(core_out_ack), .out_clear(core_out_clear));
        end else begin : g_core
            keccak_core_basic u_core (
                .clk(clk), .rst(rst), .in_valid(core_in_valid), .in_ready(core_in_ready),
                .in_block(core_in_block), .in_first(core_in_first), .in_last(core_in_last),
                .out_valid(core_out_valid), .out_state(core_out_state),
                .out_ack(core_out_ack), .out_clear(core_out_clear));
        end
    endgenerate

    // ------------------------------------------------------------ input side
    localparam [1:0] I_LOAD = 2'd0, I_PAD = 2'd1, I_SQW = 2'd2;
    reg  [1:0]    ist;
    reg  [1343:0] buff;          // block buffer, lanes 0..20
    reg  [4:0]    widx;          // next lane to write
    reg           bfull, bfirst, blast, inmsg, sqpend;
    reg  [2:0]    mode_i;
    reg  [4:0]    ll_i;          // last_lane(mode_i)
    reg  [15:0]   outlen_i;

    // output-side message queue (mode, outlen), depth 2, and its signals
    reg  [1:0]    qcnt;
    reg  [18:0]   q0, q1;        // {mode, outlen}
    wire          msg_done;      // final output chunk of the head message captured
    wire          sq_req;        // head message needs one more squeeze block
    wire          push, pop;     // queue a finished input message / its output is done

    wire [2:0]  mode_b   = inmsg ? mode_i : s_mode;
    wire [4:0]  ll_b     = inmsg ? ll_i : last_lane(s_mode);
    wire [7:0]  dom_b    = is_shake(mode_b) ? 8'h1F : 8'h06;

    // bytes in this beat
    reg  [3:0] nb;
    always @(*) begin
        if (!s_last)        nb = 4'd8;
        else if (s_keep[7]) nb = 4'd8;
        else if (s_keep[6]) nb = 4'd7;
        else if (s_keep[5]) nb = 4'd6;
        else if (s_keep[4]) nb = 4'd5;
        else if (s_keep[3]) nb = 4'd4;
        else if (s_keep[2]) nb = 4'd3;
        else if (s_keep[1]) nb = 4'd2;
        else if (s_keep[0]) nb = 4'd1;
        else                nb = 4'd0;
    end

    wire load_beat = (ist == I_LOAD) & ~bfull;
    assign s_ready = load_beat;
    wire beat      = s_valid & load_beat;
    wire pad_write = (ist == I_PAD) & ~bfull;
    // widx is 0 on a message's first beat, which is never a block's last lane
    wire end_lane  = (widx == ll_i);

    // the lane written this cycle
    reg  [63:0] wdata;
    integer bi;
    always @(*) begin
        wdata = 64'd0;
        if (pad_write) begin
            wdata[7:0] = dom_b;
        end else begin
            for (bi = 0; bi < 8; bi = bi + 1) begin
                if (bi < {28'd0, nb})
                    wdata[8*bi +: 8] = s_data[8*bi +: 8];
                else if (s_last && bi == {28'd0, nb})
                    wdata[8*bi +: 8] = dom_b;
            end
        end
        if (end_lane && (pad_write || (s_last && nb != 4'd8)))
            wdata[63] = 1'b1;
    end
    wire wr_en   = beat | pad_write;
    // the final 0x80 bit, when it lies in a later lane than the one written
    wire set_end = (pad_write | (beat & s_last & (nb != 4'd8))) & ~end_lane;
    wire fin     = pad_write | (beat & s_last & (nb != 4'd8)); // block is final

    wire sq_mode = (ist == I_SQW);
    assign core_in_valid = sq_mode ? sqpend : bfull;
    assign core_in_block = buff;
    assign core_in_first = bfirst & ~sq_mode;
    assign core_in_last  = blast | sq_mode;

    genvar gl;
    generate
        for (gl = 0; gl < 21; gl = gl + 1) begin : g_buf
            wire we = wr_en & (widx == gl);
            wire se = set_end & (ll_b == gl);
            always @(posedge clk) begin
                if (rst | core_take)
                    buff[64*gl +: 64] <= 64'd0;
                else if (we)
                    buff[64*gl +: 64] <= wdata;
                else if (se)
                    buff[64*gl + 63] <= 1'b1;
            end
        end
    endgenerate

    wire need_sq = is_shake(mode_i) & ({1'b0, outlen_i} > {9'd0, rate_lanes(mode_i), 3'd0});

    always @(posedge clk) begin
        if (rst) begin
            ist <= I_LOAD; widx <= 5'd0; bfull <= 1'b0; bfirst <= 1'b0; blast <= 1'b0;
            inmsg <= 1'b0; sqpend <= 1'b0; mode_i <= 3'd1; ll_i <= 5'd16; outlen_i <= 16'd0;
        end else begin
            if (beat & ~inmsg) begin
                mode_i   <= s_mode;
                ll_i     <= last_lane(s_mode);
                outlen_i <= s_outlen;
                inmsg    <= 1'b1;
                bfirst   <= 1'b1;
            end
            if (wr_en) begin
                if (fin) begin
                    bfull <= 1'b1;
                    blast <= 1'b1;
                    widx  <= 5'd0;
                    ist   <= I_LOAD;
                end else if (end_lane) begin
                    bfull <= 1'b1;
                    widx  <= 5'd0;
                    if (beat & s_last) ist <= I_PAD;   // full last beat fills the block
                end else begin
                    widx <= widx + 5'd1;
                    if (beat & s_last) ist <= I_PAD;   // pad byte goes into the next lane
                end
            end
            if (core_take) begin
                bfull  <= 1'b0;
                bfirst <= 1'b0;
                blast  <= 1'b0;
                if (sq_mode) begin
                    sqpend <= 1'b0;
                end else if (blast) begin
                    inmsg <= 1'b0;
                    if (need_sq) ist <= I_SQW;
                end
            end
            if (sq_mode) begin
                if (sq_req) sqpend <= 1'b1;
                if (msg_done && qcnt == 2'd1) ist <= I_LOAD;
            end
        end
    end

    // ----------------------------------------------------------- output side
    always @(posedge clk) begin
        if (rst) begin
            qcnt <= 2'd0; q0 <= 19'd0; q1 <= 19'd0;
        end else begin
            case ({push, pop})
                2'b10: begin
                    if (qcnt == 2'd0) q0 <= {mode_i, outlen_i}; else q1 <= {mode_i, outlen_i};
                    qcnt <= qcnt + 2'd1;
                end
                2'b01: begin q0 <= q1; qcnt <= qcnt - 2'd1; end
                2'b11: begin
                    if (qcnt == 2'd1) q0 <= {mode_i, outlen_i};
                    else begin q0 <= q1; q1 <= {mode_i, outlen_i}; end
                end
                default: ;
            endcase
        end
    end

    assign push = core_take & blast & ~sq_mode;
    assign pop  = msg_done;
    wire [2:0]  omode   = q0[18:16];
    wire [15:0] ooutlen = q0[15:0];
    reg         osend, ostarted, ofinal;
    reg  [16:0] orem;             // output bytes still to capture (this message)
    reg  [1:0]  ochunk;           // 64-byte chunk of the rate to capture next
    reg  [6:0]  oleft;            // bytes of the captured chunk still to send
    /* verilator lint_off UNUSEDSIGNAL */
    reg         ackp;             // CORE 2: acknowledge the core after this chunk's last beat
    /* verilator lint_on UNUSEDSIGNAL */

    // What the next capture does is computed ahead from registers, in two
    // register stages (off the capture -> ack -> core-take path); `pre_ok`
    // is low for the two cycles after anything it depends on changed.
    wire [16:0] orem_eff   = ostarted ? orem :
                             (is_shake(omode) ? {1'b0, ooutlen} : {10'd0, digest_bytes(omode)});
    wire [7:0]  rbytes     = {rate_lanes(omode), 3'd0};
    reg  [7:0]  crem;         // rate bytes from the chunk start on
    reg  [16:0] oeff;
    reg         lastchunk, cfinal, pre_ok0, pre_ok;
    reg  [6:0]  ctake;
    reg  [16:0] orem_next;
    wire [6:0]  cavail     = (crem > 8'd64) ? 7'd64 : crem[6:0];
    wire        cfin_n     = (oeff <= {10'd0, cavail});
    wire        capture    = ~osend & core_out_valid & (qcnt != 2'd0) & pre_ok;
    wire        q_change   = capture | push | pop;

    always @(posedge clk) begin
        crem      <= rbytes - {ochunk, 6'd0};
        oeff      <= orem_eff;
        lastchunk <= (crem <= 8'd64);
        cfinal    <= cfin_n;
        ctake     <= cfin_n ? oeff[6:0] : cavail;
        orem_next <= cfin_n ? 17'd0 : oeff - {10'd0, cavail};
        pre_ok0   <= ~(rst | q_change);
        pre_ok    <= pre_ok0 & ~(rst | q_change);
    end

    assign msg_done       = capture & cfinal;
    assign sq_req         = capture & ~cfinal & lastchunk;
    /* verilator lint_off UNUSEDSIGNAL */
    wire        last_beat     = osend & m_ready & (oleft <= 7'd8);   // used by CORE 2
    /* verilator lint_on UNUSEDSIGNAL */

    // Output data. The state of cores 0, 1, 3 and 4 is the working state, so
    // a chunk of it is copied into a 512-bit buffer at the capture and the
    // core is acknowledged at once (it can go on while the digest streams
    // out). The LUT-RAM folded core (2) has its own output register: its
    // lanes stream straight from it (a 21:1 lane choice instead of a 3:1
    // chunk choice into a 512-bit shift register), and the core is
    // acknowledged after the chunk's last beat.
    generate
        if (CORE == 2) begin : g_odirect
            reg [4:0] olane;
            reg [63:0] lane;
            integer li;
            always @(posedge clk) begin
                if (capture)
                    olane <= {ochunk, 3'd0};
                else if (osend & m_ready)
                    olane <= olane + 5'd1;
            end
            always @(*) begin
                lane = 64'd0;
                for (li = 0; li < 21; li = li + 1)
                    if ({27'd0, olane} == li) lane = core_out_state[64*li +: 64];
            end
            assign m_data         = lane;
            assign core_out_ack   = last_beat & ackp;
            assign core_out_clear = last_beat & ackp & ofinal;
        end else begin : g_obuf
            reg [511:0] obuf;
            reg [511:0] chunk_data;
            always @(*) begin
                case (ochunk)
                    2'd1:    chunk_data = core_out_state[1023:512];
                    2'd2:    chunk_data = {192'd0, core_out_state[1343:1024]};
                    default: chunk_data = core_out_state[511:0];
                endcase
            end
            always @(posedge clk) begin
                if (capture)
                    obuf <= chunk_data;
                else if (osend & m_ready)
                    obuf <= {64'd0, obuf[511:64]};
            end
            assign m_data         = obuf[63:0];
            assign core_out_ack   = capture & (cfinal | lastchunk);
            assign core_out_clear = capture & cfinal;
        end
    endgenerate

    always @(posedge clk) begin
        if (rst) begin
            osend <= 1'b0; ostarted <= 1'b0; ofinal <= 1'b0; orem <= 17'd0;
            ochunk <= 2'd0; oleft <= 7'd0; ackp <= 1'b0;
        end else if (capture) begin
            oleft    <= ctake;
            ackp     <= cfinal | lastchunk;
            ofinal   <= cfinal;
            osend    <= 1'b1;
            orem     <= orem_next;
            ostarted <= ~cfinal;
            ochunk   <= (cfinal | lastchunk) ? 2'd0 : ochunk + 2'd1;
        end else if (osend & m_ready) begin
            oleft <= (oleft > 7'd8) ? oleft - 7'd8 : 7'd0;
            if (oleft <= 7'd8) osend <= 1'b0;
        end
    end

    assign m_valid = osend;
    assign m_keep  = (oleft >= 7'd8) ? 8'hFF : ((8'd1 << oleft[2:0]) - 8'd1);
    assign m_last  = ofinal & (oleft <= 7'd8);
endmodule
