"""Agents: the Agent protocol and the built-in agents (oracle, nop)."""
