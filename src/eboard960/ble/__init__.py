"""Bluetooth LE: board profiles, the bleak transport, scanning and emulated peripherals.

`profiles` is pure data; `transport` and `scan` use bleak; `peripheral`,
`bumble_backend` and `emulated` use Bumble (a test dependency), so importing
this package itself loads neither.
"""
