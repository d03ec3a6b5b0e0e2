"""Test helper: how cvc5 answers an SMT-LIB script read by its own parser."""
import cvc5


def cvc5_script_status(text: str, seconds) -> str:
    """cvc5's answer on an SMT-LIB script read by its own parser on a fresh solver (non-incremental,
    as the cvc5 binary reads a file: in incremental mode, the API's default, some of these
    queries run on far past the time limit)."""
    solver = cvc5.Solver(cvc5.TermManager())
    solver.setOption("incremental", "false")
    solver.setOption("tlimit-per", str(int(1000 * seconds)))
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query.smt2")
    out = ""
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            return out.strip()
        out += cmd.invoke(solver, parser.getSymbolManager())
