"""The ``basra`` command: its dispatch, the shared argument helpers it uses and ``basra bench``."""
