#!/bin/bash
# lhtb-canary GUID 6f1c2a7e-lhtb-9b1d-canary
# Hidden verifier entry point: cwd is /app, the grading SDK is on PYTHONPATH.
exec python3 /tests/grade.py
