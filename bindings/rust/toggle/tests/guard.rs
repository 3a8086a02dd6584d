//! The FLINT guard is process-global and must be installed before other
//! threads use the library: this file holds a single test, so it runs in a
//! process of its own.

use toggle::{Graph, GridFlags, System};

#[test]
fn guard_installs_once_and_solving_still_works() {
    assert!(!toggle::flint_guard_installed());
    toggle::flint_guard_install().unwrap();
    assert!(toggle::flint_guard_installed());
    toggle::flint_guard_install().unwrap(); // idempotent
    assert!(toggle::flint_guard_installed());
    // Through the FLINT engine, now inside the guard: 3x3 over F_5.
    let mut s = System::new(&Graph::grid(3, 3, GridFlags::CLASSIC).unwrap(), 5, None, None).unwrap();
    s.set_engine(toggle::Engine::from_name("flint").unwrap_or(toggle::Engine::Dense))
        .unwrap();
    let sol = s.solve().unwrap();
    let x = sol.particular().unwrap();
    assert_eq!(x, vec![4, 1, 4, 1, 2, 1, 4, 1, 4]);
    assert!(s.check(&x).unwrap());
}
