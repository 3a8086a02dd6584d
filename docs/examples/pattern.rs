// pattern.rs: the pattern game over F_5, as pattern.c does it.
use toggle::{format_board, grid_nullity, Graph, GridFlags, System};

fn main() -> toggle::Result<()> {
    const N: usize = 9;
    const P: u64 = 5;
    let d = grid_nullity(N, N, P, GridFlags::CLASSIC)?;
    println!("{} x {} over F_{}: nullity {}", N, N, P, d);
    let g = Graph::grid(N, N, GridFlags::CLASSIC)?;
    let sol = System::new(&g, P, None, None)?.solve()?; // all 0 -> all 1
    if sol.is_solvable() {
        println!("press each cell this many times:");
        print!("{}", format_board(&sol.particular()?, N, N, P)?);
    } else {
        println!("no solution");
    }
    Ok(())
}
