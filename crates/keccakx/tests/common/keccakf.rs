//! Parser for the Keccak team's `KeccakF-<b>-IntermediateValues.txt`:
//! the round constants, the ρ offsets, and examples giving the state after
//! every step (θ, ρ, π, χ, ι) of every round.

/// Lanes `A[x + 5y]`, each holding w = b/25 bits in its low bits.
pub type State = [u64; 25];

#[derive(Clone, Debug, Default)]
pub struct RoundTrace {
    pub theta: State,
    pub rho: State,
    pub pi: State,
    pub chi: State,
    pub iota: State,
}

#[derive(Clone, Debug)]
pub struct Example {
    pub title: String,
    /// The input as the file prints it: bytes, lane by lane, little-endian.
    pub input_bytes: Vec<u8>,
    /// The same input as the lane table prints it.
    pub input: State,
    pub rounds: Vec<RoundTrace>,
    /// "State after permutation", as bytes.
    pub output_bytes: Vec<u8>,
}

#[derive(Clone, Debug)]
pub struct IntermediateValues {
    pub width: usize,
    /// RC[i] as printed (lane width bits).
    pub round_constants: Vec<u64>,
    /// RhoOffset[x][y] as printed, indexed `[x + 5y]`.
    pub rho_offsets: [u32; 25],
    pub examples: Vec<Example>,
}

/// Lane width in bytes for a byte-aligned width (200..1600).
pub fn lane_bytes(width: usize) -> usize {
    width / 25 / 8
}

/// State bytes (lane i little-endian at bytes i*w/8..) to lanes.
pub fn bytes_to_state(bytes: &[u8], width: usize) -> State {
    let lb = lane_bytes(width);
    assert_eq!(
        bytes.len(),
        25 * lb,
        "state of width {width} must have {} bytes",
        25 * lb
    );
    let mut s = [0u64; 25];
    for (i, lane) in s.iter_mut().enumerate() {
        for k in 0..lb {
            *lane |= (bytes[i * lb + k] as u64) << (8 * k);
        }
    }
    s
}

pub fn state_to_bytes(s: &State, width: usize) -> Vec<u8> {
    let lb = lane_bytes(width);
    let mut out = Vec::with_capacity(25 * lb);
    for lane in s {
        for k in 0..lb {
            out.push((lane >> (8 * k)) as u8);
        }
    }
    out
}

fn parse_hex_u64(tok: &str, ctx: &str) -> u64 {
    u64::from_str_radix(tok, 16).unwrap_or_else(|_| panic!("{ctx}: bad hex word {tok:?}"))
}

fn parse_bytes(line: &str, ctx: &str) -> Vec<u8> {
    line.split_whitespace()
        .map(|t| u8::from_str_radix(t, 16).unwrap_or_else(|_| panic!("{ctx}: bad byte {t:?}")))
        .collect()
}

/// Parses the file; `width` is the b of its name.
pub fn parse(file: &str, text: &str, width: usize) -> IntermediateValues {
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end()).collect();
    let mut round_constants = Vec::new();
    let mut rho_offsets = [u32::MAX; 25];
    let mut examples: Vec<Example> = Vec::new();
    let mut i = 0;
    // Reads the 5 rows of a lane table starting at line `at`.
    let table = |at: usize| -> State {
        let mut s = [0u64; 25];
        for y in 0..5 {
            let ctx = format!("{file}:{}", at + y + 1);
            let words: Vec<&str> = lines
                .get(at + y)
                .unwrap_or_else(|| panic!("{ctx}: lane table cut short"))
                .split_whitespace()
                .collect();
            assert_eq!(words.len(), 5, "{ctx}: a lane row has 5 words");
            for x in 0..5 {
                s[x + 5 * y] = parse_hex_u64(words[x], &ctx);
            }
        }
        s
    };
    while i < lines.len() {
        let l = lines[i];
        let ctx = format!("{file}:{}", i + 1);
        if let Some(rest) = l.strip_prefix("RC[") {
            // RC[ii][0][0] = value
            let (lhs, val) = rest
                .split_once('=')
                .unwrap_or_else(|| panic!("{ctx}: bad RC line"));
            let n: usize = lhs
                .split(']')
                .next()
                .and_then(|t| t.trim().parse().ok())
                .unwrap_or_else(|| panic!("{ctx}: bad RC index"));
            assert_eq!(n, round_constants.len(), "{ctx}: RC out of order");
            round_constants.push(parse_hex_u64(val.trim(), &ctx));
        } else if let Some(rest) = l.strip_prefix("RhoOffset[") {
            // RhoOffset[x][y] = n
            let (lhs, rhs) = rest
                .split_once('=')
                .unwrap_or_else(|| panic!("{ctx}: bad rho line"));
            let idx: Vec<usize> = lhs
                .split(['[', ']'])
                .filter(|t| !t.trim().is_empty())
                .map(|t| {
                    t.trim()
                        .parse()
                        .unwrap_or_else(|_| panic!("{ctx}: bad rho index"))
                })
                .collect();
            assert_eq!(idx.len(), 2, "{ctx}: RhoOffset[x][y]");
            rho_offsets[idx[0] + 5 * idx[1]] = rhs
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{ctx}: bad offset"));
        } else if l.starts_with("+++ Example") {
            examples.push(Example {
                title: l.trim_matches(|c| c == '+' || c == ' ').to_string(),
                input_bytes: Vec::new(),
                input: [0; 25],
                rounds: Vec::new(),
                output_bytes: Vec::new(),
            });
        } else if l == "Input of permutation:" {
            let ex = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{ctx}: input outside an example"));
            ex.input_bytes = parse_bytes(lines[i + 1], &ctx);
            i += 1;
        } else if l.starts_with("Same, with lanes as") {
            let ex = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{ctx}: lanes outside an example"));
            ex.input = table(i + 1);
            i += 5;
        } else if let Some(r) = l
            .strip_prefix("--- Round ")
            .and_then(|r| r.strip_suffix(" ---"))
        {
            let ex = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{ctx}: round outside an example"));
            let n: usize = r
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{ctx}: bad round number"));
            assert_eq!(n, ex.rounds.len(), "{ctx}: rounds out of order");
            ex.rounds.push(RoundTrace::default());
        } else if let Some(step) = l.strip_prefix("After ").and_then(|s| s.strip_suffix(':')) {
            let ex = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{ctx}: step outside an example"));
            let st = table(i + 1);
            let rt = ex
                .rounds
                .last_mut()
                .unwrap_or_else(|| panic!("{ctx}: step outside a round"));
            match step {
                "theta" => rt.theta = st,
                "rho" => rt.rho = st,
                "pi" => rt.pi = st,
                "chi" => rt.chi = st,
                "iota" => rt.iota = st,
                other => panic!("{ctx}: unknown step {other:?}"),
            }
            i += 5;
        } else if l == "State after permutation:" {
            let ex = examples
                .last_mut()
                .unwrap_or_else(|| panic!("{ctx}: output outside an example"));
            ex.output_bytes = parse_bytes(lines[i + 1], &ctx);
            i += 1;
        }
        i += 1;
    }
    assert!(
        rho_offsets.iter().all(|&o| o != u32::MAX),
        "{file}: incomplete rho offset table"
    );
    IntermediateValues {
        width,
        round_constants,
        rho_offsets,
        examples,
    }
}
