//! Hash many inputs in parallel (rayon) and deliver the results in the
//! order they were given, each as soon as it and everything before it is
//! done. Standard input is read by the delivering thread, in its turn.
//! Inputs may arrive while earlier ones are hashed (`--check` reads its
//! list line by line): [`Ordered`] takes them one at a time.

use std::collections::{HashMap, VecDeque};
use std::ffi::OsString;
use std::io;
use std::ops::ControlFlow;
use std::sync::{mpsc, Arc};

use crate::algo::Algo;
use crate::input::{hash_path, ReadOpts};

/// One unit of work: `None` is a slot with nothing to hash (a malformed
/// `--check` line) that is still delivered in its place.
pub type Task = Option<(OsString, Arc<Algo>)>;
pub type Digest = io::Result<Vec<u8>>;

/// Inputs handed to the pool and not yet delivered, at most: bounds the
/// memory a long `--check` list takes, and leaves the pool far more work
/// than it has threads.
const MAX_IN_FLIGHT: usize = 4096;

/// How an undelivered slot is computed.
enum Job {
    /// Nothing (delivered as `None`).
    Nothing,
    /// Hashed by the delivering thread in its turn (standard input, or
    /// everything when not parallel).
    Here(OsString, Arc<Algo>),
    /// On the pool; its result arrives on the channel.
    Pool,
}

/// Results in order for inputs given one at a time. Each slot carries a
/// payload `P` that is handed back with its result.
pub struct Ordered<P> {
    opts: ReadOpts,
    parallel: bool,
    tx: mpsc::Sender<(usize, Digest)>,
    rx: mpsc::Receiver<(usize, Digest)>,
    /// Undelivered slots in order; the first has index `head`.
    queue: VecDeque<(P, Job)>,
    head: usize,
    /// Pool results that arrived before their turn.
    arrived: HashMap<usize, Digest>,
    in_flight: usize,
    stopped: bool,
}

type Sink<'a, P> = dyn FnMut(P, Option<Digest>) -> ControlFlow<()> + 'a;

impl<P> Ordered<P> {
    /// `parallel`: hash files on rayon's pool (else all in turn, here).
    pub fn new(opts: ReadOpts, parallel: bool) -> Self {
        let (tx, rx) = mpsc::channel();
        Ordered {
            opts,
            parallel,
            tx,
            rx,
            queue: VecDeque::new(),
            head: 0,
            arrived: HashMap::new(),
            in_flight: 0,
            stopped: false,
        }
    }

    /// Add the next slot; delivers whatever is ready (and waits for the
    /// oldest inputs when too many are in flight). `Break` once the sink
    /// stopped the run.
    pub fn push(&mut self, payload: P, task: Task, sink: &mut Sink<'_, P>) -> ControlFlow<()> {
        if self.stopped {
            return ControlFlow::Break(());
        }
        let index = self.head + self.queue.len();
        let job = match task {
            None => Job::Nothing,
            Some((p, a)) if !self.parallel || p == "-" => Job::Here(p, a),
            Some((p, a)) => {
                let (opts, tx) = (self.opts, self.tx.clone());
                rayon::spawn_fifo(move || {
                    let r = hash_path(&p, &a, opts);
                    // The receiver is gone only when the run stopped early.
                    let _ = tx.send((index, r));
                });
                self.in_flight += 1;
                Job::Pool
            }
        };
        self.queue.push_back((payload, job));
        self.deliver(sink, |me| me.in_flight > MAX_IN_FLIGHT)
    }

    /// Deliver every slot, waiting for the pool as needed.
    pub fn finish(&mut self, sink: &mut Sink<'_, P>) -> ControlFlow<()> {
        self.deliver(sink, |_| true)
    }

    /// Deliver slots in order: every ready one, and while `wait(self)`
    /// holds, the next one even if that means waiting for it.
    fn deliver(&mut self, sink: &mut Sink<'_, P>, wait: impl Fn(&Self) -> bool) -> ControlFlow<()> {
        if self.stopped {
            return ControlFlow::Break(());
        }
        while let Some((payload, job)) = self.queue.pop_front() {
            let result = match job {
                Job::Nothing => None,
                Job::Here(p, a) => Some(hash_path(&p, &a, self.opts)),
                Job::Pool => match self.take_arrived(wait(self)) {
                    Some(r) => {
                        self.in_flight -= 1;
                        Some(r)
                    }
                    None => {
                        self.queue.push_front((payload, Job::Pool));
                        break;
                    }
                },
            };
            self.head += 1;
            if sink(payload, result).is_break() {
                self.stopped = true;
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// The result for slot `head`, if it arrived (waiting for it when `block`).
    fn take_arrived(&mut self, block: bool) -> Option<Digest> {
        loop {
            if let Some(r) = self.arrived.remove(&self.head) {
                return Some(r);
            }
            let got = if block {
                self.rx.recv().map_err(|_| ())
            } else {
                self.rx.try_recv().map_err(|_| ())
            };
            match got {
                Ok((j, r)) => {
                    self.arrived.insert(j, r);
                }
                // Not there yet (or, impossibly, every sender gone: the
                // queue keeps its own sender).
                Err(()) => return None,
            }
        }
    }
}

/// Run `tasks` and call `sink(i, result)` in order. `parallel`: spread the
/// files over rayon's pool. `sink` may stop early (a closed stdout).
pub fn run_ordered<F>(tasks: &[Task], opts: ReadOpts, parallel: bool, mut sink: F)
where
    F: FnMut(usize, Option<Digest>) -> ControlFlow<()>,
{
    let files = tasks.iter().flatten().filter(|(p, _)| p != "-").count();
    let mut ord: Ordered<usize> = Ordered::new(opts, parallel && files >= 2);
    let mut deliver = |i: usize, r: Option<Digest>| sink(i, r);
    for (i, t) in tasks.iter().enumerate() {
        if ord.push(i, t.clone(), &mut deliver).is_break() {
            return;
        }
    }
    let _ = ord.finish(&mut deliver);
}
