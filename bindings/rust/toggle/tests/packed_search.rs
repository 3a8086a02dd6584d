//! The 1.1 additions beside steps and progress: packed GF(2) systems and
//! kernels, and the fewest-press Search with costs, forbidden cells,
//! threads and its lower bound; checked by this file's own arithmetic.

use toggle::{Engine, ErrorKind, Graph, GridFlags, Metric, Search, System, COST_FORBIDDEN};

mod common;
use common::{all_vectors, grid_matrix, mat_vec, seed, Lcg};

fn pack(bits: &[u64], words: usize) -> Vec<u64> {
    let mut w = vec![0u64; words];
    for (i, &b) in bits.iter().enumerate() {
        w[i / 64] |= (b & 1) << (i % 64);
    }
    w
}

#[test]
fn packed_system_matches_the_dense_one() {
    let mut rng = Lcg(seed(15));
    for &(m, n) in &[(1usize, 1usize), (5, 7), (64, 64), (70, 130), (130, 70)] {
        let a: Vec<u64> = (0..m * n).map(|_| rng.below(2)).collect();
        let b: Vec<u64> = (0..m).map(|_| rng.below(2)).collect();
        let row_words = (n + 63) / 64;
        let stride = row_words + 1; // a wider stride, padding full of garbage
        let mut pa = vec![u64::MAX; m * stride];
        for i in 0..m {
            let row = pack(&a[i * n..(i + 1) * n], row_words);
            pa[i * stride..i * stride + row_words].copy_from_slice(&row);
            if n % 64 != 0 {
                pa[i * stride + row_words - 1] |= !0u64 << (n % 64);
            }
        }
        let mut pb = pack(&b, (m + 63) / 64);
        if m % 64 != 0 {
            *pb.last_mut().unwrap() |= !0u64 << (m % 64);
        }
        let packed = System::from_packed(m, n, &pa, stride, &pb).unwrap();
        let dense = System::from_matrix(m, n, &a, &b, 2).unwrap();
        assert_eq!((packed.rows(), packed.cols(), packed.modulus()), (m, n, 2));
        for i in 0..m {
            assert_eq!(packed.rhs(i).unwrap(), b[i]);
            for j in 0..n {
                assert_eq!(packed.entry(i, j).unwrap(), a[i * n + j]);
            }
        }
        let (sp, sd) = (packed.solve().unwrap(), dense.solve().unwrap());
        assert_eq!(sp.is_solvable(), sd.is_solvable());
        assert_eq!(sp.nullity(), sd.nullity());
        assert_eq!(sp.kernel().unwrap(), sd.kernel().unwrap());
        let rows: Vec<Vec<u64>> = (0..m).map(|i| a[i * n..(i + 1) * n].to_vec()).collect();
        if sp.is_solvable() {
            let x = sp.particular().unwrap();
            assert_eq!(x, sd.particular().unwrap());
            assert_eq!(mat_vec(&rows, &x, 2), b);
        } else {
            assert_eq!(sp.certificate().unwrap(), sd.certificate().unwrap());
        }
        for (i, v) in sp.kernel().unwrap().iter().enumerate() {
            assert_eq!(mat_vec(&rows, v, 2), vec![0; m]);
            assert_eq!(sp.kernel_packed(i, 0, n).unwrap(), pack(v, row_words));
            if n > 3 {
                assert_eq!(sp.kernel_packed(i, 2, n - 3).unwrap(), pack(&v[2..n - 1], (n - 3 + 63) / 64));
            }
        }
    }
}

#[test]
fn packed_errors() {
    assert_eq!(System::from_packed(2, 65, &[0; 2], 1, &[0]).unwrap_err().kind(),
               ErrorKind::InvalidArgument); // stride below 2 words a row
    assert_eq!(System::from_packed(2, 3, &[0; 1], 1, &[0]).unwrap_err().kind(),
               ErrorKind::InvalidArgument); // a too short
    assert_eq!(System::from_packed(2, 3, &[0; 2], 1, &[]).unwrap_err().kind(),
               ErrorKind::InvalidArgument); // b too short
    let s = System::new(&Graph::grid(4, 4, GridFlags::CLASSIC).unwrap(), 2, None, None).unwrap();
    let sol = s.solve().unwrap();
    assert_eq!(sol.kernel_packed(sol.nullity(), 0, 16).unwrap_err().kind(), ErrorKind::Range);
    assert_eq!(sol.kernel_packed(0, 10, 7).unwrap_err().kind(), ErrorKind::Range);
    let s3 = System::new(&Graph::grid(4, 4, GridFlags::CLASSIC).unwrap(), 3, None, None).unwrap();
    assert_eq!(s3.solve().unwrap().kernel_packed(0, 0, 1).unwrap_err().kind(),
               ErrorKind::Unsupported);
}

/// The least weight over all solutions with forbidden cells pressed 0, by brute force.
fn own_fewest(a: &[Vec<u64>], b: &[u64], cost: &[u64], k: u64, metric: Metric) -> Option<u64> {
    all_vectors(cost.len(), k)
        .into_iter()
        .filter(|x| mat_vec(a, x, k) == b)
        .filter(|x| x.iter().zip(cost).all(|(&v, &c)| c != COST_FORBIDDEN || v == 0))
        .map(|x| {
            x.iter().zip(cost).map(|(&v, &c)| match metric {
                Metric::Cells => (v != 0) as u64 * if c == COST_FORBIDDEN { 0 } else { c },
                Metric::Presses => v * if c == COST_FORBIDDEN { 0 } else { c },
            })
            .sum()
        })
        .min()
}

#[test]
fn search_costs_forbidden_cells_and_bound() {
    let mut rng = Lcg(seed(17));
    for (rows, cols, k) in [(2usize, 3usize, 2u64), (3, 3, 2), (2, 2, 3), (4, 3, 2)] {
        let n = rows * cols;
        let a = grid_matrix(rows, cols);
        let g = Graph::grid(rows, cols, GridFlags::CLASSIC).unwrap();
        let start: Vec<u64> = (0..n).map(|_| rng.below(k)).collect();
        let target = vec![0u64; n];
        let s = System::new(&g, k, Some(&start), Some(&target)).unwrap();
        let b: Vec<u64> = start.iter().map(|&v| (k - v) % k).collect();
        let sol = s.solve().unwrap();
        if !sol.is_solvable() {
            assert_eq!(Search::new(&sol).unwrap_err().kind(), ErrorKind::NoSolution);
            continue;
        }
        for trial in 0..4 {
            let cost: Vec<u64> = (0..n)
                .map(|_| if trial > 0 && rng.below(5) == 0 { COST_FORBIDDEN } else { 1 + rng.below(4) })
                .collect();
            for metric in [Metric::Cells, Metric::Presses] {
                let mut search = Search::new(&sol).unwrap();
                assert_eq!(search.bound().unwrap_err().kind(), ErrorKind::InvalidArgument);
                search.set_metric(metric).unwrap();
                search.set_costs(Some(&cost)).unwrap();
                search.set_threads(1 + trial as u64 % 2).unwrap();
                match (own_fewest(&a, &b, &cost, k, metric), search.run()) {
                    (Some(w), Ok(best)) => {
                        assert!(best.proven);
                        assert_eq!(best.weight, w, "{}x{} k {} {:?} costs {:?}", rows, cols, k, metric, cost);
                        assert!(s.check(&best.x).unwrap());
                        assert!(best.x.iter().zip(&cost).all(|(&v, &c)| c != COST_FORBIDDEN || v == 0));
                        assert_eq!(search.bound().unwrap(), w);
                        assert_eq!(search.result().unwrap(), best);
                    }
                    (None, Err(e)) => {
                        assert_eq!(e.kind(), ErrorKind::NoSolution);
                        assert_eq!(search.bound().unwrap(), u64::MAX);
                    }
                    (own, got) => panic!("own {:?}, library {:?}", own, got),
                }
            }
        }
    }
}

#[test]
fn search_defaults_limit_threads_and_errors() {
    let g = Graph::grid(4, 4, GridFlags::CLASSIC).unwrap();
    let s = System::new(&g, 2, None, None).unwrap();
    let sol = s.solve().unwrap();
    let mut search = Search::new(&sol).unwrap();
    search.set_costs(None).unwrap(); // every cost 1
    let best = search.run().unwrap();
    assert_eq!((best.weight, best.proven), (4, true));
    assert_eq!(best, sol.fewest_presses(Metric::Cells, None).unwrap());
    for threads in [0u64, 2, 3] {
        search.set_threads(threads).unwrap();
        assert_eq!(search.run().unwrap().weight, 4);
    }
    assert_eq!(search.set_threads(5000).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(search.set_costs(Some(&[1, 2])).unwrap_err().kind(), ErrorKind::BufferSize);
    // a limit below the count: the best visited, bounded below
    search.set_limit(2).unwrap();
    let part = search.run().unwrap();
    assert!(part.visited <= 2 || part.proven);
    assert!(search.bound().unwrap() <= part.weight);
    assert!(format!("{:?}", search).contains("16 unknowns"));
}

#[test]
fn engines_threads_and_lattices_reach_the_library() {
    // every engine the crate names is the library's, by name and by value
    // (blas only in builds with -Dblas, flint only with FLINT)
    for e in [Engine::Auto, Engine::Flint, Engine::Gf2, Engine::Chase, Engine::Howell, Engine::Blas,
              Engine::Transfer, Engine::Dense] {
        if e.name() != "unknown" {
            assert_eq!(Engine::from_name(e.name()).unwrap(), e);
        } else {
            assert!(matches!(e, Engine::Blas | Engine::Flint), "{:?}", e);
        }
    }
    let g = Graph::grid(5, 5, GridFlags::HEX | GridFlags::CYLINDER).unwrap();
    assert_eq!(g.flags(), GridFlags::HEX.0 | GridFlags::CYLINDER.0);
    let mut s = System::new(&g, 2, None, None).unwrap();
    s.set_threads(2).unwrap();
    assert_eq!(s.threads().unwrap(), 2);
    let want = s.solve().unwrap().particular().unwrap();
    s.set_engine(Engine::Gf2).unwrap();
    let sol = s.solve().unwrap();
    assert_eq!(sol.engine(), Some(Engine::Gf2));
    assert_eq!(sol.particular().unwrap(), want);
    let t = Graph::grid(4, 6, GridFlags::TRI).unwrap();
    let st = System::new(&t, 3, None, None).unwrap();
    assert!(st.solve().is_ok());
}
