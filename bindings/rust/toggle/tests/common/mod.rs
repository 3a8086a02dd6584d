//! This crate's own arithmetic for the integration tests: no libtoggle code.
#![allow(dead_code)]

/// Dense toggle matrix of the classic rows x cols grid: a[i][j] is what
/// pressing cell j adds to cell i (self plus up, down, left, right).
pub fn grid_matrix(rows: usize, cols: usize) -> Vec<Vec<u64>> {
    let n = rows * cols;
    let mut a = vec![vec![0u64; n]; n];
    for r in 0..rows as i64 {
        for c in 0..cols as i64 {
            let j = (r * cols as i64 + c) as usize;
            for (dr, dc) in [(0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (rr, cc) = (r + dr, c + dc);
                if rr >= 0 && rr < rows as i64 && cc >= 0 && cc < cols as i64 {
                    a[(rr * cols as i64 + cc) as usize][j] = 1;
                }
            }
        }
    }
    a
}

pub fn mat_vec(a: &[Vec<u64>], x: &[u64], k: u64) -> Vec<u64> {
    a.iter().map(|row| row.iter().zip(x).map(|(p, q)| p * q).sum::<u64>() % k).collect()
}

/// The board after pressing x on start (start + A x mod k).
pub fn apply(a: &[Vec<u64>], start: &[u64], x: &[u64], k: u64) -> Vec<u64> {
    mat_vec(a, x, k).iter().zip(start).map(|(p, s)| (p + s) % k).collect()
}

/// Small deterministic generator (splitmix64), independent of the library's.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

/// TOGGLE_TEST_SEED if set, else `default`; printed so a failure can be replayed.
pub fn seed(default: u64) -> u64 {
    let s = std::env::var("TOGGLE_TEST_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    println!("seed {} (TOGGLE_TEST_SEED)", s);
    s
}

/// Every press vector over Z/k of length n (k^n of them; keep n small).
pub fn all_vectors(n: usize, k: u64) -> Vec<Vec<u64>> {
    let mut out = vec![vec![0u64; n]];
    for i in 0..n {
        let mut next = Vec::with_capacity(out.len() * k as usize);
        for v in &out {
            for d in 0..k {
                let mut w = v.clone();
                w[i] = d;
                next.push(w);
            }
        }
        out = next;
    }
    out
}

/// a^(k-2) mod k: the inverse of a unit a for prime k (this file's own).
pub fn inverse_mod_prime(a: u64, k: u64) -> u64 {
    let (mut r, mut b, mut e) = (1u64, a % k, k - 2);
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % k;
        }
        b = b * b % k;
        e >>= 1;
    }
    r
}

/// The reduced row echelon form of a matrix over F_k, k a small prime,
/// every column (the right-hand side included) eliminated.
pub fn rref_mod_prime(m: &[Vec<u64>], k: u64) -> Vec<Vec<u64>> {
    let mut r: Vec<Vec<u64>> = m.iter().map(|row| row.iter().map(|v| v % k).collect()).collect();
    let cols = r.first().map_or(0, |row| row.len());
    let mut top = 0;
    for j in 0..cols {
        let p = match (top..r.len()).find(|&i| r[i][j] != 0) {
            Some(p) => p,
            None => continue,
        };
        r.swap(top, p);
        let inv = inverse_mod_prime(r[top][j], k);
        for v in r[top].iter_mut() {
            *v = *v * inv % k;
        }
        for i in 0..r.len() {
            if i != top && r[i][j] != 0 {
                let f = r[i][j];
                for c in 0..cols {
                    r[i][c] = (r[i][c] + (k - f) * r[top][c]) % k;
                }
            }
        }
        top += 1;
    }
    r
}
