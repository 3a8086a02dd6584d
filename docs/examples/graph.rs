// graph.rs: Lights Out on the Petersen graph, as graph.c does it.
use toggle::{Graph, System};

const EDGES: &str = "# outer 5-cycle, spokes, inner pentagram
0 1\n1 2\n2 3\n3 4\n4 0
0 5\n1 6\n2 7\n3 8\n4 9
5 7\n7 9\n9 6\n6 8\n8 5
";

fn main() -> toggle::Result<()> {
    let g = Graph::parse_edges(EDGES, false)?;
    let sol = System::new(&g, 2, None, None)?.solve()?;
    println!("{} nodes, nullity {}, {} solutions", g.cells(), sol.nullity(), sol.count()?);
    let x = sol.particular()?;
    let pressed: Vec<String> = (0..10).filter(|&i| x[i] != 0).map(|i| format!(" {}", i)).collect();
    println!("press nodes:{}", pressed.concat());
    Ok(())
}
