//! The safe API against known answers, checked with this file's own arithmetic.

use toggle::{Engine, ErrorKind, Graph, GraphKind, GridFlags, System};

mod common;
use common::{grid_matrix, mat_vec};

#[test]
fn three_by_three_known_answers() {
    for (k, want) in [(2u64, "101010101"), (3, "020222020"), (5, "414121414")] {
        let g = Graph::grid(3, 3, GridFlags::CLASSIC).unwrap();
        let s = System::new(&g, k, None, None).unwrap();
        drop(g); // the system keeps its own reference
        let sol = s.solve().unwrap();
        assert!(sol.is_solvable());
        assert_eq!(sol.nullity(), 0);
        assert_eq!(sol.count().unwrap(), "1");
        let x = sol.particular().unwrap();
        let got: String = x.iter().map(|v| v.to_string()).collect();
        assert_eq!(got, want);
        assert_eq!(mat_vec(&grid_matrix(3, 3), &x, k), vec![1; 9]);
        assert!(s.check(&x).unwrap());
    }
}

#[test]
fn nullity_and_kernel() {
    let a159257 = [0usize, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0];
    for (i, &d) in a159257.iter().enumerate() {
        let n = i + 1;
        assert_eq!(toggle::grid_nullity(n, n, 2, GridFlags::CLASSIC).unwrap(), d);
        if n <= 10 {
            let s = System::new(&Graph::grid(n, n, GridFlags::CLASSIC).unwrap(), 2, None, None).unwrap();
            let sol = s.solve().unwrap();
            assert_eq!(sol.nullity(), d);
            assert_eq!(sol.count_u64().unwrap(), 1u64 << d);
            let a = grid_matrix(n, n);
            for v in sol.kernel().unwrap() {
                assert!(v.iter().any(|&e| e != 0));
                assert_eq!(mat_vec(&a, &v, 2), vec![0; n * n]);
            }
        }
    }
}

#[test]
fn unsolvable_gives_certificate() {
    let s = System::new(&Graph::grid(2, 2, GridFlags::CLASSIC).unwrap(), 3, None, None).unwrap();
    let sol = s.solve().unwrap();
    assert!(!sol.is_solvable());
    assert_eq!(sol.count().unwrap(), "0");
    let y = sol.certificate().unwrap().expect("a certificate");
    assert!(s.check_certificate(&y).unwrap());
    let e = sol.particular().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NoSolution);
    assert_eq!(e.name(), "TOGGLE_ENOSOLUTION");
}

#[test]
fn errors_carry_name_and_message() {
    let e = System::parse("110|1\n11|0\n", 2).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Parse);
    assert_eq!(e.status(), -4);
    assert!(e.message().contains("line 2"), "{}", e);
    assert!(e.to_string().starts_with("TOGGLE_EPARSE: "));
    assert_eq!(Graph::grid(0, 3, GridFlags::CLASSIC).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(Graph::edges(3, &[(0, 7)], false).unwrap_err().kind(), ErrorKind::Range);
    let g = Graph::grid(2, 2, GridFlags::CLASSIC).unwrap();
    assert_eq!(System::new(&g, 2, Some(&[0, 1]), None).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(Engine::from_name("nope").unwrap_err().kind(), ErrorKind::InvalidArgument);
}

#[test]
fn blas_engine_when_built() {
    // the blas engine exists in builds with -Dblas; it agrees with FLINT
    if Engine::from_name("blas").is_err() {
        return;
    }
    assert_eq!(Engine::from_name("blas").unwrap(), Engine::Blas);
    let g = Graph::grid(5, 5, GridFlags::TORUS).unwrap();
    let mut answers = Vec::new();
    for e in [Engine::Flint, Engine::Blas] {
        let mut s = System::new(&g, 3, None, None).unwrap();
        s.set_engine(e).unwrap();
        let sol = s.solve().unwrap();
        assert_eq!(sol.engine(), Some(e));
        answers.push((sol.nullity(), sol.count().unwrap()));
    }
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn constructors_agree() {
    let edges = [(0, 1), (0, 2), (1, 3), (2, 3)];
    let mut adj = vec![0u8; 16];
    for &(u, v) in &edges {
        adj[u * 4 + v] = 1;
        adj[v * 4 + u] = 1;
    }
    let graphs = [
        Graph::grid(2, 2, GridFlags::CLASSIC).unwrap(),
        Graph::edges(4, &edges, false).unwrap(),
        Graph::adjacency(4, &adj, false).unwrap(),
        Graph::parse_edges("nodes 4\n0 1\n0 2\n1 3\n2 3\n", false).unwrap(),
    ];
    assert_eq!(graphs[0].kind(), GraphKind::Grid);
    assert_eq!(graphs[0].grid_shape(), Some((2, 2)));
    assert_eq!(graphs[1].grid_shape(), None);
    for g in &graphs[1..] {
        for i in 0..4 {
            for j in 0..4 {
                assert_eq!(g.entry(i, j).unwrap(), graphs[0].entry(i, j).unwrap());
            }
        }
    }
    let st = Graph::stencil(3, 3, &[(0, 0, 1), (1, 1, 2)], false).unwrap();
    assert_eq!(st.kind(), GraphKind::Stencil);
    assert_eq!(st.entry(4, 0).unwrap(), 2);
    let m = Graph::matrix(2, &[1, 1, 0, 1]).unwrap();
    assert_eq!(m.entry(0, 1).unwrap(), 1);
    let t = Graph::grid(3, 4, GridFlags::TORUS | GridFlags::NO_SELF).unwrap();
    assert_eq!(t.flags(), 3);
}

#[test]
fn matrices_text_options_and_big_counts() {
    let mut s = System::from_matrix(2, 3, &[1, 1, 0, 0, 1, 1], &[1, 0], 2).unwrap();
    assert_eq!(s.write().unwrap(), "110|1\n011|0\n");
    assert!(!s.has_graph());
    // the general prime engine of this build: Flint, or Dense without FLINT
    let prime = Engine::from_name("flint").unwrap_or(Engine::Dense);
    s.set_engine(prime).unwrap();
    assert_eq!(s.solve().unwrap().engine(), Some(prime));
    s.set_engine(Engine::Dense).unwrap();
    assert_eq!(s.solve().unwrap().engine(), Some(Engine::Dense));
    s.set_engine(prime).unwrap();
    s.set_memory_budget(8).unwrap();
    assert_eq!(s.solve().unwrap_err().kind(), ErrorKind::OutOfMemory);

    let z = System::from_matrix(1, 70, &[0; 70], &[0], 2).unwrap();
    let sol = z.solve().unwrap();
    assert_eq!(sol.count().unwrap(), "1180591620717411303424"); // 2^70
    assert_eq!(sol.count_u64().unwrap_err().kind(), ErrorKind::Overflow);
}

#[test]
fn boards_and_packed() {
    let (cells, r, c) = toggle::parse_board("101\n.1.\n", 2).unwrap();
    assert_eq!((cells.clone(), r, c), (vec![1, 0, 1, 0, 1, 0], 2, 3));
    assert_eq!(toggle::format_board(&cells, r, c, 2).unwrap(), "101\n010\n");
    let sol = System::new(&Graph::grid(3, 3, GridFlags::CLASSIC).unwrap(), 2, None, None)
        .unwrap()
        .solve()
        .unwrap();
    assert_eq!(sol.particular_packed(0, 9).unwrap(), vec![0b101010101]);
    assert_eq!(sol.particular_range(3, 3).unwrap(), vec![0, 1, 0]);
}

#[test]
fn shared_across_threads() {
    let g = std::sync::Arc::new(Graph::grid(9, 9, GridFlags::CLASSIC).unwrap());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let g = g.clone();
            std::thread::spawn(move || {
                let s = System::new(&g, 2, None, None).unwrap();
                s.solve().unwrap().nullity()
            })
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), 8);
    }
}

#[test]
fn hex_lattice_by_the_transfer_engine() {
    // odd-r hexagonal lattice plus self, by this file's own neighbour code
    let (rows, cols, k) = (6usize, 7usize, 3u64);
    let n = rows * cols;
    let mut a = vec![vec![0u64; n]; n];
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            let d: [i64; 2] = if r % 2 == 0 { [-1, 0] } else { [0, 1] };
            let mut nb = vec![(r, c), (r, c - 1), (r, c + 1)];
            for dr in [-1i64, 1] {
                for e in d {
                    nb.push((r + dr, c + e));
                }
            }
            for (rr, cc) in nb {
                if rr >= 0 && cc >= 0 && rr < rows as i64 && cc < cols as i64 {
                    a[(rr * cols as i64 + cc) as usize][(r * cols as i64 + c) as usize] += 1;
                }
            }
        }
    }
    let g = Graph::grid(rows, cols, GridFlags::HEX).unwrap();
    let s = System::new(&g, k, None, None).unwrap();
    let sol = s.solve().unwrap();
    assert_eq!(sol.engine(), Some(Engine::Transfer));
    if sol.is_solvable() {
        let x = sol.particular().unwrap();
        assert_eq!(mat_vec(&a, &x, k), vec![1u64; n]);
    }
    assert!(Graph::grid(3, 3, GridFlags::CYLINDER | GridFlags::TRI).is_ok());
}
