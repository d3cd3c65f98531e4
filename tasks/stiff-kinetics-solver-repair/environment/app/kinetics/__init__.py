# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
"""kinetics: mass-action chemical kinetics with a home-grown stiff integrator.

mechanism.load_mechanism -> units (to internal mol/L, s, J/mol) -> rates.RateModel (f and its Jacobian) ->
solver.integrate (SDIRK2 with Newton iterations and error control) -> cli (JSON trajectories).
"""

__version__ = "1.3.0"
