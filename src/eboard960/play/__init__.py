"""`eboard960 play`: a sensor board, the recognizer, a clock, a journal and maybe an engine, together.

`session` is the pure game (events in, effects and a view model out), `view`
draws it, `virtual` is the built-in emulated board, `demo` its scripted
game, `journal` the crash-safe record and resume, `engine` the UCI opponent
and `runner` the asyncio shell that joins them to real I/O.
"""
