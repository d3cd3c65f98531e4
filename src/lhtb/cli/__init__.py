"""The ``lhtb`` command line. Heavy modules are imported inside commands so --help stays fast."""
