//! Hash many inputs in parallel (rayon) and deliver the results in the
//! order they were given, each as soon as it and everything before it is
//! done. Standard input is read by the delivering thread, in its turn.

use std::collections::HashMap;
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

/// Run `tasks` and call `sink(i, result)` in order. `parallel`: spread the
/// files over rayon's pool. `sink` may stop early (a closed stdout).
pub fn run_ordered<F>(tasks: &[Task], opts: ReadOpts, parallel: bool, mut sink: F)
where
    F: FnMut(usize, Option<Digest>) -> ControlFlow<()>,
{
    let files = tasks.iter().flatten().filter(|(p, _)| p != "-").count();
    if !parallel || files < 2 {
        for (i, t) in tasks.iter().enumerate() {
            let r = t.as_ref().map(|(p, a)| hash_path(p, a, opts));
            if sink(i, r).is_break() {
                return;
            }
        }
        return;
    }
    let (tx, rx) = mpsc::channel::<(usize, Digest)>();
    for (i, t) in tasks.iter().enumerate() {
        if let Some((p, a)) = t {
            if p != "-" {
                let (p, a, tx) = (p.clone(), Arc::clone(a), tx.clone());
                rayon::spawn_fifo(move || {
                    let r = hash_path(&p, &a, opts);
                    // The receiver is gone only when the run stopped early.
                    let _ = tx.send((i, r));
                });
            }
        }
    }
    drop(tx);
    let mut pending: HashMap<usize, Digest> = HashMap::new();
    for (i, t) in tasks.iter().enumerate() {
        let r = match t {
            None => None,
            Some((p, a)) if p == "-" => Some(hash_path(p, a, opts)),
            Some(_) => Some(loop {
                if let Some(r) = pending.remove(&i) {
                    break r;
                }
                match rx.recv() {
                    Ok((j, r)) => {
                        pending.insert(j, r);
                    }
                    Err(_) => break Err(io::Error::other("internal error: worker stopped")),
                }
            }),
        };
        if sink(i, r).is_break() {
            return;
        }
    }
}
