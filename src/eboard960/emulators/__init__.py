"""Firmware models of the boards: deterministic, fed host bytes, producing board bytes.

The same model runs in memory, behind a pseudo-terminal and behind a Bumble
GATT server.
"""
