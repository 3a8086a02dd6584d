# graph.py: Lights Out on the Petersen graph, as graph.c does it.
import toggle

edges = """# outer 5-cycle, spokes, inner pentagram
0 1\n1 2\n2 3\n3 4\n4 0
0 5\n1 6\n2 7\n3 8\n4 9
5 7\n7 9\n9 6\n6 8\n8 5
"""
with toggle.Graph.parse_edges(edges) as g, toggle.System(g, 2) as s, s.solve() as sol:
    print("%d nodes, nullity %d, %d solutions" % (g.cells, sol.nullity, sol.count))
    x = sol.particular()
    print("press nodes:" + "".join(" %d" % i for i in range(10) if x[i]))
