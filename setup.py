"""Build hook: compile the engine's hot modules with mypyc (set BASRA_PURE=1 to skip).

Everything else about the package lives in pyproject.toml. The compiled modules are the
same source as the pure ones; ``basra bench engine`` says which one runs.
"""

import os

from setuptools import setup

HOT_MODULES = ["game/cards", "game/captures", "game/rules", "game/engine", "bots/rollout", "bots/endgame"]

ext_modules = []
if os.environ.get("BASRA_PURE", "").lower() not in {"1", "true", "yes"}:
    from mypyc.build import mypycify

    os.environ["MYPYPATH"] = "src"
    ext_modules = mypycify([f"src/basra/{name}.py" for name in HOT_MODULES], opt_level="3")

setup(ext_modules=ext_modules)
