// Byte-stream wrapper for a block hash core: message bytes in, padded blocks
// to the core, digest out. One wrapper for every core of the ASIC study
// (docs/hardware-study-interface.md has the interface and the padding rules).
//
// Input stream (AXI-Stream style, BEAT_BYTES wide): s_valid/s_ready, s_data
//   (byte 0 of the beat in bits 7:0), s_keep, s_last. Beats before the last
//   are full (s_keep ignored). On the last beat s_keep is a contiguous mask
//   from byte 0. A zero-length message is one beat with s_last=1, s_keep=0;
//   a last beat with s_keep=0 may also end a longer message.
// Output stream: m_valid/m_ready, m_data (byte 0 first), m_keep (contiguous),
//   m_last on the final beat of each digest.
//
// Padding, set by parameters (MD-style: message || pad byte || zeros ||
// length field at the end of the final block):
//   PAD_EN, PAD_BYTE   the byte appended after the message (0x80 for a 1 bit)
//   LEN_BYTES          length field size at the end of the final block (0: none)
//   LEN_LE             1: little-endian field, 0: big-endian
//   LEN_BLOCKS         1: the field counts blocks (Groestl), 0: message bits
//   LEN_OWN_BLOCK      1: the field's block holds no message byte (JH)
//   LEN_OR_BYTE        ORed into the byte before the field (BLAKE-256: 0x01)
// BLOCK_PER_CYCLE = 1 lets a beat (or a padding lane) be written in the cycle
// the core takes the full block, so that a block of one beat can go to the
// core every cycle (BMW-256, Hamsi-256); 0 (the default) waits a cycle after
// each take. It puts the core's in_ready on the path to s_ready.
// OUT_BEAT_BYTES is the width of the output stream (default BEAT_BYTES, at
// most DIGEST_BYTES): a core that finishes a short message in fewer cycles
// than the digest has input-width beats (Hamsi-256) sends it in wider beats.
// BEAT_BYTES is a power of two, BLOCK_BYTES a multiple of it, and
// LEN_BYTES + PAD_EN <= BLOCK_BYTES.
// With no pad byte and no length field the message is zero-filled to a
// block boundary (at least one block; a message that ends on a boundary gets
// no extra block): the wrapper then hands a full block over only once it
// knows whether it is the last (the next beat is visible, or s_last came).
//
// Core side: the core takes a block (in_valid & in_ready) with its flags
//   in_first, in_last (final block after padding), in_count (message bytes up
//   to the end of this block) and in_nomsg (the block holds only padding);
//   all are stable until the take. The core raises out_valid with the digest
//   (byte 0 in bits 7:0) and holds it until out_ack; the wrapper acks when it
//   copies the digest into its output register.
`timescale 1ns/1ps
module hash_stream #(
    parameter integer BLOCK_BYTES   = 64,
    parameter integer DIGEST_BYTES  = 32,
    parameter integer BEAT_BYTES    = 8,
    parameter integer PAD_EN        = 1,
    parameter [7:0]   PAD_BYTE      = 8'h80,
    parameter integer LEN_BYTES     = 8,
    parameter integer LEN_LE        = 0,
    parameter integer LEN_BLOCKS    = 0,
    parameter integer LEN_OWN_BLOCK = 0,
    parameter [7:0]   LEN_OR_BYTE   = 8'h00,
    parameter integer BLOCK_PER_CYCLE = 0,
    parameter integer OUT_BEAT_BYTES = BEAT_BYTES
) (
    input  wire                      clk,
    input  wire                      rst,
    input  wire                      s_valid,
    output wire                      s_ready,
    input  wire [8*BEAT_BYTES-1:0]   s_data,
    input  wire [BEAT_BYTES-1:0]     s_keep,
    input  wire                      s_last,
    output wire                      m_valid,
    input  wire                      m_ready,
    output wire [8*OUT_BEAT_BYTES-1:0] m_data,
    output wire [OUT_BEAT_BYTES-1:0] m_keep,
    output wire                      m_last,
    output wire                      core_in_valid,
    input  wire                      core_in_ready,
    output wire [8*BLOCK_BYTES-1:0]  core_in_block,
    output wire                      core_in_first,
    output wire                      core_in_last,
    output wire [63:0]               core_in_count,
    output wire                      core_in_nomsg,
    input  wire                      core_out_valid,
    output wire                      core_out_ack,
    input  wire [8*DIGEST_BYTES-1:0] core_out_digest
);
    localparam integer BW    = 8 * BEAT_BYTES;
    localparam integer NL    = BLOCK_BYTES / BEAT_BYTES;       // lanes per block
    localparam integer LW    = (NL > 1) ? $clog2(NL) : 1;
    localparam integer NBW   = $clog2(BEAT_BYTES + 1);
    localparam integer OW    = $clog2(BLOCK_BYTES + 1) + 2;
    localparam integer NOPAD = ((PAD_EN == 0) && (LEN_BYTES == 0)) ? 1 : 0;
    localparam integer NLM1  = NL - 1;
    localparam [LW-1:0] LAST_LANE = NLM1[LW-1:0];
    localparam integer TAILN = PAD_EN + LEN_BYTES;              // padding bytes at least
    localparam [OW-1:0] BLOCK_O = BLOCK_BYTES[OW-1:0];
    localparam [OW-1:0] BEAT_O  = BEAT_BYTES[OW-1:0];
    localparam [OW-1:0] TAIL_O  = TAILN[OW-1:0];
    localparam [NBW-1:0] BEAT_NB = BEAT_BYTES[NBW-1:0];

    // --------------------------------------------------------- input side
    reg  [8*BLOCK_BYTES-1:0] buff;
    reg  [LW-1:0] widx;           // lane written next
    reg           bfull;          // block complete, offered to the core
    reg           bpend;          // (no padding) block complete, finality unknown
    reg           bfirst, blast, bmsg;
    reg           inmsg;          // a message is being read in
    reg           padding;        // writing padding lanes
    reg           pad_due;        // the pad byte goes into byte 0 of the next lane
    reg           fin_cur;        // the block being padded is the final one
    reg  [63:0]   pos;            // message bytes so far
    reg  [63:0]   nblk;           // blocks completed in this message
    reg  [63:0]   lenv;           // the length field's value

    // bytes in this beat (all of them before the last beat)
    reg  [NBW-1:0] nb;
    integer k;
    always @(*) begin
        nb = BEAT_NB;
        if (s_last) begin
            nb = {NBW{1'b0}};
            for (k = 0; k < BEAT_BYTES; k = k + 1)
                if (s_keep[k]) nb = k[NBW-1:0] + 1'b1;
        end
    end

    wire empty_last = s_last & (nb == {NBW{1'b0}});
    // the buffer takes a lane: it is not full, or (BLOCK_PER_CYCLE) its full
    // block goes to the core in this cycle
    wire free       = ~bfull | ((BLOCK_PER_CYCLE != 0) & core_in_ready);
    assign s_ready  = ~padding & free & (~bpend | empty_last);
    wire beat       = s_valid & s_ready & ~bpend;     // a beat written into the buffer
    wire pend_end   = s_valid & bpend;                 // the beat after a full block is visible
    wire padw       = padding & free;                  // a padding lane written

    // where the message ends in the block (decided on its last beat)
    wire [OW-1:0] o        = {{(OW-LW){1'b0}}, widx} * BEAT_O + {{(OW-NBW){1'b0}}, nb};
    wire          full_end = (o == BLOCK_O);
    wire          fits     = (o + TAIL_O <= BLOCK_O) &&
                             ((LEN_OWN_BLOCK == 0) || (o == {OW{1'b0}}));
    // The counters need no adder: beats before the last are full, so pos is a
    // multiple of BEAT_BYTES (a power of two) until the last beat's bytes are
    // ORed in; block counts only increment.
    wire [63:0]   pos_base = inmsg ? pos : 64'd0;
    wire [63:0]   pos_new  = (nb == BEAT_NB) ? pos_base + {{(64-NBW){1'b0}}, BEAT_NB}
                                             : pos_base | {{(64-NBW){1'b0}}, nb};
    wire [63:0]   nblk_base = inmsg ? nblk : 64'd0;
    wire [63:0]   len_calc = (LEN_BLOCKS != 0)
                             ? ((full_end | ~fits) ? nblk_base + 64'd2 : nblk_base + 64'd1)
                             : {pos_new[60:0], 3'b000};

    // The last beat is held one cycle and written with the padding, so that
    // every lane written is a beat as it arrives or a function of registers
    // only (no path from s_keep or the length counter into the buffer).
    reg  [BW-1:0]  lb_data;
    reg  [NBW-1:0] lb_nb;
    reg            lb_pend;

    // the final block's tail: the length field and the byte before it
    reg  [8*BLOCK_BYTES-1:0] tail;
    integer t;
    always @(*) begin
        tail = {8*BLOCK_BYTES{1'b0}};
        for (t = 0; t < LEN_BYTES; t = t + 1) begin
            if (LEN_LE != 0) begin
                if (t < 8) tail[8*(BLOCK_BYTES-LEN_BYTES+t) +: 8] = lenv[8*t +: 8];
            end else begin
                if (LEN_BYTES - 1 - t < 8)
                    tail[8*(BLOCK_BYTES-LEN_BYTES+t) +: 8] = lenv[8*(LEN_BYTES-1-t) +: 8];
            end
        end
        if (LEN_BYTES < BLOCK_BYTES)
            tail[8*(BLOCK_BYTES-LEN_BYTES-1) +: 8] = tail[8*(BLOCK_BYTES-LEN_BYTES-1) +: 8] | LEN_OR_BYTE;
    end
    wire [BW-1:0] tail_lane = tail[BW*widx +: BW];

    // the lane written this cycle: a full beat, or a padding lane (the first
    // of which carries the held last beat)
    wire          wr       = (beat & ~s_last) | padw;
    wire          pad_here = padw & (lb_pend ? ((PAD_EN != 0) && (lb_nb < BEAT_NB)) : pad_due);
    wire [NBW-1:0] pad_pos = lb_pend ? lb_nb : {NBW{1'b0}};
    reg  [BW-1:0] wdata;
    integer b;
    always @(*) begin
        for (b = 0; b < BEAT_BYTES; b = b + 1) begin
            if (beat)
                wdata[8*b +: 8] = s_data[8*b +: 8];
            else
                wdata[8*b +: 8] = (lb_pend && b < lb_nb) ? lb_data[8*b +: 8] : 8'h00;
            if (pad_here && pad_pos == b[NBW-1:0]) wdata[8*b +: 8] = wdata[8*b +: 8] | PAD_BYTE;
        end
        if (padw & fin_cur) wdata = wdata | tail_lane;
    end

    wire core_take = core_in_valid & core_in_ready;

    genvar gl;
    generate
        for (gl = 0; gl < NL; gl = gl + 1) begin : g_buf
            always @(posedge clk) begin
                if (rst)
                    buff[BW*gl +: BW] <= {BW{1'b0}};
                else if (wr && widx == gl)
                    buff[BW*gl +: BW] <= wdata;
                else if (core_take)
                    buff[BW*gl +: BW] <= {BW{1'b0}};
            end
        end
    endgenerate

    always @(posedge clk) begin
        if (beat & s_last) begin
            lb_data <= s_data;
            lb_nb   <= nb;
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            widx <= {LW{1'b0}}; bfull <= 1'b0; bpend <= 1'b0; bfirst <= 1'b0; blast <= 1'b0;
            bmsg <= 1'b0; inmsg <= 1'b0; padding <= 1'b0; pad_due <= 1'b0; fin_cur <= 1'b0;
            lb_pend <= 1'b0; pos <= 64'd0; nblk <= 64'd0; lenv <= 64'd0;
        end else begin
            // the block taken leaves; a lane written in the same cycle
            // (BLOCK_PER_CYCLE) starts the next one, so its updates below win
            if (core_take) begin
                bfull <= 1'b0; bfirst <= 1'b0; blast <= 1'b0; bmsg <= 1'b0;
            end
            if (beat) begin
                pos <= pos_new;
                if (!inmsg) begin
                    inmsg  <= 1'b1;
                    bfirst <= 1'b1;
                    nblk   <= 64'd0;
                end
                if (nb != {NBW{1'b0}}) bmsg <= 1'b1;
                if (s_last) begin                         // held, written with the padding
                    lenv    <= len_calc;
                    lb_pend <= 1'b1;
                    padding <= 1'b1;
                    fin_cur <= (NOPAD != 0) || (fits && !full_end);
                end else if (widx == LAST_LANE) begin
                    widx <= {LW{1'b0}};
                    nblk <= nblk_base + 64'd1;
                    if (NOPAD != 0) bpend <= 1'b1; else bfull <= 1'b1;
                end else begin
                    widx <= widx + 1'b1;
                end
            end
            if (pend_end) begin                           // finality of the held block known
                bpend <= 1'b0;
                bfull <= 1'b1;
                if (empty_last) begin                     // that beat (taken) ends the message
                    blast <= 1'b1; inmsg <= 1'b0;
                end
            end
            if (padw) begin
                lb_pend <= 1'b0;
                // a full last beat: the pad byte opens the next lane
                pad_due <= lb_pend && (PAD_EN != 0) && (lb_nb == BEAT_NB);
                if (widx == LAST_LANE || (lb_pend && NOPAD != 0)) begin   // block complete
                    bfull <= 1'b1; widx <= {LW{1'b0}}; nblk <= nblk + 64'd1;
                    if (fin_cur) begin
                        blast <= 1'b1; padding <= 1'b0; inmsg <= 1'b0;
                    end else begin
                        fin_cur <= 1'b1;
                    end
                end else begin
                    widx <= widx + 1'b1;
                end
            end
        end
    end

    assign core_in_valid = bfull;
    assign core_in_block = buff;
    assign core_in_first = bfirst;
    assign core_in_last  = blast;
    assign core_in_count = pos;
    assign core_in_nomsg = ~bmsg;

    // -------------------------------------------------------- output side
    localparam integer DW  = 8 * DIGEST_BYTES;
    localparam integer OBW = 8 * OUT_BEAT_BYTES;
    localparam integer CW  = $clog2((DIGEST_BYTES > OUT_BEAT_BYTES ? DIGEST_BYTES : OUT_BEAT_BYTES) + 1);
    localparam [CW-1:0] DIG_C  = DIGEST_BYTES[CW-1:0];
    localparam [CW-1:0] BEAT_C = OUT_BEAT_BYTES[CW-1:0];
    reg  [DW-1:0] obuf;
    reg  [CW-1:0] oleft;          // digest bytes still to send
    reg           osend;
    wire          capture = core_out_valid & ~osend;
    assign core_out_ack = capture;

    always @(posedge clk) begin
        if (rst) begin
            osend <= 1'b0; oleft <= {CW{1'b0}};
        end else if (capture) begin
            osend <= 1'b1; oleft <= DIG_C;
        end else if (osend & m_ready) begin
            if (oleft <= BEAT_C) begin
                osend <= 1'b0; oleft <= {CW{1'b0}};
            end else begin
                oleft <= oleft - BEAT_C;
            end
        end
    end
    always @(posedge clk) begin
        if (capture)
            obuf <= core_out_digest;
        else if (osend & m_ready)
            obuf <= obuf >> OBW;
    end

    reg [OUT_BEAT_BYTES-1:0] keep;
    integer kb;
    always @(*) begin
        for (kb = 0; kb < OUT_BEAT_BYTES; kb = kb + 1)
            keep[kb] = (kb[CW-1:0] < oleft);
    end
    assign m_valid = osend;
    assign m_data  = obuf[OBW-1:0];
    assign m_keep  = keep;
    assign m_last  = osend & (oleft <= BEAT_C);
endmodule
