//! libtoggle from Rust: solve the 5 x 5 pattern game and a Lights Out puzzle.
//! Run: see docs/rust.md (`cargo run --example rust_example`).

use toggle::{ErrorKind, Graph, GridFlags, Metric, System};

fn main() -> Result<(), toggle::Error> {
    println!("libtoggle {}", toggle::version());
    toggle::check_version()?;

    // All off -> all on over Z/2Z on the classic 5 x 5 board.
    let board = Graph::grid(5, 5, GridFlags::CLASSIC)?;
    let game = System::new(&board, 2, None, None)?;
    let solution = game.solve()?;
    println!("5x5: nullity {}, {} solutions", solution.nullity(), solution.count()?);
    let presses = solution.particular()?;
    assert!(game.check(&presses)?);
    print!("{}", toggle::format_board(&presses, 5, 5, 2)?);
    let best = solution.fewest_presses(Metric::Cells, None)?;
    for x in solution.solutions()? {
        assert!(game.check(&x)?);
    }
    println!("fewest: {} cells (proven: {})", best.weight, best.proven);

    // Lights Out: a lit start state, target all off.
    let (start, rows, cols) = toggle::parse_board("11000\n10000\n00000\n00000\n00000\n", 2)?;
    let puzzle = System::new(&Graph::grid(rows, cols, GridFlags::CLASSIC)?, 2,
                             Some(&start), Some(&vec![0; rows * cols]))?;
    let answer = puzzle.solve()?;
    if answer.is_solvable() {
        print!("press:\n{}", toggle::format_board(&answer.particular()?, rows, cols, 2)?);
    } else {
        println!("no solution");
    }

    // Errors carry the status name and the library's message.
    match System::parse("110|1\n11|0\n", 2) {
        Err(e) if e.kind() == ErrorKind::Parse => println!("as expected: {}", e),
        other => panic!("unexpected: {:?}", other.map(|_| ())),
    }
    Ok(())
}
