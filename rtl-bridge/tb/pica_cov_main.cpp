// main() of the coverage builds of the replay testbenches (scripts/replay --coverage FILE).
//
// Verilator 5.006's `--binary` main does not write coverage data, so the coverage build uses this
// one instead: the same loop, then `coveragep()->write()` to the file named by the plusarg
// `+pica_cov=FILE` (default coverage.dat). The build names the top with
// `-DPICA_COV_TOP=V<top>` and `-include V<top>.h`. Coverage is written only when the testbench
// ends through $finish (a $fatal stops the process before, so a failing replay leaves no data).
#include "verilated.h"
#include "verilated_cov.h"

#include <memory>
#include <string>

int main(int argc, char** argv, char**) {
    const std::unique_ptr<VerilatedContext> contextp{new VerilatedContext};
    contextp->commandArgs(argc, argv);
    const std::unique_ptr<PICA_COV_TOP> topp{new PICA_COV_TOP{contextp.get()}};
    while (!contextp->gotFinish()) {
        topp->eval();
        if (!topp->eventsPending()) break;
        contextp->time(topp->nextTimeSlot());
    }
    topp->final();
    std::string file = "coverage.dat";
    const std::string arg = contextp->commandArgsPlusMatch("pica_cov=");
    if (!arg.empty()) file = arg.substr(std::string("+pica_cov=").size());
    contextp->coveragep()->write(file.c_str());
    return 0;
}
