"""The parts of bench/run, one concern a module (bench/run's docstring lists
them); bench/run puts bench/ on sys.path and imports them as harness.*."""
