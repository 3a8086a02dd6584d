//! Row operations step by step (steps.h) and chaos boards, checked by this
//! file's own arithmetic (seeded; the seed is printed).

use toggle::{ErrorKind, Graph, GraphKind, StepOp, Steps, System};

mod common;
use common::{rref_mod_prime, seed, Lcg};

fn system_of(m: &[Vec<u64>], k: u64) -> System {
    let rows = m.len();
    let n = m[0].len() - 1;
    let a: Vec<u64> = m.iter().flat_map(|r| r[..n].to_vec()).collect();
    let b: Vec<u64> = m.iter().map(|r| r[n]).collect();
    System::from_matrix(rows, n, &a, &b, k).unwrap()
}

/// The trace replayed by this file's arithmetic.
fn replay(m: &[Vec<u64>], k: u64, ops: &[StepOp]) -> Vec<Vec<u64>> {
    let mut r = m.to_vec();
    for op in ops {
        match *op {
            StepOp::Add { a, b, c } => {
                let src = r[a].clone();
                for (u, v) in r[b].iter_mut().zip(&src) {
                    *u = (*u + c * v) % k;
                }
            }
            StepOp::Scale { a, c } => r[a].iter_mut().for_each(|u| *u = *u * c % k),
            StepOp::Swap { a, b } => r.swap(a, b),
            StepOp::Move { a, b } => {
                let row = r.remove(a);
                r.insert(if b > a { b - 1 } else { b }, row);
            }
        }
    }
    r
}

#[test]
fn auto_reaches_own_rref_and_replays() {
    let mut rng = Lcg(seed(19));
    for k in [2u64, 3, 5, 7] {
        for _ in 0..6 {
            let (m, n) = (1 + rng.below(6) as usize, 1 + rng.below(6) as usize);
            let x0: Vec<u64> = (0..n).map(|_| rng.below(k)).collect();
            let mat: Vec<Vec<u64>> = (0..m)
                .map(|_| {
                    let mut row: Vec<u64> = (0..n).map(|_| rng.below(k)).collect();
                    let b = row.iter().zip(&x0).map(|(a, x)| a * x).sum::<u64>() % k;
                    row.push(b);
                    row
                })
                .collect();
            let s = system_of(&mat, k);
            let mut st = Steps::new(&s).unwrap();
            assert_eq!((st.rows(), st.cols(), st.modulus()), (m, n, k));
            assert_eq!(st.matrix().unwrap(), mat);
            let done = st.auto(None).unwrap();
            assert_eq!(done, st.count());
            let own = rref_mod_prime(&mat, k);
            assert_eq!(st.matrix().unwrap(), own, "k = {}: {:?}", k, mat);
            let status = st.status().unwrap();
            assert!(status.reduced && !status.unsolvable);
            let (x, nullity) = st.solution().unwrap();
            assert!(s.check(&x).unwrap());
            assert_eq!(nullity, n - status.rank);
            assert_eq!(st.pivots().unwrap().len(), status.rank);
            assert!(st.pivots().unwrap().iter().all(|&c| c < n));
            // the trace by own arithmetic, and as a script
            let ops = st.ops().unwrap();
            assert_eq!(replay(&mat, k, &ops), own);
            let script = st.script(0).unwrap();
            assert_eq!(script.lines().filter(|l| !l.trim().is_empty()).count(), ops.len());
            let mut again = Steps::new(&s).unwrap();
            assert_eq!(again.apply(&script).unwrap(), ops.len());
            assert_eq!(again.matrix().unwrap(), own);
            // Display speaks the same language
            let mut third = Steps::new(&s).unwrap();
            let text: String = ops.iter().map(|o| format!("{}\n", o)).collect();
            third.apply(&text).unwrap();
            assert_eq!(third.matrix().unwrap(), own);
            // auto in pieces gives the same trace
            let mut pieces = Steps::new(&s).unwrap();
            while pieces.auto(Some(2)).unwrap() == 2 {}
            assert_eq!(pieces.ops().unwrap(), ops);
            // the reduced matrix as a system
            let red = st.system().unwrap();
            assert_eq!((red.rows(), red.cols()), (m, n));
            assert!(red.check(&x).unwrap());
        }
    }
}

#[test]
fn unsolvable_is_shown() {
    let mat = vec![vec![1, 1, 1], vec![1, 1, 0]];
    let s = system_of(&mat, 2);
    let mut st = Steps::new(&s).unwrap();
    st.auto(None).unwrap();
    let status = st.status().unwrap();
    assert!(status.reduced && status.unsolvable);
    assert_eq!(st.pivots().unwrap(), vec![0, 2]); // b holds a pivot
    assert_eq!(st.solution().unwrap_err().kind(), ErrorKind::NoSolution);
}

#[test]
fn hand_operations_undo_and_errors() {
    let mat = vec![vec![1, 2, 3, 1], vec![0, 1, 4, 2], vec![2, 0, 1, 0]];
    let k = 5;
    let s = system_of(&mat, k);
    let mut st = Steps::new(&s).unwrap();
    st.add(0, 2, 3).unwrap();
    st.move_row(2, 0).unwrap();
    assert_eq!(st.matrix().unwrap()[0], vec![(2 + 3) % 5, 6 % 5, 10 % 5, 3 % 5]);
    assert_eq!(st.ops().unwrap(), vec![StepOp::Add { a: 0, b: 2, c: 3 }, StepOp::Move { a: 2, b: 0 }]);
    st.undo(2).unwrap();
    assert_eq!(st.matrix().unwrap(), mat);
    assert_eq!((st.count(), st.redo_count()), (0, 2));
    st.redo(1).unwrap();
    assert_eq!((st.count(), st.redo_count()), (1, 1));
    st.scale(1, 2).unwrap();
    assert_eq!(st.redo_count(), 0); // a new operation forgets the redo
    st.swap(0, 1).unwrap();
    st.perform(StepOp::Scale { a: 0, c: 3 }).unwrap(); // 2 * 3 = 1 mod 5
    let expect = replay(&mat, k, &st.ops().unwrap());
    assert_eq!(st.matrix().unwrap(), expect);
    assert_eq!(st.matrix().unwrap()[0], mat[1]);
    // bad operations: the right kind, a message, nothing changes
    let before = (st.matrix().unwrap(), st.count());
    for (script, kind) in [("frob 1", ErrorKind::Parse), ("add 0 0", ErrorKind::InvalidArgument),
                           ("swap 0 9", ErrorKind::Range), ("scale 0 0", ErrorKind::InvalidArgument),
                           ("add 0 1\nadd 1 1", ErrorKind::InvalidArgument)] {
        let e = st.apply(script).unwrap_err();
        assert_eq!(e.kind(), kind, "{}: {}", script, e);
        assert!(!e.message().is_empty());
    }
    assert_eq!(st.add(0, 0, 1).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(st.add(0, 1, 5).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(st.scale(0, 0).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(st.swap(0, 3).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(st.move_row(0, 1).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(st.undo(99).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(st.redo(1).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(st.entry(3, 0).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(st.op(99).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(st.script(99).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!((st.matrix().unwrap(), st.count()), before);
    assert_eq!(st.solution().unwrap_err().kind(), ErrorKind::InvalidArgument); // not reduced
    // comments, negative multipliers and several targets
    let n = st.apply("# a comment\n\nadd 0*-1 1 2  # two targets\n").unwrap();
    assert_eq!(n, 2);
    assert_eq!(st.op(st.count() - 1).unwrap(), StepOp::Add { a: 0, b: 2, c: 4 });
    st.auto(None).unwrap();
    assert_eq!(st.matrix().unwrap(), rref_mod_prime(&mat, k));
    assert!(format!("{:?}", st).starts_with("Steps(3 x 4 over Z/5"));
}

#[test]
fn composite_modulus_stops_without_a_unit_pivot() {
    // over Z/4 the first column holds only 2s: no unit pivot
    let s = system_of(&[vec![2, 1, 1], vec![2, 3, 0]], 4);
    let mut st = Steps::new(&s).unwrap();
    let e = st.auto(None).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert_eq!(st.count(), 0);
    // a unit pivot is fine over Z/6
    let s6 = system_of(&[vec![1, 2, 3], vec![3, 1, 1]], 6);
    let mut st6 = Steps::new(&s6).unwrap();
    assert!(st6.auto(None).unwrap() > 0);
}

#[test]
fn steps_respect_the_memory_budget() {
    let mut s = system_of(&[vec![1, 1, 1], vec![0, 1, 1]], 2);
    s.set_memory_budget(16).unwrap();
    assert_eq!(Steps::new(&s).unwrap_err().kind(), ErrorKind::OutOfMemory);
}

#[test]
fn chaos_graph_reproducible() {
    let entries = |g: &Graph| -> Vec<Vec<u64>> {
        (0..20).map(|i| (0..20).map(|j| g.entry(i, j).unwrap()).collect()).collect()
    };
    let g1 = Graph::chaos(4, 5, 0.5, None, 9).unwrap();
    let g2 = Graph::chaos(4, 5, 0.5, None, 9).unwrap();
    let g3 = Graph::chaos(4, 5, 1.0, Some(1), 9).unwrap();
    assert_eq!(g1.kind(), GraphKind::Matrix);
    assert_eq!(g1.cells(), 20);
    let a1 = entries(&g1);
    assert_eq!(a1, entries(&g2));
    assert!((0..20).all(|i| a1[i][i] == 1));
    let a3 = entries(&g3);
    for i in 0..20usize {
        for j in 0..20usize {
            let near = (i / 5).abs_diff(j / 5) <= 1 && (i % 5).abs_diff(j % 5) <= 1;
            assert_eq!(a3[i][j], near as u64, "({}, {})", i, j);
        }
    }
    let off: u64 = entries(&Graph::chaos(4, 5, 0.0, None, 1).unwrap()).iter().flatten().sum();
    assert_eq!(off, 20); // density 0: only the cells themselves
    assert_ne!(a1, entries(&Graph::chaos(4, 5, 0.5, None, 10).unwrap()));
    for (r, c, d) in [(2, 2, 1.5), (0, 3, 0.5), (2, 2, -0.1), (2, 2, f64::NAN)] {
        assert_eq!(Graph::chaos(r, c, d, None, 0).unwrap_err().kind(), ErrorKind::InvalidArgument);
    }
}

#[test]
fn chaos_density_within_statistical_bounds() {
    // 30 x 30 board, density 0.3: 900 * 899 off-diagonal draws; the count
    // is within 6 standard deviations of its mean.
    let g = Graph::chaos(30, 30, 0.3, None, 5).unwrap();
    let n = 900usize;
    let mut ones = 0u64;
    for i in 0..n {
        for j in 0..n {
            if i != j {
                ones += g.entry(i, j).unwrap();
            }
        }
    }
    let draws = (n * (n - 1)) as f64;
    let (mean, sd) = (draws * 0.3, (draws * 0.3 * 0.7).sqrt());
    assert!((ones as f64 - mean).abs() < 6.0 * sd, "{} ones of {} draws", ones, draws);
}

#[test]
fn chaos_board_through_steps() {
    // the 6 x 9 chaos board of the source document's kind, 54 x 54 over F_2
    let g = Graph::chaos(6, 9, 0.5, None, 54).unwrap();
    let s = System::new(&g, 2, None, None).unwrap();
    let mut st = Steps::new(&s).unwrap();
    st.auto(None).unwrap();
    let mat: Vec<Vec<u64>> = (0..54)
        .map(|i| {
            let mut row: Vec<u64> = (0..54).map(|j| s.entry(i, j).unwrap()).collect();
            row.push(s.rhs(i).unwrap());
            row
        })
        .collect();
    assert_eq!(st.matrix().unwrap(), rref_mod_prime(&mat, 2));
    let sol = s.solve().unwrap();
    let status = st.status().unwrap();
    assert_eq!(status.unsolvable, !sol.is_solvable());
    if sol.is_solvable() {
        let (x, nullity) = st.solution().unwrap();
        assert_eq!(x, sol.particular().unwrap()); // the canonical solution
        assert_eq!(nullity, sol.nullity());
    }
}
