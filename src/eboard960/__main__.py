from eboard960.cli import run

run()
