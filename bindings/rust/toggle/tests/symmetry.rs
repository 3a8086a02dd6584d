//! Board symmetries against this crate's own transforms, and Burnside orbit
//! counts against orbits enumerated by hand.

use std::collections::HashSet;
use toggle::{board_symmetry, ErrorKind, Graph, GridFlags, Symmetry, System};

mod common;
use common::{seed, Lcg};

/// Where cell (r, c) of an R x C board goes under each symmetry bit.
fn transforms(rows: usize, cols: usize) -> Vec<(u32, Box<dyn Fn(usize, usize) -> (usize, usize)>)> {
    let (rr, cc) = (rows - 1, cols - 1);
    let mut t: Vec<(u32, Box<dyn Fn(usize, usize) -> (usize, usize)>)> = vec![
        (0x01, Box::new(|r, c| (r, c))),
        (0x04, Box::new(move |r, c| (rr - r, cc - c))),
        (0x10, Box::new(move |r, c| (rr - r, c))),
        (0x20, Box::new(move |r, c| (r, cc - c))),
    ];
    if rows == cols {
        t.push((0x02, Box::new(move |r, c| (c, rr - r))));
        t.push((0x08, Box::new(move |r, c| (cc - c, r))));
        t.push((0x40, Box::new(|r, c| (c, r))));
        t.push((0x80, Box::new(move |r, c| (cc - c, rr - r))));
    }
    t
}

fn moved(cells: &[u64], rows: usize, cols: usize, f: &dyn Fn(usize, usize) -> (usize, usize)) -> Vec<u64> {
    let mut out = vec![0u64; cells.len()];
    for r in 0..rows {
        for c in 0..cols {
            let (r2, c2) = f(r, c);
            out[r2 * cols + c2] = cells[r * cols + c];
        }
    }
    out
}

fn my_symmetry(cells: &[u64], rows: usize, cols: usize) -> u32 {
    transforms(rows, cols)
        .iter()
        .filter(|(_, f)| moved(cells, rows, cols, f.as_ref()) == cells)
        .fold(0, |m, (bit, _)| m | bit)
}

#[test]
fn hand_made_boards() {
    let cases: [(&[u64], usize, usize, u32, &str); 5] = [
        (&[0; 9], 3, 3, 0xFF, "full D4"),
        (&[1, 0, 0, 0, 0, 0, 0, 0, 0], 3, 3, 0x41, "diagonal"),
        (&[1, 0, 1, 0, 0, 0], 2, 3, 0x21, "vertical mirror"),
        // a pinwheel: quarter turns only
        (&[0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0], 4, 4, 0x0F, "90-degree rotation"),
        (&[1, 2, 3, 3, 2, 1], 2, 3, 0x05, "180-degree rotation"),
    ];
    for &(cells, rows, cols, mask, name) in &cases {
        let s = board_symmetry(cells, rows, cols).unwrap();
        assert_eq!(s.bits(), mask, "{:?}", cells);
        assert_eq!(my_symmetry(cells, rows, cols), mask);
        assert_eq!(s.name(), Some(name));
        assert!(s.contains(Symmetry::IDENTITY));
    }
    assert_eq!(Symmetry::of_shape(3, 3), Symmetry::ALL);
    assert_eq!(Symmetry::of_shape(2, 3),
               Symmetry::IDENTITY | Symmetry::ROT180 | Symmetry::MIRROR_H | Symmetry::MIRROR_V);
    assert_eq!(Symmetry::of_shape(0, 3), Symmetry(0));
    assert_eq!(Symmetry::ROT90.name(), None); // not a group
    assert_eq!(board_symmetry(&[0; 5], 2, 3).unwrap_err().kind(), ErrorKind::InvalidArgument);
    assert_eq!(board_symmetry(&[], 0, 3).unwrap_err().kind(), ErrorKind::InvalidArgument);
}

#[test]
fn random_and_symmetrised_boards() {
    let mut rng = Lcg(seed(5));
    for _ in 0..300 {
        let rows = 1 + rng.below(5) as usize;
        let cols = if rng.below(2) == 0 { rows } else { 1 + rng.below(5) as usize };
        let mut cells: Vec<u64> = (0..rows * cols).map(|_| rng.below(3)).collect();
        // Symmetrise under one transform so symmetric boards are common.
        let t = transforms(rows, cols);
        let (_, f) = &t[rng.below(t.len() as u64) as usize];
        let image = moved(&cells, rows, cols, f.as_ref());
        for (a, b) in cells.iter_mut().zip(&image) {
            *a = (*a).max(*b);
        }
        let got = board_symmetry(&cells, rows, cols).unwrap();
        assert_eq!(got.bits(), my_symmetry(&cells, rows, cols), "{}x{} {:?}", rows, cols, cells);
        assert!(got.name().is_some());
    }
}

/// Orbits of the solution set under every symmetry of the n x n square,
/// counted by listing the solutions and taking the least image of each.
fn my_orbits(solutions: &[Vec<u64>], n: usize) -> u64 {
    let t = transforms(n, n);
    let canon: HashSet<Vec<u64>> = solutions
        .iter()
        .map(|x| t.iter().map(|(_, f)| moved(x, n, n, f.as_ref())).min().unwrap())
        .collect();
    canon.len() as u64
}

#[test]
fn orbit_counts() {
    for n in 1..=6 {
        let s = System::new(&Graph::grid(n, n, GridFlags::CLASSIC).unwrap(), 2, None, None).unwrap();
        let sol = s.solve().unwrap();
        let all: Vec<Vec<u64>> = sol.solutions().unwrap().collect();
        let orbits = sol.count_orbits(n, n, Symmetry::ALL).unwrap();
        assert_eq!(orbits, my_orbits(&all, n), "n = {}", n);
        if n == 4 {
            assert_eq!(orbits, 5); // OEIS A075463
        }
        assert_eq!(sol.count_orbits(n, n, Symmetry::IDENTITY).unwrap(), all.len() as u64);
    }
    let s = System::new(&Graph::grid(2, 2, GridFlags::CLASSIC).unwrap(), 3, None, None).unwrap();
    assert_eq!(s.solve().unwrap().count_orbits(2, 2, Symmetry::ALL).unwrap(), 0); // unsolvable
    let s = System::new(&Graph::grid(4, 4, GridFlags::CLASSIC).unwrap(), 2, None, None).unwrap();
    let sol = s.solve().unwrap();
    assert_eq!(sol.count_orbits(4, 4, Symmetry::ROT90).unwrap_err().kind(),
               ErrorKind::InvalidArgument); // not a group
    assert_eq!(sol.count_orbits(2, 8, Symmetry::ALL).unwrap_err().kind(),
               ErrorKind::InvalidArgument); // not a symmetry of a 2 x 8 shape
    let s = System::new(&Graph::grid(3, 3, GridFlags::CLASSIC).unwrap(), 4, None, None).unwrap();
    assert_eq!(s.solve().unwrap().count_orbits(3, 3, Symmetry::ALL).unwrap_err().kind(),
               ErrorKind::Unsupported); // composite modulus
}
