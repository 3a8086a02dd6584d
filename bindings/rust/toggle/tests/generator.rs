//! The puzzle generator, each start checked with this crate's own grid
//! arithmetic: reachability and fewest presses by brute force over every
//! press vector.

use std::collections::HashMap;
use toggle::{ErrorKind, Generator, Graph, GridFlags, Metric, System};

mod common;
use common::{all_vectors, apply, grid_matrix, mat_vec, seed};

fn board(rows: usize, cols: usize, k: u64) -> System {
    System::new(&Graph::grid(rows, cols, GridFlags::CLASSIC).unwrap(), k, None, None).unwrap()
}

/// For every state s reachable as s = -A x: the fewest cells pressed and
/// the fewest total presses of an x with s + A x = 0.
fn brute_force(rows: usize, cols: usize, k: u64) -> HashMap<Vec<u64>, (u64, u64)> {
    let a = grid_matrix(rows, cols);
    let mut best: HashMap<Vec<u64>, (u64, u64)> = HashMap::new();
    for x in all_vectors(rows * cols, k) {
        let s: Vec<u64> = mat_vec(&a, &x, k).iter().map(|v| (k - v) % k).collect();
        let cells = x.iter().filter(|&&v| v != 0).count() as u64;
        let presses: u64 = x.iter().sum();
        let e = best.entry(s).or_insert((cells, presses));
        e.0 = e.0.min(cells);
        e.1 = e.1.min(presses);
    }
    best
}

#[test]
fn starts_are_solvable_and_seeded() {
    // 4x4 over F_2 has nullity 4: only 2^12 of the 2^16 states are reachable.
    let (rows, cols, k) = (4, 4, 2);
    let reach = brute_force(rows, cols, k);
    assert_eq!(reach.len(), 1 << 12);
    let a = grid_matrix(rows, cols);
    let system = board(rows, cols, k);
    let s = seed(20240611);
    let mut gen = Generator::new(&system).unwrap();
    drop(system); // the generator owns what it needs
    assert_eq!(gen.nullity(), 4);
    gen.set_seed(s).unwrap();
    let mut seen = Vec::new();
    for _ in 0..50 {
        let p = gen.generate().unwrap();
        assert_eq!(p.start.len(), rows * cols);
        assert!(p.start.iter().all(|&v| v < k));
        assert!(reach.contains_key(&p.start), "unreachable start {:?}", p.start);
        assert_eq!(p.presses, None); // no constraint, board not unique
        // The library's own solution of the start, applied by our code.
        let g = Graph::grid(rows, cols, GridFlags::CLASSIC).unwrap();
        let sys0 = System::new(&g, k, Some(&p.start), Some(&vec![0; rows * cols])).unwrap();
        let x = sys0.solve().unwrap().particular().unwrap();
        assert_eq!(apply(&a, &p.start, &x, k), vec![0; rows * cols]);
        seen.push(p.start);
    }
    // Same (system, options, seed): the same sequence; another seed differs.
    let mut again = Generator::new(&board(rows, cols, k)).unwrap();
    again.set_seed(s).unwrap();
    let replay: Vec<Vec<u64>> = (0..50).map(|_| again.generate().unwrap().start).collect();
    assert_eq!(replay, seen);
    gen.set_seed(s ^ 1).unwrap();
    let other: Vec<Vec<u64>> = (0..50).map(|_| gen.generate().unwrap().start).collect();
    assert_ne!(other, seen);
}

#[test]
fn constraints_hold() {
    // 3x3 over F_3 (nullity 0): every state is reachable in exactly one way.
    let (rows, cols, k) = (3, 3, 3);
    let reach = brute_force(rows, cols, k);
    assert_eq!(reach.len(), 3usize.pow(9));
    let mut gen = Generator::new(&board(rows, cols, k)).unwrap();
    gen.set_seed(seed(7)).unwrap();
    assert_eq!(gen.nullity(), 0);
    gen.set_unique(true).unwrap();
    let p = gen.generate().unwrap();
    assert_eq!(p.presses, Some(reach[&p.start].0)); // unique: weight reported
    for (metric, want) in [(Metric::Cells, 4u64), (Metric::Presses, 6)] {
        gen.set_metric(metric).unwrap();
        gen.set_presses(Some(want)).unwrap();
        for _ in 0..10 {
            let p = gen.generate().unwrap();
            assert_eq!(p.presses, Some(want));
            let (cells, presses) = reach[&p.start];
            assert_eq!(if metric == Metric::Cells { cells } else { presses }, want);
        }
    }
    gen.set_presses(None).unwrap();
    gen.set_lit(Some(3)).unwrap();
    for _ in 0..10 {
        let p = gen.generate().unwrap();
        assert_eq!(p.start.iter().filter(|&&v| v != 0).count(), 3);
        assert!(reach.contains_key(&p.start));
    }
}

#[test]
fn impossible_constraints_are_errors() {
    let mut gen = Generator::new(&board(4, 4, 2)).unwrap();
    gen.set_unique(true).unwrap();
    assert_eq!(gen.generate().unwrap_err().kind(), ErrorKind::NoSolution);
    let mut gen = Generator::new(&board(3, 3, 2)).unwrap();
    gen.set_lit(Some(10)).unwrap(); // more lit cells than the board has
    assert_eq!(gen.generate().unwrap_err().kind(), ErrorKind::NoSolution);
    let err = gen.set_attempts(0).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert!(!err.message().is_empty());
    assert_eq!(gen.set_option(9999, 1).unwrap_err().kind(), ErrorKind::InvalidArgument);
}
