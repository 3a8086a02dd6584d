// chaos.rs: chaos puzzles from augmented matrices, as chaos.c does it.
use toggle::System;

const PUZZLE: &str = "# 5 lights, 5 buttons, mod 3
12000|1
01210|2
00121|0
10012|1
10210|0
";
const BROKEN: &str = "1100|1\n0110|0\n0011|1\n1001|1\n";

fn vec(what: &str, v: &[u64]) {
    let items: Vec<String> = v.iter().map(|e| format!(" {}", e)).collect();
    println!("{}{}", what, items.concat());
}

fn solve_text(text: &str, k: u64) -> toggle::Result<()> {
    let s = System::parse(text, k)?;
    let sol = s.solve()?;
    print!("{} equations, {} unknowns, mod {}: ", s.rows(), s.cols(), k);
    if let Some(y) = sol.certificate()? {
        println!("no solution");
        vec("  certificate y:", &y);
        let ok = s.check_certificate(&y)?;
        println!("  y A = 0 and y . b != 0: {}", if ok { "verified" } else { "NOT verified" });
    } else {
        println!("solvable, {} solution(s)", sol.count()?);
        vec("  presses:", &sol.particular()?);
        for v in sol.kernel()? {
            vec("  plus any multiple of:", &v);
        }
    }
    Ok(())
}

fn main() -> toggle::Result<()> {
    solve_text(PUZZLE, 3)?;
    solve_text(BROKEN, 2)
}
