//! Iteration, sampling and fewest presses, checked by brute force.

use std::collections::HashSet;
use toggle::{sys, ErrorKind, Generator, Graph, GridFlags, Metric, Rng, Search, System};

fn four_by_four() -> (System, toggle::Solution) {
    let s = System::new(&Graph::grid(4, 4, GridFlags::CLASSIC).unwrap(), 2, None, None).unwrap();
    let sol = s.solve().unwrap();
    (s, sol)
}

#[test]
fn iterates_every_solution_once() {
    let (s, sol) = four_by_four();
    let all: Vec<Vec<u64>> = sol.solutions().unwrap().collect();
    assert_eq!(all.len(), 16);
    assert_eq!(all[0], sol.particular().unwrap());
    let set: HashSet<Vec<u64>> = all.iter().cloned().collect();
    assert_eq!(set.len(), 16);
    for x in &all {
        assert!(s.check(x).unwrap());
    }
    // Brute force: every press vector that solves it is among them.
    let brute = (0u32..1 << 16)
        .map(|bits| (0..16).map(|j| u64::from(bits >> j & 1)).collect::<Vec<u64>>())
        .filter(|x| s.check(x).unwrap())
        .count();
    assert_eq!(brute, 16);
    let mut it = sol.solutions().unwrap();
    drop(sol); // the iterator owns what it needs
    assert_eq!(it.by_ref().count(), 16);
    assert_eq!(it.produced(), 16);
    it.reset();
    assert!(it.next().is_some());
}

#[test]
fn unsolvable_has_no_iterator() {
    let s = System::new(&Graph::grid(2, 2, GridFlags::CLASSIC).unwrap(), 3, None, None).unwrap();
    let err = s.solve().unwrap().solutions().err().expect("an error");
    assert_eq!(err.kind(), ErrorKind::NoSolution);
}

#[test]
fn sampling_and_fewest_presses() {
    let (s, sol) = four_by_four();
    let mut a = Rng::new(7).unwrap();
    let mut b = Rng::new(7).unwrap();
    let x = sol.sample(&mut a).unwrap();
    assert_eq!(x, sol.sample(&mut b).unwrap());
    assert!(s.check(&x).unwrap());
    assert!(a.below(10) < 10);
    assert_eq!(sol.radix(0).unwrap(), 2);

    let best = sol.fewest_presses(Metric::Cells, None).unwrap();
    assert!(best.proven);
    let min = sol.solutions().unwrap().map(|x| x.iter().filter(|&&v| v != 0).count() as u64).min();
    assert_eq!(Some(best.weight), min);
    assert!(s.check(&best.x).unwrap());
    let partial = sol.fewest_presses(Metric::Presses, Some(2)).unwrap();
    assert!(!partial.proven);
}

#[test]
fn search_limit_zero_is_unlimited() {
    // 16x16 over F_2: 256 solutions. A system limit of 1 is the default of
    // its searches and generators; 0 lifts it (OEIS A075464: 104 presses).
    let mut s = System::new(&Graph::grid(16, 16, GridFlags::CLASSIC).unwrap(), 2, None, None)
        .unwrap();
    s.set_search_limit(1).unwrap();
    let sol = s.solve().unwrap();
    assert!(!sol.fewest_presses(Metric::Cells, None).unwrap().proven);
    let best = sol.fewest_presses(Metric::Cells, Some(0)).unwrap();
    assert!(best.proven);
    assert_eq!((best.visited, best.weight), (256, 104));
    assert!(s.check(&best.x).unwrap());

    let mut gen = Generator::new(&s).unwrap();
    gen.set_presses(Some(3)).unwrap();
    gen.set_attempts(20).unwrap();
    assert_eq!(gen.generate().unwrap_err().kind(), ErrorKind::Limit); // never proven
    gen.set_search_limit(0).unwrap();
    assert_eq!(gen.generate().unwrap().presses, Some(3));

    s.set_search_limit(0).unwrap();
    assert_eq!(s.search_limit().unwrap(), u64::MAX);
    assert_eq!(s.option(sys::TOGGLE_OPT_SEARCH_LIMIT).unwrap(), u64::MAX);
    assert!(s.solve().unwrap().fewest_presses(Metric::Cells, None).unwrap().proven);
}

#[test]
fn option_keys_of_another_handle_are_named() {
    let (mut s, _) = four_by_four();
    s.set_option(sys::TOGGLE_SYSTEM_OPT_ENGINE, sys::TOGGLE_ENGINE_GF2 as u64).unwrap();
    assert_eq!(s.option(sys::TOGGLE_OPT_ENGINE).unwrap(), sys::TOGGLE_ENGINE_GF2 as u64);
    let err = s.set_option(sys::TOGGLE_SEARCH_OPT_METRIC, 0).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    assert_eq!(err.message(), "TOGGLE_SEARCH_OPT_METRIC (4) is an option of a search \
                               (and of a generator), not of a system");
    let err = s.option(sys::TOGGLE_GENERATOR_OPT_LIT).unwrap_err();
    assert!(err.message().starts_with("TOGGLE_GENERATOR_OPT_LIT (8) is an option of a generator"));
    let mut gen = Generator::new(&s).unwrap();
    let err = gen.set_option(sys::TOGGLE_SYSTEM_OPT_MEMORY_BUDGET, 0).unwrap_err();
    assert_eq!(err.message(), "TOGGLE_SYSTEM_OPT_MEMORY_BUDGET (2) is an option of a system, \
                               not of a generator");
    gen.set_option(sys::TOGGLE_GENERATOR_OPT_SEED, 4).unwrap();
}

#[test]
fn threads_option() {
    assert_eq!(sys::TOGGLE_SYSTEM_OPT_THREADS, 10);
    assert_eq!(sys::TOGGLE_OPT_THREADS, sys::TOGGLE_SYSTEM_OPT_THREADS);
    let mut s = System::new(&Graph::grid(5, 5, GridFlags::CLASSIC).unwrap(), 2, None, None)
        .unwrap();
    assert_eq!(s.threads().unwrap(), 1);
    s.set_threads(2).unwrap();
    assert_eq!(s.threads().unwrap(), 2);
    assert_eq!(s.solve().unwrap().nullity(), 2);
    assert_eq!(s.set_threads(5000).unwrap_err().kind(), ErrorKind::InvalidArgument);
}

#[test]
fn search_checkpoint_resumes_to_the_same_answer() {
    // 39 x 39 all-on (d = 32, A075464(39) = 561): stopped by the limit,
    // saved, then continued from its checkpoint with other thread counts
    let g = Graph::grid(39, 39, GridFlags::CLASSIC).unwrap();
    let s = System::new(&g, 2, None, Some(&[1u64; 39 * 39])).unwrap();
    let sol = s.solve().unwrap();
    let mut full_search = Search::new(&sol).unwrap();
    full_search.set_limit(0).unwrap();
    full_search.set_threads(2).unwrap();
    let full = full_search.run().unwrap();
    assert!(full.proven);
    assert_eq!((full.weight, full_search.bound().unwrap()), (561, 561));
    let mut part_search = Search::new(&sol).unwrap();
    part_search.set_limit(1 << 26).unwrap();
    part_search.set_threads(3).unwrap();
    let part = part_search.run().unwrap();
    assert!(part_search.bound().unwrap() <= 561 && part.weight >= 561);
    assert!(part.visited < full.visited);
    let ck = part_search.save().unwrap();
    assert!(!ck.is_empty());
    let mut done_search = Search::new(&sol).unwrap();
    done_search.set_limit(0).unwrap();
    done_search.set_threads(1).unwrap();
    done_search.resume(&ck).unwrap();
    let done = done_search.run().unwrap();
    assert!(done.proven);
    assert_eq!((done.weight, &done.x), (full.weight, &full.x));
    assert_eq!(done_search.progress().unwrap().0, Some(561));
    let err = done_search.resume(b"not a checkpoint").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidArgument);
    let (_s4, sol4) = four_by_four();
    let mut se4 = Search::new(&sol4).unwrap();
    // another search's checkpoint: refused when taken or at the run
    let kind = se4.resume(&ck).and_then(|_| se4.run().map(|_| ())).unwrap_err().kind();
    assert_eq!(kind, ErrorKind::InvalidArgument);
}
