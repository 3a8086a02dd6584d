// classic.rs: the classic 5 x 5 board, as classic.c does it.
use toggle::{format_board, parse_board, Graph, GridFlags, System};

fn main() -> toggle::Result<()> {
    let puzzle = "01010\n11011\n00100\n11011\n01010\n"; // 1 = lit
    let (start, rows, cols) = parse_board(puzzle, 2)?;
    let g = Graph::grid(rows, cols, GridFlags::CLASSIC)?;
    let s = System::new(&g, 2, Some(&start), Some(&[0; 25]))?;
    let sol = s.solve()?;
    if sol.is_solvable() {
        let x = sol.particular()?;
        println!("press these cells (1 = press):");
        print!("{}", format_board(&x, rows, cols, 2)?);
        println!("checked: {}", if s.check(&x)? { "all lights off" } else { "WRONG" });
        println!("nullity {}, so {} press patterns solve it", sol.nullity(), sol.count()?);
    } else {
        println!("no solution");
    }
    Ok(())
}
