"""basra-engine/1 (docs/ENGINE_PROTOCOL.md): bots as programs. The messages, our bots served
to outside programs (``basra engine``), and outside programs used as bots.
"""
