//! Progress and cancel (System::set_progress): reports, cancelling a long
//! solve (ErrorKind::Cancelled, the system still usable), a panicking
//! closure, and callbacks outliving their system.

use std::panic;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use toggle::{ErrorKind, Graph, GridFlags, Metric, Search, System};

#[test]
fn callback_reports_and_cancels_at_once() {
    let g = Graph::grid(6, 6, GridFlags::CLASSIC).unwrap();
    let mut game = System::new(&g, 2, None, None).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    game.set_progress(move |f| {
        log.lock().unwrap().push(f);
        true
    })
    .unwrap();
    let sol = game.solve().unwrap();
    assert_eq!(sol.nullity(), 0);
    let fractions = seen.lock().unwrap().clone();
    assert!(!fractions.is_empty(), "the first report always reaches the callback");
    assert!(fractions.iter().all(|f| (0.0..=1.0).contains(f)));

    game.set_progress(|_| false).unwrap();
    let e = game.solve().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Cancelled);
    assert_eq!(e.status(), -13);
    assert_eq!(e.name(), "TOGGLE_ECANCELED");
    assert!(e.message().contains("cancelled"), "{}", e);

    game.clear_progress().unwrap();
    let again = game.solve().unwrap();
    assert_eq!(again.particular().unwrap(), sol.particular().unwrap());
}

#[test]
fn cancelling_a_long_solve_leaves_the_system_usable() {
    // Howell on a 30 x 30 grid mod 6: the closure stops it at its first
    // report (how many reports come before the end depends on the machine's
    // speed, so the test does not count on a later one)
    let g = Graph::grid(30, 30, GridFlags::CLASSIC).unwrap();
    let mut game = System::new(&g, 6, None, None).unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let c = calls.clone();
    game.set_progress(move |_| {
        c.fetch_add(1, Ordering::SeqCst);
        false
    })
    .unwrap();
    let e = game.solve().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Cancelled, "{}", e);
    assert_eq!(calls.load(Ordering::SeqCst), 1);

    // the same system solves to the end, with a callback that lets it run
    let done = Arc::new(AtomicUsize::new(0));
    let d = done.clone();
    game.set_progress(move |_| {
        d.fetch_add(1, Ordering::SeqCst);
        true
    })
    .unwrap();
    let sol = game.solve().unwrap();
    assert!(sol.is_solvable());
    assert!(game.check(&sol.particular().unwrap()).unwrap());
    assert!(done.load(Ordering::SeqCst) >= 1);
}

#[test]
fn a_panicking_closure_resumes_in_the_caller() {
    let g = Graph::grid(4, 4, GridFlags::CLASSIC).unwrap();
    let mut game = System::new(&g, 3, None, None).unwrap();
    game.set_progress(|_| panic!("from the callback")).unwrap();
    let caught = panic::catch_unwind(panic::AssertUnwindSafe(|| game.solve()));
    let payload = caught.expect_err("the panic reaches the caller");
    let text = payload.downcast_ref::<&str>().copied().unwrap_or("");
    assert_eq!(text, "from the callback");
    // nothing was left behind: the next solve works
    game.set_progress(|_| true).unwrap();
    assert!(game.solve().unwrap().is_solvable());
}

#[test]
fn solutions_keep_the_callback_alive() {
    let calls = Arc::new(AtomicUsize::new(0));
    let sol = {
        let g = Graph::grid(5, 5, GridFlags::CLASSIC).unwrap();
        let mut game = System::new(&g, 2, None, None).unwrap();
        let c = calls.clone();
        game.set_progress(move |_| {
            c.fetch_add(1, Ordering::SeqCst);
            true
        })
        .unwrap();
        game.solve().unwrap()
    }; // the system is gone; the solution still holds the closure
    let before = calls.load(Ordering::SeqCst);
    let mut search = Search::new(&sol).unwrap();
    drop(sol);
    search.set_metric(Metric::Cells).unwrap();
    let best = search.run().unwrap();
    assert!(best.proven && best.weight == 15);
    assert!(calls.load(Ordering::SeqCst) > before, "the search reported to the closure");

    // a search cancelled by the closure
    let g = Graph::grid(5, 5, GridFlags::CLASSIC).unwrap();
    let mut game = System::new(&g, 2, None, None).unwrap();
    let sol = game.solve().unwrap(); // made before the callback: never reports
    game.set_progress(|_| false).unwrap();
    assert!(Search::new(&sol).unwrap().run().is_ok());
    let cancelled = game.solve();
    assert_eq!(cancelled.unwrap_err().kind(), ErrorKind::Cancelled);
}
