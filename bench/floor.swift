// Nothing at all: bench/core.sh builds this statically linked, as the
// launcher is, to show what any Swift program costs to start and exit on
// this machine (the floor under `status` answered by the agent).
